// bench/js/remote.mjs — remote calls per second from JavaScript (the
// client of bindings/js/nccc/remote) to the test device, for the calls
// "add" (2 slots in, 1 out) and "slab" (slab_turn: 64 in, 64 out), over a
// pipe to the device and over TCP on 127.0.0.1: raw by handle
// (device.call) and through the generated wire.mjs bound to the device,
// beside raw round trips of the same byte counts from JavaScript to
// bench/rpc/pingpong.c's peer over the same transport (what node's event
// loop alone allows); also the CRC's speed alone. docs/BENCHMARKS.md
// ("Remote calls from JavaScript") has the figures beside the C
// client's.
//
//   node bench/js/remote.mjs JS_MODULES DEVICE PINGPONG [SECONDS] [ROUNDS]
//
// JS_MODULES: the folder of the generated wire.mjs (a build's
// test/remote/js); DEVICE: test/remote/wire_device; PINGPONG:
// bench/rpc/nccc_pingpong. Each figure is the median of ROUNDS (default
// 5) runs of SECONDS (default 1).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { abi } from "../../bindings/js/nccc/index.mjs";
import { connect, crc16 } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink, tcpLink } from "../../bindings/js/nccc/remote/node.mjs";

const [modules, device, pingpong, secs = "1", rounds = "5"] = process.argv.slice(2);
if (!modules || !device || !pingpong) {
  console.error("usage: node bench/js/remote.mjs JS_MODULES DEVICE PINGPONG [SECONDS] [ROUNDS]");
  process.exit(2);
}
const wire = await import(pathToFileURL(join(modules, "wire.mjs")));
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

// [calls per second, this process's CPU microseconds a call] of call()
// over secs seconds.
async function rate(call) {
  const end = performance.now() + 1000 * Number(secs), cpu = process.cpuUsage();
  let n = 0;
  while (performance.now() < end) {
    for (let k = 0; k < 100; k++) await call();
    n += 100;
  }
  const used = process.cpuUsage(cpu);
  return [n / Number(secs), (used.user + used.system) / n];
}

// Raw round trips: req bytes written to the peer's input, resp bytes
// awaited on its output, as the peer of pingpong.c answers.
function rawTrips(input, output, req, resp) {
  const bytes = new Uint8Array(req);
  let waiting = null, got = 0;
  output.on("data", (chunk) => {
    got += chunk.length;
    if (got >= resp && waiting) {
      got -= resp;
      const w = waiting;
      waiting = null;
      w();
    }
  });
  return () => new Promise((resolve) => {
    waiting = resolve;
    input.write(bytes);
  });
}

// The medians of ROUNDS rates and CPU times, printed.
async function medianRate(call) {
  const rates = [], cpus = [];
  for (let r = 0; r < Number(rounds); r++) {
    const [n, cpu] = await rate(call);
    rates.push(n);
    cpus.push(cpu);
  }
  return `${Math.round(median(rates)).toString().padStart(8)}/s ${median(cpus).toFixed(2).padStart(6)} us cpu`;
}

// The raw rates of add's and slab's byte counts on a transport.
async function raw(label, counts, open) {
  for (const [what, req, resp] of counts) {
    const { input, output, close } = await open(req, resp);
    console.log(`${label.padEnd(5)} ${`${what}, js raw`.padEnd(12)} ${await medianRate(rawTrips(input, output, req, resp))} trips`);
    close();
  }
}

const pipePeer = (req, resp) => {
  const peer = spawn(pingpong, ["--peer", "pipe", String(req), String(resp)], { stdio: ["pipe", "pipe", "inherit"] });
  return { input: peer.stdin, output: peer.stdout, close: () => peer.kill() };
};
const tcpPeer = (req, resp) => new Promise((resolve) => {
  const server = createServer((socket) => {
    socket.setNoDelay(true);
    resolve({ input: socket, output: socket, close: () => { socket.destroy(); server.close(); peer.kill(); } });
  });
  let peer;
  server.listen(0, "127.0.0.1", () => {
    peer = spawn(pingpong, ["--peer", "tcp", String(req), String(resp), String(server.address().port)], { stdio: "inherit" });
  });
});

async function measure(label, dev) {
  const w = await wire.bind(dev);
  const add = (await dev.lookup("wire.add")).handle, slab = (await dev.lookup("wire.slab_turn")).handle;
  const slots = Array.from({ length: 64 }, (_, i) => BigInt(i));
  const v = { v: slots };
  const cases = [
    ["add, raw", () => dev.call(add, [40n, 2n], 1)],
    ["add, bound", () => w.add(40n, 2n)],
    ["slab, raw", () => dev.call(slab, slots, 64)],
    ["slab, bound", () => w.slab_turn(v)],
  ];
  const counts = [];
  for (const [what, call] of cases) {
    const before = { ...dev.stats };
    console.log(`${label.padEnd(5)} ${what.padEnd(12)} ${await medianRate(call)} calls`);
    const n = dev.stats.requests - before.requests;
    if (what.endsWith("raw")) {
      counts.push([what.split(",")[0], Math.round((dev.stats.bytesSent - before.bytesSent) / n),
        Math.round((dev.stats.bytesReceived - before.bytesReceived) / n)]);
    }
  }
  dev.close();
  return counts;
}

await raw("pipe", await measure("pipe", await connect(execLink([device]))), pipePeer);
const child = spawn(device, ["--tcp", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const port = await new Promise((resolve) => {
  child.stdout.once("data", (chunk) => resolve(Number(String(chunk).split(/\s+/)[1])));
});
await raw("tcp", await measure("tcp", await connect(tcpLink(port))), tcpPeer);
child.kill();

const bytes = new Uint8Array(1 << 20).map((_, i) => i * 31);
const t0 = performance.now();
let c = 0;
for (let r = 0; r < 20; r++) c ^= crc16(abi.rpc.crc.init, bytes);
console.log(`crc16 ${(20 * bytes.length / ((performance.now() - t0) / 1000) / 1e6).toFixed(0)} MB/s (${c})`);
