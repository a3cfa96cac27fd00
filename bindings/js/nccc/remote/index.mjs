// nccc/remote — remote devices from JavaScript (import "nccc/remote";
// docs/JS.md, "Remote devices"): connect to a device over a link, then
// bind generated modules to it (M.bind(device), a Promise) and call its
// functions asynchronously. The links of node are in "nccc/remote/node";
// a browser page reaches a device through a WebSocket (webSocketLink),
// served by the bridge (bridge.mjs).
import { compose } from "../parts.mjs";
import { Device } from "./device.mjs";
import { methods as binding } from "./bind.mjs";
import { methods as callbacks } from "./callbacks.mjs";
import { methods as keeping } from "./keeping.mjs";

// The Device's methods: its own (device.mjs: the session, requests,
// remote memory, built-ins), then each part's.
compose(Device,
  binding,   // what generated modules call: bindModule, special, fast, invoke, results
  callbacks, // callback, callbackGroup, hostFunction, claim, serveNested
  keeping,   // named, owner, ownedString, owning, converting
);

export { Device, address, outcomeUnknown } from "./device.mjs";
export { RemoteClosure } from "./callbacks.mjs";
export { crc16, encodeFrame, Decoder } from "./frame.mjs";

// A Promise of the Device on link after its session opened (options:
// timeoutMs, 2000; retries, 2; log(level, text) for the device's logs).
export async function connect(link, options = {}) {
  const dev = new Device(await link, options);
  try {
    return await dev.start();
  } catch (e) {
    dev.close();
    throw e;
  }
}

// A link over a WebSocket to url (the bridge): a Promise, resolved once
// the socket is open. Works in browsers and in node 22's WebSocket.
export function webSocketLink(url) {
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  const link = {
    onBytes: () => {},
    onClosed: () => {},
    send(bytes) { if (ws.readyState === WebSocket.OPEN) ws.send(bytes); },
    close() { ws.close(); },
  };
  ws.onmessage = (ev) => link.onBytes(new Uint8Array(ev.data));
  return new Promise((resolve, reject) => {
    ws.onopen = () => {
      ws.onclose = () => link.onClosed();
      resolve(link);
    };
    ws.onerror = () => reject(new Error(`could not open a WebSocket to ${url}`));
  });
}
