// Module "keep" (keep.idl) bound to the test device from JavaScript
// (node), as a local module is bound: owned objects and strings freed on
// the device (its live counts show each freed once), a closure set kept
// by its owner and released with it, and callbacks whose pointer
// arguments arrive as the strings and arrays their value descriptions
// say, read from the device's memory.
//
//   node --test keep.test.mjs      with the environment of remote.test.mjs
//     NCCC_REMOTE_COMMAND  the device's command line (words split at spaces)
//     NCCC_JS_MODULES      the folder of the generated keep.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { NcccError, Owned } from "../../bindings/js/nccc/index.mjs";
import { connect } from "../../bindings/js/nccc/remote/index.mjs";
import { execLink } from "../../bindings/js/nccc/remote/node.mjs";
import { env } from "../js/env.mjs";

const command = env("NCCC_REMOTE_COMMAND").split(" ").filter(Boolean);
const keep = await import(pathToFileURL(join(env("NCCC_JS_MODULES"), "keep.mjs")));

async function bound(t) {
  const dev = await connect(execLink(command));
  t.after(() => dev.close());
  return [dev, await keep.bind(dev)];
}

test("owned objects: freed on the device once, by close()", async (t) => {
  const [, k] = await bound(t);
  const box = await k.box_new(41n);
  assert.ok(box instanceof Owned);
  assert.equal(box.type, "struct keep_box");
  assert.equal(await k.boxes_live(), 1);
  assert.equal(await k.box_value(box), 41n);
  assert.equal(await box.close(), true);
  assert.equal(box.closed, true);
  assert.equal(await k.boxes_live(), 0);
  assert.equal(box.close(), false);
  await assert.rejects(k.box_value(box), (e) => e instanceof NcccError && e.kind === "closed");
  assert.equal(await k.boxes_live(), 0);
  // disposed: freed without waiting, before the device's next call
  const other = await k.box_new(2n);
  assert.equal(await k.boxes_live(), 1);
  other[Symbol.dispose ?? Symbol.for("nodejs.dispose")]();
  assert.equal(other.closed, true);
  assert.equal(await k.boxes_live(), 0);
});

test("owned strings: read, then freed on the device", async (t) => {
  const [, k] = await bound(t);
  assert.equal(await k.repeat("ab", 3), "ababab");
  assert.equal(await k.repeat("x", 0), "");
  assert.equal(await k.repeat("x", -1), null);
  assert.equal(await k.texts_live(), 0);
});

test("a closure set kept by its owner, released when the owner is freed", async (t) => {
  const [dev, k] = await bound(t);
  // the device's closures in use (closure_stats: status, capacity, in
  // use, ...), one per member of a group
  const inUse = async () => Number((await dev.builtin("closure_stats", []))[2]);
  const before = await inUse();
  const box = await k.box_new(5n);
  const seen = [];
  await k.box_watch(box, (name, tags) => seen.push(["visit", name, tags]), null);
  await k.box_user(box);
  assert.equal(await k.box_run(box, "first", 3), 0);
  assert.deepEqual(seen, [["visit", "first", ["value", "5", "name", "first"]]]);
  // the other member set later, in the same group (one claim on the device)
  const requests = dev.stats.requests;
  await k.box_watch(box, null, (text, len, values, count) => {
    seen.push(["weigh", text, len, values, count]);
    return values.reduce((a, b) => a + b, 0);
  });
  assert.equal(dev.stats.requests, requests + 1);
  seen.length = 0;
  assert.equal(await k.box_run(box, "second", 4), 5 + 6 + 7 + 8);
  assert.deepEqual(seen, [["weigh", "weighed", 7, [5, 6, 7, 8], 4]]);
  assert.equal(dev.closures.size, 1);
  assert.equal(await inUse(), before + 2);
  assert.equal(await box.close(), true);
  assert.equal(await k.boxes_live(), 0);
  assert.equal(dev.closures.size, 0);
  assert.equal(await inUse(), before);
  // a group per owner: a second box's handlers are its own
  const a = await k.box_new(1n), b = await k.box_new(2n);
  const got = [];
  for (const [box2, tag] of [[a, "a"], [b, "b"]]) {
    await k.box_watch(box2, (name) => got.push(`${tag}:${name}`), null);
    await k.box_user(box2);
  }
  await k.box_run(b, "x", 0);
  await k.box_run(a, "y", 0);
  assert.deepEqual(got, ["b:x", "a:y"]);
  assert.equal(await inUse(), before + 4);
  await a.close();
  await b.close();
  assert.equal(dev.closures.size, 0);
  assert.equal(await inUse(), before);
  assert.equal(await k.boxes_live(), 0);
});

test("a callback's pointer arguments read as its value descriptions say", async (t) => {
  const [dev, k] = await bound(t);
  let args;
  const total = await k.total(k.callback("total_fn", (xs, n, words) => {
    args = [xs, n, words];
    return xs.reduce((a, b) => a + b, 0n) * 10n;
  }), 4);
  assert.equal(total, 100n);
  assert.deepEqual(args, [[1n, 2n, 3n, 4n], 4, ["one", "two", "three"]]);
  assert.equal(await k.total(k.callback("total_fn", (xs) => BigInt(xs.length)), 0), 0n);
  // a closure of scope call is released when its call returns
  const c = k.callback("total_fn", (xs, n, words) => BigInt(xs.length + words.length));
  assert.equal(await k.total(c, 2), 5n);
  assert.equal(c.live, false);
  assert.equal(dev.stats.resent, 0);
});
