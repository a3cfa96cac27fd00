// nccc/owners.mjs — what generated modules need for callbacks beyond
// rt.callback (docs/JS.md, "Generated modules"): the arguments a
// callback type's value annotations describe, handed to the function as
// strings, Uint8Arrays and arrays, and closure sets — callbacks registered one by
// one on an owning object, one closure group per owner, released when
// the owner is freed.
import { NcccError, asArgumentError, vtype } from "./errors.mjs";
import { ADDRESS, pointer, readScalar } from "./values.mjs";
import { keepWith, ownsMemory } from "./cdata.mjs";

// The elements of an array at address p (value description spec): n of
// them, or up to a zero one.
function readArray(rt, p, spec, n) {
  const t = [];
  const dv = new DataView(rt.mem.buffer);
  for (let k = 0; n === undefined || k < n; k++) {
    let v = readScalar(spec.code, spec.stride, dv, p + k * spec.stride);
    if (n === undefined && (v === null || v === 0 || v === 0n || v === false)) break;
    if (spec.code === "s" && v !== null) v = rt.cstring(v);
    t.push(v);
  }
  return t;
}

// The value argument p described by spec holds (n elements): a string,
// a Uint8Array (a copy; for a buffer to fill, a view of the memory) or
// an array.
function described(rt, p, spec, n) {
  if (spec.kind === "string") return rt.cstring(p, n);
  if (spec.kind !== "bytes") return readArray(rt, p, spec, n);
  const view = new Uint8Array(rt.mem.buffer, Number(p), n);
  return spec.fill ? view : view.slice();
}

// fn with the arguments the value descriptions specs (docs/BINDING.md,
// "Value descriptions") describe turned into strings, Uint8Arrays and
// arrays (NULL stays null); fn itself when there are none.
export function converting(rt, specs, fn) {
  if (!specs) return fn;
  return (...args) => {
    for (const spec of specs) {
      const p = args[spec.arg - 1];
      if (p === null || p === undefined) continue;
      const count = spec.count;
      const n = count.fixed !== undefined ? count.fixed : count.arg !== undefined ? Number(args[count.arg - 1]) : undefined;
      args[spec.arg - 1] = described(rt, p, spec, n);
    }
    return fn(...args);
  };
}

// call taking a Uint8Array (any ArrayBuffer view: its bytes) for each
// [bytes] argument of function record e: copied into wasm memory for the
// call, what C wrote there copied back into it when the call returns,
// and freed. One the library keeps ([kept=OWNER]) stays in wasm memory
// with its owner, a C object from new (cdata.mjs, keepWith).
export function bytesIn(rt, e, call) {
  const kept = new Map((e.kept || []).map((k) => [k.arg, k.owner]));
  const slots = ((e.values && e.values[0]) || []).filter((s) => s.kind === "bytes").map((s) => s.arg);
  if (!slots.length) return call;
  return (...args) => {
    const copies = [], keeps = [];
    try {
      for (const k of slots) {
        const v = args[k - 1];
        if (!ArrayBuffer.isView(v)) continue;
        const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
        const owner = kept.has(k) ? keeper(args[kept.get(k) - 1], e.error_name, k, kept.get(k)) : undefined;
        const p = rt.alloc(Math.max(bytes.length, 1));
        rt.write(p, bytes);
        args[k - 1] = p;
        if (owner) keeps.push([owner, k, p]);
        else copies.push([p, bytes]);
      }
      const r = call(...args);
      for (const [p, bytes] of copies) bytes.set(rt.mem.u8.subarray(p, p + bytes.length));
      for (const [owner, k, p] of keeps) keepWith(owner, `${e.error_name}#${k}`, p);
      keeps.length = 0;
      return r;
    } finally {
      for (const [p] of copies) rt.free(p);
      for (const [, , p] of keeps) rt.free(p);
    }
  };
}

// The owner of a kept Uint8Array argument k of fn: a C object from new
// (argument o), or the refusal.
function keeper(owner, fn, k, o) {
  if (ownsMemory(owner)) return owner;
  throw new NcccError(`bad argument #${k} to '${fn}' (a Uint8Array the library keeps needs a C object from new as ` +
    `argument #${o}, which keeps it; got ${vtype(owner)})`, { kind: "type", function: fn, parameter: k });
}

// The address an owner is (an object holding one, or the address
// itself: a device's may be wider than wasm's), the key of its groups.
function addressOf(owner) {
  return owner !== null && typeof owner === "object" && typeof owner[ADDRESS] === "function" ? owner[ADDRESS]() : owner;
}

// closureSets(M, rt, t, helpers): the helper S a generated module's
// binders get; t is the bound module (its destructors are found there
// when an owned object is closed).
export function closureSets(M, rt, t, helpers) {
  const sets = new Map();
  for (const e of M.closure_sets) sets.set(e.name, { members: e.members, groups: new Map() });

  // The key of an owner: its address.
  const key = (owner, k, name) => {
    let s;
    try {
      s = pointer(owner);
    } catch (e) {
      throw asArgumentError(e, name, k); // a closed owner
    }
    if (typeof s === "string" || s === 0) {
      throw new NcccError(`bad argument #${k} to '${name}' (${s === 0 ? "NULL owner" : `pointer expected, got ${vtype(owner)}`})`,
        { kind: s === 0 ? "null" : "type", function: name, parameter: k });
    }
    return s;
  };

  // The owner's group of a set, and whether it was claimed now: claimed
  // on first use (scope forever), one member per member of the set, each
  // calling the function registered for it.
  const group = (setName, owner, k, name) => {
    const set = sets.get(setName), id = key(owner, k, name);
    let g = set.groups.get(id);
    if (g && g.closure.live) return [g, false];
    g = { procs: [] };
    const members = set.members.map((member, m) => {
      const fn = (...args) => {
        const proc = g.procs[m];
        if (!proc) throw new NcccError(`closures ${setName}: no function for ${member.name}`, { kind: "callback" });
        return proc(...args);
      };
      return [helpers.signature(member.callback), helpers.values(member.callback, fn)];
    });
    g.closure = rt.callbackGroup("forever", 0, ...members);
    set.groups.set(id, g);
    return [g, true];
  };

  const procedure = (proc, k, name) => {
    if (proc === null || proc === undefined) return null;
    if (typeof proc !== "function") {
      throw new NcccError(`bad argument #${k} to '${name}' (function expected, got ${vtype(proc)})`,
        { kind: "type", function: name, parameter: k });
    }
    return proc;
  };

  return {
    // call with the owner's group in its [closures] and [context] slots:
    // spec = {name, set, owner, members: {slot: member}, context: slot};
    // the context slot is no argument of the JavaScript function. A group
    // claimed by this call is marked fresh, so that a refusal of the
    // call before C runs releases it (calls.mjs).
    closures(call, n, spec) {
      const want = spec.context ? n - 1 : n;
      return (...given) => {
        if (given.length !== want) {
          throw new NcccError(`'${spec.name}' expects ${want} argument${want === 1 ? "" : "s"}, got ${given.length}`,
            { kind: "count", function: spec.name });
        }
        const args = [];
        let j = 0;
        for (let k = 1; k <= n; k++) args[k - 1] = k === spec.context ? undefined : given[j++];
        const procs = {};
        for (const k of Object.keys(spec.members)) procs[k] = procedure(args[k - 1], Number(k), spec.name);
        const [g, fresh] = group(spec.set, args[spec.owner - 1], spec.owner, spec.name);
        g.closure.fresh = fresh;
        for (const [k, m] of Object.entries(spec.members)) {
          g.procs[m] = procs[k];
          args[k - 1] = procs[k] !== null ? g.closure : null;
        }
        if (spec.context) args[spec.context - 1] = g.closure;
        try {
          return call(...args);
        } finally {
          g.closure.fresh = false;
        }
      };
    },

    // call, then the owner's groups in the named sets released.
    release(call, names) {
      return (owner, ...rest) => {
        const s = addressOf(owner);
        const r = call(owner, ...rest);
        if (typeof s === "number" || typeof s === "bigint") {
          for (const name of names) {
            const g = sets.get(name).groups.get(s);
            if (g) {
              sets.get(name).groups.delete(s);
              g.closure.release();
            }
          }
        }
        return r;
      };
    },

    // The free function of an owned object whose destructor frees an
    // owner: the module's own, so that closing it releases the groups.
    freeing(name) {
      return (p) => t[name](p);
    },
  };
}
