// nccc/remote/session.mjs — the client side of the remote-call protocol
// (docs/RPC.md): hello and start, request ids, the wait for an answer
// with its timeout and resends, the faults, and the device's nested
// calls, served by a handler the binding layer gives. Asynchronous: a
// request is a Promise, and the link hands its bytes to onBytes as they
// come (docs/JS.md, "Remote devices").
import abi from "../abi.mjs";
import { NcccError } from "../errors.mjs";
import { Decoder, encodeFrame } from "./frame.mjs";

const R = abi.rpc, MSG = R.messages, ST = abi.status, HEADER = R.header_bytes;
// Where the fields are: the header's, each message's (idl/abi.json).
const HF = R.header, L = R.layouts, A = R.answers;
// The largest message a device may announce (idl/abi.json, as the C client's).
const LARGEST = R.largest_message;

const STATUS_NAME = Object.fromEntries(Object.entries(ST).map(([k, v]) => [v, `NCCC_${k}`]));

// A failure of a request: status (abi.status), the text, kind "remote"
// for a failure of the remote call itself (a status ERR_RPC_...), else
// "status" (the device refused the request: nothing ran).
export function failure(status, text) {
  const name = STATUS_NAME[status] || `0x${status.toString(16)}`;
  const kind = name.startsWith("NCCC_ERR_RPC_") ? "remote" : "status";
  const e = new NcccError(`${text} (${name})`, { kind, status });
  e.text = text;
  return e;
}

// Whether a request that failed with status may have run.
export function outcomeUnknown(status) {
  return status === ST.ERR_RPC_TIMEOUT || status === ST.ERR_RPC_RESET ||
    status === ST.ERR_RPC_FRAME || status === ST.ERR_RPC_TRANSPORT;
}

// id a newer than b in serial order (32 bits).
const after = (a, b) => ((a - b) | 0) > 0;

// A message of type, size bytes in all (session and id are set when it
// is sent).
export function message(type, size) {
  const m = new Uint8Array(size);
  m[HF.type] = type;
  return m;
}

const view = (m) => new DataView(m.buffer, m.byteOffset, m.byteLength);
const utf8 = new TextDecoder();

function setHeader(m, session, id) {
  const dv = view(m);
  dv.setUint16(HF.session, session, true);
  dv.setUint32(HF.id, id, true);
}

// The status block of a refusal, notice or log p (its layout f: status
// or level, length, text): [status or level, text].
function statusBlock(p, f) {
  const dv = view(p), at = f.status === undefined ? f.level : f.status;
  const status = p.length >= f.length ? dv.getUint32(at, true) : ST.ERR_RPC_PROTOCOL;
  const len = p.length >= f.text ? Math.min(dv.getUint16(f.length, true), p.length - f.text) : 0;
  return [status, utf8.decode(p.subarray(f.text, f.text + len))];
}

// A request waiting for its answer (the session's stack): resent as
// RPC.md's Faults say until it is finished.
class Request {
  constructor(session, id, msg, tag, resolve, reject) {
    this.session = session;
    this.id = id;
    this.msg = msg;
    this.tag = tag;
    this.sends = 0;
    this.restarted = false;
    this.resolve = resolve;
    this.reject = reject;
    this.deadline = Infinity;
  }

  finish(err, result) {
    const stack = this.session.stack, at = stack.lastIndexOf(this);
    if (at >= 0) stack.splice(at, 1);
    if (err) this.reject(err);
    else this.resolve(result);
  }

  resend(why) {
    const s = this.session;
    if (this.sends > s.retries) {
      this.finish(why === "frame"
        ? failure(ST.ERR_RPC_FRAME, "frames were dropped and no answer came; the outcome is unknown")
        : failure(ST.ERR_RPC_TIMEOUT, "no answer from the device; the outcome is unknown"));
      return;
    }
    if (this.sends) s.stats.resent++;
    else s.stats.requests++;
    this.sends++;
    s.send(this.msg);
    s.wait(this);
  }
}

export class Session {
  // link: {send(bytes), close()}; it calls session.onBytes(bytes) and
  // session.onClosed() (Links, links.mjs). options: timeoutMs (2000),
  // retries (2), log(level, text). serve(handle, inSlots, nOut, tag) runs
  // a nested call of the device, tag that of the request it came during
  // (request's): a Promise of the out slots or a rejection with {status}.
  constructor(link, options = {}, serve = null) {
    this.link = link;
    this.timeoutMs = options.timeoutMs || 2000;
    this.retries = options.retries === undefined ? 2 : options.retries;
    this.log = options.log || null;
    this.serve = serve;
    this.decoder = new Decoder(LARGEST, (ev, x) => this.onFrame(ev, x));
    this.nonce = (Date.now() ^ (Math.random() * 256)) & 0xff;
    this.open = false;
    this.closed = false;
    this.device = null;
    this.nextId = 0;
    this.stack = [];       // what waits: requests and nested calls served, innermost last
    this.watchdog = null;  // the timer of the innermost wait (wait)
    this.queue = [];       // requests waiting for the link to be free
    this.deviceHighest = 0;
    this.deviceCache = null;
    this.aborted = "";
    this.stats = { requests: 0, resent: 0, badFrames: 0, notices: 0, stale: 0, restarts: 0,
      sessions: 0, served: 0, logs: 0, bytesSent: 0, bytesReceived: 0 };
    link.onBytes = (bytes) => {
      this.stats.bytesReceived += bytes.length;
      this.decoder.push(bytes);
    };
    link.onClosed = () => this.onClosed();
    this.exchanged = (result) => {
      this.nextInQueue();
      return result;
    };
  }

  get garbage() { return this.decoder.garbage; }

  send(msg) {
    const frame = encodeFrame(msg);
    this.stats.bytesSent += frame.length;
    this.link.send(frame);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.link.close();
    this.onClosed();
  }

  onClosed() {
    this.closed = true;
    this.open = false;
    const waiting = this.stack.concat(this.queue);
    this.stack = [];
    this.queue = [];
    clearTimeout(this.watchdog);
    this.watchdog = null;
    for (const w of waiting) {
      if (w.reject) w.reject(failure(ST.ERR_RPC_TRANSPORT, "the link closed during the request"));
      if (w.finish) w.finish(failure(ST.ERR_RPC_TRANSPORT, "the link closed during the request"));
      clearTimeout(w.timer);
    }
  }

  // ---- the session ----

  // Says hello until a start answers its nonce: the device's
  // announcement ({version, pointerBytes, byteOrder, maxDepth,
  // maxMessage, maxSlots, session}).
  hello() {
    return new Promise((resolve, reject) => {
      let attempt = 0;
      const w = { hello: true, reject };
      const sayHello = () => {
        if (attempt++ > this.retries) {
          this.stack.splice(this.stack.indexOf(w), 1);
          reject(failure(ST.ERR_RPC_TIMEOUT, "the device did not answer hello"));
          return;
        }
        this.nonce = (this.nonce + 1) & 0xff || 1;
        const m = message(MSG.hello, L.hello.end);
        m[L.hello.version] = R.version;
        m[L.hello.nonce] = this.nonce;
        this.send(m);
        w.timer = setTimeout(sayHello, this.timeoutMs);
      };
      w.take = (p) => {
        clearTimeout(w.timer);
        this.stack.splice(this.stack.indexOf(w), 1);
        try {
          resolve(this.takeStart(p));
        } catch (e) {
          reject(e);
        }
      };
      this.stack.push(w);
      sayHello();
    });
  }

  takeStart(p) {
    const dv = view(p), f = L.start;
    const d = { version: p[f.version], pointerBytes: p[f.pointer_bytes], byteOrder: p[f.byte_order],
      maxDepth: p[f.max_depth], maxMessage: dv.getUint32(f.max_message, true),
      maxSlots: dv.getUint16(f.max_slots, true), session: dv.getUint16(HF.session, true) };
    if (d.version !== R.version) throw failure(ST.ERR_RPC_PROTOCOL, "the device speaks another protocol version");
    if ((d.pointerBytes !== 4 && d.pointerBytes !== 8) || d.maxMessage < 256 || d.maxMessage > LARGEST || d.session === 0) {
      throw failure(ST.ERR_RPC_PROTOCOL, "start message out of range");
    }
    this.device = d;
    this.open = true;
    this.nextId = 0;
    this.deviceHighest = 0;
    this.deviceCache = null;
    this.aborted = "";
    this.stats.sessions++;
    return d;
  }

  // ---- requests ----

  // Sends request msg (a message from message()) and resolves to the
  // device's result message when its status is OK; rejects with the
  // refusal's or the fault's failure. Requests made while another waits
  // for the device wait their turn, except those made while the host
  // serves a nested call (a callback calling the device again).
  request(msg, tag) {
    if (this.closed) return Promise.reject(failure(ST.ERR_RPC_TRANSPORT, "the link is closed"));
    const top = this.stack.at(-1);
    if (top === undefined || top.serving) return this.exchange(msg, tag);
    return new Promise((resolve, reject) => this.queue.push({ msg, tag, resolve, reject }));
  }

  // The next queued request, once nothing waits.
  nextInQueue() {
    if (this.stack.length !== 0 || this.queue.length === 0) return;
    const q = this.queue.shift();
    this.exchange(q.msg, q.tag).then(q.resolve, q.reject);
  }

  // request's exchange: with the session open, the attempt alone (no
  // async layer: one Promise a call less); else, or when the device
  // refused the session on a first send, opening().
  exchange(msg, tag) {
    if (!this.open || msg.length > this.device.maxMessage) return this.opening(msg, tag);
    return this.attempt(msg, tag).then(this.exchanged, (e) => {
      if (e.status !== ST.ERR_RPC_SESSION || !e.firstSend) {
        this.nextInQueue();
        throw e;
      }
      return this.opening(msg, tag);
    });
  }

  async opening(msg, tag) {
    try {
      let fresh = false;
      if (!this.open) {
        await this.hello();
        fresh = true;
      }
      if (msg.length > this.device.maxMessage) {
        throw failure(ST.ERR_RPC_TOO_BIG, "request larger than the device's messages");
      }
      for (;;) {
        try {
          return await this.attempt(msg, tag);
        } catch (e) {
          // A session the device does not know, refused on the first
          // send: nothing ran, so a new session may carry it once.
          if (e.status !== ST.ERR_RPC_SESSION || fresh || !e.firstSend) throw e;
          await this.hello();
          fresh = true;
        }
      }
    } finally {
      this.nextInQueue();
    }
  }

  // How many of the device's nested calls the host is running.
  serving() {
    let n = 0;
    for (const x of this.stack) if (x.serving) n++;
    return n;
  }

  // One request under a new id, resent as RPC.md's Faults say. Its
  // header's depth: how many of the device's nested calls the host runs
  // as it sends it.
  attempt(msg, tag) {
    return new Promise((resolve, reject) => {
      const id = (this.nextId = (this.nextId + 1) >>> 0);
      setHeader(msg, this.device.session, id);
      msg[HF.depth] = this.serving();
      const w = new Request(this, id, msg, tag, resolve, reject);
      this.stack.push(w);
      w.resend("silent");
    });
  }

  // (Re)starts the wait of w, when it is the innermost: a nested call
  // the host serves does not count against its timeout. One watchdog
  // timer serves every wait: it is armed when none is, and when it fires
  // it looks at the innermost wait's deadline (a timer made and cleared
  // per message would cost more than the rest of a call's work here).
  wait(w) {
    if (this.stack.at(-1) !== w) {
      w.deadline = Infinity;
      return;
    }
    w.deadline = performance.now() + this.timeoutMs;
    if (this.watchdog === null) this.arm(this.timeoutMs);
  }

  arm(ms) {
    this.watchdog = setTimeout(() => this.watch(), ms);
    if (this.watchdog.unref) this.watchdog.unref();
  }

  watch() {
    this.watchdog = null;
    const top = this.stack.at(-1);
    if (!top || !top.resend || top.deadline === Infinity || this.closed) return;
    const left = top.deadline - performance.now();
    if (left > 0) this.arm(left);
    else this.silence(top);
  }

  silence(w) {
    if (w.restarted) {
      this.open = false;
      const text = this.aborted ? `the device aborted during the request: ${this.aborted}`
        : "the device restarted during the request; its outcome is unknown";
      this.aborted = "";
      w.finish(failure(ST.ERR_RPC_RESET, text));
      return;
    }
    w.resend("silent");
  }

  // ---- what arrives ----

  onFrame(ev, p) {
    const top = this.stack.at(-1);
    if (ev === "bad") {
      this.stats.badFrames++;
      if (top && top.resend && !top.restarted) top.resend("frame");
      return;
    }
    if (p.length < HEADER) return;
    const dv = view(p), type = p[HF.type], session = dv.getUint16(HF.session, true), id = dv.getUint32(HF.id, true);
    if (top && top.hello) {
      if (type === MSG.start && p.length >= L.start.end && p[L.start.nonce] === this.nonce) top.take(p);
      else if (type === MSG.log) this.onLog(p);
      return;
    }
    if (top && top.resend) this.wait(top); // the device is alive
    switch (type) {
      case MSG.start:
        // a start of this session: a hello's copy answered again
        if (this.open && session === this.device.session) return;
        this.stats.restarts++;
        this.open = false;
        if (top && top.resend) top.restarted = true;
        return;
      case MSG.result:
        this.onResult(p, session, id);
        return;
      case MSG.notice:
        this.stats.notices++;
        if (statusBlock(p, L.notice)[0] === ST.ERR_RPC_FRAME && top && top.resend && !top.restarted) top.resend("frame");
        return;
      case MSG.log:
        this.onLog(p);
        return;
      case MSG.call:
        this.onDeviceCall(p, session, id);
        return;
      default:
    }
  }

  onResult(p, session, id) {
    let w;
    for (const x of this.stack) {
      if (x.resend && x.id === id) {
        w = x;
        break;
      }
    }
    if (!w || p.length < L.result.length) {
      this.stats.stale++;
      return;
    }
    const st = view(p).getUint32(L.result.status, true);
    if (st === ST.ERR_RPC_SESSION) {
      this.open = false;
      if (w.sends > 1) {
        w.finish(failure(ST.ERR_RPC_RESET, "the device lost the session during the request; its outcome is unknown"));
        return;
      }
    } else if (!this.device || session !== this.device.session) {
      this.stats.stale++;
      return;
    }
    if (st === ST.OK) {
      w.finish(null, p);
      return;
    }
    const [, text] = statusBlock(p, L.result);
    const e = failure(st, text);
    e.firstSend = w.sends === 1;
    w.finish(e);
  }

  onLog(p) {
    this.stats.logs++;
    const [level, text] = statusBlock(p, L.log);
    if (level === R.log_levels.abort) this.aborted = text;
    if (this.log) this.log(level, text);
  }

  // ---- nested calls: the device calls the host ----

  async onDeviceCall(p, session, id) {
    if (!this.device || session !== this.device.session) return;
    if (this.deviceCache && id === this.deviceCache.id) {
      this.send(this.deviceCache.msg);
      return;
    }
    if (!after(id, this.deviceHighest)) return; // replayed
    this.deviceHighest = id;
    this.stats.served++;
    const dv = view(p);
    const f = L.call, fixed = p.length >= f.end;
    const nIn = fixed ? dv.getUint16(f.n_in, true) : 0, nOut = fixed ? dv.getUint16(f.n_out, true) : 0;
    const serving = { serving: true };
    const outer = this.stack.at(-1);
    if (outer) outer.deadline = Infinity;
    this.stack.push(serving);
    let answer;
    try {
      if (!fixed || p.length !== f.end + 8 * nIn || A.call.end + 8 * nOut > this.device.maxMessage) {
        throw failure(ST.ERR_RPC_PROTOCOL, "call of the wrong length");
      }
      const slots = new BigUint64Array(nIn);
      for (let i = 0; i < nIn; i++) slots[i] = dv.getBigUint64(f.end + 8 * i, true);
      const out = await this.serve(dv.getUint32(f.handle, true), slots, nOut, outer && outer.tag);
      answer = message(MSG.result, A.call.end + 8 * nOut);
      const av = view(answer);
      av.setUint16(A.call.n_out, nOut, true);
      for (let i = 0; i < nOut; i++) av.setBigUint64(A.call.end + 8 * i, BigInt.asUintN(64, BigInt(out[i] || 0n)), true);
    } catch (e) {
      answer = refusal(e.status || ST.ERR_INVALID_ARG, e.text || e.message);
    }
    this.stack.splice(this.stack.indexOf(serving), 1);
    setHeader(answer, session, id);
    this.deviceCache = { id, msg: answer };
    if (this.closed || !this.device || session !== this.device.session) return;
    this.send(answer);
    if (outer && outer === this.stack.at(-1) && outer.resend) this.wait(outer);
  }
}

// A refusal: a result of status st and its text.
export function refusal(st, text) {
  const bytes = new TextEncoder().encode(String(text)).subarray(0, 200);
  const f = L.result, m = message(MSG.result, f.text + bytes.length);
  const dv = view(m);
  dv.setUint32(f.status, st, true);
  dv.setUint16(f.length, bytes.length, true);
  m.set(bytes, f.text);
  return m;
}
