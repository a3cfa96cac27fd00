// nccc/remote/frame.mjs — the remote-call protocol's frames (docs/RPC.md,
// "Framing"): the CRC, the encoder and a decoder that takes the link's
// bytes in pieces of any size. Every number comes from abi.mjs.
import abi from "../abi.mjs";

const R = abi.rpc;
const ESC = R.escape, START = R.start, NOP = R.nop, DATA_FF = R.data_ff;
const LENGTH_BYTES = R.length_bytes, CRC_BYTES = R.crc_bytes;

// The CRC of one byte value in the register's top byte, for every value:
// eight steps of the bitwise definition (most significant bit first).
// TABLES[k][v]: what byte value v contributes k bytes before the end of
// a run (TABLES[0] is that table; each next one is the previous moved on
// by a zero byte), so that four bytes take one step (slicing by 4: the
// CRC is linear, and its 16 bits are replaced whole every 2 bytes).
const TABLES = [new Uint16Array(256), new Uint16Array(256), new Uint16Array(256), new Uint16Array(256)];
const TABLE = TABLES[0];
for (let v = 0; v < 256; v++) {
  let c = v << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ R.crc.poly) & 0xffff : (c << 1) & 0xffff;
  TABLE[v] = c;
}
for (let k = 1; k < TABLES.length; k++) {
  for (let v = 0; v < 256; v++) {
    const t = TABLES[k - 1][v];
    TABLES[k][v] = ((t << 8) & 0xffff) ^ TABLE[t >> 8];
  }
}
const [T0, T1, T2, T3] = TABLES;

// The CRC of bytes[from, to) continuing from crc.
export function crc16(crc, bytes, from = 0, to = bytes.length) {
  let i = from;
  for (const end = to - 3; i < end; i += 4) {
    crc = T3[(crc >> 8) ^ bytes[i]] ^ T2[(crc & 0xff) ^ bytes[i + 1]] ^ T1[bytes[i + 2]] ^ T0[bytes[i + 3]];
  }
  for (; i < to; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[(crc >> 8) ^ bytes[i]];
  return crc;
}

// out[at] = b, escaped (a data byte equal to the escape goes as escape,
// data_ff): where the next byte goes.
function put(out, at, b) {
  out[at++] = b;
  if (b === ESC) out[at++] = DATA_FF;
  return at;
}

// Byte k (from 0) of the length field of n (below 2^32).
const lengthByte = (n, k) => (k < 4 ? (n >>> (8 * k)) & 0xff : 0);

// The frame of a payload, escaped: start, length, payload, CRC. One
// allocation, no other object; runs of the payload without an escape
// byte are copied whole.
export function encodeFrame(payload) {
  const n = payload.length;
  let crc = R.crc.init, escapes = 0;
  for (let k = 0; k < LENGTH_BYTES; k++) {
    const b = lengthByte(n, k);
    crc = ((crc << 8) & 0xffff) ^ TABLE[(crc >> 8) ^ b];
    if (b === ESC) escapes++;
  }
  crc = crc16(crc, payload);
  for (let k = 0; k < CRC_BYTES; k++) if (((crc >> (8 * k)) & 0xff) === ESC) escapes++;
  for (let i = payload.indexOf(ESC); i >= 0; i = payload.indexOf(ESC, i + 1)) escapes++;
  const out = new Uint8Array(2 + LENGTH_BYTES + n + CRC_BYTES + escapes);
  out[0] = ESC;
  out[1] = START;
  let at = 2;
  for (let k = 0; k < LENGTH_BYTES; k++) at = put(out, at, lengthByte(n, k));
  for (let i = 0; i < n;) {
    const esc = payload.indexOf(ESC, i), end = esc < 0 ? n : esc;
    out.set(payload.subarray(i, end), at);
    at += end - i;
    if (esc < 0) break;
    at = put(out, at, ESC);
    i = esc + 1;
  }
  for (let k = 0; k < CRC_BYTES; k++) at = put(out, at, (crc >> (8 * k)) & 0xff);
  return out;
}

// Where the decoder is.
const HUNT = 0, LENGTH = 1, PAYLOAD = 2, CRC = 3;

// The frame decoder. push(bytes) hands each event to onEvent: ("frame",
// payload) for a good frame (a fresh Uint8Array), or ("bad", why) for a
// dropped one: "crc", "cut" (a start or a bad escape inside a frame) or
// "too long" (a length over cap). Bytes outside frames count as garbage.
export class Decoder {
  constructor(cap, onEvent) {
    this.cap = cap;
    this.onEvent = onEvent;
    this.state = HUNT;
    this.escaped = false;
    this.garbage = 0;
  }

  begin() {
    this.state = LENGTH;
    this.length = 0;
    this.got = 0;
    this.crc = R.crc.init;
    this.frameCrc = 0;
  }

  // One data byte of the frame (escapes undone).
  data(b) {
    switch (this.state) {
      case LENGTH:
        this.crc = ((this.crc << 8) & 0xffff) ^ TABLE[(this.crc >> 8) ^ b];
        this.length += b * 2 ** (8 * this.got);
        if (++this.got < R.length_bytes) return;
        this.got = 0;
        if (this.length > this.cap) {
          this.state = HUNT;
          this.onEvent("bad", "too long");
          return;
        }
        this.payload = new Uint8Array(this.length);
        this.state = this.length ? PAYLOAD : CRC;
        return;
      case PAYLOAD:
        this.crc = ((this.crc << 8) & 0xffff) ^ TABLE[(this.crc >> 8) ^ b];
        this.payload[this.got++] = b;
        if (this.got === this.length) {
          this.got = 0;
          this.state = CRC;
        }
        return;
      default:
        this.frameCrc |= b << (8 * this.got);
        if (++this.got < R.crc_bytes) return;
        this.state = HUNT;
        if (this.frameCrc === this.crc) this.onEvent("frame", this.payload);
        else this.onEvent("bad", "crc");
    }
  }

  push(bytes) {
    for (let i = 0; i < bytes.length; i++) {
      if (!this.escaped && this.state === PAYLOAD) {
        // a run of payload without escapes, in one piece
        let end = Math.min(bytes.length, i + this.length - this.got);
        const esc = bytes.indexOf(ESC, i);
        if (esc >= 0 && esc < end) end = esc;
        if (end > i) {
          this.payload.set(bytes.subarray(i, end), this.got);
          this.crc = crc16(this.crc, bytes, i, end);
          this.got += end - i;
          if (this.got === this.length) {
            this.got = 0;
            this.state = CRC;
          }
          i = end - 1;
          continue;
        }
      }
      const b = bytes[i];
      if (!this.escaped) {
        if (b === ESC) this.escaped = true;
        else if (this.state === HUNT) this.garbage++;
        else this.data(b);
        continue;
      }
      this.escaped = false;
      if (b === NOP) continue;
      if (b === START) {
        const inside = this.state !== HUNT;
        this.begin();
        if (inside) this.onEvent("bad", "cut");
      } else if (b === DATA_FF && this.state !== HUNT) {
        this.data(ESC);
      } else {
        // anything else after an escape: garbage outside a frame, a cut
        // inside one; a second escape is an escape again, so that a lone
        // escape at a frame's end does not swallow the next start
        const inside = this.state !== HUNT;
        this.state = HUNT;
        if (inside) this.onEvent("bad", "cut");
        else this.garbage++;
        if (b === ESC) this.escaped = true;
        else if (!inside) this.garbage++;
      }
    }
  }
}
