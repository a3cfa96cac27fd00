// C objects in a device's memory from JavaScript (docs/JS.md, "C objects
// on a device"): test/cdata/cdata.idl's records made and viewed on the
// device by the generated cdata.mjs bound to it, their fields and whole
// records in the device's byte order and at its offsets, views of N
// records, text fields, the finalizer, and the refusals: wrong values,
// indexes, fields, freed objects, objects of wasm memory or of another
// device. Part of rpc_js_<device> (node --expose-gc).
//
//   node --expose-gc --test objects.test.mjs      with the environment
//     NCCC_REMOTE_COMMAND  the device's command line (words split at spaces)
//     NCCC_JS_MODULES      the folder of the generated cdata.mjs
//     NCCC_JS_WASM         (optional) the wasm host fixture, nccc_js_fixture.wasm,
//     NCCC_JS_GENERATED    and the folder of its generated cdata.mjs: C objects
//                          of wasm memory, refused by the device's functions
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import * as nccc from "../../bindings/js/nccc/index.mjs";
import { connect } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink } from "../../bindings/js/nccc/remote/node.mjs";
import { env } from "../js/env.mjs";

const { abi, NcccError } = nccc;

const command = env("NCCC_REMOTE_COMMAND").split(" ").filter(Boolean);
const cdata = await import(pathToFileURL(join(env("NCCC_JS_MODULES"), "cdata.mjs")));

const isError = (kind, words) => (e) => e instanceof NcccError && e.kind === kind && (!words || e.message.includes(words));

// A connected device and the module cdata bound from it, closed after t.
async function bound(t) {
  const dev = await connect(execLink(command));
  t.after(() => dev.close());
  return [dev, await cdata.bind(dev)];
}

test("fields by path, in the device's byte order", async (t) => {
  const [dev, c] = await bound(t);
  const little = dev.info.byteOrder !== abi.rpc.byte_orders.big;
  const p = await c.new("cd_point");
  assert.equal(await p.get("x"), 0);
  await p.set("x", -5);
  await p.set("y", 0x01020304);
  assert.equal(await p.get("x"), -5);
  assert.equal(await p.get("y"), 0x01020304);
  // the bytes as the device holds them, at its offsets and in its order
  const raw = new DataView((await dev.read(p.address, 8)).buffer);
  assert.equal(raw.getInt32(0, little), -5);
  assert.equal(raw.getInt32(4, little), 0x01020304);
  const v = c.view("cd_point", p.address);
  assert.equal(await v.get("y"), 0x01020304);
  await assert.rejects(p.set("x", 2 ** 31), isError("range"));
  await assert.rejects(p.set("x", "1"), isError("type"));
  await assert.rejects(p.set("x", 1.5), isError("integral", "field 'x' of cdata.cd_point (number 1.5 has no integer representation)"));
  assert.equal(await p.get("x"), -5);
  await assert.rejects(p.get("z"), (e) => isError("field")(e) && e.message === "get: cdata.cd_point has no field 'z'");
  // a device function fills the object itself: nested records, arrays, a union
  const ev = await c.new("cd_event");
  assert.equal(await c.cd_event_fill(ev, 2), 0);
  assert.equal(await ev.get("type"), 2);
  assert.equal(await ev.get("data", "shape", "corners", 0, "x"), -3);
  assert.equal(await ev.get("data", "shape", "corners", 1, "y"), 7);
  await ev.set("stamps", 2, 1.25);
  await ev.set("ranges", 1, "hi", -2);
  assert.equal(await ev.get("stamps", 2), 1.25);
  assert.equal(await ev.get("ranges", 1, "hi"), -2);
  // an array field as a whole: copies of its elements
  assert.deepEqual(await ev.get("stamps"), [0, 0, 1.25]);
  assert.deepEqual(await ev.get("ranges"), [{ lo: 0, hi: 0 }, { lo: 0, hi: -2 }]);
  await assert.rejects(ev.set("stamps", [1, 2, 3]), isError("type", "field 'stamps' of cdata.cd_event is an array: write its elements"));
  const corner = await ev.get("data", "shape", "corners", 1);
  assert.equal(await corner.get("y"), 7);
  // a nested record written whole
  await ev.set("data", "shape", "corners", 1, { x: 11, y: 12 });
  assert.equal(await corner.get("x"), 11);
  await assert.rejects(ev.get("stamps", 3), isError("range", "index 3 out of range 0..2 of field 'stamps'"));
  // freed: refused, and the views taken from it too, before any message
  assert.equal(await p.free(), true);
  assert.equal(await p.free(), false);
  const requests = dev.stats.requests;
  await assert.rejects(p.get("x"), isError("closed", "cdata.cd_point object was freed"));
  await assert.rejects(c.cd_big_used(p), isError("closed", "bad argument #1 to 'cdata.cd_big_used' (cdata.cd_point object was freed)"));
  assert.equal(dev.stats.requests, requests);
  assert.equal(await ev.free(), true);
  await assert.rejects(corner.get("y"), isError("closed"));
  await assert.rejects(c.new("nothing"), isError("unknown"));
});

test("whole records copied out and in", async (t) => {
  const [dev, c] = await bound(t);
  const little = dev.info.byteOrder !== abi.rpc.byte_orders.big;
  const ev = await c.new("cd_event");
  await c.cd_event_fill(ev, 2);
  const r = await ev.record();
  assert.equal(r.type, 2);
  assert.equal(r.data.shape.corners[0].x, -3);
  assert.equal(r.data.shape.corners[1].y, 7);
  assert.equal(r.data.shape.weight, 0.5);
  assert.equal(r.ranges[1].hi, -2);
  const copy = await c.new("cd_event", r);
  assert.deepEqual(await copy.bytes(), await ev.bytes());
  // bytes in the device's order
  const b = new Uint8Array(8);
  new DataView(b.buffer).setInt32(0, -2, little);
  new DataView(b.buffer).setInt32(4, 3, little);
  const p = await c.new("cd_point", b);
  assert.deepEqual(await p.record(), { x: -2, y: 3 });
  await p.assign({ y: 9 });
  assert.deepEqual(await p.record(), { x: 0, y: 9 });
  const q = await c.new("cd_point", p);
  assert.deepEqual(await q.record(), { x: 0, y: 9 });
  await assert.rejects(p.assign(new Uint8Array(3)), isError("type", "bad argument #1 to 'assign' (struct cd_point: 8 bytes expected, got 3)"));
  await assert.rejects(p.assign({ z: 1 }), isError("field"));
  assert.deepEqual(await p.record(), { x: 0, y: 9 });
  for (const o of [ev, copy]) await o.free();
  // freed without waiting: unusable at once, and the device's next
  // request finds the memory freed
  const qa = q.address;
  q[Symbol.dispose]();
  assert.equal(q.freed, true);
  await assert.rejects(dev.read(qa, 8), (e) => e.status === abi.status.ERR_RPC_FREED);
  await p[Symbol.asyncDispose]();
  assert.equal(p.freed, true);
  await assert.rejects(p.record(), isError("closed"));
});

test("a view of N records, indexes checked", async (t) => {
  const [dev, c] = await bound(t);
  const a = await dev.alloc(3 * 8);
  await dev.write(a, new Uint8Array(24));
  const pts = c.view("cd_point", a, 3);
  assert.equal(pts.length, 3);
  await pts.set(2, "x", 5);
  await pts.set(0, { x: 1, y: -1 });
  assert.equal(await pts.get(2, "x"), 5);
  assert.equal(await pts.at(0).get("y"), -1);
  assert.deepEqual(await pts.records(), [{ x: 1, y: -1 }, { x: 0, y: 0 }, { x: 5, y: 0 }]);
  // the view goes where a cd_point * goes, and to another view
  assert.equal(await c.view("cd_point", pts).get("x"), 1);
  await assert.rejects(pts.get(3, "x"), isError("range", "index 3 out of range 0..2 of cdata.cd_point"));
  assert.throws(() => pts.at(-1), isError("range"));
  assert.throws(() => pts.at(0.5), isError("range"));
  assert.throws(() => c.view("cd_point", a, 1.5), isError("type"));
  assert.throws(() => c.view("cd_point", null, 2), isError("type", "non-NULL address expected"));
  assert.equal(await pts.free(), true);
  await assert.rejects(pts.get(0, "x"), isError("closed"));
  await dev.free(a);
});

test("text fields read as strings; a string is not stored", async (t) => {
  const [dev, c] = await bound(t);
  const ev = await c.new("cd_event");
  assert.equal(await ev.get("data", "scalar", "value"), null);
  await c.cd_event_fill(ev, 1);
  assert.equal(await ev.get("data", "scalar", "value"), "caf\u00e9");
  await assert.rejects(ev.set("data", "scalar", "value", "x"), isError("type", "would not outlive the assignment"));
  await assert.rejects(ev.set("data", "scalar", "value", new Uint8Array(2)), isError("type", "would not outlive"));
  // an address and a count: the text is COUNT bytes there
  const text = await dev.alloc(8);
  await dev.write(text, new TextEncoder().encode("hey, you"));
  await ev.set("data", "scalar", "value", text);
  await ev.set("data", "scalar", "length", 3);
  assert.equal(await ev.get("data", "scalar", "value"), "hey");
  await ev.free();
  await dev.free(text);
});

test("an unreachable object is freed on the device by the finalizer", async (t) => {
  const [dev, c] = await bound(t);
  const made = async () => (await c.new("cd_point")).address;
  const a = await made();
  assert.deepEqual(await dev.read(a, 8), new Uint8Array(8));
  // the device refuses a read of a freed block (ERR_RPC_FREED)
  let freed = false;
  for (let k = 0; k < 200 && !freed; k++) {
    globalThis.gc();
    await sleep(20);
    freed = await dev.read(a, 8).then(() => false, (e) => e.status === abi.status.ERR_RPC_FREED);
  }
  assert.ok(freed, "the collected object's memory is still allocated on the device");
});

test("objects of wasm memory and of another device are refused", async (t) => {
  const [dev, c] = await bound(t);
  const ev = await c.new("cd_event");
  // another device's object
  const [, other] = await bound(t);
  await assert.rejects(other.cd_event_fill(ev, 2),
    isError("type", "bad argument #1 to 'cdata.cd_event_fill' (device address expected, got an object of another device)"));
  await assert.rejects(other.new("cd_event", ev), isError("type", "bad argument #2 to 'new' (a C object on another device)"));
  await assert.rejects(ev.assign(await c.new("cd_point")), isError("type", "bytes expected, got one of 8"));
  if (!process.env.NCCC_JS_WASM) {
    t.skip("NCCC_JS_WASM not set: no wasm build");
    return;
  }
  const rt = await nccc.load(process.env.NCCC_JS_WASM);
  const local = (await import(pathToFileURL(join(env("NCCC_JS_GENERATED"), "cdata.mjs")))).bind(rt);
  const lev = local.new("cd_event");
  await assert.rejects(c.cd_event_fill(lev, 2),
    isError("type", "bad argument #1 to 'cdata.cd_event_fill' (device address expected, got an object of wasm memory)"));
  await assert.rejects(c.cd_event_fill(lev.ranges, 2), isError("type", "got an object of wasm memory"));
  await assert.rejects(ev.set("data", "scalar", "value", lev), isError("type", "got an object of wasm memory"));
  // a closure and an owned result of wasm memory too
  const closure = rt.callback("i:i", (x) => x);
  await assert.rejects(c.cd_event_fill(closure, 2), isError("type", "got an object of wasm memory"));
  closure.release();
  const owned = rt.owner((p) => rt.free(p), "block")(rt.alloc(8));
  await assert.rejects(c.cd_big_used(owned), isError("type", "got an object of wasm memory"));
  owned.close();
  assert.throws(() => c.view("cd_event", lev), isError("type"));
  assert.throws(() => local.cd_event_fill(ev, 2), isError("type", "pointer expected, got C object on a device"));
  assert.equal(await c.cd_event_fill(ev, 2), 0);
  assert.equal(local.cd_event_fill(lev, 2), 0);
  assert.equal(await ev.get("ranges", 1, "hi"), lev.ranges[1].hi);
  await ev.free();
  lev.free();
});

test("host bytes for a [bytes] parameter: copied to the device and back; a kept one refused", async (t) => {
  const [dev, c] = await bound(t);
  // the callback fills the device's buffer (its copy, written back), and
  // cd_read_all copies it into dest: a Uint8Array copied back here
  const data = Uint8Array.of(9, 8, 7, 6, 5);
  let calls = 0;
  const reader = c.callback("cd_read_fn", (buffer, size) => {
    calls++;
    assert.ok(buffer instanceof Uint8Array);
    assert.equal(buffer.length, Number(size));
    buffer.set(data.subarray(0, Math.min(data.length, buffer.length)));
    return Math.min(data.length, buffer.length);
  });
  const dest = new Uint8Array(7).fill(0xaa);
  assert.equal(Number(await c.cd_read_all(reader, dest, 7)), 7);
  assert.deepEqual(dest, Uint8Array.of(9, 8, 7, 6, 9, 8, 7));
  assert.equal(calls, 2);
  const parser = await c.new("cd_parser");
  await assert.rejects(c.cd_parser_set_input(parser, Uint8Array.of(1, 2), 2),
    (e) => isError("type", "the device keeps this pointer")(e) && e.function === "cdata.cd_parser_set_input" && e.parameter === 2);
  assert.equal(Number(await parser.get("length")), 0);
  await parser.free();
});
