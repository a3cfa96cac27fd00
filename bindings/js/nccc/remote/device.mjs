// nccc/remote/device.mjs — a device reached over a link (docs/JS.md,
// "Remote devices"): its requests (lookup, calls with strings in and
// out, remote memory, the built-ins) on top of the session. Every method
// that talks to the device returns a Promise.
import abi from "../abi.mjs";
import { NcccError } from "../errors.mjs";
import { Session, failure, message, outcomeUnknown } from "./session.mjs";

const R = abi.rpc, MSG = R.messages, ST = abi.status, HEADER = R.header_bytes;
// Fixed parts: a call's header, handle and counts; a result's status,
// count, strings count and flags (docs/RPC.md, "call").
const CALL_FIXED = HEADER + 8;
// Result flags: the call recorded an error; strings came in (the
// request's address follows the slots).
const RECORDED_ERROR = 1, REQUEST_BASE = 2;
// What a memory answer needs besides its bytes: header, status, count,
// and room for the frame's own (the C client's pieces too).
const MEMORY_OVERHEAD = 24;

const view = (m) => new DataView(m.buffer, m.byteOffset, m.byteLength);
const encoder = new TextEncoder(), decoder = new TextDecoder();

export class Device {
  // Use connect(link, options) (remote/index.mjs), which says hello first.
  constructor(link, options = {}) {
    this.session = new Session(link, options, (h, slots, nOut, tag) => this.serveNested(h, slots, nOut, tag));
    this.handles = new Map();
    this.recorded = [ST.OK, ""];
  }

  async start() {
    await this.session.hello();
    return this;
  }

  get info() { return this.session.device; }
  get stats() { return { ...this.session.stats, garbage: this.session.garbage }; }
  close() { this.session.close(); }
  setTimeout(ms, retries) {
    if (ms > 0) this.session.timeoutMs = ms;
    if (retries >= 0) this.session.retries = retries;
  }

  // The error the device's last call recorded (its result's error
  // block), or [0, ""]: what a local call would have left as the last error.
  lastError() { return this.recorded; }

  // ---- lookup ----

  // {handle, nIn, nOut, signature} of a device function by name (M.F, a
  // global name, nccc.NAME for a built-in).
  async lookup(name) {
    const bytes = encoder.encode(name);
    if (bytes.length > 0xffff) throw failure(ST.ERR_BAD_NAME, `name too long: ${name.slice(0, 40)}...`);
    const m = message(MSG.lookup, 2 + bytes.length);
    view(m).setUint16(HEADER, bytes.length, true);
    m.set(bytes, HEADER + 2);
    const p = await this.session.request(m);
    const dv = view(p);
    if (p.length < 22 || p.length !== 22 + dv.getUint16(20, true)) throw failure(ST.ERR_RPC_PROTOCOL, "malformed lookup result");
    return { handle: dv.getUint32(12, true), nIn: dv.getUint16(16, true), nOut: dv.getUint16(18, true),
      signature: decoder.decode(p.subarray(22)) };
  }

  // A function's handle by name, looked up once.
  async handle(name) {
    if (!this.handles.has(name)) this.handles.set(name, (await this.lookup(name)).handle);
    return this.handles.get(name);
  }

  // ---- calls ----

  // A call: handle, the in slots (BigInts, little-endian on the wire),
  // nOut, strings in ({slot, bytes}: the slot points to the bytes on
  // the device) and the out slots to fetch as strings. Resolves to
  // {out: BigUint64Array, strings: Map(slot -> bytes), requestBase}; tag
  // reaches the nested calls the device makes during it.
  async call(handle, ins, nOut, stringsIn = [], fetch = [], tag = undefined) {
    const d = this.session.open ? this.session.device : (await this.session.hello(), this.session.device);
    if (ins.length > d.maxSlots || nOut > d.maxSlots) throw failure(ST.ERR_RPC_TOO_BIG, "more slots than the device takes");
    let extra = 0;
    if (stringsIn.length || fetch.length) {
      extra = 2 + 2 * fetch.length;
      for (const s of stringsIn) extra += 7 + s.bytes.length;
    }
    const size = CALL_FIXED + 8 * ins.length + extra;
    if (size > d.maxMessage || CALL_FIXED + 8 * nOut > d.maxMessage) {
      throw failure(ST.ERR_RPC_TOO_BIG, "call larger than the device's messages");
    }
    const m = message(MSG.call, size - HEADER);
    const dv = view(m);
    dv.setUint32(HEADER, handle, true);
    dv.setUint16(HEADER + 4, ins.length, true);
    dv.setUint16(HEADER + 6, nOut, true);
    let at = CALL_FIXED;
    for (const v of ins) {
      dv.setBigUint64(at, v, true);
      at += 8;
    }
    if (extra) {
      m[at++] = stringsIn.length;
      m[at++] = fetch.length;
      for (const s of stringsIn) {
        dv.setUint16(at, s.slot, true);
        dv.setUint32(at + 2, s.bytes.length, true);
        m.set(s.bytes, at + 6);
        at += 7 + s.bytes.length;
      }
      for (const k of fetch) {
        dv.setUint16(at, k, true);
        at += 2;
      }
    }
    return this.decodeResult(await this.session.request(m, tag), nOut);
  }

  decodeResult(p, nOut) {
    const dv = view(p);
    const bad = () => failure(ST.ERR_RPC_PROTOCOL, "malformed result");
    if (p.length < CALL_FIXED + 8 * nOut || dv.getUint16(12, true) !== nOut) throw bad();
    const out = new BigUint64Array(nOut);
    let at = CALL_FIXED;
    for (let i = 0; i < nOut; i++, at += 8) out[i] = dv.getBigUint64(at, true);
    const flags = p[15], result = { out, strings: new Map(), requestBase: null };
    if (flags & REQUEST_BASE) {
      if (p.length < at + 8) throw bad();
      result.requestBase = dv.getBigUint64(at, true);
      at += 8;
    }
    this.recorded = [ST.OK, ""];
    if (flags & RECORDED_ERROR) {
      if (p.length < at + 6 || p.length < at + 6 + dv.getUint16(at + 4, true)) throw bad();
      const len = dv.getUint16(at + 4, true);
      this.recorded = [dv.getUint32(at, true), decoder.decode(p.subarray(at + 6, at + 6 + len))];
      at += 6 + len;
    }
    for (let k = 0; k < p[14]; k++) {
      if (p.length < at + 7) throw bad();
      const slot = dv.getUint16(at, true), len = dv.getUint32(at + 2, true);
      if (slot >= nOut || p.length < at + 7 + len || p[at + 6 + len] !== 0) throw bad();
      result.strings.set(slot, p.slice(at + 6, at + 6 + len));
      at += 7 + len;
    }
    if (at !== p.length) throw bad();
    return result;
  }

  // A built-in of the device by name (abi.builtins), its in slots given
  // (a JavaScript string goes in the call's strings section):
  // its out slots, string results read back as JavaScript strings; a
  // status other than OK in out[0] is a failure.
  async builtin(name, ins) {
    const b = abi.builtins[abi.builtin[name]];
    const outs = b.signature.slice(b.signature.indexOf(abi.grammar.separator) + 1);
    const fetch = [...outs].flatMap((c, k) => (c === "s" ? [k] : []));
    const texts = ins.flatMap((v, k) => (typeof v === "string" ? [{ slot: k, bytes: encoder.encode(v) }] : []));
    const slots = ins.map((v) => (typeof v === "string" ? 0n : BigInt.asUintN(64, BigInt(v))));
    const r = await this.call(await this.handle(`nccc.${name}`), slots, outs.length, texts, fetch);
    const st = Number(BigInt.asIntN(32, r.out[0]));
    if (st !== ST.OK) throw failure(st, `the device's ${name} failed`);
    const values = [];
    for (let k = 0; k < outs.length; k++) {
      values.push(outs[k] === "s" ? await this.stringResult(r, k) : r.out[k]);
    }
    return values;
  }

  // The string result in out slot k: its bytes from the answer, else
  // read from the device (a NULL slot is null).
  async stringResult(r, k) {
    if (r.strings.has(k)) return decoder.decode(r.strings.get(k));
    if (r.out[k] === 0n) return null;
    return this.cstring(r.out[k]);
  }

  // ---- remote memory ----

  checkAddress(addr) {
    const a = BigInt(addr);
    if (this.session.device.pointerBytes === 4 && a > 0xffffffffn) {
      throw failure(ST.ERR_RPC_WORD_SIZE, "address wider than the device's pointers");
    }
    return BigInt.asUintN(64, a);
  }

  async memory(type, word, count, bytes) {
    const counted = type === MSG.read || type === MSG.write;
    const m = message(type, 8 + (counted ? 4 : 0) + (bytes ? bytes.length : 0));
    const dv = view(m);
    dv.setBigUint64(HEADER, word, true);
    if (counted) dv.setUint32(HEADER + 8, count, true);
    if (bytes) m.set(bytes, HEADER + 12);
    return this.session.request(m);
  }

  async ready() {
    if (!this.session.open) await this.session.hello();
    return this.session.device;
  }

  // The device address of a new block of size bytes (remote memory).
  async alloc(size) {
    await this.ready();
    const p = await this.memory(MSG.alloc, BigInt.asUintN(64, BigInt(size)));
    return address(view(p).getBigUint64(HEADER + 4, true));
  }

  async free(addr) {
    await this.ready();
    await this.memory(MSG.free, this.checkAddress(addr));
  }

  // n bytes at a device address, read in pieces that fit the device's messages.
  async read(addr, n) {
    const d = await this.ready();
    const base = this.checkAddress(addr), bytes = new Uint8Array(n), piece = d.maxMessage - MEMORY_OVERHEAD;
    for (let at = 0; at < n; at += piece) {
      const k = Math.min(piece, n - at);
      const p = await this.memory(MSG.read, base + BigInt(at), k);
      if (p.length !== 16 + k) throw failure(ST.ERR_RPC_PROTOCOL, "malformed read result");
      bytes.set(p.subarray(16), at);
    }
    return bytes;
  }

  async write(addr, bytes) {
    const d = await this.ready();
    const base = this.checkAddress(addr), piece = d.maxMessage - MEMORY_OVERHEAD;
    for (let at = 0; at < bytes.length; at += piece) {
      const part = bytes.subarray(at, Math.min(bytes.length, at + piece));
      await this.memory(MSG.write, base + BigInt(at), part.length, part);
    }
  }

  async strlen(addr) {
    await this.ready();
    const p = await this.memory(MSG.strlen, this.checkAddress(addr));
    return Number(view(p).getBigUint64(HEADER + 4, true));
  }

  // The string at a device address, decoded as UTF-8.
  async cstring(addr) {
    return decoder.decode(await this.read(addr, await this.strlen(addr)));
  }
}

// A device address as JavaScript has it: a number (a BigInt past 2^53),
// null for NULL.
export function address(slot) {
  if (slot === 0n) return null;
  return slot <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(slot) : slot;
}

export { failure, outcomeUnknown };
