// nccc/remote/bridge.mjs — the bridge between a browser page and a
// device (docs/JS.md, "The bridge"): a WebSocket endpoint on a node HTTP
// server whose every connection opens its own link to the device (a
// child process, TCP, a pty or serial port: node.mjs's link texts) and
// carries the link's bytes both ways as binary messages. The WebSocket
// protocol (RFC 6455) is written here with node's own modules: no
// dependency.
//
//   node bridge.mjs --link SPEC [--port N] [--path /nccc-link]
//
// serves only the WebSocket (on 127.0.0.1, any free port unless N) and
// prints its address; as a module, attachBridge(server, {link, path})
// adds it to any http.Server (examples/web/serve.mjs --link does).
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";
import { openLink } from "./node.mjs";

// RFC 6455: the key's suffix, and the frame opcodes used here.
const ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
const OP = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa };
// The close code of a link that could not be opened (an internal error).
const CLOSE_INTERNAL_ERROR = 1011;
// The largest message a page may send (a device's messages are far smaller).
const MAX_MESSAGE = 1 << 24;
// How long a TCP link is tried (a device that is still starting).
const CONNECT_MS = 10000;

// A frame from the server (never masked).
function frame(op, payload) {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | op, n])
    : n < 65536 ? Buffer.from([0x80 | op, 126, n >> 8, n & 0xff])
      : Buffer.concat([Buffer.from([0x80 | op, 127]), (() => {
        const b = Buffer.alloc(8);
        b.writeBigUInt64BE(BigInt(n));
        return b;
      })()]);
  return Buffer.concat([head, payload]);
}

// The frames in buf from a client: [{op, fin, payload}], and what is
// left over (an incomplete frame); null when a frame breaks the protocol.
function parseFrames(buf) {
  const frames = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    const fin = (buf[at] & 0x80) !== 0, op = buf[at] & 0x0f, masked = (buf[at + 1] & 0x80) !== 0;
    let n = buf[at + 1] & 0x7f, head = 2;
    if (n === 126) {
      if (buf.length - at < 4) break;
      n = buf.readUInt16BE(at + 2);
      head = 4;
    } else if (n === 127) {
      if (buf.length - at < 10) break;
      const big = buf.readBigUInt64BE(at + 2);
      if (big > BigInt(MAX_MESSAGE)) return null;
      n = Number(big);
      head = 10;
    }
    if (!masked || n > MAX_MESSAGE) return null;
    if (buf.length - at < head + 4 + n) break;
    const mask = buf.subarray(at + head, at + head + 4);
    const payload = Buffer.from(buf.subarray(at + head + 4, at + head + 4 + n));
    for (let i = 0; i < n; i++) payload[i] ^= mask[i & 3];
    frames.push({ fin, op, payload });
    at += head + 4 + n;
  }
  return { frames, rest: buf.subarray(at) };
}

// One WebSocket connection carried to one link.
async function carry(socket, spec) {
  let link;
  try {
    link = await openLink(spec, { timeoutMs: CONNECT_MS });
  } catch (e) {
    const reason = Buffer.from(`  ${e.message.slice(0, 100)}`);
    reason.writeUInt16BE(CLOSE_INTERNAL_ERROR);
    socket.end(frame(OP.close, reason));
    return;
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    link.close();
    if (!socket.destroyed) socket.end(frame(OP.close, Buffer.alloc(0)));
  };
  link.onBytes = (bytes) => {
    if (!socket.destroyed) socket.write(frame(OP.binary, Buffer.from(bytes)));
  };
  link.onClosed = close;
  let pending = Buffer.alloc(0), message = [];
  socket.on("data", (chunk) => {
    const parsed = parseFrames(Buffer.concat([pending, chunk]));
    if (!parsed) {
      close();
      return;
    }
    pending = parsed.rest;
    for (const f of parsed.frames) {
      if (f.op === OP.close) {
        close();
        return;
      }
      if (f.op === OP.ping) socket.write(frame(OP.pong, f.payload));
      if (f.op !== OP.binary && f.op !== OP.continuation && f.op !== OP.text) continue;
      message.push(f.payload);
      if (f.fin) {
        link.send(new Uint8Array(Buffer.concat(message)));
        message = [];
      }
    }
  });
  socket.on("close", close);
  socket.on("error", close);
}

// Adds the bridge to an http.Server: a WebSocket upgrade of path (default
// "/nccc-link") opens a link to spec (exec:, tcp:, pty:).
export function attachBridge(server, { link, path = "/nccc-link" }) {
  server.on("upgrade", (req, socket) => {
    const key = req.headers["sec-websocket-key"];
    if (new URL(req.url, "http://host").pathname !== path || !key ||
        String(req.headers.upgrade).toLowerCase() !== "websocket") {
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      return;
    }
    const accept = createHash("sha1").update(key + ACCEPT_GUID).digest("base64");
    socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      `Sec-WebSocket-Accept: ${accept}\r\n\r\n`);
    socket.setNoDelay(true);
    carry(socket, link);
  });
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2), opt = (name) => {
    const k = args.indexOf(name);
    return k >= 0 ? args[k + 1] : undefined;
  };
  const link = opt("--link"), path = opt("--path") || "/nccc-link";
  if (!link) {
    console.error("usage: node bridge.mjs --link SPEC [--port N] [--path /nccc-link]");
    process.exit(2);
  }
  const server = createServer((req, res) => {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("only the WebSocket " + path + "\n");
  });
  attachBridge(server, { link, path });
  server.listen(Number(opt("--port") || 0), "127.0.0.1", () => {
    console.log(`bridge to ${link} at ws://127.0.0.1:${server.address().port}${path} (Ctrl-C stops)`);
  });
}
