// nccc/remote/objects.mjs — C objects in a device's memory (docs/JS.md,
// "C objects on a device"): records of a module bound from a device,
// made by new (the device's alloc) or viewed at a device address, their
// scalar fields read and written by path with async get and set (the
// device's read and write), at the device's offsets and sizes (the
// layouts the device serves) and in its byte order.
import abi from "../abi.mjs";
import { NcccError, vtype } from "../errors.mjs";

const BIG = abi.rpc.byte_orders.big;

const freedError = (st) => new NcccError(`${st.what} object was freed`, { kind: "closed" });
const pathText = (path) => path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("");

// A device address given as a RemoteObject, a bigint, a number or null.
function addressOf(v, what) {
  if (v === null) return 0n;
  if (v instanceof RemoteObject) return v.address;
  if (typeof v === "bigint" && v >= 0n) return v;
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return BigInt(v);
  throw new NcccError(`${what} (an address, null or a C object expected, got ${vtype(v)})`, { kind: "type" });
}

// The integer v of a field of size bytes (signed or not), checked.
function integer(v, size, signed, what) {
  const wide = size === 8;
  if (!(wide ? typeof v === "bigint" || Number.isInteger(v) : Number.isInteger(v))) {
    throw new NcccError(`${what} (integer expected, got ${vtype(v)})`, { kind: "type" });
  }
  const bits = BigInt(size * 8), b = BigInt(v);
  const lo = signed ? -(1n << (bits - 1n)) : 0n, hi = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  if (b < lo || b > hi) throw new NcccError(`${what} (${v} out of range ${lo}..${hi})`, { kind: "range" });
  return b;
}

// The value of a scalar field of ABI code code, size bytes, in dv at 0.
function decode(dv, code, size, little) {
  const info = abi.codes[code];
  if (info.kind === "pointer" || info.kind === "string" || info.kind === "function" || info.kind === "closure") {
    const a = size === 8 ? dv.getBigUint64(0, little) : BigInt(dv.getUint32(0, little));
    return a === 0n ? null : a;
  }
  if (code === "?") return dv.getUint8(0) !== 0;
  if (info.kind === "float") return size === 4 ? dv.getFloat32(0, little) : dv.getFloat64(0, little);
  const s = info.signed;
  switch (size) {
    case 1: return s ? dv.getInt8(0) : dv.getUint8(0);
    case 2: return s ? dv.getInt16(0, little) : dv.getUint16(0, little);
    case 4: return s ? dv.getInt32(0, little) : dv.getUint32(0, little);
    case 8: return s ? dv.getBigInt64(0, little) : dv.getBigUint64(0, little);
    default: throw new NcccError(`a field of type '${code}' and ${size} bytes`, { kind: "type" });
  }
}

// The bytes of value v for a scalar field (see decode); what prefixes errors.
function encode(v, code, size, little, what) {
  const info = abi.codes[code], bytes = new Uint8Array(size), dv = new DataView(bytes.buffer);
  if (info.kind === "pointer" || info.kind === "string" || info.kind === "function" || info.kind === "closure") {
    const a = addressOf(v, what);
    if (size === 8) dv.setBigUint64(0, a, little);
    else dv.setUint32(0, Number(integer(a, 4, false, what)), little);
  } else if (code === "?") {
    if (typeof v !== "boolean") throw new NcccError(`${what} (boolean expected, got ${vtype(v)})`, { kind: "type" });
    dv.setUint8(0, v ? 1 : 0);
  } else if (info.kind === "float") {
    if (typeof v !== "number") throw new NcccError(`${what} (number expected, got ${vtype(v)})`, { kind: "type" });
    if (size === 4) dv.setFloat32(0, v, little);
    else dv.setFloat64(0, v, little);
  } else {
    const b = BigInt.asUintN(size * 8, integer(v, size, info.signed, what));
    if (size === 8) dv.setBigUint64(0, b, little);
    else if (size === 4) dv.setUint32(0, Number(b), little);
    else if (size === 2) dv.setUint16(0, Number(b), little);
    else dv.setUint8(0, Number(b));
  }
  return bytes;
}

// A record in device memory: layout (the device's), at device address
// addr; state {dev, what, owned, freed, root: the address new gave} shared with the views of its
// nested records.
export class RemoteObject {
  #layout;
  #addr;
  #state;

  constructor(layout, addr, state) {
    this.#layout = layout;
    this.#addr = addr;
    this.#state = state;
  }

  // The device address (a bigint), to pass where a T * goes.
  get address() {
    if (this.#state.freed) throw freedError(this.#state);
    return this.#addr;
  }

  get size() { return this.#layout.size; }

  get freed() { return this.#state.freed; }

  // [address, field, layout] of path (field names, array indexes): a
  // scalar field's, or [address, undefined, layout] of a nested record.
  #resolve(path, fn) {
    let a = this.address, layout = this.#layout;
    for (let k = 0; k < path.length; k++) {
      if (!layout) throw new NcccError(`${fn}: ${this.#state.what}${pathText(path.slice(0, k))} is not a record`, { kind: "field" });
      const fd = typeof path[k] === "string" ? layout.field[path[k]] : undefined;
      if (!fd) {
        throw new NcccError(`${fn}: ${layout.module}.${layout.name} has no field ${typeof path[k] === "string" ? `'${path[k]}'` : vtype(path[k])}`,
          { kind: "field" });
      }
      a += BigInt(fd.offset);
      if (fd.count > 1) {
        const i = path[++k];
        if (!Number.isInteger(i) || i < 0 || i >= fd.count) {
          throw new NcccError(`${fn}: index ${String(i)} out of range 0..${fd.count - 1} of field '${fd.name}'`, { kind: "range" });
        }
        a += BigInt(i * Math.floor(fd.size / fd.count));
      }
      if (!fd.layout && k === path.length - 1) return [a, fd, undefined];
      layout = fd.layout;
    }
    return [a, undefined, layout];
  }

  // The value of the scalar field at path, or a view of the record there.
  async get(...path) {
    const [a, fd, layout] = this.#resolve(path, "get");
    if (!fd) return new RemoteObject(layout, a, this.#state);
    const size = Math.floor(fd.size / fd.count), dev = this.#state.dev;
    const bytes = await dev.read(a, size);
    return decode(new DataView(bytes.buffer, bytes.byteOffset, size), fd.type, size, dev.info.byteOrder !== BIG);
  }

  // set(...path, value): writes the scalar field at path.
  async set(...args) {
    const path = args.slice(0, -1), v = args[args.length - 1];
    const [a, fd] = this.#resolve(path, "set");
    const what = `bad value for ${this.#state.what}${pathText(path)}`;
    if (!fd) throw new NcccError(`${what} (a record: write its fields)`, { kind: "type" });
    const size = Math.floor(fd.size / fd.count), dev = this.#state.dev;
    await dev.write(a, encode(v, fd.type, size, dev.info.byteOrder !== BIG, what));
  }

  // The record's bytes as the device holds them (its byte order).
  async bytes() { return this.#state.dev.read(this.address, this.#layout.size); }

  // Frees an object made by new (a view only stops being usable), and
  // every view of its records: true the first time, false after.
  async free() {
    const st = this.#state;
    if (st.freed) return false;
    st.freed = true;
    if (st.owned) await st.dev.free(st.root);
    return true;
  }

  toString() {
    const st = this.#state;
    return st.freed ? `freed ${st.what}` : `${st.owned ? "C object" : "view of"} ${st.what} at 0x${this.#addr.toString(16)} on the device`;
  }
}

// new(dev, layout): a zeroed record of the layout's size in the
// device's memory, owned by the object (freed by its free()).
export async function newObject(dev, layout) {
  const a = BigInt(await dev.alloc(layout.size));
  await dev.write(a, new Uint8Array(layout.size));
  return new RemoteObject(layout, a, { dev, what: `${layout.module}.${layout.name}`, owned: true, freed: false, root: a });
}

// view(dev, layout, p): a borrowed view of the record at device address p.
export function viewObject(dev, layout, p) {
  const a = addressOf(p, "bad argument #2 to 'view'");
  if (a === 0n) throw new NcccError("bad argument #2 to 'view' (non-NULL address expected, got null)", { kind: "type" });
  return new RemoteObject(layout, a, { dev, what: `${layout.module}.${layout.name}`, owned: false, freed: false });
}
