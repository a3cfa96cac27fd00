// nccc/callbacks.mjs — C calling JavaScript back (docs/JS.md,
// "Callbacks"): closures claimed from the runtime whose target is the
// one dispatcher the wasm module imported at instantiation, and whose
// environment word names an entry of the runtime's table: the function,
// and the converters of its arguments and results.
import abi from "./abi.mjs";
import { NcccError, refusal, vtype } from "./errors.mjs";
import { ADDRESS, GET, PUT, packRecord, unpackRecord, valueList } from "./values.mjs";

// The methods this part gives the Runtime (composed in index.mjs).
export const methods = {};

const B = abi.builtin, RECORD = abi.grammar.record_open;

// A closure: pass it where a generated function takes a callback.
export class Closure {
  static ncccType = "closure";

  constructor(rt, scope, signatures) {
    this.rt = rt;
    this.scope = scope;
    this.live = true;
    this.signatures = signatures;
    this.ctx = 0;
    this.envs = [];
  }

  get signature() { return this.signatures[0]; }

  // The context C gets, as a number.
  get context() { return this.ctx; }

  // Passed for a plain pointer, a closure is its context.
  [ADDRESS]() { return this.ctx; }

  // Releases it now (release notices included); false if it was released.
  release() {
    if (!this.live) return false;
    const [st] = this.rt.builtin(B.closure_release, [this.ctx], 1);
    return st === 0;
  }
}

// The entry of one callback: fn with its arguments read from in[1..] and
// its results written to out[] by the signature's items.
function entry(rt, sig, fn, closure, k) {
  if (typeof sig !== "string") throw new NcccError(`bad callback #${k} (signature string expected)`, { kind: "type" });
  if (typeof fn !== "function") throw new NcccError(`bad callback #${k} (function expected, got ${vtype(fn)})`, { kind: "type" });
  const p = rt.parseSignature(sig, undefined, `callback ${sig}`);
  if (p.varIn || p.varOut) throw new NcccError("a callback signature cannot end in '*'", { kind: "type" });
  if (p.outs.some((item) => item.code === "s")) {
    throw new NcccError(`callback ${sig}: cannot return a string (nothing would own its memory)`, { kind: "type" });
  }
  const args = p.ins.map((item) => {
    if (item.code === RECORD) return (a) => unpackRecord(item.layout, rt.mem.u8.slice(a, a + item.layout.size));
    if (item.code === "s") return (a) => rt.cstring(rt.mem.u32[a >> 2]);
    const get = GET[item.code];
    return (a) => get(rt.mem, a);
  });
  const results = p.outs.map((item, j) => {
    if (item.code === RECORD) return (a, v) => rt.mem.u8.set(packRecord(item.layout, v), a);
    const put = PUT[item.code];
    return (a, v) => {
      const why = put(rt.mem, a, v);
      if (why !== undefined) {
        throw new NcccError(`callback ${sig}: bad result #${j + 1} (${refusal(why, item.code, v)[1]})`, { kind: "type" });
      }
    };
  });
  const quick = directRun(rt, fn, p, results);
  return {
    closure, fn,
    run: quick || function (inp, outp) {
      const vals = valueList();
      let a = inp + 8;
      for (let j = 0; j < args.length; j++) {
        vals.push(args[j](a));
        a += 8 * p.ins[j].slots;
      }
      const r = fn(...vals);
      if (results.length === 1) results[0](outp, r);
      else if (results.length > 1) {
        if (!Array.isArray(r)) {
          throw new NcccError(`callback ${sig}: ${results.length} results expected (an array), got ${vtype(r)}`, { kind: "type" });
        }
        let o = outp;
        for (let j = 0; j < results.length; j++) {
          results[j](o, r[j]);
          o += 8 * p.outs[j].slots;
        }
      }
    },
  };
}

// The run of a callback whose arguments are up to four one-slot scalars
// and whose result is at most one: fn called with the values themselves,
// no list of them (the common case, and the one a benchmark measures).
function directRun(rt, fn, p, results) {
  if (p.ins.length > 4 || results.length > 1) return null;
  if (p.ins.some((item) => item.slots !== 1 || item.code === "s" || !GET[item.code])) return null;
  const [g0, g1, g2, g3] = p.ins.map((item) => GET[item.code]);
  const put = results.length ? results[0] : () => {};
  switch (p.ins.length) {
    case 0: return (inp, outp) => put(outp, fn());
    case 1: return (inp, outp) => put(outp, fn(g0(rt.mem, inp + 8)));
    case 2: return (inp, outp) => put(outp, fn(g0(rt.mem, inp + 8), g1(rt.mem, inp + 16)));
    case 3: return (inp, outp) => {
      const m = rt.mem;
      put(outp, fn(g0(m, inp + 8), g1(m, inp + 16), g2(m, inp + 24)));
    };
    default: return (inp, outp) => {
      const m = rt.mem;
      put(outp, fn(g0(m, inp + 8), g1(m, inp + 16), g2(m, inp + 24), g3(m, inp + 32)));
    };
  }
}

// The one dispatcher (the wasm import "nccc" "dispatch"): in[0] is the
// env word. out == 0 is a release notice. An exception never leaves
// here, which would unwind through C frames: the first one is kept and
// thrown by the forward call under way (Runtime.takePending).
//
// The entry C called last is kept beside the table (lastEnv, lastEntry;
// dropEntry forgets it with its entry): C mostly calls one callback many
// times in a row (a comparator, a row callback, a fold), and the table's
// lookup was a third of what a callback cost the dispatcher.
methods.dispatch = function (inp, outp) {
  const m = this.mem;
  const env = m.u32[inp >> 2];
  let e = this.lastEntry;
  if (env !== this.lastEnv) {
    e = this.entries.get(env);
    if (e === undefined) return;
    this.lastEnv = env;
    this.lastEntry = e;
  }
  if (outp === 0) {
    this.dropEntry(env);
    if (e.closure) e.closure.live = false;
    return;
  }
  const top = m.top, frame = m.frame;
  m.top = frame;
  try {
    e.run(inp, outp);
  } catch (err) {
    this.notePending(err, frame);
  } finally {
    m.top = top;
    m.frame = frame;
  }
};

// Every closure sends release notices and runs only on the thread that
// claimed it (docs/CALLBACKS.md).
function scopeFlags(scope) {
  const value = abi.scopes[scope === undefined ? "call" : scope];
  if (value === undefined) {
    throw new NcccError(`unknown scope '${String(scope)}' (call, async, notified or forever)`, { kind: "scope" });
  }
  return value | abi.closure_flags.notify | abi.closure_flags.thread;
}

// The C string of a callback signature, made once: claims pass it to the
// runtime, which records the closure's type from it.
methods.signatureCString = function (sig) {
  let p = this.cache.sigs.get(sig);
  if (p === undefined) {
    p = this.newCString(sig);
    this.cache.sigs.set(sig, p);
  }
  return p;
};

methods.addEntry = function (e) {
  const env = this.nextEnv++;
  this.entries.set(env, e);
  return env;
};

// Removes the entry of env (never used again: env words only grow).
methods.dropEntry = function (env) {
  this.entries.delete(env);
  if (this.lastEnv === env) {
    this.lastEnv = 0;
    this.lastEntry = undefined;
  }
};

methods.claimFailed = function (st, what, envs) {
  for (const env of envs) this.dropEntry(env);
  const msg = this.lastError()[1];
  if (st === abi.status.ERR_POOL_EXHAUSTED) {
    return new NcccError(`closure pool exhausted: ${msg}`, { kind: "pool", status: st });
  }
  return new NcccError(`cannot claim a ${what}: ${msg}`, { kind: "status", status: st });
};

// rt.callback(sig, fn[, scope]): a closure for fn, to pass in a 'c'
// slot. sig is the callback type's signature (its slots after in[0]);
// scope is "call" (default), "async", "notified" or "forever".
methods.callback = function (sig, fn, scope) {
  const flags = scopeFlags(scope);
  const c = new Closure(this, scope || "call", [sig]);
  const env = this.addEntry(entry(this, sig, fn, c, 1));
  const [st, res] = this.builtin(B.closure_claim_typed, [this.dispatcherAddr, env, flags, this.signatureCString(sig)], 2);
  if (st !== 0) throw this.claimFailed(st, "closure", [env]);
  c.ctx = Number(res[1]);
  c.envs = [env];
  return c;
};

// rt.callbackGroup(scope, final, [sig, fn], ...): callbacks of one C
// function that share one context; member k is the k-th pair, final
// (from 0) the member whose call ends an async group.
methods.callbackGroup = function (scope, final, ...members) {
  const flags = scopeFlags(scope);
  const n = members.length;
  if (n === 0) throw new NcccError("callbackGroup needs at least one [sig, fn]", { kind: "count" });
  if (!Number.isInteger(final) || final < 0 || final >= n) {
    throw new NcccError(`bad argument #2 to 'callbackGroup' (value ${String(final)} out of range for a member index)`, { kind: "range" });
  }
  const c = new Closure(this, scope || "call", []);
  const args = [flags, final, n], envs = [];
  try {
    members.forEach((m, k) => {
      if (!Array.isArray(m)) throw new NcccError(`bad callback #${k + 1} ([sig, fn] expected)`, { kind: "type" });
      const env = this.addEntry(entry(this, m[0], m[1], c, k + 1));
      envs.push(env);
      c.signatures.push(m[0]);
      args.push(this.dispatcherAddr, env, this.signatureCString(m[0]));
    });
  } catch (e) {
    for (const env of envs) this.dropEntry(env);
    throw e;
  }
  const [st, res] = this.builtin(B.closure_claim_group_typed, args, 2);
  if (st !== 0) throw this.claimFailed(st, "closure group", envs);
  c.ctx = Number(res[1]);
  c.envs = envs;
  return c;
};

// capacity, in use, stale calls, type mismatches, wrong-thread calls
methods.closureStats = function () {
  const n = abi.builtins[B.closure_stats].n_out;
  return this.check(B.closure_stats, [], n).slice(1).map(Number);
};

// How many host functions the runtime's table holds for C to call.
methods.refs = function () { return this.entries.size; };
