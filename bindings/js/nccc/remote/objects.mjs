// nccc/remote/objects.mjs — C objects in a device's memory (docs/JS.md,
// "C objects on a device"): records of a module bound from a device,
// made by new (the device's alloc) or viewed at a device address, alone
// or N in a row. Their fields are read and written by path with async
// get and set (the device's read and write), whole records copied out
// (record, bytes) and in (assign), at the device's offsets and sizes
// (the layouts it serves) and in its byte order, through the
// conversions of values.mjs. An object made by new is freed by free()
// or, once unreachable, by a finalizer that sends the device's free.
import abi from "../abi.mjs";
import { NcccError, vtype } from "../errors.mjs";
import { DEVICE_ADDRESS, packArgument, readScalar, unpackRecord, writeScalar } from "../values.mjs";
import { fieldError, refuseShortLived } from "../cdata.mjs";
import { formatOf } from "./slots.mjs";

const freedError = (st) => new NcccError(`${st.what} object was freed`, { kind: "closed" });
const pathText = (path) => path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("");
const decoder = new TextDecoder();
const POINTER_KINDS = new Set(["pointer", "string", "function"]);
const asyncDispose = Symbol.asyncDispose || Symbol.for("nodejs.asyncDispose");
const dispose = Symbol.dispose || Symbol.for("nodejs.dispose");

// What an object made by new frees: {dev, addr, done}. One collected
// unfreed is freed on the device when the registry's callback runs (a
// later turn of the event loop after a collection), without waiting for
// the answer; not once the link is closed.
const finalizers = new FinalizationRegistry((held) => {
  if (held.done || held.dev.session.closed) return;
  held.done = true;
  held.dev.free(held.addr).catch(() => {
    // nobody is there to hear a failure of a collected object's free
  });
});

// A device address given as a bigint, a number, a C object of the device
// (or of its records) or null, as a bigint; fn names the refusing method.
function addressOf(ctx, v, fn) {
  const a = ctx.fmt.pointer(v);
  if (typeof a !== "bigint") {
    throw new NcccError(`bad argument #2 to '${fn}' (device address expected, got ${vtype(v)})`, { kind: "type" });
  }
  return a;
}

// The error of index i of count elements of what.
function checkIndex(i, count, what) {
  if (!Number.isInteger(i) || i < 0 || i >= count) {
    throw new NcccError(`index ${String(i)} out of range 0..${count - 1} of ${what}`, { kind: "range" });
  }
}

// A record in device memory: its layout (the device's), at device
// address addr; ctx the bound module's {dev, fmt, module, texts: layout
// name -> {field: its texts entry}}; state {what, owned, freed, held,
// root} shared with the views of its nested records.
export class RemoteObject {
  static ncccType = "C object on a device";
  #ctx;
  #layout;
  #addr;
  #state;

  constructor(ctx, layout, addr, state) {
    this.#ctx = ctx;
    this.#layout = layout;
    this.#addr = addr;
    this.#state = state;
  }

  // The device address (a bigint); the object itself goes where a T * goes.
  get address() {
    if (this.#state.freed) throw freedError(this.#state);
    return this.#addr;
  }

  get size() { return this.#layout.size; }

  get freed() { return this.#state.freed; }

  [DEVICE_ADDRESS](dev) { return dev === this.#ctx.dev ? this.address : "elsewhere"; }

  // {a, fd, layout, base, owner, whole} of path (field names, an index
  // after each array field): a scalar field fd at address a of the
  // record owner at base, an array field fd as a whole (whole: the path
  // ends at it), or (fd undefined) the nested record of layout at a.
  #resolve(path, fn) {
    let a = this.address, layout = this.#layout, base = a, owner = layout;
    for (let k = 0; k < path.length; k++) {
      if (!layout) throw new NcccError(`${fn}: ${this.#state.what}${pathText(path.slice(0, k))} is not a record`, { kind: "field" });
      const fd = typeof path[k] === "string" ? layout.field[path[k]] : undefined;
      if (!fd) {
        throw new NcccError(`${fn}: ${layout.module}.${layout.name} has no field ${typeof path[k] === "string" ? `'${path[k]}'` : vtype(path[k])}`,
          { kind: "field" });
      }
      base = a;
      owner = layout;
      a += BigInt(fd.offset);
      if (fd.count > 1) {
        if (k === path.length - 1) return { a, fd, whole: true };
        const i = path[++k];
        checkIndex(i, fd.count, `field '${fd.name}'`);
        a += BigInt(i * Math.floor(fd.size / fd.count));
      }
      if (!fd.layout && k === path.length - 1) return { a, fd, base, owner };
      layout = fd.layout;
    }
    return { a, layout };
  }

  // The value of the scalar field at path, the string or bytes of a text
  // field, copies of an array field's elements, or a view of the record
  // there.
  async get(...path) {
    const { a, fd, layout, base, owner, whole } = this.#resolve(path, "get");
    if (!fd) return new RemoteObject(this.#ctx, layout, a, this.#state);
    const { dev, fmt } = this.#ctx;
    if (whole) return elements(fd, await dev.read(a, fd.size), fmt);
    const text = (this.#ctx.texts[owner.name] || {})[fd.name];
    if (text) return this.#text(text, owner, base, fd);
    const size = Math.floor(fd.size / fd.count);
    const bytes = await dev.read(a, size);
    return readScalar(fd.type, size, new DataView(bytes.buffer, bytes.byteOffset, size), 0, fmt);
  }

  // A text field fd of the record owner at base (docs/BINDING.md,
  // "texts"): its count of bytes at the pointer, as a string (UTF-8) or
  // a Uint8Array; null for NULL.
  async #text(text, owner, base, fd) {
    const { dev, fmt } = this.#ctx;
    const bytes = await dev.read(base, owner.size);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const p = readScalar(fd.type, fd.size, dv, fd.offset, fmt);
    if (p === null) return null;
    const count = text.count;
    let n = count.fixed;
    if (count.field !== undefined) {
      const cf = owner.field[count.field];
      n = Number(readScalar(cf.type, cf.size, dv, cf.offset, fmt));
    }
    const data = n > 0 ? await dev.read(p, n) : new Uint8Array(0);
    return text.kind === "string" ? decoder.decode(data) : data;
  }

  // set(...path, value): writes the scalar field at path, or the record
  // there as assign does.
  async set(...args) {
    const path = args.slice(0, -1), v = args[args.length - 1];
    const { a, fd, layout, whole } = this.#resolve(path, "set");
    const { dev, fmt } = this.#ctx;
    const what = `${this.#state.what}${pathText(path.slice(0, -1))}`;
    if (whole) throw new NcccError(`field '${fd.name}' of ${what} is an array: write its elements`, { kind: "type" });
    if (!fd) {
      await dev.write(a, await recordBytes(this.#ctx, layout, v, `field '${String(path[path.length - 1])}' of ${what}`));
      return;
    }
    if (POINTER_KINDS.has(abi.codes[fd.type].kind)) refuseShortLived(what, fd.name, v);
    const size = Math.floor(fd.size / fd.count), bytes = new Uint8Array(size);
    const why = writeScalar(fd.type, size, v, new DataView(bytes.buffer), 0, fmt);
    if (why !== undefined) throw fieldError(what, fd.name, why, fd.type, v);
    await dev.write(a, bytes);
  }

  // The record's bytes as the device holds them (its byte order).
  async bytes() { return this.#ctx.dev.read(this.address, this.#layout.size); }

  // A copy of the whole record: an object of its fields, as a call's
  // record result.
  async record() { return unpackRecord(this.#layout, await this.bytes(), this.#ctx.fmt); }

  // Copies a whole record in: an object of fields (those left out are
  // zero), a Uint8Array of the layout's size, or a C object of the same
  // layout on the device.
  async assign(v) {
    const a = this.address;
    await this.#ctx.dev.write(a, await recordBytes(this.#ctx, this.#layout, v, "bad argument #1 to 'assign'"));
  }

  // Frees an object made by new (a view only stops being usable), and
  // every view of its records: true the first time, false after.
  async free() {
    const st = this.#state;
    if (st.freed) return false;
    st.freed = true;
    if (st.held) {
      st.held.done = true;
      finalizers.unregister(st.root);
      await this.#ctx.dev.free(st.held.addr);
    }
    return true;
  }

  close() { return this.free(); }

  [asyncDispose]() { return this.free(); }

  // frees without waiting (requests go in order: the next finds it
  // done); a failure has nobody to hear it
  [dispose]() { this.free().catch(() => {}); }

  toString() {
    const st = this.#state;
    return st.freed ? `freed ${st.what}` : `${st.owned ? "C object" : "view of"} ${st.what} at 0x${this.#addr.toString(16)} on the device`;
  }
}

// Copies of the elements of array field fd from its bytes: values, or
// objects of a record's fields.
function elements(fd, bytes, fmt) {
  const esize = Math.floor(fd.size / fd.count), dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: fd.count }, (_, k) => (fd.layout
    ? unpackRecord(fd.layout, bytes.subarray(k * esize, (k + 1) * esize), fmt)
    : readScalar(fd.type, esize, dv, k * esize, fmt)));
}

// The bytes of record value v for layout (see assign); what prefixes
// the error.
async function recordBytes(ctx, layout, v, what) {
  if (!(v instanceof RemoteObject)) return packArgument(layout, v, what, ctx.fmt);
  if (v[DEVICE_ADDRESS](ctx.dev) === "elsewhere") throw new NcccError(`${what} (a C object on another device)`, { kind: "type" });
  if (v.size !== layout.size) {
    throw new NcccError(`${what} (a C object of ${layout.size} bytes expected, got one of ${v.size})`, { kind: "type" });
  }
  return v.bytes();
}

// count records of layout in a row at device address addr (a view made
// by view(name, p, count)): element i by at(i), its fields by get(i,
// ...path) and set(i, ...path, value), indexes checked.
export class RemoteRecords {
  static ncccType = "C objects on a device";
  #ctx;
  #layout;
  #addr;
  #state;

  constructor(ctx, layout, addr, count, state) {
    this.#ctx = ctx;
    this.#layout = layout;
    this.#addr = addr;
    this.#state = state;
    this.length = count;
  }

  get address() {
    if (this.#state.freed) throw freedError(this.#state);
    return this.#addr;
  }

  get freed() { return this.#state.freed; }

  [DEVICE_ADDRESS](dev) { return dev === this.#ctx.dev ? this.address : "elsewhere"; }

  // A view of record i (its index checked).
  at(i) {
    const a = this.address;
    checkIndex(i, this.length, this.#state.what);
    return new RemoteObject(this.#ctx, this.#layout, a + BigInt(i * this.#layout.size), this.#state);
  }

  // get(i, ...path): the field at path of record i, or a view of record i.
  async get(i, ...path) { return path.length ? this.at(i).get(...path) : this.at(i); }

  // set(i, ...path, value): writes the field at path of record i, or
  // record i as a whole (assign).
  async set(i, ...rest) {
    const o = this.at(i);
    return rest.length > 1 ? o.set(...rest) : o.assign(rest[0]);
  }

  // Copies of all the records: an array of objects of their fields.
  async records() {
    const size = this.#layout.size, bytes = await this.#ctx.dev.read(this.address, this.length * size);
    return Array.from({ length: this.length }, (_, k) =>
      unpackRecord(this.#layout, bytes.subarray(k * size, (k + 1) * size), this.#ctx.fmt));
  }

  // Stops the view (it never frees): true the first time, false after.
  async free() {
    if (this.#state.freed) return false;
    this.#state.freed = true;
    return true;
  }

  close() { return this.free(); }

  [asyncDispose]() { return this.free(); }

  // frees without waiting (requests go in order: the next finds it
  // done); a failure has nobody to hear it
  [dispose]() { this.free().catch(() => {}); }

  toString() { return `${this.#state.freed ? "freed " : ""}view of ${this.length} ${this.#state.what} on the device`; }
}

// The C objects of a module bound from device dev: its layouts (the
// device's, by name) and texts (from the binding record's layouts, M.layouts).
export function objectsOf(dev, module, layouts, records) {
  const texts = {};
  for (const r of records || []) {
    if (r.texts) texts[r.name] = Object.fromEntries(r.texts.map((t) => [t.field, t]));
  }
  const ctx = { dev, fmt: formatOf(dev), module, texts };
  const want = (name, fn) => {
    const l = typeof name === "string" ? layouts.get(name) : undefined;
    if (!l || (l.kind !== "struct" && l.kind !== "union")) {
      throw new NcccError(`bad argument #1 to '${fn}' (a struct or union of ${module} expected, got ${
        typeof name === "string" ? `'${name}'` : vtype(name)})`, { kind: "unknown" });
    }
    return l;
  };
  return {
    // new(name[, value]): a zeroed record of the layout's size in the
    // device's memory (its alloc), owned by the object: freed by free(),
    // close() or the finalizer; value is copied in as assign does.
    async make(name, value) {
      const layout = want(name, "new");
      const bytes = value === undefined ? new Uint8Array(layout.size) : await recordBytes(ctx, layout, value, "bad argument #2 to 'new'");
      const a = BigInt(await dev.alloc(layout.size));
      const held = { dev, addr: a, done: false };
      const st = { what: `${module}.${name}`, owned: true, freed: false, held, root: undefined };
      const o = new RemoteObject(ctx, layout, a, st);
      st.root = o;
      finalizers.register(o, held, o);
      await dev.write(a, bytes);
      return o;
    },

    // view(name, p[, count]): a borrowed view of the record at device
    // address p, or of count records there; it never frees.
    view(name, p, count) {
      const layout = want(name, "view");
      const a = addressOf(ctx, p, "view");
      if (a === 0n) throw new NcccError("bad argument #2 to 'view' (non-NULL address expected, got null)", { kind: "type" });
      const st = { what: `${module}.${name}`, owned: false, freed: false };
      if (count === undefined) return new RemoteObject(ctx, layout, a, st);
      if (!Number.isInteger(count) || count < 0) {
        throw new NcccError(`bad argument #3 to 'view' (count expected, got ${vtype(count)})`, { kind: "type" });
      }
      return new RemoteRecords(ctx, layout, a, count, st);
    },
  };
}
