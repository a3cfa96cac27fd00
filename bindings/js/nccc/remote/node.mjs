// nccc/remote/node.mjs — the links of node (docs/JS.md, "Remote
// devices"): a child process's pipes, TCP, a terminal device (a pty or a
// serial port), and the link texts the C client takes (exec:, tcp:,
// pty:). A link is {send(bytes), close()}; the session sets its
// onBytes(bytes) and onClosed().
import { spawn } from "node:child_process";
import { openSync, constants } from "node:fs";
import { connect as tcpConnect } from "node:net";
import tty from "node:tty";
import { NcccError } from "../errors.mjs";
import abi from "../abi.mjs";

const transport = (text) => new NcccError(`${text} (NCCC_ERR_RPC_TRANSPORT)`, { kind: "remote", status: abi.status.ERR_RPC_TRANSPORT });

// A link over a readable and a writable stream; end() closes them.
function streamLink(readable, writable, end) {
  const link = {
    onBytes: () => {},
    onClosed: () => {},
    send(bytes) { if (writable.writable) writable.write(bytes); },
    close() { end(); },
  };
  let closed = false;
  const gone = () => {
    if (closed) return;
    closed = true;
    link.onClosed();
  };
  readable.on("data", (chunk) => link.onBytes(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)));
  readable.on("end", gone);
  readable.on("close", gone);
  readable.on("error", gone);
  writable.on("error", gone);
  return link;
}

// A child process serving on its standard input and output (argv[0]
// searched on PATH); closing ends its input, and then the process.
export function execLink(argv) {
  const child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", (e) => reject(transport(`could not start ${argv[0]}: ${e.message}`)));
    child.once("spawn", () => {
      const link = streamLink(child.stdout, child.stdin, () => {
        child.stdin.end();
        const killer = setTimeout(() => child.kill(), 2000);
        child.once("exit", () => clearTimeout(killer));
        killer.unref();
      });
      link.child = child;
      resolve(link);
    });
  });
}

// TCP to host:port, tried until timeoutMs passes (a device that is
// still starting).
export function tcpLink(port, { host = "127.0.0.1", timeoutMs = 2000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = tcpConnect({ port, host });
      socket.once("connect", () => {
        socket.setNoDelay(true);
        socket.removeAllListeners("error");
        resolve(streamLink(socket, socket, () => socket.end()));
      });
      socket.once("error", (e) => {
        if (Date.now() < deadline) setTimeout(attempt, 50);
        else reject(transport(`could not connect to ${host}:${port}: ${e.message}`));
      });
    };
    attempt();
  });
}

// A terminal device (a pty, a serial port) in raw mode. Its speed is
// the port's own (set it with stty beforehand): node cannot set it.
export function serialLink(path) {
  let fd;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY);
  } catch (e) {
    return Promise.reject(transport(`could not open ${path}: ${e.message}`));
  }
  if (!tty.isatty(fd)) return Promise.reject(transport(`${path} is not a terminal`));
  const input = new tty.ReadStream(fd);
  input.setRawMode(true);
  const output = new tty.WriteStream(fd);
  return Promise.resolve(streamLink(input, output, () => input.destroy()));
}

// The link a text names, as the C client's nccc_remote_open_spec takes
// it: "exec:PROGRAM ARG ..." (words split at spaces), "tcp:PORT",
// "pty:PATH".
export function openLink(spec, options = {}) {
  const at = spec.indexOf(":");
  const kind = spec.slice(0, at), rest = spec.slice(at + 1);
  if (kind === "exec" && rest.trim()) return execLink(rest.split(" ").filter(Boolean));
  if (kind === "tcp" && /^\d+$/.test(rest)) return tcpLink(Number(rest), options);
  if (kind === "pty" && rest) return serialLink(rest);
  return Promise.reject(new NcccError(`unknown link '${spec}' (exec:PROGRAM ARG..., tcp:PORT or pty:PATH expected)`,
    { kind: "type", status: abi.status.ERR_INVALID_ARG }));
}
