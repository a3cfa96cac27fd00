// nccc/binder.mjs — the interpreter of binding records in JavaScript
// (docs/JS.md, "Generated modules"; the records: docs/BINDING.md):
// bind(rt) of a module hands its records to rt.bindModule, which looks
// each function up, checks its signature, and makes its caller from its
// record (functionCall: a caller of numbers only, special.mjs, or
// rt.fast with the record's options, closure sets and owned results).
// Also what those callers use (rt.special, rt.put), owned results, and
// closure sets (owners.mjs).
import abi from "./abi.mjs";
import { NcccError, asArgumentError, badArgument } from "./errors.mjs";
import { releaseRefused } from "./calls.mjs";
import { PUT, valueList } from "./values.mjs";
import { bytesIn, converting, closureSets } from "./owners.mjs";
import { specialCaller, specialSignature } from "./special.mjs";
import { Classes } from "./cdata.mjs";

// The methods this part gives the Runtime (composed in index.mjs).
export const methods = {};

// The targets an entry may carry one signature each for (the ABI's
// targets: data models by plain-char signednesses); wasm32 is ILP32 with
// a signed char. Exported, with the helpers below, for the binding to a
// remote device (remote/bind.mjs).
export const TARGETS = abi.targets.length;
export const WASM32 = abi.targets.findIndex((t) => t.data_model === "ILP32" && t.char_signed);

// The signature of record e (a function's or a callback type's) on target k.
export const signatureOf = (e, k) => (e.signatures.length > 1 ? e.signatures[k] : e.signatures[0]);

export function findEntry(M, list, name, what) {
  const e = list.find((x) => x.name === name);
  if (!e) throw new NcccError(`unknown ${what} '${M.module}.${name}'`, { kind: "unknown" });
  return e;
}

// The options of rt.fast a function record asks for (undefined for
// none): nonnull {k: true}, outs {k: "p"} for owned strings (read as
// pointers, then converted), thunks.
function fastOptions(e) {
  const opts = {};
  let any = false;
  if (e.nonnull) {
    opts.nonnull = Object.fromEntries(e.nonnull.map((k) => [k, true]));
    any = true;
  }
  const strings = (e.owned && e.owned.kind === "string" ? [e.owned.result] : [])
    .concat((e.owned_strings || []).map((o) => o.result));
  if (strings.length) {
    opts.outs = Object.fromEntries(strings.map((k) => [k, "p"]));
    any = true;
  }
  if (e.thunks) opts.thunks = any = true;
  return any ? opts : undefined;
}

// call wrapped in the closure sets of record e (S.closures per set it
// has slots of: {name, set, owner, members: {position: member}, context}),
// then S.release of the sets whose owner it frees.
function withSets(e, S, call) {
  const specs = new Map();
  for (const c of e.closures || []) {
    if (!c.set) continue;
    if (!specs.has(c.set.name)) {
      specs.set(c.set.name, { name: e.error_name, set: c.set.name, owner: c.set.owner, members: {} });
    }
    const spec = specs.get(c.set.name);
    if (c.set.member !== undefined) spec.members[c.arg] = c.set.member;
    else spec.context = c.arg;
  }
  for (const spec of specs.values()) call = S.closures(call, e.in_count, spec);
  return e.frees ? S.release(call, e.frees) : call;
}

// call with the owned results of record e converted: an owned object
// (rt.owner; freed through S.freeing when that also releases closure
// groups), the return value's or an [out] pointer's, or an owned string
// (read, then freed).
function owning(rt, M, e, S, call) {
  const convs = {};
  let n = 0;
  const freeOf = (o) => (o.frees ? S.freeing(o.free) : `${M.module}.${o.free}`);
  const own = e.owned;
  if (own) {
    convs[own.result] = own.kind === "string" ? rt.ownedString(freeOf(own)) : rt.owner(freeOf(own), own.type);
    n++;
  }
  for (const o of e.owned_strings || []) {
    convs[o.result] = rt.ownedString(`${M.module}.${o.free}`);
    n++;
  }
  for (const o of e.owned_pointers || []) {
    convs[o.result] = rt.owner(freeOf(o), o.type);
    n++;
  }
  return n ? rt.owning(call, convs) : call;
}

// The caller of function record e bound to handle h on rt (a runtime,
// or a device: remote/bind.mjs).
export function functionCall(rt, M, e, h, S) {
  const opts = fastOptions(e);
  const sig = specialSignature(e, signatureOf(e, WASM32));
  if (sig) return rt.special(h, sig, (f, fn, m, slow) => specialCaller(rt, sig, f, fn, m, slow), opts);
  return owning(rt, M, e, S, withSets(e, S, opts ? rt.fast(h, opts) : rt.fast(h)));
}

// {position: callback type names} of the closure arguments record e's
// caller passes (slots of closure sets are the owner's), or undefined.
export function closureParams(e) {
  const free = (e.closures || []).filter((c) => !c.set);
  return free.length ? Object.fromEntries(free.map((c) => [c.arg, c.callbacks])) : undefined;
}

// {position: scope} of the closure arguments record e's caller passes.
export function closureScopes(e) {
  return Object.fromEntries((e.closures || []).filter((c) => !c.set).map((c) => [c.arg, c.scope]));
}

// Why closure v cannot go to a parameter of callback types types (their
// signatures w) and scope (undefined: not checked), or undefined: made
// for other signatures, or of scope call where the scope is another.
function mismatch(v, w, types, scope) {
  const got = v.signatures;
  if (got.length !== w.length || got.some((s, j) => s !== w[j])) {
    return [`closure of ${types.join(", ")} '${w.join("', '")}' expected, got one of '${got.join("', '")}'`, "type"];
  }
  if (scope !== undefined && scope !== "call" && v.scope === "call") {
    return [`closure of scope '${scope}' expected, got one of scope 'call' (make it with scope '${scope}', or pass a function)`, "scope"];
  }
  return undefined;
}

// For each function of M with closure parameters: t[name] =
// check(e, want, params), want the callback signatures each parameter
// takes (signature(type name)), params their callback type names.
export function checkClosures(t, M, signature, check) {
  for (const e of M.functions) {
    const params = closureParams(e);
    if (!params) continue;
    const want = {};
    for (const [k, types] of Object.entries(params)) want[k] = types.map(signature);
    t[e.name] = check(e, want, params);
  }
}

// t[c] = values[c] for each constant of M; where (runtime, device) names
// what lacks one.
export function setConstants(t, M, values, where) {
  for (const c of M.constants) {
    if (values[c] === undefined) throw new NcccError(`nccc: the ${where} has no constant '${M.module}.${c}'`, { kind: "unknown" });
    t[c] = values[c];
  }
}

// call, refusing a closure argument made for callback signatures other
// than the parameter's before C runs (want: {position: [signature per
// member]}), and with scopes ({position: scope}) one of scope call where
// the parameter's is another; with make(type, fn, scope), a function
// passed for a parameter of one callback type becomes a closure of its
// scope.
export function checkingClosures(name, call, want, types, scopes = {}, make = undefined) {
  const positions = Object.keys(want).map(Number);
  return function (...args) {
    let made = false;
    for (const k of positions) {
      const v = args[k - 1];
      if (v && typeof v === "object" && v.constructor.ncccType === "closure") {
        const why = mismatch(v, want[k], types[k], scopes[k]);
        if (why) {
          releaseRefused(args);
          throw new NcccError(`bad argument #${k} to '${name}' (${why[0]})`,
            { kind: why[1], function: name, parameter: k });
        }
      } else if (typeof v === "function" && make && types[k].length === 1) {
        args[k - 1] = make(types[k][0], v, scopes[k]);
        args[k - 1].fresh = made = true;
      }
    }
    if (!made) return call(...args);
    try {
      return call(...args);
    } finally {
      for (const k of positions) if (args[k - 1] && args[k - 1].fresh) args[k - 1].fresh = false;
    }
  };
}

// A library made by nccc_add_bindings(... SHARED) exports
// nccc_<module>_open (":i"): bind calls it when present, so that the
// lookups find the module.
function openModule(rt, M) {
  const open = rt.exports[`nccc_${M.module}_open`];
  if (typeof open !== "function") return;
  // Called as the export it is: no slot of the function table to look up.
  const fr = rt.frame(0, 1);
  rt.run(open, fr, `nccc_${M.module}_open`);
  const st = rt.mem.i32[fr.outp >> 2];
  if (st !== 0) throw new NcccError(`nccc: nccc_${M.module}_open failed (status 0x${st.toString(16)})`, { kind: "status", status: st });
}

// rt.bindModule(M): an object with a function per IDL function, the
// constants' values, and the helpers callback, signature, layout,
// values, new and view.
methods.bindModule = function (M) {
  openModule(this, M);
  const t = {};
  let targets = [...Array(TARGETS).keys()];
  const helpers = {};
  const S = closureSets(M, this, t, helpers);
  for (const e of M.functions) {
    const name = e.error_name;
    const h = this.lookup(name);
    const sig = this.signature(h);
    const keep = targets.filter((k) => signatureOf(e, k) === sig);
    if (keep.length === 0) {
      throw new NcccError(`nccc: ${name} has signature '${sig}' in the library, not the one ${M.module}.mjs was generated with`, { kind: "type" });
    }
    targets = keep;
    t[e.name] = bytesIn(this, e, functionCall(this, M, e, h, S));
  }
  const first = targets.includes(WASM32) ? WASM32 : targets[0];
  helpers.signature = (name) => signatureOf(findEntry(M, M.callbacks, name, "callback type"), first);
  helpers.values = (name, fn) => {
    const v = findEntry(M, M.callbacks, name, "callback type").values;
    return converting(this, v && (v.length > 1 ? v[first] : v[0]), fn);
  };
  helpers.callback = (name, fn, scope) => this.callback(helpers.signature(name), helpers.values(name, fn), scope);
  helpers.layout = (name) => this.layout(`${M.module}.${name}`);
  // C objects of the module's structs and unions (cdata.mjs)
  const objects = new Classes(this, M.module, M.layouts || []);
  helpers.new = (name, value) => objects.make(name, value);
  helpers.view = (name, p, count) => objects.view(name, p, count);
  checkClosures(t, M, helpers.signature, (e, want, params) =>
    checkingClosures(e.error_name, t[e.name], want, params, closureScopes(e), helpers.callback));
  setConstants(t, M, this.constants(M.module), "runtime");
  Object.assign(t, helpers);
  t.runtime = this;
  return t;
};

// ---- what specialised callers use ---------------------------------------

// make(f, fn, mem, slow) of a specialised caller when the library's
// signature is the one it was made for, else the generic caller slow
// (rt.fast with opts), which the specialised one hands every call it
// does not take.
methods.special = function (h, sig, make, opts) {
  const f = this.fn(h);
  const slow = this.fast(h, opts);
  if (f.signature !== sig) return slow;
  return make(f, this.fnAt(f.addr), this.mem, slow);
};

// Argument k of f into the slot at addr by the support library's rules
// (NULL refused when nonnull), or its refusal.
methods.put = function (f, k, addr, v, nonnull) {
  const code = f.ins[k - 1].code;
  let why = "null";
  if (!nonnull || (v !== null && v !== undefined && v !== 0)) {
    try {
      why = PUT[code](this.mem, addr, v);
    } catch (e) {
      throw asArgumentError(e, f.name, k);
    }
  }
  if (why !== undefined) throw badArgument(f.name, k, why, code, v);
};

// The results of a call with several, as an array (valueList).
methods.results = function (...values) {
  const list = valueList();
  for (const v of values) list.push(v);
  return list;
};

// call with convs[k] (from owner or ownedString) applied to its result
// k (from 1), the others as they are.
methods.owning = function (call, convs) {
  const keys = Object.keys(convs);
  if (keys.length === 1 && convs[1]) {
    // the common case, one owned return value: no walk over convs per call
    const own = convs[1];
    return (...args) => {
      const r = call(...args);
      if (!Array.isArray(r)) return own(r);
      r[0] = own(r[0]);
      return r;
    };
  }
  return (...args) => {
    const r = call(...args);
    const list = Array.isArray(r) ? r : [r];
    for (const [k, conv] of Object.entries(convs)) list[k - 1] = conv(list[k - 1]);
    return Array.isArray(r) ? list : list[0];
  };
};
