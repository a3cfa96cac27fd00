// nccc/values.mjs — JavaScript values to slots and back, by signature
// code (docs/JS.md, "Values"), and records (structs and unions) to
// bytes and back by their registry layouts. Ranges come from abi.mjs.
import abi from "./abi.mjs";
import { NcccError } from "./errors.mjs";

const RECORD = abi.grammar.record_open;
const FLT_MAX = (2 - 2 ** -23) * 2 ** 127;
// wasm32: a pointer is an unsigned 32-bit number
const PTR_MAX = abi.codes.I.max;

// An empty array of the engine's generic kind: V8 keeps the numbers of
// such an array boxed, bit for bit, where an array of doubles would
// quieten a signalling NaN (docs/JS.md, "Values").
export function valueList() {
  const list = [undefined];
  list.pop();
  return list;
}

// Values that carry an address (closures, owned objects) say so with
// this symbol: v[ADDRESS]() is the address, or throws why it has none.
export const ADDRESS = Symbol("nccc.address");
// Values of a device's memory (remote/objects.mjs, an owned result of a
// device's function) answer v[DEVICE_ADDRESS](dev) with their address
// on device dev, "elsewhere" for another device, "wasm" for one of wasm
// memory, or throw once freed; a device's function refuses any other
// value that has an ADDRESS (remote/slots.mjs).
export const DEVICE_ADDRESS = Symbol("nccc.device.address");

// A 64-bit integer argument as a BigInt in [lo, hi], or the reason.
function big(v, lo, hi) {
  if (typeof v === "number") {
    if (!Number.isInteger(v)) return "integral";
    v = BigInt(v);
  } else if (typeof v !== "bigint") {
    return "type";
  }
  return v < lo || v > hi ? "range" : v;
}

// A narrower integer as a number in [lo, hi], or the reason.
function small(v, lo, hi) {
  if (typeof v === "bigint") {
    if (v < BigInt(lo) || v > BigInt(hi)) return "range";
    return Number(v);
  }
  if (typeof v !== "number") return "type";
  if (!Number.isInteger(v)) return "integral";
  return v < lo || v > hi ? "range" : v;
}

// A pointer argument as a number: null and undefined are NULL; closures
// and owned objects give their address.
export function pointer(v) {
  if (v === null || v === undefined) return 0;
  if (typeof v === "object" && typeof v[ADDRESS] === "function") return v[ADDRESS]();
  const s = small(v, 0, PTR_MAX);
  return s;
}

// PUT[code](mem, addr, v): writes v's slot at addr; returns undefined,
// or why it refused v ("type", "range", "integral", "closed", ...).
export const PUT = {
  "?"(m, a, v) {
    if (typeof v !== "boolean") return "type";
    m.u32[a >> 2] = v ? 1 : 0;
    m.u32[(a >> 2) + 1] = 0;
  },
  f(m, a, v) {
    if (typeof v === "bigint") v = Number(v);
    if (typeof v !== "number") return "type";
    if (Number.isFinite(v) && Math.abs(v) > FLT_MAX) return "range";
    m.f64[a >> 3] = v;
  },
  d(m, a, v) {
    if (typeof v === "bigint") v = Number(v);
    if (typeof v !== "number") return "type";
    m.f64[a >> 3] = v;
  },
  p(m, a, v) {
    const s = pointer(v);
    if (typeof s === "string") return s;
    m.u32[a >> 2] = s;
    m.u32[(a >> 2) + 1] = 0;
  },
  // A closure slot takes a closure (null or undefined: a nullable callback
  // left out), never a number.
  c(m, a, v) {
    if (v === null || v === undefined) {
      m.u64[a >> 3] = 0n;
      return undefined;
    }
    if (typeof v !== "object" || v.constructor.ncccType !== "closure") return "type";
    if (!v.live) return "released";
    m.u32[a >> 2] = v.ctx;
    m.u32[(a >> 2) + 1] = 0;
  },
  // a raw slot of a '*' side: any 64-bit integer, or a pointer value
  [abi.grammar.variadic](m, a, v) {
    if (typeof v === "object" && v !== null) return PUT.p(m, a, v);
    const s = big(v, abi.codes.l.min, abi.codes.L.max);
    if (typeof s === "string") return s;
    m.u64[a >> 3] = BigInt.asUintN(64, s);
  },
};
PUT.F = PUT.p;
// Strings are copied into the call's frame by the caller; only NULL
// (null) gets here: undefined, a value never set, is refused.
PUT.s = (m, a, v) => {
  if (v !== null) return "type";
  m.u64[a >> 3] = 0n;
  return undefined;
};
for (const [code, info] of Object.entries(abi.codes)) {
  if (info.kind !== "int" && info.kind !== "errno") continue;
  const { min, max } = info;
  if (info.bits === 64) {
    // A BigInt that the 64-bit truncation leaves unchanged is in range:
    // one test, where two comparisons with BigInt bounds cost more.
    const fits = info.signed ? (v) => BigInt.asIntN(64, v) === v : (v) => BigInt.asUintN(64, v) === v;
    PUT[code] = (m, a, v) => {
      if (typeof v === "bigint" && fits(v)) {
        // in range: the store's own 64-bit truncation changes nothing
        m.u64[a >> 3] = v;
        return undefined;
      }
      const s = big(v, min, max);
      if (typeof s === "string") return s;
      m.u64[a >> 3] = BigInt.asUintN(64, s);
    };
  } else if (info.signed) {
    PUT[code] = (m, a, v) => {
      const s = small(v, min, max);
      if (typeof s === "string") return s;
      m.i32[a >> 2] = s;
      m.i32[(a >> 2) + 1] = s < 0 ? -1 : 0;
    };
  } else {
    PUT[code] = (m, a, v) => {
      const s = small(v, min, max);
      if (typeof s === "string") return s;
      m.u32[a >> 2] = s;
      m.u32[(a >> 2) + 1] = 0;
    };
  }
}

// GET[code](mem, addr): the JavaScript value of the slot at addr (a
// string slot reads its address: the caller copies the string).
const ptrOut = (m, a) => m.u32[a >> 2] || null;
export const GET = {
  "?": (m, a) => m.u32[a >> 2] !== 0,
  f: (m, a) => m.f64[a >> 3],
  d: (m, a) => m.f64[a >> 3],
  p: ptrOut, F: ptrOut, c: ptrOut, s: ptrOut,
  [abi.grammar.variadic]: (m, a) => m.u64[a >> 3],
};
for (const [code, info] of Object.entries(abi.codes)) {
  if (info.kind !== "int" && info.kind !== "errno") continue;
  if (info.bits === 64) GET[code] = info.signed ? (m, a) => m.i64[a >> 3] : (m, a) => m.u64[a >> 3];
  else GET[code] = info.signed ? (m, a) => m.i32[a >> 2] : (m, a) => m.u32[a >> 2];
}

// ---- records ---------------------------------------------------------------

// The memory a record's bytes are for: its byte order (little), its
// pointers' width, pointer(v) (a pointer field's value as an address, or
// why it is refused) and address(a) (the value of an address read
// there). WASM is wasm32's memory; a device has its own
// (remote/slots.mjs, formatOf).
export const WASM = { little: true, pointerBytes: 4, pointer, address: (a) => a || null };

const POINTER_KINDS = new Set(["pointer", "string", "function"]);

// One slot's bits, for writeScalar.
const scratch = (() => {
  const b = new ArrayBuffer(8);
  return { buffer: b, u8: new Uint8Array(b), i32: new Int32Array(b), u32: new Uint32Array(b),
    f64: new Float64Array(b), i64: new BigInt64Array(b), u64: new BigUint64Array(b) };
})();

// Writes scalar v of code into size bytes at off in dv (fmt: the
// memory's); returns undefined, or why it refused v, as PUT does.
export function writeScalar(code, size, v, dv, off, fmt) {
  if (POINTER_KINDS.has(abi.codes[code].kind)) {
    const a = fmt.pointer(v);
    if (typeof a === "string") return a;
    if (size === 8) dv.setBigUint64(off, BigInt(a), fmt.little);
    else dv.setUint32(off, Number(a), fmt.little);
    return undefined;
  }
  const why = PUT[code](scratch, 0, v);
  if (why !== undefined) return why;
  // the slot's bytes (this engine's order is little-endian) at the width
  if (code === "f" && size === 4) dv.setFloat32(off, scratch.f64[0], fmt.little);
  else for (let k = 0; k < size; k++) dv.setUint8(off + (fmt.little ? k : size - 1 - k), scratch.u8[k]);
  return undefined;
}

// The value of a scalar of code and size bytes at off in dv (fmt: the
// memory's, WASM unless given).
export function readScalar(code, size, dv, off, fmt = WASM) {
  const info = abi.codes[code], le = fmt.little;
  if (code === "f" && size === 4) return dv.getFloat32(off, le);
  if (code === "d" || code === "f") return dv.getFloat64(off, le);
  if (POINTER_KINDS.has(info.kind)) return fmt.address(size === 8 ? dv.getBigUint64(off, le) : dv.getUint32(off, le));
  if (code === "?") return dv.getUint8(off) !== 0;
  if (size === 8) return info.signed ? dv.getBigInt64(off, le) : dv.getBigUint64(off, le);
  if (size === 4) return info.signed ? dv.getInt32(off, le) : dv.getUint32(off, le);
  if (size === 2) return info.signed ? dv.getInt16(off, le) : dv.getUint16(off, le);
  return info.signed ? dv.getInt8(off) : dv.getUint8(off);
}

function describeWhy(why, code, v) {
  if (why === "type") return `${code === RECORD ? "object or Uint8Array" : code === "?" ? "boolean" : "number"} expected, got ${v === null ? "null" : typeof v}`;
  if (why === "range") return `value ${String(v)} out of range for ${abi.codes[code] ? abi.codes[code].name : code}`;
  if (why === "integral") return `number ${String(v)} has no integer representation`;
  return why;
}

function fieldError(layout, fd, text, kind = "type") {
  return new NcccError(`${layout.kind} ${layout.name}: field '${fd.name}': ${text}`, { kind });
}

function packOne(fd, layout, size, v, dv, off, fmt) {
  if (fd.layout) {
    if (v instanceof Uint8Array) {
      if (v.length !== size) throw fieldError(layout, fd, `${size} bytes expected, got ${v.length}`);
      new Uint8Array(dv.buffer, dv.byteOffset + off, size).set(v);
      return;
    }
    packInto(fd.layout, v, dv, off, fmt);
    return;
  }
  const why = writeScalar(fd.type, size, v, dv, off, fmt);
  if (why !== undefined) {
    throw fieldError(layout, fd, describeWhy(why, fd.type, v), why === "type" ? "type" : why);
  }
}

function packInto(layout, obj, dv, base, fmt) {
  if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
    throw new NcccError(`${layout.kind} ${layout.name}: object expected, got ${obj === null ? "null" : typeof obj}`, { kind: "type" });
  }
  for (const key of Object.keys(obj)) {
    if (!layout.field[key]) {
      throw new NcccError(`${layout.kind} ${layout.name} has no field '${key}'`, { kind: "field" });
    }
  }
  for (const fd of layout.fields) {
    let v = obj[fd.name];
    if (v === undefined) continue;
    const off = base + fd.offset;
    if (fd.count > 1) {
      const esize = Math.floor(fd.size / fd.count);
      if (typeof v === "string" && (fd.type === "b" || fd.type === "B")) v = new TextEncoder().encode(v);
      if (v instanceof Uint8Array && esize === 1 && !fd.layout) {
        if (v.length > fd.count) throw fieldError(layout, fd, `at most ${fd.count} bytes expected`);
        new Uint8Array(dv.buffer, dv.byteOffset + off, v.length).set(v);
        continue;
      }
      if (!Array.isArray(v) || v.length > fd.count) {
        throw fieldError(layout, fd, `array of at most ${fd.count} elements expected`);
      }
      for (let k = 0; k < v.length; k++) packOne(fd, layout, esize, v[k], dv, off + k * esize, fmt);
    } else {
      packOne(fd, layout, fd.size, v, dv, off, fmt);
    }
  }
}

// The bytes of record value v (an object of fields, or its bytes) for
// memory fmt (WASM unless given).
export function packRecord(layout, v, fmt = WASM) {
  if (v instanceof Uint8Array) {
    if (v.length !== layout.size) {
      throw new NcccError(`${layout.kind} ${layout.name}: ${layout.size} bytes expected, got ${v.length}`, { kind: "type" });
    }
    return v;
  }
  const bytes = new Uint8Array(layout.size);
  packInto(layout, v, new DataView(bytes.buffer), 0, fmt);
  return bytes;
}

// packRecord of v for an argument: an error's message is prefixed with
// what ("bad argument #1 to 'assign'").
export function packArgument(layout, v, what, fmt = WASM) {
  try {
    return packRecord(layout, v, fmt);
  } catch (e) {
    if (e instanceof NcccError) e.message = `${what} (${e.message})`;
    throw e;
  }
}

function unpackFrom(layout, dv, base, fmt) {
  const t = {};
  for (const fd of layout.fields) {
    const off = base + fd.offset;
    const one = (o, size) => (fd.layout ? unpackFrom(fd.layout, dv, o, fmt) : readScalar(fd.type, size, dv, o, fmt));
    if (fd.count > 1) {
      const esize = Math.floor(fd.size / fd.count);
      const a = [];
      for (let k = 0; k < fd.count; k++) a.push(one(off + k * esize, esize));
      t[fd.name] = a;
    } else {
      t[fd.name] = one(off, fd.size);
    }
  }
  return t;
}

// The object of a record's bytes (a Uint8Array of layout.size bytes)
// from memory fmt (WASM unless given).
export function unpackRecord(layout, bytes, fmt = WASM) {
  return unpackFrom(layout, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, fmt);
}
