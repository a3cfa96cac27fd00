// A link that mangles chosen frames, for the fault tests of the
// JavaScript client (faults.test.mjs, test/device/device.test.mjs): it
// sits between the session and the device's link, decodes the frames
// going either way and hands each, whole, to a fault function first.
import { Decoder, encodeFrame } from "../../bindings/js/nccc/remote/index.mjs";

// A corrupted frame has one bit flipped in its last byte that is, and
// stays, clear of the framing bytes (0xfc to 0xff: the escape and what
// follows one). Flipping a byte into the escape would make the frame
// wait for the next one: the device would see no bad frame at all, and
// send no notice.
const FLIP = 0x04, FRAMING = 0xf0;
function flippable(frame) {
  for (let i = frame.length - 1; i >= 2; i--) {
    if (frame[i] < FRAMING && (frame[i] ^ FLIP) < FRAMING) return i;
  }
  throw new Error("mangler: nothing to flip in the frame");
}

// A link between the session and the device that hands every frame,
// whole, to fault(direction, payload) first: "pass", "drop", "corrupt"
// (a byte flipped), "cut" (its second half never sent), "dup" (sent
// twice) or "garbage" (bytes that are no frame before it).
export function mangled(inner, fault) {
  const outer = { onBytes: () => {}, onClosed: () => {} };
  const apply = (direction, payload, deliver) => {
    const frame = encodeFrame(payload);
    switch (fault(direction, payload)) {
      case "drop": return;
      case "corrupt": frame[flippable(frame)] ^= FLIP; deliver(frame); return;
      case "cut": deliver(frame.subarray(0, frame.length >> 1)); return;
      case "dup": deliver(frame); deliver(frame); return;
      case "garbage": deliver(Uint8Array.of(0x00, 0x42, 0x13)); deliver(frame); return;
      default: deliver(frame);
    }
  };
  const up = new Decoder(1 << 24, (ev, p) => ev === "frame" && apply("up", p, (b) => outer.onBytes(b)));
  const down = new Decoder(1 << 24, (ev, p) => ev === "frame" && apply("down", p, (b) => inner.send(b)));
  inner.onBytes = (b) => up.push(b);
  inner.onClosed = () => outer.onClosed();
  outer.send = (b) => down.push(b);
  outer.close = () => inner.close();
  return outer;
}

// A fault for the n-th frame (from 1) of a type going one way, once.
export function once(direction, type, what, n = 1) {
  let seen = 0;
  return (dir, p) => (dir === direction && p[0] === type && ++seen === n ? what : "pass");
}
