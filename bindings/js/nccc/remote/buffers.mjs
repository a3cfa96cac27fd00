// nccc/remote/buffers.mjs — host bytes given to a function of a module
// bound from a device (docs/JS.md, "C objects on a device"): the device
// cannot read this process's memory, so a Uint8Array (any ArrayBuffer
// view: its bytes) given for a [bytes] parameter is copied into the
// device's memory (its alloc and write) for the call, what the device
// wrote there is copied back into it when the call returns, and the
// copy is freed. A parameter the library keeps ([kept]) refuses one: the
// device would keep a copy freed when the call returns.
import { NcccError } from "../errors.mjs";

// call (async) of function record e with its [bytes] arguments copied
// to device dev; call itself when it has none.
export function bytesOnDevice(dev, e, call) {
  const kept = new Set((e.kept || []).map((k) => k.arg));
  const slots = ((e.values && e.values[0]) || []).filter((s) => s.kind === "bytes").map((s) => s.arg);
  if (!slots.length) return call;
  const name = e.error_name;
  return async (...args) => {
    const found = slots.filter((k) => ArrayBuffer.isView(args[k - 1]));
    if (!found.length) return call(...args);
    for (const k of found) {
      if (kept.has(k)) {
        throw new NcccError(`bad argument #${k} to '${name}' (the device keeps this pointer after the call: ` +
          "a Uint8Array cannot be kept there; pass device memory from dev.alloc and dev.write)",
        { kind: "type", function: name, parameter: k });
      }
    }
    const copies = [];
    try {
      for (const k of found) {
        const v = args[k - 1], bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
        const p = await dev.alloc(Math.max(bytes.length, 1));
        copies.push([p, bytes]);
        if (bytes.length) await dev.write(p, bytes);
        args[k - 1] = p;
      }
      const r = await call(...args);
      for (const [p, bytes] of copies) if (bytes.length) bytes.set(await dev.read(p, bytes.length));
      return r;
    } finally {
      for (const [p] of copies) await dev.free(p);
    }
  };
}
