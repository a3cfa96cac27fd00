// nccc/binder.mjs — what generated JavaScript modules call (docs/JS.md,
// "Generated modules"): bind(rt) of a module hands its tables to
// rt.bindModule, which looks each function up, checks its signature,
// and makes its caller: the module's specialised one, its binder's, or
// rt.fast. Also what specialised callers use (rt.special, rt.put),
// owned results, and closure sets (owners.mjs).
import abi from "./abi.mjs";
import { NcccError, asArgumentError, badArgument } from "./errors.mjs";
import { releaseRefused } from "./calls.mjs";
import { PUT, valueList } from "./values.mjs";
import { converting, closureSets } from "./owners.mjs";

// The methods this part gives the Runtime (composed in index.mjs).
export const methods = {};

// The targets an entry may carry one signature each for (the ABI's
// targets: data models by plain-char signednesses); wasm32 is ILP32 with
// a signed char. Exported, with the helpers below, for the binding to a
// remote device (remote/bind.mjs).
export const TARGETS = abi.targets.length;
export const WASM32 = abi.targets.findIndex((t) => t.data_model === "ILP32" && t.char_signed);

export const signatureOf = (e, k) => (Array.isArray(e[1]) ? e[1][k] : e[1]);

export function findEntry(M, list, name, what) {
  const e = list.find((x) => x[0] === name);
  if (!e) throw new NcccError(`unknown ${what} '${M.name}.${name}'`, { kind: "unknown" });
  return e;
}

// call, refusing a closure argument made for callback signatures other
// than the parameter's before C runs (want: {position: [signature per
// member]}).
export function checkingClosures(name, call, want, types) {
  const positions = Object.keys(want).map(Number);
  return function (...args) {
    for (const k of positions) {
      const v = args[k - 1];
      if (v && typeof v === "object" && v.constructor.ncccType === "closure") {
        const got = v.signatures, w = want[k];
        if (got.length !== w.length || got.some((s, j) => s !== w[j])) {
          releaseRefused(args);
          throw new NcccError(`bad argument #${k} to '${name}' (closure of ${types[k].join(", ")} '${w.join("', '")}' expected, got one of '${got.join("', '")}')`,
            { kind: "type", function: name, parameter: k });
        }
      }
    }
    return call(...args);
  };
}

// A library made by nccc_add_bindings(... SHARED) exports
// nccc_<module>_open (":i"): bind calls it when present, so that the
// lookups find the module.
function openModule(rt, M) {
  const open = rt.exports[`nccc_${M.name}_open`];
  if (typeof open !== "function") return;
  // Called as the export it is: no slot of the function table to look up.
  const fr = rt.frame(0, 1);
  rt.run(open, fr, `nccc_${M.name}_open`);
  const st = rt.mem.i32[fr.outp >> 2];
  if (st !== 0) throw new NcccError(`nccc: nccc_${M.name}_open failed (status 0x${st.toString(16)})`, { kind: "status", status: st });
}

// rt.bindModule(M): an object with a function per IDL function, the
// constants' values, and the helpers callback, signature, layout, pack,
// unpack and values.
methods.bindModule = function (M) {
  openModule(this, M);
  const t = {};
  let targets = [...Array(TARGETS).keys()];
  const helpers = {};
  const S = closureSets(M, this, t, helpers);
  for (const e of M.functions) {
    const name = `${M.name}.${e[0]}`;
    const h = this.lookup(name);
    const sig = this.signature(h);
    const keep = targets.filter((k) => signatureOf(e, k) === sig);
    if (keep.length === 0) {
      throw new NcccError(`nccc: ${name} has signature '${sig}' in the library, not the one ${M.name}.mjs was generated with`, { kind: "type" });
    }
    targets = keep;
    const binder = M.binders[e[0]];
    t[e[0]] = binder ? binder(this, h, S) : this.fast(h);
  }
  const first = targets.includes(WASM32) ? WASM32 : targets[0];
  helpers.signature = (name) => signatureOf(findEntry(M, M.callbacks, name, "callback type"), first);
  helpers.values = (name, fn) => {
    const v = findEntry(M, M.callbacks, name, "callback type")[2];
    return converting(this, v && (v.length > 1 ? v[first] : v[0]), fn);
  };
  helpers.callback = (name, fn, scope) => this.callback(helpers.signature(name), helpers.values(name, fn), scope);
  helpers.layout = (name) => this.layout(`${M.name}.${name}`);
  for (const [fname, params] of Object.entries(M.closure_params)) {
    const want = {};
    for (const [k, types] of Object.entries(params)) want[k] = types.map(helpers.signature);
    t[fname] = checkingClosures(`${M.name}.${fname}`, t[fname], want, params);
  }
  const values = this.constants(M.name);
  for (const c of M.constants) {
    if (values[c] === undefined) throw new NcccError(`nccc: the runtime has no constant '${M.name}.${c}'`, { kind: "unknown" });
    t[c] = values[c];
  }
  Object.assign(t, helpers);
  t.runtime = this;
  return t;
};

// ---- what specialised callers use ---------------------------------------

// make(f, fn, mem, slow) of a specialised caller when the library's
// signature is the one it was printed for, else the generic caller slow
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
  return (...args) => {
    const r = call(...args);
    const list = Array.isArray(r) ? r : [r];
    for (const [k, conv] of Object.entries(convs)) list[k - 1] = conv(list[k - 1]);
    return Array.isArray(r) ? list : list[0];
  };
};
