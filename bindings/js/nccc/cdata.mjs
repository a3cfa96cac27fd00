// nccc/cdata.mjs — C objects (docs/JS.md, "C objects"): records in wasm
// memory with their fields as JavaScript properties, made from a
// module's layout records (docs/BINDING.md, "A layout") and the
// library's layout table (sizes and offsets from the C compiler).
//
// Each struct or union gets a class whose prototype has one getter and
// setter per field, closed over the field's offset and its reader and
// writer (a DataView call at the object's address plus the offset): no
// code is made at run time, and a field access is a plain property
// access for the engine. A record field is a view of the nested record
// (made once per object), an array field an array view (a Proxy: its
// indexes are checked). Every object's prototype chain ends in a Proxy
// that refuses any name no prototype has, so `ev.nothing` and
// `ev.nothing = 1` raise. Views share the state of the object they came
// from: freeing it stops them all, and they keep its memory alive.
import abi from "./abi.mjs";
import { NcccError, refusal, vtype } from "./errors.mjs";
import { ADDRESS, PUT, packArgument, unpackRecord } from "./values.mjs";

const ADDR = Symbol("nccc.cdata.address");
const STATE = Symbol("nccc.cdata.state");
const KIDS = Symbol("nccc.cdata.views");
const dispose = Symbol.dispose || Symbol.for("nodejs.dispose");
const inspect = Symbol.for("nodejs.util.inspect.custom");

// What an object made by new frees: {rt, addr, done, kept: {slot:
// address}} (its memory, and the copies of what C keeps of a call's
// arguments, held with it).
function release(held) {
  held.done = true;
  held.rt.free(held.addr);
  for (const p of Object.values(held.kept)) held.rt.free(p);
}

// The same for an object collected unfreed.
const finalizers = new FinalizationRegistry((held) => {
  if (held.done) return;
  try {
    release(held);
  } catch {
    // nobody is there to hear a failure of a collected object's free
  }
});

// Whether o is a C object made by new, which can hold what C keeps.
export const ownsMemory = (o) => o instanceof CObject && o[STATE].held !== undefined;

// Holds wasm memory p (a copy of a call's argument that C keeps, slot
// naming that argument) with C object owner until it is freed; what an
// earlier call kept in the same slot is freed now.
export function keepWith(owner, slot, p) {
  const held = owner[STATE].held;
  const old = held.kept[slot];
  held.kept[slot] = p;
  if (old !== undefined) held.rt.free(old);
}

const freedError = (st) => new NcccError(`${st.name} object was freed`, { kind: "closed" });

// The address of C object (or array view) o; throws once it was freed.
function live(o) {
  const st = o[STATE];
  if (st.freed) throw freedError(st);
  return o[ADDR];
}

// The error of field name of record what refusing value v for why.
export function fieldError(what, name, why, code, v) {
  const [kind, text] = refusal(why, code, v);
  return new NcccError(`field '${name}' of ${what} (${text})`, { kind });
}

// ---- scalars ---------------------------------------------------------------

// A slot written by PUT and read back as the field's bytes.
const scratch = (() => {
  const b = new ArrayBuffer(8);
  return { u8: new Uint8Array(b), i32: new Int32Array(b), u32: new Uint32Array(b),
    f64: new Float64Array(b), i64: new BigInt64Array(b), u64: new BigUint64Array(b) };
})();

const POINTER_KINDS = new Set(["pointer", "string", "function", "closure"]);

// [read(dv, p), write(dv, p, v) -> undefined or why, code] of a scalar
// field of ABI code code and size bytes: its value is checked as an
// argument of that code is (PUT), then stored at the field's width.
function scalar(code, size) {
  const info = abi.codes[code];
  if (POINTER_KINDS.has(info.kind)) {
    const write = (dv, p, v) => {
      const why = PUT.p(scratch, 0, v);
      if (why === undefined) dv.setUint32(p, scratch.u32[0], true);
      return why;
    };
    return [(dv, p) => dv.getUint32(p, true) || null, write, "p"];
  }
  const through = (store) => (dv, p, v) => {
    const why = PUT[code](scratch, 0, v);
    if (why === undefined) store(dv, p);
    return why;
  };
  if (code === "?") return [(dv, p) => dv.getUint8(p) !== 0, through((dv, p) => dv.setUint8(p, scratch.u32[0])), code];
  if (code === "f" && size === 4) {
    return [(dv, p) => dv.getFloat32(p, true), through((dv, p) => dv.setFloat32(p, scratch.f64[0], true)), code];
  }
  if (code === "f" || code === "d") {
    const slow = through((dv, p) => dv.setFloat64(p, scratch.f64[0], true));
    return [(dv, p) => dv.getFloat64(p, true),
      (dv, p, v) => (typeof v === "number" ? dv.setFloat64(p, v, true) : slow(dv, p, v)), code];
  }
  const s = info.signed;
  switch (size) {
    case 1: return [s ? (dv, p) => dv.getInt8(p) : (dv, p) => dv.getUint8(p),
      through((dv, p) => dv.setUint8(p, scratch.u32[0] & 0xff)), code];
    case 2: return [s ? (dv, p) => dv.getInt16(p, true) : (dv, p) => dv.getUint16(p, true),
      through((dv, p) => dv.setUint16(p, scratch.u32[0] & 0xffff, true)), code];
    case 4: {
      // an integral number in range is stored as it is, without the check
      // of PUT: the common case
      const slow = through((dv, p) => dv.setUint32(p, scratch.u32[0], true));
      return s ? [(dv, p) => dv.getInt32(p, true),
        (dv, p, v) => ((v | 0) === v ? dv.setInt32(p, v, true) : slow(dv, p, v)), code]
        : [(dv, p) => dv.getUint32(p, true),
          (dv, p, v) => (v >>> 0 === v ? dv.setUint32(p, v, true) : slow(dv, p, v)), code];
    }
    case 8: return [s ? (dv, p) => dv.getBigInt64(p, true) : (dv, p) => dv.getBigUint64(p, true),
      through((dv, p) => dv.setBigUint64(p, scratch.u64[0], true)), code];
    default: throw new NcccError(`nccc: a field of type '${code}' and ${size} bytes`, { kind: "type" });
  }
}

// A pointer field refuses what would not outlive the assignment.
export function refuseShortLived(what, name, v) {
  if (typeof v === "string" || ArrayBuffer.isView(v)) {
    throw new NcccError(`field '${name}' of ${what} (an address, null or a C object expected, got ${
      typeof v === "string" ? "string" : "Uint8Array"}: its memory would not outlive the assignment)`, { kind: "type" });
  }
}

// ---- the base class and the refusal of unknown names ---------------------

const noField = (o, k) => new NcccError(`${o && o[STATE] ? o[STATE].what : "C object"} has no field '${String(k)}'`,
  { kind: "field" });
// names JavaScript itself asks every object for (a resolved promise's
// value, JSON.stringify): not there, rather than refused
const ASKED = new Set(["then", "toJSON"]);
const strict = new Proxy(Object.create(null), {
  get(t, k, o) {
    if (typeof k === "symbol" || ASKED.has(k)) return undefined;
    throw noField(o, k);
  },
  set(t, k, v, o) { throw noField(o, k); },
});

// What every C object has (a field of the same name hides it).
export class CObject {
  static ncccType = "C object";

  // declared, so that they are defined on the object rather than set
  // through its prototype chain (whose end refuses unknown names)
  [ADDR] = 0;
  [STATE] = undefined;
  [KIDS] = undefined;

  constructor(addr, state) {
    this[ADDR] = addr;
    this[STATE] = state;
  }

  // The address (pass the object itself where a T * goes).
  get address() { return live(this); }

  get freed() { return this[STATE].freed; }

  // Frees an object made by new (a view only stops being usable), and
  // with it every view taken from it: true the first time, false after.
  free() {
    const st = this[STATE];
    if (st.freed) return false;
    st.freed = true;
    if (st.held) {
      finalizers.unregister(st.root);
      release(st.held);
    }
    return true;
  }

  close() { return this.free(); }

  [dispose]() { this.free(); }

  [ADDRESS]() { return live(this); }

  // A copy of the whole record: an object of its fields, as rt.unpack.
  record() {
    const c = this.constructor;
    return unpackRecord(c.layout, c.rt.read(live(this), c.layout.size));
  }

  // The record's bytes, copied.
  bytes() {
    const c = this.constructor;
    return c.rt.read(live(this), c.layout.size);
  }

  // Copies a whole record in: an object of fields (those left out are
  // zero), a Uint8Array of the layout's size, or a C object of the layout.
  assign(v) {
    const c = this.constructor;
    const a = live(this);
    c.rt.write(a, recordBytes(c, v, "bad argument #1 to 'assign'"));
  }

  toString() {
    const st = this[STATE];
    if (st.freed) return `freed ${st.what}`;
    return `${st.owned ? "C object" : "view of"} ${st.what} at ${this[ADDR]}`;
  }

  [inspect]() { return `<${this.toString()}>`; }
}
Object.setPrototypeOf(CObject.prototype, strict);

// The bytes of v for a record of class c (see assign); what prefixes
// the error.
function recordBytes(c, v, what) {
  if (v instanceof CObject && v.constructor.layout === c.layout) return v.bytes();
  return packArgument(c.layout, v, what);
}

// ---- array views -------------------------------------------------------------

// The number a property name k spells (an array index when it is an
// integer), or NaN: digits read in place, the rest through Number.
function indexOf(k) {
  if (typeof k !== "string") return NaN;
  const n = k.length;
  let v = 0;
  for (let j = 0; j < n; j++) {
    const d = k.charCodeAt(j) - 48;
    if (d < 0 || d > 9 || n > 15 || (j === 0 && d === 0 && n > 1)) {
      const x = Number(k);
      return String(x) === k ? x : NaN;
    }
    v = v * 10 + d;
  }
  return n > 0 ? v : NaN;
}

// What an array view's constructor is, for the messages that name a
// value's type (errors.mjs, vtype).
function CArray() {}
CArray.ncccType = "C array";

// An array view: count elements of esize bytes at t.a, each read and
// written by t.get(a) and t.put(a, v); state and names as its object's.
const arrayHandler = {
  get(t, k) {
    const i = indexOf(k);
    if (!Number.isNaN(i)) return t.get(element(t, i));
    switch (k) {
      case "length": return t.count;
      case "address": return live(t);
      case ADDRESS: return () => live(t);
      case "constructor": return CArray;
      case Symbol.iterator: return function* () { for (let j = 0; j < t.count; j++) yield t.get(element(t, j)); };
      case "toArray": return () => Array.from({ length: t.count }, (_, j) => t.get(element(t, j)));
      case "free": return () => CObject.prototype.free.call(t);
      case "toString": return () => `${t[STATE].freed ? "freed " : ""}array of ${t.count} of ${t.what}`;
      case inspect: return () => `<array of ${t.count}: ${t.what}>`;
      case "then": case "toJSON": return undefined;
      default:
        if (typeof k === "symbol") return undefined;
        throw new NcccError(`array of ${t.what} has no property '${k}'`, { kind: "field" });
    }
  },
  set(t, k, v) {
    const i = indexOf(k);
    if (Number.isNaN(i)) throw new NcccError(`array of ${t.what} has no property '${String(k)}'`, { kind: "field" });
    t.put(element(t, i), v);
    return true;
  },
};

// The address of element i of array view t, checked.
function element(t, i) {
  if (!Number.isInteger(i) || i < 0 || i >= t.count) {
    throw new NcccError(`index ${String(i)} out of range 0..${t.count - 1} of ${t.what}`, { kind: "range" });
  }
  return live(t) + i * t.esize;
}

function arrayView(a, state, count, esize, what, get, put) {
  return new Proxy({ [ADDR]: a, [STATE]: state, count, esize, what, get, put }, arrayHandler);
}

// get of an array view of records: each element's view made once.
function recordElements(kid, st) {
  const views = new Map();
  return (a) => {
    let v = views.get(a);
    if (v === undefined) views.set(a, v = new kid(a, st));
    return v;
  };
}

// ---- classes -----------------------------------------------------------------

// The classes of a bound module's structs and unions, made on first use.
export class Classes {
  constructor(rt, module, layouts) {
    this.rt = rt;
    this.module = module;
    this.records = new Map(layouts.filter((r) => r.kind === "struct" || r.kind === "union").map((r) => [r.name, r]));
    this.made = new Map();
  }

  // The class of layout name, or undefined when the module has no such
  // struct or union.
  of(name) {
    let c = this.made.get(name);
    if (c !== undefined || !this.records.has(name)) return c;
    const rec = this.records.get(name);
    const layout = this.rt.layout(`${this.module}.${name}`);
    c = class extends CObject {};
    Object.defineProperty(c, "name", { value: name });
    c.rt = this.rt;
    c.layout = layout;
    this.made.set(name, c);
    const texts = Object.fromEntries((rec.texts || []).map((t) => [t.field, t]));
    for (const fd of layout.fields) {
      Object.defineProperty(c.prototype, fd.name, this.field(c, fd, texts[fd.name]));
    }
    return c;
  }

  // The getter and setter of field fd of class c (text: its entry of the
  // layout record's texts).
  field(c, fd, text) {
    const what = `${this.module}.${c.name}`;
    const off = fd.offset, name = fd.name, mem = this.rt.mem, rt = this.rt;
    const esize = Math.floor(fd.size / fd.count);
    let get, put, kid;
    if (fd.layout) {
      kid = this.of(fd.layout.name);
      if (!kid) throw new NcccError(`nccc: ${what}: field '${name}' holds ${fd.layout.name}, no struct or union of ${this.module}`, { kind: "unknown" });
      get = (a, st) => new kid(a, st);
      put = (a, v) => rt.write(a, recordBytes(kid, v, `field '${name}' of ${what}`));
    } else {
      const [read, write, code] = scalar(fd.type, esize);
      get = (a) => read(mem.dv, a);
      put = (a, v) => {
        if (code === "p") refuseShortLived(what, name, v);
        const why = write(mem.dv, a, v);
        if (why !== undefined) throw fieldError(what, name, why, fd.type, v);
      };
    }
    if (fd.count > 1) {
      const elements = `field '${name}' of ${what}`;
      return {
        get() {
          const a = live(this) + off, st = this[STATE];
          const kids = this[KIDS] || (this[KIDS] = {});
          return kids[name] || (kids[name] = arrayView(a, st, fd.count, esize, elements,
            kid ? recordElements(kid, st) : get, put));
        },
        set() { throw new NcccError(`field '${name}' of ${what} is an array: write its elements`, { kind: "type" }); },
      };
    }
    if (fd.layout) {
      return {
        get() {
          const a = live(this) + off;
          const kids = this[KIDS] || (this[KIDS] = {});
          return kids[name] || (kids[name] = get(a, this[STATE]));
        },
        set(v) { put(live(this) + off, v); },
      };
    }
    if (text) return this.text(c, text, get, put, off);
    return {
      get() { return get(live(this) + off); },
      set(v) { put(live(this) + off, v); },
    };
  }

  // A text field (docs/BINDING.md, "texts"): COUNT bytes at the pointer,
  // a string (kind string, UTF-8) or a Uint8Array copy (kind bytes);
  // null for NULL.
  text(c, text, get, put, off) {
    const rt = this.rt, count = text.count;
    return {
      get() {
        const p = get(live(this) + off);
        if (p === null) return null;
        const n = Number(count.field !== undefined ? this[count.field] : count.fixed);
        return text.kind === "string" ? rt.cstring(p, n) : rt.read(p, n);
      },
      set(v) { put(live(this) + off, v); },
    };
  }

  // The class of name, or the error of function fn refusing it.
  want(name, fn) {
    const c = typeof name === "string" ? this.of(name) : undefined;
    if (!c) {
      throw new NcccError(`bad argument #1 to '${fn}' (a struct or union of ${this.module} expected, got ${
        typeof name === "string" ? `'${name}'` : vtype(name)})`, { kind: "unknown" });
    }
    return c;
  }

  // new(name[, value]): a zeroed object of the layout's size in wasm
  // memory (rt.alloc), owned by the returned object: freed by free(),
  // close(), [Symbol.dispose]() or, collected unfreed, by a finalizer.
  make(name, value) {
    const c = this.want(name, "new");
    const size = c.layout.size, rt = this.rt;
    const a = rt.alloc(size);
    rt.mem.u8.fill(0, a, a + size);
    const held = { rt, addr: a, done: false, kept: {} };
    const st = { rt, name, what: `${this.module}.${name}`, owned: true, freed: false, held, root: undefined };
    const o = new c(a, st);
    st.root = o;
    finalizers.register(o, held, o);
    if (value !== undefined) o.assign(value);
    return o;
  }

  // view(name, p[, count]): a borrowed view of the record at address p (a
  // number, or a C object or array view), or of count records there; it
  // never frees, and refuses memory past the end of wasm memory.
  view(name, p, count) {
    const c = this.want(name, "view");
    let a = p;
    if (p !== null && typeof p === "object" && typeof p[ADDRESS] === "function") a = p[ADDRESS]();
    if (typeof a !== "number" || !Number.isInteger(a) || a <= 0) {
      throw new NcccError(`bad argument #2 to 'view' (non-NULL address expected, got ${vtype(p)})`, { kind: "type" });
    }
    const n = count === undefined ? 1 : count;
    if (!Number.isInteger(n) || n < 0) {
      throw new NcccError(`bad argument #3 to 'view' (count expected, got ${vtype(count)})`, { kind: "type" });
    }
    const size = c.layout.size;
    if (a + n * size > this.rt.memory.buffer.byteLength) {
      throw new NcccError(`bad argument #2 to 'view' (${n * size} bytes at ${a} are past the end of wasm memory)`,
        { kind: "range" });
    }
    const st = { rt: this.rt, name, what: `${this.module}.${name}`, owned: false, freed: false, held: undefined };
    if (count === undefined) return new c(a, st);
    return arrayView(a, st, n, size, `view of ${st.what}`, recordElements(c, st),
      (e, v) => this.rt.write(e, recordBytes(c, v, `element of ${st.what}`)));
  }
}
