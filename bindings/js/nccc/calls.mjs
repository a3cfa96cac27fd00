// nccc/calls.mjs — calling nccc functions (docs/JS.md, "Calls"): each
// function's caller made once from its description, with one converter
// per argument and result chosen when it is made; calls by name, handle
// and address.
import abi from "./abi.mjs";
import { NcccError, asArgumentError, badArgument, countError } from "./errors.mjs";
import { GET, PUT, packRecord, unpackRecord, valueList } from "./values.mjs";

// The methods this part gives the Runtime (composed in index.mjs).
export const methods = {};

const RECORD = abi.grammar.record_open, STAR = abi.grammar.variadic;

// Functions whose '*' in side is sized by one of their arguments: the
// built-ins' and tvm's packed calls (a value and a type code per
// argument), the ABI's table (docs/ABI.md).
const VAR_SIZE = abi.sized;

// A call refused before C runs ends the closures C's wrapper would have
// ended: its call-scoped closures, and a group claimed for it (fresh).
export function releaseRefused(args) {
  for (const c of args) {
    if (c && typeof c === "object" && c.constructor.ncccType === "closure" && c.live &&
        (c.scope === "call" || c.fresh)) c.release();
  }
}

// The writer of argument k (from 1) of item: (mem, addr, v) -> why.
function writer(item, nonnull) {
  if (item.code === RECORD) {
    const layout = item.layout;
    return (m, a, v) => {
      m.u8.set(packRecord(layout, v), a);
    };
  }
  const put = PUT[item.code];
  if (!nonnull) return put;
  return (m, a, v) => (v === null || v === undefined || v === 0 ? "null" : put(m, a, v));
}

// The reader of a result item: (runtime, addr) -> value.
function reader(item) {
  if (item.code === RECORD) {
    const layout = item.layout;
    return (rt, a) => unpackRecord(layout, rt.mem.u8.slice(a, a + layout.size));
  }
  if (item.code === "s") return (rt, a) => rt.cstring(rt.mem.u32[a >> 2]);
  const get = GET[item.code];
  return (rt, a) => get(rt.mem, a);
}

// The caller of description f. opts (generated modules): nonnull = {k:
// true} for arguments that must not be NULL; outs = {k: code} to read
// result k by another code (an owned string as "p"); thunks: the
// function binds a thunk (a callback type without a context), so the
// last error is cleared before the call and a full pool raises.
export function caller(rt, f, opts = {}) {
  const nonnull = opts.nonnull || {}, outsAs = opts.outs || {};
  const writers = f.ins.map((item, k) => writer(item, nonnull[k + 1]));
  const strings = f.ins.map((item) => item.code === "s");
  const readers = f.outs.map((item, k) => reader(outsAs[k + 1] ? { code: outsAs[k + 1] } : item));
  const nargs = f.ins.length, rule = f.varIn ? VAR_SIZE[f.name] : undefined;
  const fn = rt.fnAt(f.addr);
  if (f.varOut) {
    return () => {
      throw new NcccError(`'${f.name}' expects a count of extra out slots (its results end in '*'): ` +
        "call it with rt.callVar(name, count, ...)", { kind: "count", function: f.name });
    };
  }
  return function call(...args) {
    return invoke(rt, f, fn, args, { writers, strings, readers, nargs, rule, thunks: opts.thunks, extraOut: 0 });
  };
}

function checkRule(f, rule, args, refuse) {
  const v = args[rule.arg];
  if (typeof v !== "number" && typeof v !== "bigint") return;
  const need = Math.ceil(Number(v) / rule.div * rule.mul);
  const got = args.length - f.ins.length;
  if (got < need) {
    refuse();
    throw new NcccError(`'${f.name}' expects ${need} slot${need === 1 ? "" : "s"} after its ${f.ins.length} fixed arguments, got ${got}`,
      { kind: "count", function: f.name });
  }
}

// Converts args into a frame, calls, reads the results: none is
// undefined, one is the value, more an array in slot order.
function invoke(rt, f, fn, args, s) {
  const n = args.length;
  const refuse = () => releaseRefused(args);
  if (n !== s.nargs && !(f.varIn && n > s.nargs)) {
    refuse();
    throw countError(f.name, s.nargs, n, f.varIn);
  }
  if (s.rule && !s.rule.out) checkRule(f, s.rule, args, refuse);
  let texts = null, extra = 0;
  for (let k = 0; k < s.nargs; k++) {
    const v = args[k];
    if (!s.strings[k] || v === null || v === undefined) continue;
    // a string (UTF-8), or a Uint8Array: its bytes as they are
    const text = typeof v === "string" || v instanceof Uint8Array;
    if (!text) {
      refuse();
      throw badArgument(f.name, k + 1, "type", "s", v);
    }
    if (v.includes(typeof v === "string" ? "\0" : 0)) {
      refuse();
      throw new NcccError(`bad argument #${k + 1} to '${f.name}' (string contains a NUL byte)`,
        { kind: "nul", function: f.name, parameter: k + 1 });
    }
    texts = texts || [];
    if (typeof v === "string") {
      texts[k] = rt.utf8(v);
    } else {
      texts[k] = new Uint8Array(v.length + 1);
      texts[k].set(v);
    }
    extra += (texts[k].length + 7) & ~7;
  }
  if (s.thunks) rt.clearError();
  const fr = rt.frame(f.nin + n - s.nargs, f.nout + s.extraOut, extra);
  const m = rt.mem;
  let pos = fr.inp, sp = fr.strings;
  for (let k = 0; k < n; k++) {
    const item = f.ins[k];
    let why;
    if (k < s.nargs && s.strings[k] && texts && texts[k]) {
      m.u8.set(texts[k], sp);
      m.u32[pos >> 2] = sp;
      m.u32[(pos >> 2) + 1] = 0;
      sp += (texts[k].length + 7) & ~7;
    } else {
      try {
        why = k < s.nargs ? s.writers[k](m, pos, args[k]) : PUT[STAR](m, pos, args[k]);
      } catch (e) {
        refuse();
        throw asArgumentError(e, f.name, k + 1);
      }
      if (why !== undefined) {
        refuse();
        throw badArgument(f.name, k + 1, why, k < s.nargs ? item.code : STAR, args[k]);
      }
    }
    pos += 8 * (item ? item.slots : 1);
  }
  rt.run(fn, fr, f.name);
  const results = valueList();
  let at = fr.outp;
  for (let k = 0; k < s.readers.length; k++) {
    results.push(s.readers[k](rt, at));
    at += 8 * f.outs[k].slots;
  }
  for (let k = 0; k < s.extraOut; k++) results.push(rt.mem.u64[(at >> 3) + k]);
  if (s.thunks) {
    const [st, msg] = rt.lastError();
    if (st === abi.status.ERR_POOL_EXHAUSTED) {
      throw new NcccError(`'${f.name}': thunk pool exhausted: ${msg}`, { kind: "pool", function: f.name, status: st });
    }
  }
  if (results.length === 0) return undefined;
  return results.length === 1 ? results[0] : results;
}

// rt.fast(nameOrHandle[, opts]): the function as a JavaScript function
// that converts and calls, made once (the plain one is cached).
methods.fast = function (key, opts) {
  const f = this.fn(key);
  if (opts) return caller(this, f, opts);
  if (!f.fast) f.fast = caller(this, f);
  return f.fast;
};

// What C's wrapper refuses itself (abi.refusals): a call by name or
// handle, which no generated module checks first, of a function with an
// argument of such a kind is checked for C's refusal (docs/CALLBACKS.md,
// "Refused calls"); the modules whose functions give a status are not.
const REFUSABLE = new Set(abi.refusals.kinds);
const STATUS_MODULES = new Set([abi.builtins_module, abi.packed.module]);
const REFUSALS = new Set(abi.refusals.statuses.map((name) => abi.status[name]));
// the error kind of each refusal
const REFUSAL_KIND = {
  [abi.status.ERR_NULL_POINTER]: "null",
  [abi.status.ERR_STALE_CLOSURE]: "released",
  [abi.status.ERR_POOL_EXHAUSTED]: "pool",
};

function refusable(f) {
  return !STATUS_MODULES.has(f.name.split(".")[0]) &&
    f.ins.some((item) => abi.codes[item.code] !== undefined && REFUSABLE.has(abi.codes[item.code].kind));
}

// call raising the error of a call C's wrapper refused, which shows only
// as the runtime's last error, cleared before the call.
function refusalChecked(rt, f, call) {
  return function (...args) {
    rt.clearError();
    const results = call(...args);
    const [st, msg] = rt.lastError();
    if (REFUSALS.has(st)) {
      throw new NcccError(`'${f.name}': ${msg}`, { kind: REFUSAL_KIND[st] || "status", function: f.name, status: st });
    }
    return results;
  };
}

// rt.call(nameOrHandle, ...args): its results, converted by its
// signature; a call C's wrapper refuses throws.
methods.call = function (key, ...args) {
  const f = this.fn(key);
  if (f.checked === undefined) f.checked = refusable(f) ? refusalChecked(this, f, this.fast(key)) : null;
  return (f.checked || this.fast(key))(...args);
};

// rt.callVar(nameOrHandle, count, ...args): a function whose results
// end in '*': its results, then count raw slots (BigInts) after them.
methods.callVar = function (key, count, ...args) {
  const f = this.fn(key);
  if (!f.varOut) throw new NcccError(`'${f.name}': its results do not end in '*' (use call)`, { kind: "type", function: f.name });
  if (!Number.isInteger(count) || count < 0 || count > 1 << 20) throw badArgument("callVar", 2, "range", "i", count);
  const rule = VAR_SIZE[f.name];
  if (rule && rule.out && args.length > rule.arg) {
    const need = Math.ceil(Number(args[rule.arg]) / rule.div * rule.mul);
    if (count < need) {
      throw new NcccError(`'${f.name}' expects ${need} extra out slot${need === 1 ? "" : "s"} for its arguments, got a count of ${count}`,
        { kind: "count", function: f.name });
    }
  }
  const s = { writers: f.ins.map((item) => writer(item)), strings: f.ins.map((i) => i.code === "s"),
    readers: f.outs.map((item) => reader(item)), nargs: f.ins.length, extraOut: count };
  const r = invoke(this, f, this.fnAt(f.addr), args, s);
  return Array.isArray(r) ? r : r === undefined ? [] : [r];
};

// rt.callAddress(addr, sig, ...args): calls the nccc function at addr
// (from rt.symbol) as if it had signature sig.
methods.callAddress = function (addr, sig, ...args) {
  if (typeof addr !== "number" || addr <= 0) throw badArgument("callAddress", 1, addr === 0 ? "null" : "type", "p", addr);
  const key = `${addr}|${sig}`;
  this.byAddress = this.byAddress || new Map();
  let call = this.byAddress.get(key);
  if (!call) {
    call = caller(this, this.describe(`nccc_fn at ${addr}`, addr, sig));
    this.byAddress.set(key, call);
  }
  return call(...args);
};
