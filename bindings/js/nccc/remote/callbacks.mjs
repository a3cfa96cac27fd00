// nccc/remote/callbacks.mjs — JavaScript functions the device calls
// (docs/JS.md, "Remote devices"; RPC.md, "Callbacks across the wire"):
// closures passed on to the device with rpc.claim and run by the
// device's nested calls of the runner, and host functions a device
// function calls by handle. The host has no registry here: its handles
// are those this file hands out.
import abi from "../abi.mjs";
import { NcccError, refusal } from "../errors.mjs";
import { failure } from "./device.mjs";
import { slotsOf, valueOf } from "./slots.mjs";

// The methods this part gives the Device (composed in remote/index.mjs).
export const methods = {};

const ST = abi.status, H = abi.handle;
// A member's signature goes to rpc.claim NUL-padded in this many slots.
const SIGNATURE_SLOTS = abi.rpc.claim.signature_slots, SLOT = 8;
const encoder = new TextEncoder();
// The host's k-th handle, as a registry would make it for module 0.
const hostHandle = (k) => (H.module_marker + H.function_marker + k) >>> 0;
// The runner of closures is the first.
const RUNNER = hostHandle(0);

// A closure of a device call: a group of members [signature, fn], each
// fn called when the device calls that member (one member unless made
// by callbackGroup). Passed on to the device once per session (claim).
export class RemoteClosure {
  static ncccType = "closure";

  constructor(device, members, scope, final = 0) {
    this.device = device;
    this.signatures = members.map((m) => m[0]);
    this.fns = members.map((m) => m[1]);
    this.parsed = this.signatures.map((sig) => device.parse(sig, `callback ${sig}`));
    this.scope = scope;
    this.final = final;
    this.live = true;
    this.claimed = null; // {on: the session's device, ctx: the device's context}
  }

  get signature() { return this.signatures[0]; }

  // Releases it here, and on the device a closure of scope forever that
  // the device still holds (closure_release, not awaited: nothing on the
  // device would release it); false if it was released.
  release() {
    if (!this.live) return false;
    this.live = false;
    if (this.ctx !== undefined) this.device.closures.delete(this.ctx);
    const claimed = this.claimed;
    this.claimed = null;
    if (claimed && this.scope === "forever" && claimed.on === this.device.info) {
      this.device.builtin("closure_release", [claimed.ctx]).catch(() => {});
    }
    return true;
  }
}

function hosted(dev) {
  if (!dev.host) {
    dev.closures = new Map();
    dev.host = new Map([[RUNNER, (slots, nOut, tag) => runClosure(dev, slots, nOut, tag)]]);
    dev.nextClosure = 0;
  }
  return dev;
}

// dev.callback(signature, fn[, scope]): a closure for a device
// function's callback parameter (scope "call" by default).
methods.callback = function (signature, fn, scope = "call") {
  if (typeof fn !== "function") throw new NcccError(`function expected, got ${typeof fn}`, { kind: "type" });
  if (!abi.scopes[scope]) throw new NcccError(`unknown scope '${scope}'`, { kind: "scope" });
  hosted(this);
  return new RemoteClosure(this, [[signature, fn]], scope);
};

// dev.callbackGroup(scope, final, [signature, fn], ...): one closure of
// several members, as rt.callbackGroup makes (closure sets).
methods.callbackGroup = function (scope, final, ...members) {
  for (const [k, m] of members.entries()) {
    if (!Array.isArray(m) || typeof m[1] !== "function") {
      throw new NcccError(`bad callback #${k + 1} ([sig, fn] expected)`, { kind: "type" });
    }
  }
  if (members.length === 0) throw new NcccError("callbackGroup needs at least one [sig, fn]", { kind: "count" });
  if (!abi.scopes[scope]) throw new NcccError(`unknown scope '${scope}'`, { kind: "scope" });
  hosted(this);
  return new RemoteClosure(this, members, scope, final);
};

// dev.hostFunction(signature, fn): the handle under which the device's
// nested calls reach fn (its slots converted by signature), for a device
// function that calls the host by handle.
methods.hostFunction = function (signature, fn) {
  if (typeof fn !== "function") throw new NcccError(`function expected, got ${typeof fn}`, { kind: "type" });
  hosted(this);
  const parsed = this.parse(signature, `host function ${signature}`);
  const h = hostHandle(this.host.size);
  this.host.set(h, (slots, nOut, tag) => run(this, parsed, signature, fn, slots, 0, nOut, tag));
  return h;
};

// Passes closure c on to the device (rpc.claim), once a session: the
// device's context.
methods.claim = async function (c) {
  if (c.claimed && c.claimed.on === this.info) return c.claimed.ctx;
  if (c.ctx === undefined) c.ctx = ++this.nextClosure;
  this.closures.set(c.ctx, c);
  const ins = [BigInt(RUNNER), BigInt(abi.scopes[c.scope]), BigInt(c.final), BigInt(c.signatures.length)];
  // the signature's bytes are the little-endian bytes of its slots
  for (const signature of c.signatures) {
    const sig = new Uint8Array(SLOT * SIGNATURE_SLOTS), dv = new DataView(sig.buffer);
    sig.set(encoder.encode(signature).subarray(0, sig.length - 1));
    ins.push(BigInt(c.ctx));
    for (let k = 0; k < SIGNATURE_SLOTS; k++) ins.push(dv.getBigUint64(SLOT * k, true));
  }
  const r = await this.call(await this.handle(abi.rpc.claim.name), ins, 2);
  const st = Number(BigInt.asIntN(32, r.out[0]));
  if (st !== ST.OK) throw failure(st, `the device could not claim a closure for '${c.signatures.join("', '")}'`);
  c.claimed = { on: this.info, ctx: r.out[1] };
  return r.out[1];
};

// The device's nested call of host handle h: a Promise of its out slots.
methods.serveNested = function (h, slots, nOut, tag) {
  const serve = this.host && this.host.get(h);
  if (!serve) return Promise.reject(failure(ST.ERR_BAD_HANDLE, `the host has no function of handle ${h}`));
  return serve(slots, nOut, tag);
};

// The runner: in[0] the closure's context, in[1] the member (or its release).
function runClosure(dev, slots, nOut, tag) {
  if (slots.length < 2) throw failure(ST.ERR_NUM_ARGUMENTS, "the runner takes a context and a member");
  const c = dev.closures.get(Number(slots[0]));
  const member = Number(slots[1]);
  if (member & abi.rpc.released) {
    if (c) {
      c.claimed = null; // released on the device already
      c.release();
    }
    return [];
  }
  if (!c || !c.live) throw failure(ST.ERR_STALE_CLOSURE, "the closure was released");
  if (member >= c.fns.length) throw failure(ST.ERR_NUM_ARGUMENTS, `the closure has no member ${member}`);
  return run(dev, c.parsed[member], c.signatures[member], c.fns[member], slots, 2, nOut, tag);
}

// fn called with the slots from at converted by parsed; its results as
// slots. An error fn throws (or a result refused) is kept in tag and
// raised by the call that led here; the device gets zeroes.
async function run(dev, parsed, signature, fn, slots, at, nOut, tag) {
  if (slots.length - at !== parsed.nin || nOut !== parsed.nout) {
    throw failure(ST.ERR_NUM_ARGUMENTS, `${signature}: wrong slot counts`);
  }
  const keep = (e) => {
    if (tag && !tag.pending) tag.pending = e;
    return new Array(nOut).fill(0n);
  };
  const args = [];
  for (const item of parsed.ins) {
    args.push(await valueOf(dev, item, slots, at));
    at += item.slots;
  }
  let result;
  try {
    result = await fn(...args);
  } catch (e) {
    return keep(e);
  }
  const values = parsed.outs.length === 1 ? [result] : parsed.outs.length ? result : [];
  const out = [];
  for (let j = 0; j < parsed.outs.length; j++) {
    const item = parsed.outs[j], v = values[j];
    let got;
    try {
      got = slotsOf(dev, item, v);
    } catch (e) {
      return keep(e);
    }
    if (typeof got === "string") {
      return keep(new NcccError(`${signature}: bad result #${j + 1} (${refusal(got, item.code, v)[1]})`, { kind: "type" }));
    }
    out.push(...got);
  }
  return out;
}
