// dispatcher.test.mjs — the one dispatcher keeps the entry C called last
// beside its table (bindings/js/nccc/callbacks.mjs): a callback that ran
// last and was then released never runs again, and the next closure runs
// its own function (ctest js_dispatcher; the environment of
// cases.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import * as nccc from "../../bindings/js/nccc/index.mjs";

const rt = await nccc.load(process.env.NCCC_JS_WASM);
const gen = pathToFileURL(process.env.NCCC_JS_GENERATED).href;
const hcb = (await import(`${gen}/hcb.mjs`)).bind(rt);

test("closures called in turn each run their own function", () => {
  const sum = hcb.callback("step_fn", (a, i) => a + i, "forever");
  const count = hcb.callback("step_fn", (a) => a + 1, "forever");
  assert.equal(hcb.fold(5, sum), 10);
  assert.equal(hcb.fold(5, count), 5);
  assert.equal(hcb.fold(5, sum), 10);
  assert.equal(sum.release(), true);
  assert.equal(count.release(), true);
});

test("the callback that ran last, released, is gone; the next runs its own", () => {
  const before = rt.refs();
  const first = hcb.callback("step_fn", (a, i) => a + 2 * i, "forever");
  assert.equal(hcb.fold(4, first), 12);
  assert.equal(rt.refs(), before + 1);
  assert.equal(first.release(), true);
  assert.equal(first.live, false);
  assert.equal(rt.refs(), before);
  assert.throws(() => hcb.fold(4, first), (e) => e instanceof nccc.NcccError && e.kind === "released");
  const second = hcb.callback("step_fn", (a, i) => a + 3 * i, "forever");
  assert.equal(hcb.fold(4, second), 18);
  assert.equal(second.release(), true);
  assert.equal(rt.refs(), before);
});

test("a call-scoped closure is released by its call, after running last", () => {
  const before = rt.refs();
  for (let k = 1; k <= 3; k++) {
    assert.equal(hcb.fold(3, hcb.callback("step_fn", (a, i) => a + k * i)), 3 * k);
  }
  assert.equal(rt.refs(), before);
  assert.equal(rt.closureStats()[2], 0, "no stale call");
});
