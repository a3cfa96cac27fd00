// nccc/remote/bind.mjs — generated JavaScript modules bound to a device
// (docs/JS.md, "Remote devices"): the same M.mjs that binds to a wasm
// runtime binds to a Device, whose bindModule, special and fast make
// asynchronous callers that convert values by the device's signatures
// and layouts, carry strings inside the call, pass closures on to the
// device (rpc.claim) and run the device's nested calls of them.
import abi from "../abi.mjs";
import { NcccError, asArgumentError, badArgument, countError } from "../errors.mjs";
import { addField, linkFields, methods as registry, newLayout } from "../registry.mjs";
import { checkClosures, checkingClosures, functionCall, setConstants, signatureOf, findEntry, TARGETS, WASM32 } from "../binder.mjs";
import { closureSets } from "../owners.mjs";
import { GET, valueList } from "../values.mjs";
import { failure } from "./device.mjs";
import { RemoteClosure } from "./callbacks.mjs";
import { slotsOf, valueNow, valueOf } from "./slots.mjs";
import { objectsOf } from "./objects.mjs";
import { bytesOnDevice } from "./buffers.mjs";

// The methods this part gives the Device (composed in remote/index.mjs).
export const methods = {};

const G = abi.grammar, ST = abi.status;
const ILP32 = abi.targets[WASM32].data_model;
const encoder = new TextEncoder();

// ---- what generated modules call ----

methods.parse = function (sig, label) {
  return registry.parseSignature.call(this, sig, this.boundIndex, label);
};

// The layout of a record type, in the module being bound or any bound before.
methods.findType = function (mi, name) {
  if (!this.types) return undefined;
  if (this.types.has(mi) && this.types.get(mi).has(name)) return this.types.get(mi).get(name);
  for (const types of this.types.values()) if (types.has(name)) return types.get(name);
  return undefined;
};

// The layouts of device module mi, read with the built-ins (a field of
// a type the module lacks keeps no layout).
async function readTypes(dev, mi, mname, ntypes) {
  const types = new Map();
  for (let t = 0; t < ntypes; t++) {
    const o = await dev.builtin("module_type", [mi, t]);
    const layout = newLayout(o[1], mname, o);
    for (let k = 0; k < Number(o[5]); k++) {
      const f = await dev.builtin("module_field", [mi, t, k]);
      addField(layout, f[1], f[2], f);
    }
    types.set(layout.name, layout);
  }
  linkFields(types, () => {});
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
      consts[name] = await valueOf(dev, { code: GET[code] ? code : G.variadic }, [value], 0);
    }
  }
  return consts;
}

// dev.bindModule(M) (M.bind(dev)): a Promise of the bound module, an
// object with an async function per IDL function, the constants, and
// the helpers callback, signature, layout and runtime (the device).
methods.bindModule = async function (M) {
  this.types = this.types || new Map();
  this.described = this.described || new Map();
  let mi;
  try {
    [, mi] = await this.builtin("module_find", [M.module]);
  } catch (e) {
    if (e.kind === "remote") throw e;
    throw new NcccError(`the device has no module '${M.module}'`, { kind: "unknown", status: e.status });
  }
  mi = Number(mi);
  const [, mname, , ntypes, nconst] = await this.builtin("module_info", [mi]);
  this.types.set(mi, await readTypes(this, mi, mname, Number(ntypes)));
  this.boundIndex = mi;
  const t = {}, helpers = {};
  const S = closureSets(M, this, t, helpers);
  let targets = [...Array(TARGETS).keys()];
  for (const e of M.functions) {
    const name = e.error_name;
    let found;
    try {
      found = await this.lookup(name);
    } catch (err) {
      if (err.kind === "remote") throw err;
      throw new NcccError(`the device has no function '${name}'`, { kind: "unknown", status: err.status });
    }
    const keep = targets.filter((k) => signatureOf(e, k) === found.signature);
    if (keep.length === 0) {
      throw new NcccError(`nccc: ${name} has signature '${found.signature}' on the device, not the one ${M.module}.mjs was generated with`, { kind: "type" });
    }
    targets = keep;
    const f = { name, handle: found.handle, signature: found.signature, ...this.parse(found.signature, name) };
    this.described.set(found.handle, f);
    try {
      t[e.name] = bytesOnDevice(this, e, functionCall(this, M, e, found.handle, S));
    } catch (err) {
      if (err instanceof NcccError) err.message = `'${name}': ${err.message}`;
      throw err;
    }
  }
  // the target whose entries the module's callbacks take: one of the
  // device's pointer width among those its signatures allow
  const wide = this.info.pointerBytes === 8;
  const fits = targets.filter((k) => (abi.targets[k].data_model !== ILP32) === wide);
  const first = fits.length ? fits[0] : targets[0];
  helpers.signature = (name) => signatureOf(findEntry(M, M.callbacks, name, "callback type"), first);
  helpers.values = (name, fn) => {
    const v = findEntry(M, M.callbacks, name, "callback type").values;
    return this.converting(v && (v.length > 1 ? v[first] : v[0]), fn);
  };
  helpers.callback = (name, fn, scope) => this.callback(helpers.signature(name), helpers.values(name, fn), scope);
  helpers.layout = (name) => {
    const l = this.types.get(mi).get(name);
    if (!l) throw new NcccError(`unknown type '${M.module}.${name}'`, { kind: "unknown" });
    return l;
  };
  checkClosures(t, M, helpers.signature, (e, want, params) => {
    // refused as a rejection, as every failure of a device's function is
    const checked = checkingClosures(e.error_name, t[e.name], want, params);
    return async (...args) => checked(...args);
  });
  setConstants(t, M, await readConstants(this, mi, Number(nconst)), "device");
  // C objects in the device's memory (objects.mjs), of its layouts
  const objects = objectsOf(this, M.module, this.types.get(mi), M.layouts);
  helpers.new = (name, value) => objects.make(name, value);
  helpers.view = (name, p, count) => objects.view(name, p, count);
  Object.assign(t, helpers);
  t.runtime = this;
  return t;
};

// A specialised caller writes wasm memory: on a device every function
// takes the generic caller, with the same options.
methods.special = function (h, sig, make, opts) {
  return this.fast(h, opts);
};

// dev.fast(handle[, opts]): the async caller of a function the bound
// module described (opts as rt.fast takes them: nonnull, outs).
methods.fast = function (h, opts = {}) {
  const f = this.described.get(h);
  if (f.varIn || f.varOut) {
    return async () => {
      throw failure(ST.ERR_NOT_IMPLEMENTED, `'${f.name}': a function whose signature has a '*' side cannot be called through a bound module`);
    };
  }
  const dev = this, given = { ...opts, fetch: fetchOf(f, opts.outs || {}) };
  return function (...args) {
    return dev.invoke(f, given, args);
  };
};

// The out slots of f's string results that its answer carries (those
// not taken as addresses: outsAs).
function fetchOf(f, outsAs) {
  const fetch = [];
  let at = 0;
  for (let k = 0; k < f.outs.length; k++) {
    if (f.outs[k].code === "s" && !outsAs[k + 1]) fetch.push(at);
    at += f.outs[k].slots;
  }
  return fetch;
}

// ---- one call ----

// The in slot of a closure argument (an array of one BigInt), or why it
// was refused.
async function closureSlots(dev, v) {
  if (v === null || v === undefined) return [0n];
  if (!(v instanceof RemoteClosure)) return "type";
  if (!v.live) return "released";
  return [await dev.claim(v)];
}

// A call of function f (described by the bound module) with args (opts
// as fast takes them, and fetch: the string results' out slots).
methods.invoke = async function (f, opts, args) {
  if (args.length !== f.ins.length) throw countError(f.name, f.ins.length, args.length, false);
  const nonnull = opts.nonnull || {}, outsAs = opts.outs || {};
  const slots = [], stringsIn = [];
  try {
    for (let k = 0; k < args.length; k++) {
      const item = f.ins[k], v = args[k];
      if (nonnull[k + 1] && (v === null || v === undefined || v === 0)) throw badArgument(f.name, k + 1, "null", item.code, v);
      if (item.code === "s" && v !== null) {
        // a string (UTF-8), or a Uint8Array: its bytes as they are
        if (typeof v !== "string" && !(v instanceof Uint8Array)) throw badArgument(f.name, k + 1, "type", "s", v);
        if (v.includes(typeof v === "string" ? "\0" : 0)) {
          throw new NcccError(`bad argument #${k + 1} to '${f.name}' (string contains a NUL byte)`,
            { kind: "nul", function: f.name, parameter: k + 1 });
        }
        stringsIn.push({ slot: slots.length, bytes: typeof v === "string" ? encoder.encode(v) : v });
        slots.push(0n);
        continue;
      }
      let got;
      try {
        got = item.code === "s" ? [0n] : item.code === "c" ? await closureSlots(this, v) : slotsOf(this, item, v);
      } catch (e) {
        // a freed C object, a record's field
        throw e instanceof NcccError && e.status === undefined ? asArgumentError(e, f.name, k + 1) : e;
      }
      if (typeof got === "string") throw badArgument(f.name, k + 1, got, item.code, v);
      slots.push(...got);
    }
    const fetch = opts.fetch || fetchOf(f, outsAs);
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

// The values of a call's results (a string read from the answer, or
// from the device when it was too long to come with it).
methods.results = async function (f, r, outsAs) {
  const list = valueList();
  let at = 0;
  for (let k = 0; k < f.outs.length; k++) {
    const item = f.outs[k], code = outsAs[k + 1] || item.code;
    list.push(code === "s" ? await valueOf(this, item, r.out, at, code, r.strings) : valueNow(item, r.out, at, code));
    at += item.slots;
  }
  if (list.length === 0) return undefined;
  return list.length === 1 ? list[0] : list;
};
