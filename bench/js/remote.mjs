// bench/js/remote.mjs — remote calls from JavaScript (the client of
// bindings/js/nccc/remote) to the test device, for the calls "add" (2
// slots in, 1 out) and "slab" (slab_turn: 64 in, 64 out), over a pipe to
// the device and over TCP on 127.0.0.1: raw by handle (device.call) and
// through the generated wire.mjs bound to the device, beside raw round
// trips of the same byte counts from JavaScript to bench/rpc/pingpong.c's
// peer over the same transport (what node's event loop alone allows);
// also the CRC's speed alone. docs/BENCHMARKS.md ("Remote calls from
// JavaScript") has the figures beside the C client's.
//
//   node bench/js/remote.mjs JS_MODULES DEVICE PINGPONG [SECONDS] [ROUNDS]
//
// JS_MODULES: the folder of the generated wire.mjs (a build's
// test/remote/js); DEVICE: test/remote/wire_device; PINGPONG:
// bench/rpc/nccc_pingpong. Each round runs every variant of a transport
// and call for SECONDS (default 1) in turn, raw trips included, so that
// one round's figures share the machine's load; each figure is the
// median of ROUNDS (default 5) rounds, and "trip/call" the median of the
// rounds' ratios of a raw trip's CPU time (this process's, user and
// system) to a call's. NCCC_BENCH_BASELINE=DIR also measures the client
// of another tree's DIR/bindings/js in the same rounds ("base" rows): a
// before and after on one loaded machine.
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
const baseline = process.env.NCCC_BENCH_BASELINE;
const clients = [["", { connect, execLink, tcpLink }]];
if (baseline) {
  const remote = await import(pathToFileURL(join(baseline, "bindings/js/nccc/remote/index.mjs")));
  const links = await import(pathToFileURL(join(baseline, "bindings/js/nccc/remote/node.mjs")));
  clients.push(["base ", { connect: remote.connect, execLink: links.execLink, tcpLink: links.tcpLink }]);
}

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

// The bound module and the handles of add and slab_turn on dev.
async function prepare(dev) {
  const w = await wire.bind(dev);
  const add = (await dev.lookup("wire.add")).handle, slab = (await dev.lookup("wire.slab_turn")).handle;
  const slots = Array.from({ length: 64 }, (_, i) => BigInt(i));
  const v = { v: slots };
  return {
    add: { raw: () => dev.call(add, [40n, 2n], 1), bound: () => w.add(40n, 2n) },
    slab: { raw: () => dev.call(slab, slots, 64), bound: () => w.slab_turn(v) },
  };
}

// Bytes a request and its answer take on the link (framing included).
async function byteCounts(dev, call) {
  const before = { ...dev.stats };
  for (let k = 0; k < 10; k++) await call();
  const n = dev.stats.requests - before.requests;
  return [Math.round((dev.stats.bytesSent - before.bytesSent) / n),
    Math.round((dev.stats.bytesReceived - before.bytesReceived) / n)];
}

// Every variant of a transport, round after round; the medians printed.
async function measure(label, open, peerOf) {
  const devs = [];
  for (const [name, c] of clients) devs.push([name, await c.connect(await open(c))]);
  const calls = [];
  for (const [name, dev] of devs) calls.push([name, await prepare(dev)]);
  for (const what of ["add", "slab"]) {
    const [req, resp] = await byteCounts(devs[0][1], calls[0][1][what].raw);
    const peer = await peerOf(req, resp);
    const variants = [["js raw", rawTrips(peer.input, peer.output, req, resp)]];
    for (const [name, c] of calls) variants.push([`${name}raw`, c[what].raw], [`${name}bound`, c[what].bound]);
    const got = new Map(variants.map(([v]) => [v, { rates: [], cpus: [], ratios: [] }]));
    for (let r = 0; r < Number(rounds); r++) {
      let trip;
      for (const [v, call] of variants) {
        const [n, cpu] = await rate(call);
        const g = got.get(v);
        g.rates.push(n);
        g.cpus.push(cpu);
        if (v === "js raw") trip = cpu;
        else g.ratios.push(trip / cpu);
      }
    }
    for (const [v, g] of got) {
      const ratio = g.ratios.length ? `  trip/call ${Math.round(100 * median(g.ratios))}%` : "";
      console.log(`${label.padEnd(5)} ${`${what}, ${v}`.padEnd(17)} ${Math.round(median(g.rates)).toString().padStart(8)}/s ` +
        `${median(g.cpus).toFixed(2).padStart(6)} us cpu${ratio}`);
    }
    peer.close();
  }
  for (const [, dev] of devs) dev.close();
}

await measure("pipe", (c) => c.execLink([device]), pipePeer);
// over TCP a device serves one connection: a device per client
const tcpDevices = [];
await measure("tcp", async (c) => {
  const child = spawn(device, ["--tcp", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  tcpDevices.push(child);
  const port = await new Promise((resolve) => {
    child.stdout.once("data", (chunk) => resolve(Number(String(chunk).split(/\s+/)[1])));
  });
  return c.tcpLink(port);
}, tcpPeer);
for (const child of tcpDevices) child.kill();

const bytes = new Uint8Array(1 << 20).map((_, i) => i * 31);
const t0 = performance.now();
let c = 0;
for (let r = 0; r < 20; r++) c ^= crc16(abi.rpc.crc.init, bytes);
console.log(`crc16 ${(20 * bytes.length / ((performance.now() - t0) / 1000) / 1e6).toFixed(0)} MB/s (${c})`);
