// cases.mjs — runs the host case table (test/hosts/cases.json) through
// the JavaScript support library and the generated modules tour.mjs,
// hcb.mjs and cdata.mjs, on a wasm build of the host fixture that the caller loaded
// (rt). runCases returns the failures and the cases not run (a case
// whose "needs" this runner does not implement: notRun, each "name
// (needs what)"); cases.test.mjs runs it under node --test. With device
// true, rt is a device (nccc/remote) serving module cdata, and only the
// cases that need cdata run, through the C objects of a module bound from
// a device (async get and set for fields) and the device's memory
// (test/remote/cases.test.mjs). The case format is described in the
// "about" field of the case file.
import * as nccc from "../../bindings/js/nccc/index.mjs";

// Words an error message of each kind must contain.
const ERROR_WORDS = {
  count: "expects", type: "expected, got", range: "out of range",
  integral: "no integer representation", unknown: "unknown", callback: "error in callback",
  nul: "NUL byte", field: "has no field", scope: "scope", released: "released",
  closed: "closed", pool: "pool", packed: "packed", null: "NULL",
  record: "struct or union", index: "out of range", freed: "was freed", size: "bytes expected",
  outlive: "would not outlive", kept: "keeps",
};

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// The exact value of a 64-bit spec.
const big = (text) => BigInt.asIntN(64, BigInt(text));
const ubig = (text) => BigInt.asUintN(64, BigInt(text));

// The "needs" of the case table this runner implements: cdata, the C
// object steps (docs/JS.md, "C objects").
const HAS = new Set(["cdata"]);

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (h) => parseInt(h, 16));

export async function runCases({ rt, gen, cases, device = false }) {
  if (!device) {
    const [st] = rt.callAddress(rt.symbol(cases.fixture.open), cases.fixture.signature);
    if (st !== 0) throw new Error("fixture open failed");
  }
  const mods = {};
  for (const m of device ? ["cdata"] : ["tour", "hcb", "cdata"]) mods[m] = await (await import(`${gen}/${m}.mjs`)).bind(rt);
  // a function's description by name (its outs)
  const fnOf = device ? async (name) => rt.described.get(await rt.handle(name)) : async (name) => rt.fn(name);

  let c; // the running case: its saved values, closures and baselines

  function resolve(spec) {
    if (Array.isArray(spec)) {
      const list = nccc.valueList();
      for (const v of spec) list.push(resolve(v));
      return list;
    }
    if (!isObject(spec)) return spec;
    if (spec.i64 !== undefined) return big(spec.i64);
    if (spec.u64 !== undefined) return ubig(spec.u64);
    if (spec.f64 !== undefined) return nccc.bitsToDouble(ubig(spec.f64));
    if (spec.null) return null;
    if (spec.closure !== undefined) return c.closures[spec.closure];
    if (spec.procedure !== undefined) return c.procedures[spec.procedure];
    if (spec.saved !== undefined) return c.saved[spec.saved];
    if (spec.constant !== undefined) return rt.constant(spec.constant);
    if (spec.symbol !== undefined) return rt.symbol(spec.symbol);
    if (spec.bytes !== undefined) return hexBytes(spec.bytes);
    if (spec.struct !== undefined) {
      const t = {};
      for (const [k, v] of Object.entries(spec.struct)) t[k] = resolve(v);
      return t;
    }
    throw new Error("unknown value spec");
  }

  const show = (v) => (typeof v === "bigint" ? `${v}n` : JSON.stringify(v, (k, x) => (typeof x === "bigint" ? `${x}n` : x)) ?? String(v));

  // Does actual match spec? [true] or [false, why].
  function match(spec, actual) {
    const no = (what) => [false, `expected ${what}, got ${show(actual)}`];
    const yes = (cond, what) => (cond ? [true] : no(what));
    if (isObject(spec)) {
      if (spec.any) return [true];
      if (spec.save !== undefined) {
        c.saved[spec.save] = actual;
        return [true];
      }
      if (spec.null) return yes(actual === null || actual === undefined, "NULL");
      if (spec.nonnull) return yes(actual !== null && actual !== undefined, "non-NULL");
      if (spec.i64 !== undefined || spec.u64 !== undefined) {
        const want = spec.i64 !== undefined ? big(spec.i64) : ubig(spec.u64);
        return yes((typeof actual === "bigint" || typeof actual === "number") && BigInt(actual) === want, String(want));
      }
      if (spec.f64 !== undefined) {
        if (typeof actual !== "number") return no("a float");
        const got = nccc.doubleToBits(actual);
        return yes(got === ubig(spec.f64), `bits ${spec.f64} (got bits 0x${got.toString(16)})`);
      }
      if (spec.constant !== undefined) return match(rt.constant(spec.constant), actual);
      if (spec.bytes !== undefined) {
        const want = hexBytes(spec.bytes);
        return yes(actual instanceof Uint8Array && actual.length === want.length && actual.every((b, k) => b === want[k]),
          `bytes ${spec.bytes}`);
      }
      if (spec.struct !== undefined) {
        if (!isObject(actual)) return no("an object");
        for (const [k, v] of Object.entries(spec.struct)) {
          const [ok, why] = match(v, actual[k]);
          if (!ok) return [false, `${k}: ${why}`];
        }
        return [true];
      }
      return [false, "bad expectation"];
    }
    if (Array.isArray(spec)) {
      if (!Array.isArray(actual)) return no("a list");
      if (actual.length !== spec.length) return no(`${spec.length} elements`);
      for (let k = 0; k < spec.length; k++) {
        const [ok, why] = match(spec[k], actual[k]);
        if (!ok) return [false, `[${k + 1}]: ${why}`];
      }
      return [true];
    }
    if (typeof spec === "number") {
      if (typeof actual === "bigint") return yes(Number.isInteger(spec) && actual === BigInt(spec), String(spec));
      return yes(typeof actual === "number" && actual === spec, String(spec));
    }
    return yes(actual === spec, String(spec));
  }

  // A call's results as a list: none, one value, or the array of several.
  const resultList = (f, r) => (f.outs.length === 0 ? [] : f.outs.length === 1 ? [r] : r);

  function expectValues(spec, results) {
    if (spec.length !== results.length) return [false, `${spec.length} results expected, got ${results.length}`];
    for (let k = 0; k < spec.length; k++) {
      const [ok, why] = match(spec[k], results[k]);
      if (!ok) return [false, `result ${k + 1}: ${why}`];
    }
    return [true];
  }

  const call = (name, args) => {
    const m = /^(.*)\.([^.]+)$/.exec(name);
    if (mods[m[1]]) {
      const fn = mods[m[1]][m[2]];
      if (typeof fn !== "function") throw new nccc.NcccError(`unknown function '${name}'`, { kind: "unknown" });
      return resultList(rt.fn(name), fn(...args));
    }
    return resultList(rt.fn(name), rt.call(name, ...args));
  };

  // What a callback of a case does ("do" of its step).
  const BEHAVIOURS = {
    sum: () => (...a) => a.reduce((s, x) => s + x, typeof a[0] === "bigint" ? 0n : 0),
    double: () => (x) => (typeof x === "bigint" ? 2n * x : 2 * x),
    collect: (rec) => (...a) => { rec.collected.push(a); },
    error: () => () => { throw new Error("boom"); },
    reenter: () => (a, b) => mods.tour.add(a, b),
    bad_result: () => () => "x",
    divmod: () => (a, b) => [Math.trunc(a / b), a - Math.trunc(a / b) * b],
  };

  function makeCallback(spec) {
    const rec = { calls: 0, collected: [] };
    const d = spec.do;
    let body;
    if (typeof d === "string" && BEHAVIOURS[d]) body = BEHAVIOURS[d](rec);
    else if (isObject(d) && d.arg !== undefined) body = (...a) => a[d.arg - 1];
    else if (isObject(d) && d.call !== undefined) {
      body = () => {
        rec.collected.push(call(d.call, resolve(d.args || [])));
        return d.returns;
      };
    } else if (isObject(d) && d.release !== undefined) {
      // a release inside the callback (its own closure too), then a result
      body = () => {
        rec.collected.push([c.closures[d.release].release()]);
        return d.returns;
      };
    } else if (isObject(d) && d.fill !== undefined) {
      // the bytes into the buffer to fill (a Uint8Array view), as many as fit
      const data = hexBytes(d.fill);
      body = (buffer) => {
        const k = Math.min(data.length, buffer.length);
        buffer.set(data.subarray(0, k));
        return k;
      };
    } else if (isObject(d) && d.error_at !== undefined) {
      body = (a, b) => {
        if (rec.calls === d.error_at) throw new Error("boom");
        return a + b;
      };
    } else throw new Error("unknown callback behaviour");
    return [rec, (...a) => {
      rec.calls++;
      return body(...a);
    }];
  }

  // Runs fn; checks a thrown error against step.error, or hands on the results.
  async function outcome(step, fn) {
    let results;
    try {
      results = await fn();
    } catch (e) {
      if (!step.error) return [false, `error: ${e && e.message}`];
      if (!(e instanceof nccc.NcccError)) return [false, `not an NcccError: ${e}`];
      const words = ERROR_WORDS[step.error];
      if (!e.message.includes(words)) return [false, `error '${e.message}' lacks '${words}'`];
      if (step.message && !e.message.includes(step.message)) return [false, `error '${e.message}' lacks '${step.message}'`];
      return [true];
    }
    if (step.error) return [false, "error expected, call succeeded"];
    return [true, results];
  }

  // MODULE.TYPE as [MODULE, TYPE].
  const split = (qualified) => /^(.*)\.([^.]+)$/.exec(qualified).slice(1);
  // The layout of MODULE.TYPE (on a device: the bound module's).
  const layoutOf = (qualified) => (device ? mods[split(qualified)[0]].layout(split(qualified)[1]) : rt.layout(qualified));

  const cbSignature = (spec) => {
    if (!spec.type) return spec.signature;
    const [m, name] = spec.type.split(".");
    return mods[m].signature(name);
  };

  const STEPS = {
    async call(step) {
      const args = resolve(step.args || []);
      const fn = step.handle ? () => resultList(rt.fn(rt.lookup(step.call)), rt.call(rt.lookup(step.call), ...args))
        : step.registry ? () => resultList(rt.fn(step.call), rt.call(step.call, ...args))
          : device ? async () => resultList(await fnOf(step.call), await mods.cdata[split(step.call)[1]](...args))
            : () => call(step.call, args);
      const [ok, res] = await outcome(step, fn);
      if (!ok || step.error) return [ok, res];
      return expectValues(step.expect || [], res);
    },
    async constant(step) {
      const [ok, res] = await outcome(step, () => rt.constant(step.constant));
      if (!ok || step.error) return [ok, res];
      return match(step.expect, res);
    },
    async layout(step) {
      const [ok, layout] = await outcome(step, () => rt.layout(step.layout));
      if (!ok || step.error) return [ok, layout];
      const want = step.expect;
      for (const key of ["size", "align", "kind"]) {
        if (want[key] !== undefined && layout[key] !== want[key]) return [false, `${key}: expected ${want[key]}, got ${layout[key]}`];
      }
      for (const wf of want.fields || []) {
        const fd = layout.field[wf.name];
        if (!fd) return [false, `no field ${wf.name}`];
        for (const [key, v] of Object.entries(wf)) {
          if (fd[key] !== v) return [false, `field ${wf.name} ${key}: expected ${v}, got ${fd[key]}`];
        }
      }
      if (want.nfields !== undefined && layout.fields.length !== want.nfields) {
        return [false, `${want.nfields} fields expected, got ${layout.fields.length}`];
      }
      return [true];
    },
    modules(step) {
      const present = new Set(rt.modules().map((m) => m.name));
      const missing = step.modules.filter((n) => !present.has(n));
      return missing.length ? [false, `module missing: ${missing[0]}`] : [true];
    },
    async functions(step) {
      const [ok, list] = await outcome(step, () => rt.functions(step.functions));
      if (!ok || step.error) return [ok, list];
      if (step.count !== undefined && list.length !== step.count) return [false, `${step.count} functions expected, got ${list.length}`];
      for (const [name, sig] of Object.entries(step.include || {})) {
        const fn = list.find((f) => f.name === `${step.functions}.${name}`);
        if (!fn) return [false, `function missing: ${name}`];
        if (fn.signature !== sig) return [false, `${name}: signature ${fn.signature}, expected ${sig}`];
        if (rt.lookup(fn.name) !== fn.handle) return [false, `${name}: handle differs from lookup`];
      }
      return [true];
    },
    async signature(step) {
      const [ok, res] = await outcome(step, () => rt.signature(step.signature));
      if (!ok || step.error) return [ok, res];
      return match(step.expect, res);
    },
    async callback(step) {
      const [rec, fn] = makeCallback(step);
      const make = step.type
        ? () => mods[step.type.split(".")[0]].callback(step.type.split(".")[1], fn, step.scope)
        : () => rt.callback(step.signature, fn, step.scope);
      const [ok, res] = await outcome(step, make);
      if (!ok || step.error) return [ok, res];
      c.closures[step.callback] = res;
      c.records[step.callback] = [rec];
      return [true];
    },
    procedure(step) {
      const [rec, fn] = makeCallback(step);
      c.procedures[step.procedure] = fn;
      c.records[step.procedure] = [rec];
      return [true];
    },
    async group(step) {
      const members = [], recs = [];
      for (const m of step.members) {
        const [rec, fn] = makeCallback(m);
        members.push([cbSignature(m), fn]);
        recs.push(rec);
      }
      const [ok, res] = await outcome(step, () => rt.callbackGroup(step.scope, step.final, ...members));
      if (!ok || step.error) return [ok, res];
      c.closures[step.group] = res;
      c.records[step.group] = recs;
      return [true];
    },
    release(step) {
      const got = c.closures[step.release].release();
      return got === step.expect ? [true] : [false, `release returned ${got}`];
    },
    check(step) {
      const cl = c.closures[step.check], rec = c.records[step.check][step.member || 0];
      if (step.live !== undefined && (!cl || cl.live !== step.live)) return [false, `live is ${cl && cl.live}`];
      if (step.calls !== undefined && rec.calls !== step.calls) return [false, `${rec.calls} calls, expected ${step.calls}`];
      if (step.collected !== undefined) return match(step.collected, rec.collected);
      return [true];
    },
    counters(step) {
      const now = counters();
      for (const [key, delta] of Object.entries(step.counters)) {
        if (now[key] - c.base[key] !== delta) return [false, `${key} changed by ${now[key] - c.base[key]}, expected ${delta}`];
      }
      return [true];
    },
    async alloc(step) {
      const n = step.alloc;
      c.saved[step.save] = await rt.alloc(isObject(n) ? layoutOf(n.sizeof).size * (n.count ?? 1) : n);
      return [true];
    },
    async free(step) {
      await rt.free(resolve(step.free));
      return [true];
    },
    async read_string(step) {
      const [ok, res] = await outcome(step, () => rt.cstring(resolve(step.read_string)));
      if (!ok || step.error) return [ok, res];
      return match(step.expect, res);
    },
    async packed(step) {
      const args = (step.args || []).map((a) => (isObject(a) && a.f64 !== undefined ? nccc.float(resolve(a)) : resolve(a)));
      const [ok, res] = await outcome(step, () => rt.packed(step.packed, ...args));
      if (!ok || step.error) return [ok, res];
      return expectValues(step.expect || [], res === undefined ? [] : [res]);
    },
    async register_packed(step) {
      const [rec, fn] = makeCallback(step);
      c.records[step.register_packed] = [rec];
      const [ok, res] = await outcome(step, () => rt.registerPacked(step.register_packed, step.psig, fn));
      return ok && !step.error ? [true] : [ok, res];
    },
    async exhaust(step) {
      const made = [];
      let err = null;
      for (let k = 0; k < step.max && err === null; k++) {
        try {
          made.push(rt.callback(step.exhaust.signature, () => 0, step.exhaust.scope));
        } catch (e) {
          err = e;
        }
      }
      for (const cl of made) cl.release();
      if (err === null) return [false, `no error after ${step.max} closures`];
      return outcome(step, () => { throw err; });
    },
    async close(step) {
      const got = await resolve(step.close).close();
      return got === step.expect ? [true] : [false, `close returned ${got}`];
    },
    forget(step) {
      delete c.saved[step.forget];
      return [true];
    },
    async collect() {
      for (let k = 0; k < 4; k++) {
        globalThis.gc();
        await new Promise((r) => setTimeout(r, 10));
      }
      return [true];
    },
    // ---- C objects (docs/JS.md, "C objects") ----
    async new(step) {
      const [m, name] = split(step.new);
      const [ok, res] = await outcome(step, () => mods[m].new(name, step.value === undefined ? undefined : resolve(step.value)));
      if (ok && !step.error) {
        c.saved[step.save] = res;
        c.made.push(res);
      }
      return [ok, res];
    },
    async view(step) {
      const [m, name] = split(step.view);
      const [ok, res] = await outcome(step, () => mods[m].view(name, resolve(step.at), step.count));
      if (ok && !step.error) c.saved[step.save] = res;
      return [ok, res];
    },
    async field(step) {
      const path = step.path, last = path[path.length - 1];
      const [ok, res] = await outcome(step, () => {
        let o = resolve(step.field);
        if (device) return step.set === undefined ? o.get(...path) : o.set(...path, resolve(step.set));
        for (const p of path.slice(0, -1)) o = o[p];
        if (step.set === undefined) return o[last];
        o[last] = resolve(step.set);
        return undefined;
      });
      if (!ok || step.error || step.set !== undefined) return [ok, res];
      return match(step.expect, res);
    },
    async record(step) {
      const [ok, res] = await outcome(step, () => resolve(step.record).record());
      if (!ok || step.error) return [ok, res];
      return match(step.expect, res);
    },
    async assign(step) {
      const [ok, res] = await outcome(step, () => resolve(step.assign).assign(resolve(step.value)));
      return ok ? [true] : [ok, res];
    },
    async read_bytes(step) {
      return match(step.expect, await rt.read(resolve(step.read_bytes), step.length));
    },
    async write_bytes(step) {
      await rt.write(resolve(step.write_bytes), hexBytes(step.bytes));
      return [true];
    },
    async repeat(step) {
      for (let k = 1; k <= step.repeat; k++) {
        const [ok, why] = await runStep(step.step);
        if (!ok) return [false, `round ${k}: ${why}`];
      }
      return [true];
    },
  };

  function counters() {
    const [, inUse, stale, mismatched, wrongThread] = rt.closureStats();
    return { refs: rt.refs(), in_use: inUse, stale, mismatched, wrong_thread: wrongThread };
  }

  // Checked in this order: a callback step also has a "signature".
  const ORDER = ["call", "packed", "register_packed", "callback", "procedure", "group", "exhaust", "constant",
    "layout", "modules", "functions", "signature", "release", "check", "counters", "close", "forget",
    "collect", "alloc", "free", "read_string", "repeat", "new", "view", "field", "record", "assign", "read_bytes",
    "write_bytes"];

  async function runStep(step) {
    const key = ORDER.find((k) => step[k] !== undefined);
    return key ? STEPS[key](step) : [false, "unknown step"];
  }

  const failures = [];
  const notRun = [];
  let passed = 0;
  for (const kase of cases.cases) {
    if (device && kase.needs !== "cdata") continue;
    if (kase.needs !== undefined && !HAS.has(kase.needs)) {
      notRun.push(`${kase.name} (needs ${kase.needs})`);
      continue;
    }
    c = { saved: {}, closures: {}, procedures: {}, records: {}, made: [], base: device ? undefined : counters() };
    const steps = kase.steps || [kase];
    let why = null;
    for (let k = 0; k < steps.length && why === null; k++) {
      // on a device a step's remote_error replaces what it expects; the case ends after it
      const refused = device && steps[k].remote_error !== undefined;
      const { expect, ...rest } = steps[k];
      try {
        const [ok, detail] = await runStep(refused ? { ...rest, error: steps[k].remote_error } : steps[k]);
        if (!ok) why = `step ${k + 1}: ${detail}`;
      } catch (e) {
        why = `step ${k + 1} raised: ${e && e.stack}`;
      }
      if (refused) break;
    }
    // on a device, whose memory may hold a few blocks only, the objects
    // the case made are freed now (in wasm memory, by the collector)
    if (device) for (const o of c.made) await o.free();
    if (why === null) passed++;
    else failures.push(`${kase.name}: ${why}`);
  }
  return { passed, failures, notRun };
}
