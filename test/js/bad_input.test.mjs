// bad_input.test.mjs — bad input from JavaScript gets an NcccError of the
// right kind, naming the function and the argument, before anything
// reaches C: never a wasm trap, never a silent wrong value (ctest
// js_bad_input; the environment of cases.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import * as nccc from "../../bindings/js/nccc/index.mjs";

const rt = await nccc.load(process.env.NCCC_JS_WASM);
assert.deepEqual(rt.callAddress(rt.symbol("nccc_fixture_open"), ":iI")[0], 0);
const gen = pathToFileURL(process.env.NCCC_JS_GENERATED).href;
const tour = (await import(`${gen}/tour.mjs`)).bind(rt);
const hcb = (await import(`${gen}/hcb.mjs`)).bind(rt);

// fn() throws an NcccError of kind, for function name and argument k.
function refused(fn, kind, name, k) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof nccc.NcccError, `not an NcccError: ${e}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError));
    assert.equal(e.kind, kind, e.message);
    if (name !== undefined) assert.equal(e.function, name);
    if (k !== undefined) assert.equal(e.parameter, k);
    return true;
  });
}

test("a wrong argument count", () => {
  refused(() => tour.add(1n), "count", "tour.add");
  refused(() => tour.add(1n, 2n, 3n), "count", "tour.add");
  refused(() => hcb.obj_value(), "count", "hcb.obj_value");
  refused(() => rt.call("tour.text_length"), "count", "tour.text_length");
});

test("a wrong argument type", () => {
  refused(() => tour.add("1", 2n), "type", "tour.add", 1);
  refused(() => tour.echo_int(2n ** 40n), "range", "tour.echo_int", 1);
  refused(() => tour.echo_bool(1), "type", "tour.echo_bool", 1);
  refused(() => tour.echo_double("x"), "type", "tour.echo_double", 1);
  refused(() => tour.text_length(42), "type", "tour.text_length", 1);
  refused(() => tour.midpoint({ x: 1, z: 2 }, { x: 0, y: 0 }), "field", "tour.midpoint", 1);
  refused(() => hcb.fold(3, 42), "type", "hcb.fold", 2);
});

test("numbers out of range are refused, never wrapped", () => {
  refused(() => tour.echo_u8(256), "range", "tour.echo_u8", 1);
  refused(() => tour.echo_u8(-1), "range");
  refused(() => tour.echo_i64(2n ** 63n), "range", "tour.echo_i64", 1);
  refused(() => tour.echo_u64(-1n), "range", "tour.echo_u64", 1);
  refused(() => tour.echo_u64(2n ** 64n), "range");
  refused(() => tour.echo_i32(1.5), "integral", "tour.echo_i32", 1);
  refused(() => tour.echo_float(1e39), "range", "tour.echo_float", 1);
  assert.equal(tour.echo_u64(2n ** 64n - 1n), 2n ** 64n - 1n);
  assert.equal(tour.echo_i64(-(2n ** 63n)), -(2n ** 63n));
});

test("NULL where the IDL says [nonnull]", () => {
  refused(() => hcb.obj_value(null), "null", "hcb.obj_value", 1);
  refused(() => hcb.first_byte(0), "null", "hcb.first_byte", 1);
  refused(() => hcb.tick_each(null, 3), "null", "hcb.tick_each", 1);
  refused(() => hcb.repeat(null, 2), "null", "hcb.repeat", 1);
});

test("a closed object", () => {
  const o = hcb.obj_new(7n);
  assert.equal(hcb.obj_value(o), 7n);
  assert.equal(o.close(), true);
  assert.equal(o.close(), false);
  refused(() => hcb.obj_value(o), "closed", "hcb.obj_value", 1);
  assert.equal(hcb.obj_live(), 0);
  const p = hcb.obj_new(8n);
  assert.equal(hcb.obj_value(p), 8n);
  p[Symbol.dispose]();
  assert.equal(p.closed, true);
  assert.equal(hcb.obj_live(), 0);
});

test("an [out, owned] pointer is an owned object, refused once closed", () => {
  const [st, o] = hcb.obj_make(5n);
  assert.equal(st, 0);
  assert.ok(o instanceof nccc.Owned, `not an Owned: ${o}`);
  assert.equal(hcb.obj_value(o), 5n);
  assert.equal(hcb.obj_live(), 1);
  assert.equal(o.close(), true);
  assert.equal(hcb.obj_live(), 0);
  refused(() => hcb.obj_value(o), "closed", "hcb.obj_value", 1);
});

test("a released closure", () => {
  const c = hcb.callback("handler_fn", (x) => x + 1, "forever");
  assert.equal(c.release(), true);
  assert.equal(c.live, false);
  refused(() => hcb.on_fire(c), "released", "hcb.on_fire", 1);
  assert.equal(rt.refs(), 0);
});

test("an error in a callback is the forward call's, and C goes on", () => {
  let calls = 0;
  const c = hcb.callback("step_fn", () => {
    calls++;
    throw new RangeError("no");
  });
  assert.throws(() => hcb.fold(3, c), (e) => e instanceof nccc.NcccError && e.kind === "callback" &&
    e.cause instanceof RangeError && /\(and 2 more errors in callbacks\)/.test(e.message));
  assert.equal(calls, 3);
  assert.equal(hcb.fold(4, hcb.callback("step_fn", (a, i) => a + i)), 6);
});

test("attach refuses what is not a started glue module", async () => {
  for (const bad of [undefined, {}, { asm: 1 }]) {
    await assert.rejects(nccc.attach(bad), (e) => e instanceof nccc.NcccError && e.kind === "load" &&
      /Module object of emscripten's glue/.test(e.message));
  }
});
