// nccc/special.mjs — the callers of functions of numbers only, made from
// their binding records when a module is bound (docs/JS.md, "Generated
// modules"; binder.mjs). A function whose wasm32 slots are all numbers,
// booleans and pointers (no string, closure or record, nothing to own)
// gets a caller that tests each argument, writes it straight into the
// slot stack and reads each result straight out of it; a call with any
// value it does not take (a wrong type, a number for an int64, a value
// out of range, NULL, an object holding a pointer) goes whole to the
// generic caller (rt.fast), which converts it or raises.
//
// The caller is one of a fixed set of closures, one per count of
// arguments (0 to 4, then one walking arrays), over a test, a store and
// a reader per slot chosen from the slot's ABI code: no code is made at
// run time.
import abi from "./abi.mjs";

const KINDS_IN = new Set(["int", "float", "bool", "pointer", "function"]);
const KINDS_OUT = new Set([...KINDS_IN, "errno"]);

// The signature of e a specialised caller is made for, or undefined when
// its slots or its record ask for more than numbers (sig: e's wasm32
// signature).
export function specialSignature(e, sig) {
  if (e.owned || e.owned_strings || e.owned_pointers || e.thunks || e.frees) return undefined;
  if ((e.closures || []).length) return undefined;
  const [ins, outs] = sig.split(abi.grammar.separator);
  const ok = (kinds) => (c) => abi.codes[c] !== undefined && kinds.has(abi.codes[c].kind);
  if ([...ins].every(ok(KINDS_IN)) && [...outs].every(ok(KINDS_OUT))) return sig;
  return undefined;
}

// The test that v takes the fast path into a slot of code c (every value
// does when its store converts or raises).
function accepts(c) {
  if (c.kind === "pointer" || c.kind === "function") {
    // wasm32: an address is an unsigned 32-bit number; NULL, and objects
    // holding an address, take the generic caller
    return (v) => typeof v === "number" && v >>> 0 === v && v !== 0;
  }
  if (c.kind === "bool") return (v) => typeof v === "boolean";
  if (c.kind === "float") return c.bytes === 8 ? (v) => typeof v === "number" : () => true;
  if (c.bytes === 8) {
    // asIntN/asUintN: engines compile these; comparing with BigInt
    // constants costs several times more
    return c.signed
      ? (v) => typeof v === "bigint" && BigInt.asIntN(64, v) === v
      : (v) => typeof v === "bigint" && BigInt.asUintN(64, v) === v;
  }
  const { min, max } = c;
  if (c.signed) {
    if (c.bytes < 4) return (v) => typeof v === "number" && (v | 0) === v && v >= min && v <= max;
    return (v) => typeof v === "number" && (v | 0) === v;
  }
  if (c.bytes < 4) return (v) => typeof v === "number" && v >>> 0 === v && v <= max;
  return (v) => typeof v === "number" && v >>> 0 === v;
}

// The store of argument k (from 1) into its slot of the frame at t, once
// accepts took it; a float goes through rt.put (its rounding and range).
function store(rt, f, c, k) {
  const w = 2 * (k - 1), d = k - 1;
  if (c.kind === "bool") return (m, t, v) => { m.u32[(t >> 2) + w] = v ? 1 : 0; m.u32[(t >> 2) + w + 1] = 0; };
  if (c.kind === "float") {
    return c.bytes === 8 ? (m, t, v) => { m.f64[(t >> 3) + d] = v; } : (m, t, v) => rt.put(f, k, t + 8 * d, v);
  }
  if (c.bytes === 8) {
    return c.signed ? (m, t, v) => { m.i64[(t >> 3) + d] = v; } : (m, t, v) => { m.u64[(t >> 3) + d] = v; };
  }
  if (c.signed) return (m, t, v) => { m.i32[(t >> 2) + w] = v; m.i32[(t >> 2) + w + 1] = v >> 31; };
  return (m, t, v) => { m.u32[(t >> 2) + w] = v; m.u32[(t >> 2) + w + 1] = 0; };
}

// The reader of the result in slot s of the frame at t.
function reader(c, s) {
  if (c.kind === "pointer" || c.kind === "function") return (m, t) => m.u32[(t >> 2) + 2 * s] || null;
  if (c.kind === "bool") return (m, t) => m.u32[(t >> 2) + 2 * s] !== 0;
  if (c.kind === "float") return (m, t) => m.f64[(t >> 3) + s];
  if (c.bytes === 8) return c.signed ? (m, t) => m.i64[(t >> 3) + s] : (m, t) => m.u64[(t >> 3) + s];
  return c.signed ? (m, t) => m.i32[(t >> 2) + 2 * s] : (m, t) => m.u32[(t >> 2) + 2 * s];
}

// The reader of all results: none, one, or several as an array.
function results(rt, readers) {
  if (readers.length === 0) return () => undefined;
  if (readers.length === 1) return readers[0];
  return (m, t) => rt.results(...readers.map((r) => r(m, t)));
}

// Each shape below: the frame at the stack's top t; one test takes the
// count, every argument and the frame's room, else the whole call goes to
// slow; then the stores, and run (runner below).
const SHAPES = [
  (p) => {
    const { m, slow, end, run } = p;
    return function () {
      const t = m.top;
      if (arguments.length !== 0 || t + end > m.end) return slow(...arguments);
      return run(t);
    };
  },
  (p) => {
    const { m, slow, end, run } = p;
    const [ok1] = p.ok, [st1] = p.st;
    return function (a1) {
      const t = m.top;
      if (arguments.length !== 1 || !ok1(a1) || t + end > m.end) return slow(...arguments);
      st1(m, t, a1);
      return run(t);
    };
  },
  (p) => {
    const { m, slow, end, run } = p;
    const [ok1, ok2] = p.ok, [st1, st2] = p.st;
    return function (a1, a2) {
      const t = m.top;
      if (arguments.length !== 2 || !ok1(a1) || !ok2(a2) || t + end > m.end) return slow(...arguments);
      st1(m, t, a1);
      st2(m, t, a2);
      return run(t);
    };
  },
  (p) => {
    const { m, slow, end, run } = p;
    const [ok1, ok2, ok3] = p.ok, [st1, st2, st3] = p.st;
    return function (a1, a2, a3) {
      const t = m.top;
      if (arguments.length !== 3 || !ok1(a1) || !ok2(a2) || !ok3(a3) || t + end > m.end) return slow(...arguments);
      st1(m, t, a1);
      st2(m, t, a2);
      st3(m, t, a3);
      return run(t);
    };
  },
  (p) => {
    const { m, slow, end, run } = p;
    const [ok1, ok2, ok3, ok4] = p.ok, [st1, st2, st3, st4] = p.st;
    return function (a1, a2, a3, a4) {
      const t = m.top;
      if (arguments.length !== 4 || !ok1(a1) || !ok2(a2) || !ok3(a3) || !ok4(a4) || t + end > m.end) {
        return slow(...arguments);
      }
      st1(m, t, a1);
      st2(m, t, a2);
      st3(m, t, a3);
      st4(m, t, a4);
      return run(t);
    };
  },
];

// The rest of a call once its arguments are stored in the frame at t:
// the frame marked running (m.frame), the wasm function fn over in and
// out slots, the callback error it left, and the results read.
function runner(rt, f, fn, m, end, outAt, read) {
  return (t) => {
    m.frame = t + end;
    fn(t, t + outAt);
    if (m.pending !== 0) rt.takePending(t + end, f.name);
    return read(m, t);
  };
}

// More arguments: the same steps over the arrays of tests and stores.
function walking(p) {
  const { m, slow, end, run, ok, st } = p;
  const n = ok.length;
  return function (...args) {
    const t = m.top;
    if (args.length !== n || t + end > m.end) return slow(...args);
    for (let k = 0; k < n; k++) if (!ok[k](args[k])) return slow(...args);
    for (let k = 0; k < n; k++) st[k](m, t, args[k]);
    return run(t);
  };
}

// The specialised caller of function f (rt.fn's) for signature sig, over
// the wasm function fn and the runtime's memory object m (its views, the
// slot stack's top, end and running frame, the count of pending callback
// errors: runtime.mjs, Memory); slow: the generic caller.
export function specialCaller(rt, sig, f, fn, m, slow) {
  const [ins, outs] = sig.split(abi.grammar.separator).map((s) => [...s].map((c) => abi.codes[c]));
  const end = 8 * (ins.length + outs.length);
  const read = results(rt, outs.map((c, j) => reader(c, ins.length + j)));
  const p = {
    m, slow, end,
    ok: ins.map(accepts),
    st: ins.map((c, j) => store(rt, f, c, j + 1)),
    run: runner(rt, f, fn, m, end, 8 * ins.length, read),
  };
  return (SHAPES[ins.length] || walking)(p);
}
