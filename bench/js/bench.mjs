// bench.mjs — time per call and per callback from JavaScript under node,
// in one run (docs/BENCHMARKS.md, "JavaScript"): the functions of
// bench/targets.c through the module generated from bench/bench.idl
// (nccc), against the same C compiled by emcc with its own glue: the
// direct export call (Module._bench_add), ccall, and a callback made
// with addFunction. run.sh builds both and calls
//
//   node bench.mjs NCCC_WASM BENCH_MJS PEERS_MJS BINDINGS [N [ROUNDS]]
//
// NCCC_WASM: the nccc build (runtime, wrappers, targets); BENCH_MJS: the
// generated bench.mjs; PEERS_MJS: emcc's glue of the peer build;
// BINDINGS: bindings/js. Prints one line per variant; *.wrapped is the
// direct export called from a JavaScript function of the arguments (the
// floor of any binding made of JavaScript functions), *.hand the cheapest
// slot path written by hand (no checks), the floor of the generated
// caller's design.
//
// Every variant is its own loop (one call site each, so that no variant
// makes another's call polymorphic), feeds each result into the next
// call and checks the final value, so a variant that skipped its calls
// fails. Rounds alternate the variants; each variant's figure is its
// best round, in CPU time (the machine's other load counts least there).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [wasm, benchMjs, peersMjs, bindings, count, roundsArg] = process.argv.slice(2);
if (!bindings) {
  console.error('usage: node bench.mjs NCCC_WASM BENCH_MJS PEERS_MJS BINDINGS [N [ROUNDS]]');
  process.exit(2);
}
const N = Number(count ?? 1000000);
const ROUNDS = Number(roundsArg ?? 7);
const NB = BigInt(N);
const url = (p) => pathToFileURL(resolve(p)).href;
const nccc = await import(url(`${bindings}/nccc/index.mjs`));
const bench = (await import(url(benchMjs))).bind(await nccc.load(resolve(wasm)));
const peers = await (await import(url(peersMjs))).default();

// add(acc, i) for i = 0 .. N-1 and fold's callbacks sum to N(N-1)/2;
// mix4(k, acc, 1, 0.5) adds k + 1.5 (exact in doubles below 2^53).
const addSum = (NB * (NB - 1n)) / 2n;
const mix4Sum = (N * (N - 1)) / 2 + 1.5 * N;

// The direct calls read Module._bench_add at each call, as a program
// would: emcc's glue first exports a stub that replaces itself with the
// wasm export at its first call (a copy taken earlier keeps the stub).
const { ccall } = peers;
const { add, mix4, fold } = bench;
const stepPointer = peers.addFunction((acc, i) => acc + i, 'jjji');
const stepClosure = bench.callback('step_fn', (acc, i) => acc + i, 'forever');
// The cheapest slot path, by hand: each wrapper called as the wasm
// function it is, its slots at the top of the slot stack (rt.mem: the
// memory's views, kept fresh by the runtime, and the stack's top); no
// checks, no frame kept for callbacks.
const rt = bench.runtime;
const m = rt.mem;
const addWrapper = rt.fnAt(rt.fn('bench.add').addr);
const mix4Wrapper = rt.fnAt(rt.fn('bench.mix4').addr);
function addHand(a, b) {
  const t = m.top, k = t >> 3;
  m.i64[k] = a;
  m.i64[k + 1] = b;
  addWrapper(t, t + 16);
  return m.i64[k + 2];
}
function mix4Hand(a, b, c, d) {
  const t = m.top, w = t >> 2;
  m.i32[w] = a;
  m.i32[w + 1] = a >> 31;
  m.f64[(t >> 3) + 1] = b;
  m.i32[w + 4] = c;
  m.i32[w + 5] = c >> 31;
  m.f64[(t >> 3) + 3] = d;
  mix4Wrapper(t, t + 32);
  return m.f64[(t >> 3) + 4];
}
// The direct export called from inside a JavaScript function: what a
// binding made of JavaScript functions costs before any work of its own
// (V8 inlines the function and the wasm call into the loop, yet a wasm
// call made from an inlined function costs more than one made by the
// loop itself).
const addWrapped = (a, b) => peers._bench_add(a, b);
const mix4Wrapped = (a, b, c, d) => peers._bench_mix4(a, b, c, d);
const addTypes = ['number', 'number'];
const mix4Types = ['number', 'number', 'number', 'number'];

const variants = [
  ['add.direct', addSum, () => {
    let acc = 0n;
    for (let i = 0n; i < NB; i++) acc = peers._bench_add(acc, i);
    return acc;
  }],
  ['add.wrapped', addSum, () => {
    let acc = 0n;
    for (let i = 0n; i < NB; i++) acc = addWrapped(acc, i);
    return acc;
  }],
  ['add.ccall', addSum, () => {
    let acc = 0n;
    for (let i = 0n; i < NB; i++) acc = ccall('bench_add', 'number', addTypes, [acc, i]);
    return acc;
  }],
  ['add.generated', addSum, () => {
    let acc = 0n;
    for (let i = 0n; i < NB; i++) acc = add(acc, i);
    return acc;
  }],
  ['add.hand', addSum, () => {
    let acc = 0n;
    for (let i = 0n; i < NB; i++) acc = addHand(acc, i);
    return acc;
  }],
  ['mix4.direct', mix4Sum, () => {
    let acc = 0;
    for (let k = 0; k < N; k++) acc = peers._bench_mix4(k, acc, 1, 0.5);
    return acc;
  }],
  ['mix4.wrapped', mix4Sum, () => {
    let acc = 0;
    for (let k = 0; k < N; k++) acc = mix4Wrapped(k, acc, 1, 0.5);
    return acc;
  }],
  ['mix4.ccall', mix4Sum, () => {
    let acc = 0;
    for (let k = 0; k < N; k++) acc = ccall('bench_mix4', 'number', mix4Types, [k, acc, 1, 0.5]);
    return acc;
  }],
  ['mix4.generated', mix4Sum, () => {
    let acc = 0;
    for (let k = 0; k < N; k++) acc = mix4(k, acc, 1, 0.5);
    return acc;
  }],
  ['mix4.hand', mix4Sum, () => {
    let acc = 0;
    for (let k = 0; k < N; k++) acc = mix4Hand(k, acc, 1, 0.5);
    return acc;
  }],
  ['cb.addFunction', addSum, () => peers._bench_fold(NB, stepPointer, 0)],
  ['cb.generated', addSum, () => fold(NB, stepClosure)],
];

function cpuMs(body, name, expect) {
  const t0 = process.cpuUsage();
  const got = body();
  const dt = process.cpuUsage(t0);
  if (got !== expect) throw new Error(`${name}: ${got}, expected ${expect}`);
  return (dt.user + dt.system) / 1000;
}

const best = new Map();
for (const [name, expect, body] of variants) cpuMs(body, name, expect); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, expect, body] of variants) {
    const ms = cpuMs(body, name, expect);
    best.set(name, Math.min(ms, best.get(name) ?? Infinity));
  }
}
stepClosure.release();

console.log(`ns per call (add, mix4) and per callback (cb); ${N} iterations, best of ${ROUNDS} rounds; CPU time; node ${process.version}`);
console.log('ratio: against the direct export call (add.direct, mix4.direct) or the addFunction callback (cb.addFunction)');
console.log();
console.log('variant             ns/call    ratio');
let base = 0;
for (const [name] of variants) {
  const ns = (best.get(name) * 1e6) / N;
  if (name.endsWith('.direct') || name === 'cb.addFunction') base = ns;
  console.log(`${name.padEnd(16)} ${ns.toFixed(2).padStart(10)} ${(ns / base).toFixed(2).padStart(8)}`);
}
