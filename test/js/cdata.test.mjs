// cdata.test.mjs — byte buffers and closure scopes through the generated
// hcb.mjs (docs/JS.md, "Generated modules"; ctest js_cdata, label
// cdata; the environment of bad_input.test.mjs): a Uint8Array for a
// [bytes] argument, a buffer a callback fills as a Uint8Array view of
// wasm memory, a call closure refused
// where the parameter's scope is another, and a function made a closure
// of the parameter's scope.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import * as nccc from "../../bindings/js/nccc/index.mjs";

const rt = await nccc.load(process.env.NCCC_JS_WASM);
assert.deepEqual(rt.callAddress(rt.symbol("nccc_fixture_open"), ":iI")[0], 0);
const gen = pathToFileURL(process.env.NCCC_JS_GENERATED).href;
const hcb = (await import(`${gen}/hcb.mjs`)).bind(rt);
const inUse = () => rt.closureStats()[1];

test("a Uint8Array passes as a [bytes] buffer", () => {
  assert.equal(Number(hcb.byte_sum(new Uint8Array([1, 2, 255]), 3)), 258);
  assert.equal(Number(hcb.byte_sum(new Uint8Array([9, 1, 2, 3]).subarray(1), 3)), 6);
  assert.equal(Number(hcb.byte_sum(new Uint8Array(0), 0)), 0);
  const p = rt.alloc(2);
  rt.write(p, new Uint8Array([16, 32]));
  assert.equal(Number(hcb.byte_sum(p, 2)), 48); // an address as before
  rt.free(p);
});

test("a callback fills its buffer through a Uint8Array view", () => {
  const source = new TextEncoder().encode("hello, bytes!");
  const seen = [];
  let at = 0;
  const dest = rt.alloc(32);
  const n = hcb.fill_from((buffer, size) => {
    seen.push([buffer instanceof Uint8Array, buffer.length, Number(size)]);
    const chunk = source.subarray(at, at + buffer.length);
    buffer.set(chunk);
    at += chunk.length;
    return chunk.length;
  }, dest, 32);
  assert.equal(Number(n), source.length);
  assert.deepEqual(rt.read(dest, source.length), source);
  assert.deepEqual(seen[0], [true, 4, 4]);
  rt.free(dest);
});

test("a call closure is refused where the scope is another, naming both", () => {
  const before = inUse();
  const c = hcb.callback("plain_fn", (x) => x, "call");
  assert.throws(() => hcb.keep(c), (e) => {
    assert.ok(e instanceof nccc.NcccError);
    assert.equal(e.kind, "scope");
    assert.equal(e.message, "bad argument #1 to 'hcb.keep' (closure of scope 'forever' expected, " +
      "got one of scope 'call' (make it with scope 'forever', or pass a function))");
    return true;
  });
  assert.equal(c.live, false);
  assert.equal(inUse(), before);
  assert.throws(() => hcb.later(1, hcb.callback("later_fn", () => {}, "call")),
    /scope 'async' expected, got one of scope 'call'/);
});

test("a function becomes a closure of the parameter's scope", () => {
  const before = inUse();
  hcb.on_fire((x) => 10 * x);
  assert.equal(inUse(), before + 1); // forever: kept
  assert.equal(hcb.fire(4), 40);
  hcb.clear_fire();
  const got = [];
  hcb.later(5, (v) => { got.push(v); });
  assert.equal(inUse(), before + 2);
  assert.equal(hcb.run_pending(), 1);
  assert.deepEqual(got, [5]);
  assert.equal(inUse(), before + 1); // async: released after its call
  assert.equal(hcb.fold(3, (acc, i) => acc + i), 3);
  assert.equal(inUse(), before + 1); // call: released by the call
});
