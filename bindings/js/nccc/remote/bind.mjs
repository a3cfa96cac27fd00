// nccc/remote/bind.mjs — generated JavaScript modules bound to a device
// (docs/JS.md, "Remote devices"): the same M.mjs that binds to a wasm
// runtime binds to a Device, whose bindModule, special and fast make
// asynchronous callers that convert values by the device's signatures
// and layouts, carry strings inside the call, pass closures on to the
// device (rpc.claim) and run the device's nested calls of them.
import abi from "../abi.mjs";
import { NcccError, badArgument, countError, refusal } from "../errors.mjs";
import { Runtime } from "../runtime.mjs";
import "../registry.mjs";
import { checkingClosures, signatureOf, findEntry, TARGETS, WASM32 } from "../binder.mjs";
import { closureSets } from "../owners.mjs";
import { GET, PUT, packRecord, unpackRecord, valueList } from "../values.mjs";
import { Device, address, failure } from "./device.mjs";

const G = abi.grammar, RECORD = G.record_open, ST = abi.status, H = abi.handle;
// The handle the device's nested calls of the runner carry: the host
// has no registry here, so any valid handle names the runner.
const RUNNER = (H.module_marker + H.function_marker) >>> 0;
// rpc.claim's in slots: runner, scope, final member, n; per member the
// host context and three slots of signature bytes.
const SIGNATURE_SLOTS = 3;

const encoder = new TextEncoder();
// A slot's bits as the converters of values.mjs read and write them.
const scratch = (() => {
  const b = new ArrayBuffer(8);
  return { buffer: b, u8: new Uint8Array(b), i32: new Int32Array(b), u32: new Uint32Array(b),
    f64: new Float64Array(b), i64: new BigInt64Array(b), u64: new BigUint64Array(b) };
})();

// A closure of a device call: fn, called when the device calls the
// callback (docs/JS.md, "Remote devices").
export class RemoteClosure {
  static ncccType = "closure";

  constructor(device, signature, fn, scope) {
    this.device = device;
    this.signatures = [signature];
    this.fn = fn;
    this.scope = scope;
    this.live = true;
    this.parsed = device.parse(signature, `callback ${signature}`);
  }

  get signature() { return this.signatures[0]; }

  release() {
    if (!this.live) return false;
    this.live = false;
    if (this.ctx !== undefined) this.device.closures.delete(this.ctx);
    return true;
  }
}

// ---- what generated modules call ----

Device.prototype.parse = function (sig, label) {
  return Runtime.prototype.parseSignature.call(this, sig, this.boundIndex, label);
};

// The layout of a record type, in the module being bound or any bound before.
Device.prototype.findType = function (mi, name) {
  if (this.types.has(mi) && this.types.get(mi).has(name)) return this.types.get(mi).get(name);
  for (const types of this.types.values()) if (types.has(name)) return types.get(name);
  return undefined;
};

// The layouts of device module mi, read with the built-ins.
async function readTypes(dev, mi, mname, ntypes) {
  const types = new Map();
  for (let t = 0; t < ntypes; t++) {
    const o = await dev.builtin("module_type", [mi, t]);
    const layout = { name: o[1], module: mname, size: Number(o[2]), align: Number(o[3]),
      kind: abi.type_kinds[Number(o[4])] || "unknown", fields: [], field: {} };
    layout.slots = Math.ceil(layout.size / 8);
    for (let k = 0; k < Number(o[5]); k++) {
      const f = await dev.builtin("module_field", [mi, t, k]);
      const fd = { name: f[1], type: f[2], offset: Number(f[3]), size: Number(f[4]), count: Number(f[5]) };
      layout.fields.push(fd);
      layout.field[fd.name] = fd;
    }
    types.set(layout.name, layout);
  }
  for (const layout of types.values()) {
    for (const fd of layout.fields) {
      const m = fd.type.startsWith(RECORD) && /^.([A-Za-z_][A-Za-z0-9_]*)/.exec(fd.type);
      if (m) fd.layout = types.get(m[1]);
    }
  }
  return types;
}

// The constants of device module mi by name (string constants read from
// the device, other values by their code).
async function readConstants(dev, mi, nconst) {
  const consts = {};
  for (let k = 0; k < nconst; k++) {
    const [, name, code, value] = await dev.builtin("module_constant", [mi, k]);
    if (code === "s") {
      consts[name] = value === 0n ? null : await dev.cstring(value);
    } else {
      scratch.u64[0] = value;
      consts[name] = (GET[code] || GET[G.variadic])(scratch, 0);
    }
  }
  return consts;
}

// dev.bindModule(M) (M.bind(dev)): a Promise of the bound module, an
// object with an async function per IDL function, the constants, and
// the helpers callback, signature, layout and runtime (the device).
Device.prototype.bindModule = async function (M) {
  this.types = this.types || new Map();
  this.described = this.described || new Map();
  this.closures = this.closures || new Map();
  let mi;
  try {
    [, mi] = await this.builtin("module_find", [M.name]);
  } catch (e) {
    if (e.kind === "remote") throw e;
    throw new NcccError(`the device has no module '${M.name}'`, { kind: "unknown", status: e.status });
  }
  mi = Number(mi);
  const [, mname, , ntypes, nconst] = await this.builtin("module_info", [mi]);
  this.types.set(mi, await readTypes(this, mi, mname, Number(ntypes)));
  this.boundIndex = mi;
  const t = {}, helpers = {};
  const S = closureSets(M, this, t, helpers);
  let targets = [...Array(TARGETS).keys()];
  for (const e of M.functions) {
    const name = `${M.name}.${e[0]}`;
    let found;
    try {
      found = await this.lookup(name);
    } catch (err) {
      if (err.kind === "remote") throw err;
      throw new NcccError(`the device has no function '${name}'`, { kind: "unknown", status: err.status });
    }
    const keep = targets.filter((k) => signatureOf(e, k) === found.signature);
    if (keep.length === 0) {
      throw new NcccError(`nccc: ${name} has signature '${found.signature}' on the device, not the one ${M.name}.mjs was generated with`, { kind: "type" });
    }
    targets = keep;
    const f = { name, handle: found.handle, signature: found.signature, ...this.parse(found.signature, name) };
    this.described.set(found.handle, f);
    const binder = M.binders[e[0]];
    t[e[0]] = binder ? binder(this, found.handle, S) : this.fast(found.handle);
  }
  const first = targets.includes(WASM32) ? WASM32 : targets[0];
  helpers.signature = (name) => signatureOf(findEntry(M, M.callbacks, name, "callback type"), first);
  helpers.callback = (name, fn, scope) => this.callback(helpers.signature(name), fn, scope);
  helpers.layout = (name) => {
    const l = this.types.get(mi).get(name);
    if (!l) throw new NcccError(`unknown type '${M.name}.${name}'`, { kind: "unknown" });
    return l;
  };
  for (const [fname, params] of Object.entries(M.closure_params)) {
    const want = {};
    for (const [k, types] of Object.entries(params)) want[k] = types.map(helpers.signature);
    // refused as a rejection, as every failure of a device's function is
    const checked = checkingClosures(`${M.name}.${fname}`, t[fname], want, params);
    t[fname] = async (...args) => checked(...args);
  }
  const values = await readConstants(this, mi, Number(nconst));
  for (const c of M.constants) {
    if (values[c] === undefined) throw new NcccError(`nccc: the device has no constant '${M.name}.${c}'`, { kind: "unknown" });
    t[c] = values[c];
  }
  Object.assign(t, helpers);
  t.runtime = this;
  return t;
};

// A specialised caller writes wasm memory: on a device every function
// takes the generic caller, with the same options.
Device.prototype.special = function (h, sig, make, opts) {
  return this.fast(h, opts);
};

// dev.fast(handle[, opts]): the async caller of a function the bound
// module described (opts as rt.fast takes them: nonnull, outs).
Device.prototype.fast = function (h, opts = {}) {
  const f = this.described.get(h);
  if (f.varIn || f.varOut) {
    return async () => {
      throw failure(ST.ERR_NOT_IMPLEMENTED, `'${f.name}': a function whose signature has a '*' side cannot be called through a bound module`);
    };
  }
  const dev = this;
  return async function (...args) {
    return dev.invoke(f, args, opts);
  };
};

// dev.callback(signature, fn[, scope]): a closure to pass to a device
// function's callback parameter (scope "call" by default).
Device.prototype.callback = function (signature, fn, scope = "call") {
  if (typeof fn !== "function") throw new NcccError(`function expected, got ${typeof fn}`, { kind: "type" });
  if (!abi.scopes[scope]) throw new NcccError(`unknown scope '${scope}'`, { kind: "scope" });
  return new RemoteClosure(this, signature, fn, scope);
};

// ---- one call ----

function pointerSlot(dev, v) {
  if (v === null || v === undefined) return 0n;
  if (typeof v !== "number" && typeof v !== "bigint") return "type";
  if (typeof v === "number" && !Number.isInteger(v)) return "integral";
  const a = BigInt(v);
  if (a < 0n || a >= 2n ** 64n) return "range";
  if (dev.session.device.pointerBytes === 4 && a > 0xffffffffn) {
    throw failure(ST.ERR_RPC_WORD_SIZE, "a pointer wider than the device's pointers");
  }
  return a;
}

// The in slots of one argument (an array of BigInts), or why it was refused.
async function argumentSlots(dev, item, v, claims) {
  if (item.code === RECORD) {
    const bytes = new Uint8Array(8 * item.slots);
    bytes.set(packRecord(item.layout, v));
    return [...new BigUint64Array(bytes.buffer)];
  }
  if (item.code === "p" || item.code === "F") {
    const s = pointerSlot(dev, v);
    return typeof s === "string" ? s : [s];
  }
  if (item.code === "c") {
    if (v === null || v === undefined) return [0n];
    if (!(v instanceof RemoteClosure)) return "type";
    if (!v.live) return "released";
    return [await dev.claim(v, claims)];
  }
  const why = PUT[item.code](scratch, 0, v);
  return why === undefined ? [scratch.u64[0]] : why;
}

Device.prototype.invoke = async function (f, args, opts) {
  if (args.length !== f.ins.length) throw countError(f.name, f.ins.length, args.length, false);
  const nonnull = opts.nonnull || {}, outsAs = opts.outs || {};
  const slots = [], stringsIn = [], claims = [];
  try {
    for (let k = 0; k < args.length; k++) {
      const item = f.ins[k], v = args[k];
      if (nonnull[k + 1] && (v === null || v === undefined || v === 0)) throw badArgument(f.name, k + 1, "null", item.code, v);
      if (item.code === "s" && v !== null) {
        if (typeof v !== "string") throw badArgument(f.name, k + 1, "type", "s", v);
        if (v.includes("\0")) {
          throw new NcccError(`bad argument #${k + 1} to '${f.name}' (string contains a NUL byte)`,
            { kind: "nul", function: f.name, parameter: k + 1 });
        }
        stringsIn.push({ slot: slots.length, bytes: encoder.encode(v) });
        slots.push(0n);
        continue;
      }
      const got = item.code === "s" ? [0n] : await argumentSlots(this, item, v, claims);
      if (typeof got === "string") throw badArgument(f.name, k + 1, got, item.code, v);
      slots.push(...got);
    }
    const fetch = [];
    let at = 0;
    for (let k = 0; k < f.outs.length; k++) {
      if (f.outs[k].code === "s" && !outsAs[k + 1]) fetch.push(at);
      at += f.outs[k].slots;
    }
    // what the device's nested calls during this one leave: the first
    // error a callback raised
    const tag = { pending: null };
    const r = await this.call(f.handle, slots, f.nout, stringsIn, fetch, tag);
    if (tag.pending) throw tag.pending;
    // a callback the device could not send (past its depth) fails the call
    if (this.recorded[0] === ST.ERR_RPC_DEPTH) throw failure(ST.ERR_RPC_DEPTH, this.recorded[1]);
    return await this.results(f, r, outsAs);
  } catch (e) {
    if (e instanceof NcccError && e.status !== undefined && e.function === undefined) throw asCallError(f.name, e);
    throw e;
  } finally {
    for (const c of args) if (c instanceof RemoteClosure && c.scope === "call") c.release();
  }
};

// A failure of the call named for its function.
function asCallError(name, e) {
  const what = e.kind === "remote" ? "remote call failed" : "the device refused the call";
  const err = new NcccError(`'${name}': ${what}: ${e.message}`, { kind: e.kind, status: e.status, function: name, cause: e });
  return err;
}

Device.prototype.results = async function (f, r, outsAs) {
  const list = valueList();
  let at = 0;
  for (let k = 0; k < f.outs.length; k++) {
    const item = f.outs[k], code = outsAs[k + 1] || item.code;
    if (code === RECORD) {
      const bytes = new Uint8Array(r.out.slice(at, at + item.slots).buffer);
      list.push(unpackRecord(item.layout, bytes.subarray(0, item.layout.size)));
    } else if (code === "s") {
      list.push(await this.stringResult(r, at));
    } else if (code === "p" || code === "F" || code === "c") {
      list.push(address(r.out[at]));
    } else {
      scratch.u64[0] = r.out[at];
      list.push(GET[code](scratch, 0));
    }
    at += item.slots;
  }
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : list;
};

// ---- closures across the wire ----

// Passes closure c on to the device (rpc.claim): the device's context.
Device.prototype.claim = async function (c, claims) {
  if (c.ctx === undefined) {
    this.nextClosure = (this.nextClosure || 0) + 1;
    c.ctx = this.nextClosure;
  }
  this.closures.set(c.ctx, c);
  const sig = new Uint8Array(8 * SIGNATURE_SLOTS);
  sig.set(encoder.encode(c.signature).subarray(0, sig.length - 1));
  const ins = [BigInt(RUNNER), BigInt(abi.scopes[c.scope]), 0n, 1n, BigInt(c.ctx), ...new BigUint64Array(sig.buffer)];
  const r = await this.call(await this.handle(abi.rpc.claim.name), ins, 2);
  const st = Number(BigInt.asIntN(32, r.out[0]));
  if (st !== ST.OK) throw failure(st, `the device could not claim a closure for '${c.signature}'`);
  claims.push(r.out[1]);
  return r.out[1];
};

// The device's nested call of the runner: a closure's callback, or its
// release. Resolves to the out slots.
Device.prototype.serveNested = async function (h, slots, nOut, tag) {
  if (h !== RUNNER || slots.length < 2) throw failure(ST.ERR_BAD_HANDLE, "the host serves only its callback runner");
  const c = this.closures.get(Number(slots[0]));
  const member = Number(slots[1]);
  if (member & abi.rpc.released) {
    if (c) c.release();
    return [];
  }
  if (!c || !c.live) throw failure(ST.ERR_STALE_CLOSURE, "the closure was released");
  const p = c.parsed;
  if (slots.length - 2 !== p.nin || nOut !== p.nout) throw failure(ST.ERR_NUM_ARGUMENTS, `callback ${c.signature}: wrong slot counts`);
  const args = [];
  let at = 2;
  for (const item of p.ins) {
    if (item.code === RECORD) {
      args.push(unpackRecord(item.layout, new Uint8Array(slots.slice(at, at + item.slots).buffer).subarray(0, item.layout.size)));
    } else if (item.code === "s") {
      args.push(slots[at] === 0n ? null : await this.cstring(slots[at]));
    } else if (item.code === "p" || item.code === "F" || item.code === "c") {
      args.push(address(slots[at]));
    } else {
      scratch.u64[0] = slots[at];
      args.push(GET[item.code](scratch, 0));
    }
    at += item.slots;
  }
  let result;
  try {
    result = await c.fn(...args);
  } catch (e) {
    // kept, and raised when the call that led here returns
    if (tag && !tag.pending) tag.pending = e;
    return new Array(nOut).fill(0n);
  }
  const values = p.outs.length === 1 ? [result] : p.outs.length ? result : [];
  const out = [];
  p.outs.forEach((item, j) => {
    const v = values[j];
    if (item.code === RECORD) {
      const bytes = new Uint8Array(8 * item.slots);
      bytes.set(packRecord(item.layout, v));
      out.push(...new BigUint64Array(bytes.buffer));
      return;
    }
    const why = item.code === "p" || item.code === "F" ? pointerSlot(this, v) : PUT[item.code](scratch, 0, v);
    if (typeof why === "string") {
      const e = new NcccError(`callback ${c.signature}: bad result #${j + 1} (${refusal(why, item.code, v)[1]})`, { kind: "type" });
      if (tag && !tag.pending) tag.pending = e;
      out.push(0n);
    } else {
      out.push(typeof why === "bigint" ? why : scratch.u64[0]);
    }
  });
  return out;
};
