// The Cortex-M3 image from JavaScript (node): the generated m.mjs,
// dev.mjs and callbacks.mjs bound to the device (nccc/remote) over its
// UART, on QEMU's pipes and over TCP; results checked against what
// JavaScript computes; JavaScript functions as the device's callbacks in
// the call, async and notified scopes (one calling the device again),
// an error raised inside one, nesting past the device's limit, an abort
// and a reset noticed; and the device's nested calls and the answers to
// them lost or corrupted on the way (test/rpc/mangler.mjs), each
// callback still run once; and the smallest image, which serves no
// nesting, no remote memory and no callbacks module.
//
//   node --test device.test.mjs      with the environment
//     NCCC_DEVICE_RUN     device/run_qemu.sh
//     NCCC_DEVICE_IMAGE   the full image (firmware.elf)
//     NCCC_DEVICE_SMALLEST the smallest image (every feature switch at 0)
//     NCCC_JS_MODULES     the folder of the generated m.mjs, dev.mjs, callbacks.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { abi, NcccError } from "../../bindings/js/nccc/index.mjs";
import { connect } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink, tcpLink } from "../../bindings/js/nccc/remote/node.mjs";
import { mangled, once } from "../rpc/mangler.mjs";
import { env } from "../js/env.mjs";

const run = env("NCCC_DEVICE_RUN"), image = env("NCCC_DEVICE_IMAGE");
const load = (name) => import(pathToFileURL(join(env("NCCC_JS_MODULES"), `${name}.mjs`)));
const [m, devModule, callbacks] = await Promise.all([load("m"), load("dev"), load("callbacks")]);

async function device(t, options, fault) {
  const logs = [];
  const link = await execLink(["bash", run, "--link", image]);
  const dev = await connect(fault ? mangled(link, (d, p) => fault.now(d, p)) : link,
    { log: (level, text) => logs.push([level, text]), ...options });
  t.after(() => dev.close());
  return { dev, logs };
}

test("the libm subset, records, [out] and errno", async (t) => {
  const { dev } = await device(t);
  assert.equal(dev.info.pointerBytes, 4);
  const mm = await m.bind(dev), d = await devModule.bind(dev);
  assert.equal(await mm.sqrt(2), Math.sqrt(2));
  assert.equal(await mm.pow(2, 10), 1024);
  assert.equal(await mm.floor(-2.5), -3);
  assert.equal(await mm.fabs(-0.125), 0.125);
  assert.equal(await mm.fmod(7.5, 2), 1.5);
  assert.equal(await mm.ldexp(0.75, 4), 12);
  assert.deepEqual([...await mm.frexp(48)], [0.75, 6]);
  assert.deepEqual([...await mm.modf(-3.25)], [-0.25, -3]);
  assert.equal(await mm.hypotf(3, 4), 5);
  assert.equal(await d.norm({ x: 3, y: 4 }), 5);
  assert.deepEqual(await d.midpoint({ x: 1, y: -2 }, { x: 4, y: 8 }), { x: 2.5, y: 3 });
  assert.deepEqual([...await d.split(-2.75)], [-1, { x: -2, y: -0.75 }]);
  assert.deepEqual([...await d.fail(d.EDOM)], [-1, d.EDOM]);
});

test("JavaScript functions as the device's callbacks", async (t) => {
  const { dev } = await device(t);
  const cb = await callbacks.bind(dev), mm = await m.bind(dev);
  assert.equal(await cb.fold(10, cb.callback("step_fn", (acc, i) => acc + i)), 45);
  assert.equal(await cb.sort_digits(31415, cb.callback("cmp_fn", (a, b) => b - a)), 54311);
  // a callback that calls the device itself, asynchronously
  assert.equal(await cb.fold(4, cb.callback("step_fn", async (acc, i) => acc + await mm.sqrt(i * i))), 6);
  assert.equal(dev.closures.size, 0, "call-scoped closures released");

  const seen = [];
  await cb.later(7, cb.callback("later_fn", (v) => { seen.push(v); }, "async"));
  await cb.later(-3, cb.callback("later_fn", (v) => { seen.push(v); }, "async"));
  assert.deepEqual(seen, []);
  assert.equal(await cb.run_pending(), 2);
  assert.deepEqual(seen, [7, -3]);
  assert.equal(dev.closures.size, 0, "async closures released after their call");

  const watch = cb.callback("watch_fn", (event) => 10 * event, "notified");
  await cb.watch(watch);
  assert.equal(await cb.emit(4), 40);
  assert.equal(watch.live, true);
  await cb.unwatch();
  assert.equal(watch.live, false, "the device's destroy notify reached JavaScript");

  // a closure made for another callback type is refused before sending
  await assert.rejects(async () => cb.fold(1, cb.callback("later_fn", () => {})),
    (e) => e instanceof NcccError && e.kind === "type");
});

test("an error in a callback, nesting past the depth", async (t) => {
  const { dev } = await device(t);
  const cb = await callbacks.bind(dev);
  await assert.rejects(cb.fold(3, cb.callback("step_fn", (acc, i) => {
    if (i === 1) throw new Error("no step one");
    return acc + i;
  })), /no step one/);
  assert.equal(await cb.fold(4, cb.callback("step_fn", (acc, i) => acc + i)), 6);

  let levels = 0;
  const nested = async (acc, i) => {
    levels++;
    return acc + i + await cb.fold(1, cb.callback("step_fn", nested));
  };
  await assert.rejects(cb.fold(1, cb.callback("step_fn", nested)), (e) => e.kind === "remote" &&
    e.status === abi.status.ERR_RPC_DEPTH && e.message.startsWith("'callbacks.fold': remote call failed: "));
  assert.equal(levels, dev.info.maxDepth);
  assert.equal(dev.closures.size, 0);
  assert.equal(await cb.fold(4, cb.callback("step_fn", (acc, i) => acc + i)), 6);
});

test("an abort and a reset", async (t) => {
  const { dev, logs } = await device(t, { timeoutMs: 3000 });
  const d = await devModule.bind(dev), mm = await m.bind(dev);
  await assert.rejects(d.abort(7), (e) => e.kind === "remote" && e.status === abi.status.ERR_RPC_RESET &&
    e.message.includes("the device aborted during the request: TVMPlatformAbort: code 7"));
  assert.deepEqual(logs.at(-1), [abi.rpc.log_levels.abort, "TVMPlatformAbort: code 7"]);
  assert.equal(await mm.sqrt(16), 4);
  await assert.rejects(d.reset(), (e) => e.kind === "remote" && e.status === abi.status.ERR_RPC_RESET);
  assert.equal(await mm.sqrt(81), 9);
  assert.ok(dev.stats.restarts >= 2);
});

test("the image over TCP", async (t) => {
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const qemu = spawn("bash", [run, image, "-serial", `tcp:127.0.0.1:${port},server=on`], { stdio: "ignore" });
  t.after(() => qemu.kill());
  const dev = await connect(tcpLink(port, { timeoutMs: 20000 }));
  t.after(() => dev.close());
  const mm = await m.bind(dev);
  assert.equal(await mm.sqrt(2), Math.sqrt(2));
});

test("a callback's call or its answer lost or corrupted: each callback run once", async (t) => {
  const MSG = abi.rpc.messages;
  const fault = { now: () => "pass" };
  const { dev } = await device(t, { timeoutMs: 3000 }, fault);
  const cb = await callbacks.bind(dev);
  for (const [what, direction, type, how] of [
    ["the device's call lost", "up", MSG.call, "drop"],
    ["the device's call corrupted", "up", MSG.call, "corrupt"],
    ["the answer lost", "down", MSG.result, "drop"],
    ["the answer corrupted", "down", MSG.result, "corrupt"]]) {
    const seen = [];
    fault.now = once(direction, type, how, 3);
    const sum = await cb.fold(5, cb.callback("step_fn", (acc, i) => {
      seen.push(i);
      return acc + i;
    }));
    fault.now = () => "pass";
    assert.equal(sum, 10, what);
    assert.deepEqual(seen, [0, 1, 2, 3, 4], `${what}: each step once`);
  }
  assert.ok(dev.stats.resent >= 4);
  assert.equal(dev.closures.size, 0);
  assert.equal(await cb.fold(3, cb.callback("step_fn", (acc, i) => acc + i)), 3);
});

test("the smallest image: calls, and what it does not serve", async (t) => {
  const dev = await connect(execLink(["bash", run, "--link", env("NCCC_DEVICE_SMALLEST")]));
  t.after(() => dev.close());
  assert.equal(dev.info.maxDepth, 0);
  const mm = await m.bind(dev), d = await devModule.bind(dev);
  assert.equal(await mm.sqrt(2), Math.sqrt(2));
  assert.deepEqual(await d.midpoint({ x: 1, y: -2 }, { x: 4, y: 8 }), { x: 2.5, y: 3 });
  // built without remote memory: the requests are refused, nothing ran
  await assert.rejects(dev.read(0, 4), (e) => e.kind === "status" && e.status === abi.status.ERR_NOT_IMPLEMENTED);
  await assert.rejects(callbacks.bind(dev), (e) => e instanceof NcccError && e.kind === "unknown" &&
    e.message === "the device has no module 'callbacks'");
  assert.equal(await mm.fabs(-0.5), 0.5);
});
