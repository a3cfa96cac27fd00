// symbols.test.mjs — rt.symbol finds every function a module made by
// nccc_add_bindings exports in the function table the linker made, and
// never grows the table: the build gives each of them a slot (ctest
// js_symbols; the environment of cases.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as nccc from "../../bindings/js/nccc/index.mjs";

const rt = await nccc.load(process.env.NCCC_JS_WASM);
const size = rt.table.length;

// The functions the fixture exports: nccc_add_bindings' own, and the
// one its CMakeLists appends to NCCC_WASM_EXPORTS (tour.negate's target).
const listed = ["nccc_root", "nccc_js_dispatcher", "malloc", "free", "nccc_tour_open",
  "nccc_hcb_open", "nccc_fixture_open", "negate_impl"];

test("every listed export has its own slot of the table", () => {
  for (const name of listed) {
    const k = rt.symbol(name);
    assert.ok(Number.isInteger(k) && k > 0 && k < size, `${name}: ${k}`);
    assert.equal(rt.table.get(k), rt.exports[name], name);
    assert.equal(rt.symbol(name), k, `${name} again`);
  }
  assert.equal(new Set(listed.map((n) => rt.symbol(n))).size, listed.length);
  assert.equal(rt.table.length, size);
});

test("an address from rt.symbol is called through the table", () => {
  assert.equal(rt.callAddress(rt.symbol("nccc_fixture_open"), ":iI")[0], 0);
  assert.equal(rt.call("tour.negate", rt.symbol("negate_impl"), 41), -41);
  assert.equal(rt.table.length, size);
});

test("the table cannot grow: the module needs no table growth", () => {
  assert.throws(() => rt.table.grow(1), RangeError);
  assert.equal(rt.table.length, size);
});

test("an export without a slot is refused, and the table stays as it was", () => {
  // stackSave: emscripten's export, which nothing takes the address of
  assert.equal(typeof rt.exports.stackSave, "function");
  assert.throws(() => rt.symbol("stackSave"), (e) => {
    assert.ok(e instanceof nccc.NcccError, String(e));
    assert.equal(e.kind, "unknown");
    assert.match(e.message, /'stackSave' has no address.*NCCC_WASM_EXPORTS/);
    return true;
  });
  assert.throws(() => rt.symbol("no_such_export"), (e) => e instanceof nccc.NcccError &&
    e.kind === "unknown" && /unknown symbol 'no_such_export'/.test(e.message));
  assert.equal(rt.table.length, size);
});

test("a data export is its address", () => {
  const g = rt.exports.nccc_js_exported;
  assert.ok(g instanceof WebAssembly.Global);
  const p = rt.symbol("nccc_js_exported");
  assert.equal(p, Number(g.value));
  // the table's array: its first entry is nccc_root's slot
  assert.equal(rt.mem.u32[p >> 2], rt.symbol("nccc_root"));
});
