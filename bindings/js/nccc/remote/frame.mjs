// nccc/remote/frame.mjs — the remote-call protocol's frames (docs/RPC.md,
// "Framing"): the CRC, the encoder and a decoder that takes the link's
// bytes in pieces of any size. Every number comes from abi.mjs.
import abi from "../abi.mjs";

const R = abi.rpc;
const ESC = R.escape, START = R.start, NOP = R.nop, DATA_FF = R.data_ff;

// The CRC of one byte value in the register's top byte, for every value:
// eight steps of the bitwise definition (most significant bit first).
const TABLE = new Uint16Array(256);
for (let v = 0; v < 256; v++) {
  let c = v << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ R.crc.poly) & 0xffff : (c << 1) & 0xffff;
  TABLE[v] = c;
}

// The CRC of bytes[from, to) continuing from crc.
export function crc16(crc, bytes, from = 0, to = bytes.length) {
  for (let i = from; i < to; i++) crc = ((crc << 8) & 0xffff) ^ TABLE[(crc >> 8) ^ bytes[i]];
  return crc;
}

// The frame of a payload, escaped (a data byte ESC as ESC DATA_FF):
// start, length, payload, CRC.
export function encodeFrame(payload) {
  const n = payload.length;
  const head = new Uint8Array(R.length_bytes);
  new DataView(head.buffer).setUint32(0, n, true);
  let crc = crc16(crc16(R.crc.init, head), payload);
  const tail = Uint8Array.of(crc & 0xff, crc >> 8);
  let escapes = 0;
  for (const part of [head, payload, tail]) for (const b of part) if (b === ESC) escapes++;
  const out = new Uint8Array(2 + head.length + n + tail.length + escapes);
  out[0] = ESC;
  out[1] = START;
  let at = 2;
  for (const part of [head, payload, tail]) {
    for (const b of part) {
      out[at++] = b;
      if (b === ESC) out[at++] = DATA_FF;
    }
  }
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
        // an escape that means nothing: garbage outside a frame, the frame
        // lost inside one; a second escape may itself begin a frame (a
        // frame cut after a lone escape, then the next one's start)
        const inside = this.state !== HUNT;
        this.state = HUNT;
        this.escaped = b === ESC;
        if (inside) this.onEvent("bad", "cut");
        else this.garbage += b === ESC ? 1 : 2;
      }
    }
  }
}
