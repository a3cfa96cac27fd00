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
import { connect, Decoder, encodeFrame } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink } from "../../bindings/js/nccc/remote/node.mjs";

const command = (process.env.NCCC_FAULTS_DEVICE || "").split(" ").filter(Boolean);
if (command.length === 0) throw new Error("faults.test.mjs: set NCCC_FAULTS_DEVICE");
const MSG = abi.rpc.messages, ST = abi.status;
// The client's timeout where an answer must come however loaded the
// machine, and where a test waits for silence.
const PATIENT_MS = 10000, SILENCE_MS = 1500;

// A link between the session and the device that hands every frame,
// whole, to fault(direction, payload) first: "pass", "drop", "corrupt"
// (a CRC byte flipped), "cut" (its second half never sent), "dup" (sent
// twice) or "garbage" (bytes that are no frame before it).
function mangled(inner, fault) {
  const outer = { onBytes: () => {}, onClosed: () => {} };
  const apply = (direction, payload, deliver) => {
    const frame = encodeFrame(payload);
    switch (fault(direction, payload)) {
      case "drop": return;
      case "corrupt": frame[frame.length - 1] ^= 0x5a; deliver(frame); return;
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
function once(direction, type, what, n = 1) {
  let seen = 0;
  return (dir, p) => (dir === direction && p[0] === type && ++seen === n ? what : "pass");
}

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

// rpct.call_host(h, x) calls the host's function h (L:L) with x and
// answers [status, its result + 1], counted as rpct.count is; the host
// function counts its runs.
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
  // rpct.call_host counts its runs as count does
  assert.equal(await count(), before + 2n, "the device's call ran once, and the next call works");
  return dev;
}

test("a nested call, no fault", async (t) => {
  await nested(t, () => "pass");
});

// The device sends its nested call again when the host sends again the
// request it serves (docs/RPC.md, "Request ids"), and the host answers a
// copy of the call it answered last from its last answer.
test("the device's nested call corrupted on its way", async (t) => {
  await nested(t, once("up", MSG.call, "corrupt"));
});

test("the device's nested call lost", async (t) => {
  await nested(t, once("up", MSG.call, "drop"));
});

test("the host's answer to a nested call corrupted", async (t) => {
  await nested(t, once("down", MSG.result, "corrupt"));
});

test("the host's answer to a nested call lost", async (t) => {
  await nested(t, once("down", MSG.result, "drop"));
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
