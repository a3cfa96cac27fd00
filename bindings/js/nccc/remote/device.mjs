// nccc/remote/device.mjs — a device reached over a link (docs/JS.md,
// "Remote devices"): its requests (lookup, calls with strings in and
// out, remote memory, the built-ins) on top of the session. Every method
// that talks to the device returns a Promise.
import abi from "../abi.mjs";
import { Session, failure, message, outcomeUnknown } from "./session.mjs";

const R = abi.rpc, MSG = R.messages, ST = abi.status, FLAG = R.result_flags;
// Where the fields are (idl/abi.json): each message's, a request's
// answer's; a call's strings in and the out slots it fetches; a result's
// strings; a call's error block is laid out as a refusal's status block.
const L = R.layouts, A = R.answers;
const SECTION = R.sections.call, [STRING_IN, FETCH] = R.entries.call, [STRING_OUT] = R.answer_entries.call;
const ERROR_BLOCK = Object.fromEntries(Object.entries(L.result).map(([k, v]) => [k, v - R.header_bytes]));
// Slots, and the device addresses of results, are 8 bytes on the wire,
// little-endian: a host of that order reads them as they are.
const SLOT = 8;
const LITTLE_ENDIAN_HOST = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
// A string entry's bytes are followed by a 0 byte.
const NUL = 1;
// The most bytes a read's answer and a write request carry.
const piece = (d) => d.maxMessage - Math.max(A.read.bytes, L.write.bytes);

const view = (m) => new DataView(m.buffer, m.byteOffset, m.byteLength);
// The strings of a result that has none (never written to).
const NO_STRINGS = new Map();
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
    if (bytes.length > R.max_name_bytes) throw failure(ST.ERR_BAD_NAME, `name too long: ${name.slice(0, 40)}...`);
    const m = message(MSG.lookup, L.lookup.name + bytes.length);
    view(m).setUint16(L.lookup.length, bytes.length, true);
    m.set(bytes, L.lookup.name);
    const p = await this.session.request(m);
    const dv = view(p), f = A.lookup;
    if (p.length < f.signature || p.length !== f.signature + dv.getUint16(f.length, true)) {
      throw failure(ST.ERR_RPC_PROTOCOL, "malformed lookup result");
    }
    return { handle: dv.getUint32(f.handle, true), nIn: dv.getUint16(f.n_in, true), nOut: dv.getUint16(f.n_out, true),
      signature: decoder.decode(p.subarray(f.signature)) };
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
    // the strings section: its counts, the strings in, the out slots to fetch
    let extra = 0;
    if (stringsIn.length || fetch.length) {
      extra = SECTION.end + FETCH.end * fetch.length;
      for (const s of stringsIn) extra += STRING_IN.bytes + s.bytes.length + NUL;
    }
    const size = L.call.end + SLOT * ins.length + extra;
    if (size > d.maxMessage || A.call.end + SLOT * nOut > d.maxMessage) {
      throw failure(ST.ERR_RPC_TOO_BIG, "call larger than the device's messages");
    }
    const m = message(MSG.call, size);
    const dv = view(m);
    dv.setUint32(L.call.handle, handle, true);
    dv.setUint16(L.call.n_in, ins.length, true);
    dv.setUint16(L.call.n_out, nOut, true);
    let at = L.call.end;
    for (const v of ins) {
      dv.setBigUint64(at, v, true);
      at += SLOT;
    }
    if (extra) {
      m[at + SECTION.n_strings] = stringsIn.length;
      m[at + SECTION.n_fetch] = fetch.length;
      at += SECTION.end;
      for (const s of stringsIn) {
        dv.setUint16(at + STRING_IN.slot, s.slot, true);
        dv.setUint32(at + STRING_IN.length, s.bytes.length, true);
        m.set(s.bytes, at + STRING_IN.bytes);
        at += STRING_IN.bytes + s.bytes.length + NUL;
      }
      for (const k of fetch) {
        dv.setUint16(at + FETCH.slot, k, true);
        at += FETCH.end;
      }
    }
    return this.decodeResult(await this.session.request(m, tag), nOut);
  }

  decodeResult(p, nOut) {
    const dv = view(p);
    const bad = () => failure(ST.ERR_RPC_PROTOCOL, "malformed result");
    const f = A.call, E = ERROR_BLOCK, S = STRING_OUT;
    if (p.length < f.end + SLOT * nOut || dv.getUint16(f.n_out, true) !== nOut) throw bad();
    let at = f.end, out;
    if (LITTLE_ENDIAN_HOST) {
      // the slots' bytes as they are (in place when aligned, as a frame's
      // payload is): a BigInt is made only for a slot that is read
      out = (p.byteOffset + at) % SLOT === 0 ? new BigUint64Array(p.buffer, p.byteOffset + at, nOut)
        : new BigUint64Array(p.slice(at, at + SLOT * nOut).buffer);
      at += SLOT * nOut;
    } else {
      out = new BigUint64Array(nOut);
      for (let i = 0; i < nOut; i++, at += SLOT) out[i] = dv.getBigUint64(at, true);
    }
    const flags = p[f.flags], result = { out, strings: p[f.n_strings] ? new Map() : NO_STRINGS, requestBase: null };
    if (flags & FLAG.request_base) {
      if (p.length < at + SLOT) throw bad();
      result.requestBase = dv.getBigUint64(at, true);
      at += SLOT;
    }
    this.recorded = [ST.OK, ""];
    if (flags & FLAG.recorded_error) {
      if (p.length < at + E.text || p.length < at + E.text + dv.getUint16(at + E.length, true)) throw bad();
      const len = dv.getUint16(at + E.length, true);
      this.recorded = [dv.getUint32(at + E.status, true), decoder.decode(p.subarray(at + E.text, at + E.text + len))];
      at += E.text + len;
    }
    for (let k = 0; k < p[f.n_strings]; k++) {
      if (p.length < at + S.bytes + NUL) throw bad();
      const slot = dv.getUint16(at + S.slot, true), len = dv.getUint32(at + S.length, true);
      if (slot >= nOut || p.length < at + S.bytes + len + NUL || p[at + S.bytes + len] !== 0) throw bad();
      result.strings.set(slot, p.slice(at + S.bytes, at + S.bytes + len));
      at += S.bytes + len + NUL;
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

  // A memory request (its name: alloc, free, read, write, strlen): its
  // address or size, then its count and bytes (read, write).
  async memory(name, word, count, bytes) {
    const f = L[name];
    const m = message(MSG[name], bytes ? f.bytes + bytes.length : f.end);
    const dv = view(m);
    dv.setBigUint64(f.address === undefined ? f.size : f.address, word, true);
    if (f.n !== undefined) dv.setUint32(f.n, count, true);
    if (bytes) m.set(bytes, f.bytes);
    return this.session.request(m);
  }

  async ready() {
    if (!this.session.open) await this.session.hello();
    return this.session.device;
  }

  // The device address of a new block of size bytes (remote memory).
  async alloc(size) {
    await this.ready();
    const p = await this.memory("alloc", BigInt.asUintN(64, BigInt(size)));
    return address(view(p).getBigUint64(A.alloc.address, true));
  }

  async free(addr) {
    await this.ready();
    await this.memory("free", this.checkAddress(addr));
  }

  // n bytes at a device address, read in pieces that fit the device's messages.
  async read(addr, n) {
    const d = await this.ready();
    const base = this.checkAddress(addr), bytes = new Uint8Array(n), most = piece(d);
    for (let at = 0; at < n; at += most) {
      const k = Math.min(most, n - at);
      const p = await this.memory("read", base + BigInt(at), k);
      if (p.length !== A.read.bytes + k) throw failure(ST.ERR_RPC_PROTOCOL, "malformed read result");
      bytes.set(p.subarray(A.read.bytes), at);
    }
    return bytes;
  }

  async write(addr, bytes) {
    const d = await this.ready();
    const base = this.checkAddress(addr), most = piece(d);
    for (let at = 0; at < bytes.length; at += most) {
      const part = bytes.subarray(at, Math.min(bytes.length, at + most));
      await this.memory("write", base + BigInt(at), part.length, part);
    }
  }

  async strlen(addr) {
    await this.ready();
    const p = await this.memory("strlen", this.checkAddress(addr));
    return Number(view(p).getBigUint64(A.strlen.length, true));
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
