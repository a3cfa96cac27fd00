// The faults of docs/RPC.md's table from the JavaScript client (node),
// against the test server (module rpct): a link that corrupts, cuts,
// drops and duplicates chosen frames in either direction, and injects
// garbage. Each case checks the result, that the call ran once (rpct's
// counter, and a JavaScript host function's own count inside nested
// calls), and that the next call works.
//
//   node --test faults.test.mjs      with the environment
//     NCCC_FAULTS_DEVICE   the test server's command line (words split at spaces)
import { test } from "node:test";
import assert from "node:assert/strict";
import { abi } from "../../bindings/js/nccc/index.mjs";
import { connect } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink } from "../../bindings/js/nccc/remote/node.mjs";
import { mangled, once } from "./mangler.mjs";

const command = (process.env.NCCC_FAULTS_DEVICE || "").split(" ").filter(Boolean);
if (command.length === 0) throw new Error("faults.test.mjs: set NCCC_FAULTS_DEVICE");
const MSG = abi.rpc.messages, ST = abi.status;
// The client's timeout where an answer must come however loaded the
// machine, and where a test waits for silence.
const PATIENT_MS = 10000, SILENCE_MS = 1500;

async function open(t, fault, timeoutMs = PATIENT_MS) {
  let current = () => "pass";
  const dev = await connect(mangled(await execLink(command), (d, p) => current(d, p)), { timeoutMs });
  t.after(() => dev.close());
  const h = async (name) => (await dev.lookup(`rpct.${name}`)).handle;
  const handles = { count: await h("count"), callHost: await h("call_host"), add: await h("add") };
  const count = async () => (await dev.call(handles.count, [], 1)).out[0];
  current = fault;
  return { dev, handles, count, arm: (f) => { current = f; } };
}

// The case: before it, the call under fault, after it; the counter shows
// the call ran once and the next call works.
async function countedOnce(t, fault, timeoutMs) {
  const { dev, count, arm } = await open(t, () => "pass", timeoutMs);
  const before = await count();
  arm(fault);
  assert.equal(await count(), before + 1n, "the call's own result");
  arm(() => "pass");
  assert.equal(await count(), before + 2n, "it ran once, and the next call works");
  return dev;
}

test("a request corrupted on its way: the device's notice, resent", async (t) => {
  const dev = await countedOnce(t, once("down", MSG.call, "corrupt"));
  assert.ok(dev.stats.notices >= 1 && dev.stats.resent >= 1);
});

test("an answer corrupted on its way: resent, answered from the device's last answer", async (t) => {
  const dev = await countedOnce(t, once("up", MSG.result, "corrupt"));
  assert.ok(dev.stats.badFrames >= 1 && dev.stats.resent >= 1);
});

test("a request lost whole: resent after silence", async (t) => {
  const dev = await countedOnce(t, once("down", MSG.call, "drop"), SILENCE_MS);
  assert.ok(dev.stats.resent >= 1);
});

test("an answer lost whole: resent after silence, answered from the last answer", async (t) => {
  await countedOnce(t, once("up", MSG.result, "drop"), SILENCE_MS);
});

test("a request cut short", async (t) => {
  await countedOnce(t, once("down", MSG.call, "cut"), SILENCE_MS);
});

test("a request duplicated, garbage between frames", async (t) => {
  const dev = await countedOnce(t, once("down", MSG.call, "dup"));
  assert.ok(dev.stats.stale >= 1, "the extra answer dropped");
  const before = dev.stats.garbage;
  await countedOnce(t, once("up", MSG.result, "garbage"));
  assert.ok(dev.stats.garbage >= before);
});

test("no retries left: the frame's failure, kind remote; the session goes on", async (t) => {
  const { dev, count, arm } = await open(t, () => "pass");
  dev.setTimeout(PATIENT_MS, 0);
  const before = await count();
  arm(once("down", MSG.call, "corrupt"));
  await assert.rejects(count(), (e) => e.kind === "remote" && e.status === ST.ERR_RPC_FRAME);
  arm(() => "pass");
  assert.equal(await count(), before + 1n);
});

test("a device restart mid-call: reset, then a new session", async (t) => {
  const { dev, count } = await open(t, () => "pass", SILENCE_MS);
  const restart = (await dev.lookup("rpct.restart")).handle;
  await assert.rejects(dev.call(restart, [], 0), (e) => e.kind === "remote" && e.status === ST.ERR_RPC_RESET);
  assert.equal(await count(), 1n, "a fresh device");
  assert.equal(dev.stats.sessions, 2);
});

// ---- inside nested calls ----

// rpct.call_host(h, x) counts its run, calls the host's function h (L:L)
// with x and answers [status, its result + 1]; the host function counts
// its own runs.
async function nested(t, fault, timeoutMs = SILENCE_MS) {
  const { dev, handles, count, arm } = await open(t, () => "pass", timeoutMs);
  let runs = 0;
  const twice = dev.hostFunction("L:L", (x) => {
    runs++;
    return 2n * x;
  });
  const before = await count();
  arm(fault);
  const r = await dev.call(handles.callHost, [BigInt(twice), 20n], 2);
  arm(() => "pass");
  assert.deepEqual([...r.out], [0n, 41n], "the device's call and the host's, both done");
  assert.equal(runs, 1, "the host's function ran once");
  assert.equal(await count(), before + 2n, "the device's function ran once (it counts too), and the next call works");
  return dev;
}

test("a nested call, no fault", async (t) => {
  await nested(t, () => "pass");
});

test("the device's nested call lost on its way to the host", async (t) => {
  await nested(t, once("up", MSG.call, "drop"));
});

test("the device's nested call corrupted on its way to the host", async (t) => {
  await nested(t, once("up", MSG.call, "corrupt"));
});

test("the host's answer to a nested call lost", async (t) => {
  await nested(t, once("down", MSG.result, "drop"));
});

test("the host's answer to a nested call corrupted", async (t) => {
  await nested(t, once("down", MSG.result, "corrupt"));
});

test("a request from inside the host function, lost", async (t) => {
  const { dev, handles, arm } = await open(t, () => "pass", SILENCE_MS);
  let runs = 0;
  const viaDevice = dev.hostFunction("L:L", async (x) => {
    runs++;
    return (await dev.call(handles.add, [x, 100n], 1)).out[0];
  });
  arm(once("down", MSG.call, "drop", 2));
  const r = await dev.call(handles.callHost, [BigInt(viaDevice), 1n], 2);
  arm(() => "pass");
  assert.deepEqual([...r.out], [0n, 102n]);
  assert.equal(runs, 1);
});
