// nccc/runtime.mjs — a wasm module built with nccc, instantiated and
// bound (docs/JS.md, "Loading"): its imports (the one callback
// dispatcher, and the few system calls a standalone emscripten module
// makes), views of its memory, the primitive, the slot stack and the
// built-ins. The other parts add their methods to Runtime.prototype:
// registry.mjs, calls.mjs, callbacks.mjs, owned.mjs, packed.mjs.
import abi from "./abi.mjs";
import { NcccError } from "./errors.mjs";

const B = abi.builtin;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

// Bytes of the slot stack: every call's in and out slots, and copies of
// its string arguments, live there while it runs; a callback's calls
// stack on top of the call that made it.
const STACK_BYTES = 1 << 18;

const isNode = typeof process === "object" && process.versions != null &&
  process.versions.node != null;

// The bytes of a module given as a path, URL, Response, buffer or
// compiled module.
async function moduleOf(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof Response === "function" && source instanceof Response) {
    return WebAssembly.compile(await source.arrayBuffer());
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    return WebAssembly.compile(source);
  }
  const text = String(source);
  if (isNode && !/^https?:/.test(text)) {
    const fs = await import("node:fs/promises");
    const path = text.startsWith("file:") ? new URL(text) : text;
    return WebAssembly.compile(await fs.readFile(path));
  }
  const response = await fetch(text);
  if (!response.ok) throw new NcccError(`cannot fetch ${text}: ${response.status}`, { kind: "load" });
  return WebAssembly.compile(await response.arrayBuffer());
}

// The system interface a standalone emscripten module imports: output
// to the console, clocks, random bytes; everything else fails with
// ENOSYS (52) instead of being missing at instantiation.
function systemImports(rt, module) {
  const ENOSYS = 52;
  const lines = { 1: "", 2: "" };
  const wasi = {
    proc_exit(code) { throw new NcccError(`the module exited with status ${code}`, { kind: "exit" }); },
    fd_write(fd, iov, count, written) {
      const m = rt.mem;
      let total = 0;
      for (let k = 0; k < count; k++) {
        const base = m.u32[(iov >> 2) + 2 * k], len = m.u32[(iov >> 2) + 2 * k + 1];
        const text = lines[fd] + decoder.decode(m.u8.subarray(base, base + len));
        const parts = text.split("\n");
        lines[fd] = parts.pop();
        for (const line of parts) (fd === 2 ? console.error : console.log)(line);
        total += len;
      }
      m.u32[written >> 2] = total;
      return 0;
    },
    clock_time_get(id, precision, out) {
      const ns = BigInt(Math.round((id === 0 ? Date.now() : performance.now()) * 1e6));
      rt.mem.u64[out >> 3] = ns;
      return 0;
    },
    random_get(p, n) {
      crypto.getRandomValues(rt.mem.u8.subarray(p, p + n));
      return 0;
    },
    environ_sizes_get(count, size) {
      rt.mem.u32[count >> 2] = 0;
      rt.mem.u32[size >> 2] = 0;
      return 0;
    },
    environ_get() { return 0; },
  };
  const env = {
    emscripten_notify_memory_growth() { rt.refresh(); },
  };
  const imports = { nccc: { dispatch: (inp, out) => rt.dispatch(inp, out) } };
  for (const { module: mod, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== "function" || (mod === "nccc" && name === "dispatch")) continue;
    const table = mod === "wasi_snapshot_preview1" ? wasi : mod === "env" ? env : {};
    imports[mod] = imports[mod] || {};
    imports[mod][name] = table[name] || (() => ENOSYS);
  }
  return imports;
}

// What every call touches, in one object of a fixed shape (engines keep
// its fields at fixed offsets): the views of linear memory; the slot
// stack's top (where the next call's frame begins) and end; frame, the
// end of the frame of the innermost call running; and how many callback
// errors wait for their forward calls.
//
// A call writes its frame at top and sets frame, nothing more: only the
// dispatcher moves top (to frame, while a callback runs, so that the
// callback's own calls stack above the call that made it) and puts both
// back when the callback returns. A wasm trap thus leaves nothing to
// undo, and a call needs no try/finally.
class Memory {
  constructor() {
    this.set(new ArrayBuffer(8));
    this.top = 0;
    this.end = 0;
    this.frame = 0;
    this.pending = 0;
  }

  set(b) {
    this.buffer = b;
    this.shared = typeof SharedArrayBuffer === "function" && b instanceof SharedArrayBuffer;
    this.u8 = new Uint8Array(b);
    this.dv = new DataView(b);
    this.i32 = new Int32Array(b);
    this.u32 = new Uint32Array(b);
    this.f64 = new Float64Array(b);
    this.i64 = new BigInt64Array(b);
    this.u64 = new BigUint64Array(b);
  }
}

export class Runtime {
  constructor() {
    this.mem = new Memory();
    // the errors callbacks raised, each kept for the call whose frame ends
    // at pendingAt[k] (the innermost call running when it was raised),
    // with the count of later ones: ordered by frame, innermost last
    this.pendingAt = [];
    this.pendingError = [];
    this.pendingMore = [];
    this.fns = new Map();    // function address -> the wasm function
    this.builtinAddr = [];
    this.entries = new Map(); // env word -> callback entry (callbacks.mjs)
    this.nextEnv = 1;
    this.lastEnv = 0;         // the entry the dispatcher ran last (0: none)
    this.lastEntry = undefined;
    this.cache = { byName: new Map(), byHandle: new Map(), types: new Map(), consts: new Map(),
      modules: new Map(), sigs: new Map() };
    const b = new ArrayBuffer(8);
    this.scratch = { u8: new Uint8Array(b), i32: new Int32Array(b), u32: new Uint32Array(b),
      f64: new Float64Array(b), i64: new BigInt64Array(b), u64: new BigUint64Array(b) };
  }

  // Fresh views after the memory grew (the old buffer is detached).
  refresh() {
    if (this.mem.buffer !== this.memory.buffer) this.mem.set(this.memory.buffer);
  }

  // The wasm function at a function address (its table index).
  fnAt(addr) {
    let f = this.fns.get(addr);
    if (f === undefined) {
      f = addr > 0 && addr < this.table.length ? this.table.get(addr) : null;
      if (!f) throw new NcccError(`no function at address ${addr}`, { kind: "type" });
      this.fns.set(addr, f);
    }
    return f;
  }

  // Room for a call: its in and out slots (and extra bytes) at the top of
  // the slot stack; the caller writes the arguments there, then calls
  // run(f, frame, label).
  frame(nin, nout, extra = 0) {
    const base = this.mem.top;
    const outp = base + 8 * nin;
    const end = outp + 8 * nout + ((extra + 7) & ~7);
    if (end > this.mem.end) this.stackFull();
    this.mem.u8.fill(0, outp, outp + 8 * nout);
    return { base, inp: base, outp, end, strings: outp + 8 * nout };
  }

  // The primitive: fn(in, out) with the frame pushed while it runs; an
  // error a callback raised meanwhile is thrown here, for this call.
  run(f, fr, label) {
    const m = this.mem;
    m.frame = fr.end;
    f(fr.inp, fr.outp);
    if (m.pending !== 0) this.takePending(fr.end, label);
  }

  stackFull() {
    throw new NcccError("nccc: the slot stack is full (calls nested too deep)", { kind: "range" });
  }

  // Keeps an error a callback raised for the call whose frame ends at at.
  notePending(err, at) {
    const n = this.pendingAt.length;
    if (n > 0 && this.pendingAt[n - 1] === at) {
      this.pendingMore[n - 1]++;
      return;
    }
    this.pendingAt.push(at);
    this.pendingError.push(err);
    this.pendingMore.push(0);
    this.mem.pending = n + 1;
  }

  // After the call whose frame ended at end returned: throws what its
  // callbacks raised (the first error, and the count of later ones).
  // Records of deeper frames are gone calls' (ended by a trap): dropped.
  takePending(end, label) {
    let err = null, more = 0;
    while (this.pendingAt.length > 0 && this.pendingAt.at(-1) >= end) {
      const at = this.pendingAt.pop(), e = this.pendingError.pop(), k = this.pendingMore.pop();
      if (at === end) [err, more] = [e, k];
    }
    this.mem.pending = this.pendingAt.length;
    if (err === null) return;
    const msg = err instanceof Error ? err.message : String(err);
    const rest = more > 0 ? ` (and ${more} more errors in callbacks)` : "";
    throw new NcccError(`error in callback${label ? ` of '${label}'` : ""}: ${msg}${rest}`,
      { kind: "callback", function: label, cause: err });
  }

  // Built-in b with slot arguments (numbers or BigInts): [status, out slots
  // after it as BigInts].
  builtin(b, args, nout) {
    const fr = this.frame(args.length, nout);
    const u64 = this.mem.u64;
    for (let k = 0; k < args.length; k++) u64[(fr.inp >> 3) + k] = BigInt(args[k]);
    this.run(this.fnAt(this.builtinAddr[b]), fr, abi.builtins[b].name);
    const m = this.mem.u64, o = fr.outp >> 3;
    const res = [];
    for (let k = 0; k < nout; k++) res.push(m[o + k]);
    return [Number(res[0]), res];
  }

  // Built-in b with a C copy of string s as its one argument.
  builtinWithString(b, s, nout) {
    const p = this.newCString(s);
    try {
      return this.builtin(b, [p], nout);
    } finally {
      this.free(p);
    }
  }

  // Built-in b as builtin calls it, raising the runtime's last error on
  // a non-zero status.
  check(b, args, nout) {
    const [st, res] = this.builtin(b, args, nout);
    if (st !== 0) {
      const [, msg] = this.lastError();
      throw new NcccError(`nccc: ${abi.builtins[b].name} failed: ${msg} (status 0x${st.toString(16)})`,
        { kind: "status", status: st });
    }
    return res;
  }

  lastError() {
    const [, res] = this.builtin(B.last_error, [], 3);
    return [Number(res[1]), this.cstring(Number(res[2]))];
  }

  clearError() { this.builtin(B.clear_error, [], 1); }

  // ---- C memory ---------------------------------------------------------

  alloc(n) {
    return Number(this.check(B.alloc, [n], 2)[1]);
  }

  free(p) { this.builtin(B.free, [p ?? 0], 1); }

  // The NUL-terminated UTF-8 string at p (null for NULL), or its n bytes.
  cstring(p, n) {
    if (!p) return null;
    if (typeof p !== "number") throw new NcccError(`address expected, got ${typeof p}`, { kind: "type" });
    const u8 = this.mem.u8;
    let end = p + (n ?? 0);
    if (n === undefined) while (end < u8.length && u8[end] !== 0) end++;
    // TextDecoder refuses views of shared memory (a threaded module's): copy
    return decoder.decode(this.mem.shared ? u8.slice(p, end) : u8.subarray(p, end));
  }

  // The UTF-8 bytes of string s with a final NUL; refuses NUL inside.
  utf8(s) {
    if (s.includes("\0")) throw new NcccError("string contains a NUL byte", { kind: "nul" });
    return encoder.encode(s + "\0");
  }

  // A C copy of string s in memory from alloc (the caller frees it).
  newCString(s) {
    const bytes = this.utf8(s);
    const p = this.alloc(bytes.length);
    this.mem.u8.set(bytes, p);
    return p;
  }

  read(p, n) { return this.mem.u8.slice(p, p + n); }

  write(p, bytes) { this.mem.u8.set(bytes, p); }
}

// load(source[, options]): instantiates an nccc wasm module (a path or
// URL, a Response, bytes or a WebAssembly.Module) and binds its root.
// options.root: the exported root (default "nccc_root").
export async function load(source, options = {}) {
  const rt = new Runtime();
  const module = await moduleOf(source);
  const instance = await WebAssembly.instantiate(module, systemImports(rt, module));
  rt.instance = instance;
  return bind(rt, instance.exports, instance.exports.memory, options);
}

// attach(module[, options]): binds a module that emscripten's own
// JavaScript glue instantiated and started (a threaded module: the glue
// runs its threads), given as the glue's Module object once it is
// ready. Its dispatcher import (env.nccc_js_dispatch, nccc_js_imports.js)
// calls module.ncccDispatch, set here. options as for load.
export async function attach(module, options = {}) {
  const ex = module && module.asm;
  if (!ex || typeof ex !== "object") {
    throw new NcccError("nccc: attach takes the Module object of emscripten's glue, once it is ready", { kind: "load" });
  }
  const rt = new Runtime();
  module.ncccDispatch = (inp, out) => rt.dispatch(inp, out);
  return bind(rt, ex, module.wasmMemory || ex.memory, options);
}

// Binds the root of an instance whose exports are ex and memory memory:
// the built-ins, the slot stack, the version.
function bind(rt, ex, memory, options) {
  rt.exports = ex;
  rt.memory = memory;
  rt.table = ex.__indirect_function_table;
  rt.refresh();
  if (typeof ex._initialize === "function") ex._initialize();
  const root = ex[options.root || "nccc_root"];
  if (typeof ex.nccc_js_dispatcher !== "function" || typeof root !== "function") {
    throw new NcccError("nccc: the module exports no nccc_root and nccc_js_dispatcher " +
      "(build it with nccc_add_bindings(... SHARED) for emscripten)", { kind: "load" });
  }
  rt.dispatcherAddr = ex.nccc_js_dispatcher();
  const base = Number(ex.malloc(STACK_BYTES));
  if (!base) throw new NcccError("nccc: no memory for the slot stack", { kind: "load" });
  rt.refresh();
  rt.mem.top = base;
  rt.mem.end = base + STACK_BYTES;
  rt.rootFn = root;
  for (let k = 0; k < abi.builtins.length; k++) {
    const fr = rt.frame(1, 4);
    rt.mem.u64[fr.inp >> 3] = BigInt(k);
    rt.run(root, fr, "nccc_root");
    const m = rt.mem.u64;
    if (m[fr.outp >> 3] !== 0n) throw new NcccError(`nccc: the root has no built-in ${k}`, { kind: "load" });
    rt.builtinAddr[k] = Number(m[(fr.outp >> 3) + 1]);
  }
  for (let k = 0; k < abi.builtins.length; k++) {
    const name = rt.cstring(Number(rt.check(B.builtin, [k], 4)[2]));
    if (name !== abi.builtins[k].name) {
      throw new NcccError(`nccc: built-in ${k} is '${name}', expected '${abi.builtins[k].name}'`, { kind: "load" });
    }
  }
  rt.version = rt.cstring(Number(rt.check(B.version, [], 3)[2]));
  return rt;
}
