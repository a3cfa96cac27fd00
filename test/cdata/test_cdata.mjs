// test_cdata.mjs — C objects in JavaScript (docs/JS.md, "C objects")
// over the cdata fixture (cdata.idl, cdata.c) built for wasm into the
// host fixture (test/js/wasm: nccc_js_fixture.wasm, its generated
// cdata.mjs): new,
// fields by name through nested records, unions and arrays, the object
// passed as a T *, borrowed views, whole-record copies, Uint8Arrays for
// [bytes] buffers (kept by the library with their owner, filled by C, or
// by a callback through a view), and the errors (an array's bounds, a
// wrong type, a freed object). ctest runs it as cdata_js (labels cdata,
// js) with NCCC_JS_WASM and NCCC_JS_GENERATED.
import { test } from "node:test";
import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import * as nccc from "../../bindings/js/nccc/index.mjs";

const rt = await nccc.load(process.env.NCCC_JS_WASM);
assert.deepEqual(rt.callAddress(rt.symbol("nccc_fixture_open"), ":iI")[0], 0);
const gen = pathToFileURL(process.env.NCCC_JS_GENERATED).href;
const cd = (await import(`${gen}/cdata.mjs`)).bind(rt);
const SIZE = cd.layout("cd_event").size;

// fn throws an NcccError of kind kind whose message has text.
function refuses(fn, kind, text) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof nccc.NcccError, String(e));
    assert.equal(e.kind, kind, e.message);
    assert.ok(e.message.includes(text), `'${e.message}' lacks '${text}'`);
    return true;
  });
}

test("new is zeroed, of the layout's size", () => {
  const ev = cd.new("cd_event");
  assert.ok(ev instanceof nccc.CObject);
  assert.deepEqual(ev.bytes(), new Uint8Array(SIZE));
  assert.deepEqual(rt.read(ev.address, SIZE), new Uint8Array(SIZE));
  assert.equal(ev.type, 0);
  assert.equal(ev.data.scalar.value, null);
  assert.equal(ev.stamps.length, 3);
  assert.deepEqual([...ev.stamps], [0, 0, 0]);
  ev.free();
});

test("C fills an object passed as a pointer", () => {
  const ev = cd.new("cd_event");
  assert.equal(cd.cd_event_fill(ev, 2), 0);
  assert.equal(ev.type, 2);
  assert.equal(ev.data.shape.corners[0].x, -3);
  assert.equal(ev.data.shape.corners[1].y, 7);
  assert.equal(ev.data.shape.weight, 0.5); // a member of an anonymous union
  assert.deepEqual(ev.stamps.toArray(), [0, 0, 2.25]);
  assert.equal(ev.ranges[1].hi, -2);
  assert.equal(cd.cd_event_fill(ev, 1), 0);
  assert.equal(ev.data.scalar.value, "café"); // a text read by its count
  assert.equal(ev.data.scalar.length, 5);
});

test("fields written by name reach C", () => {
  const big = cd.new("cd_big");
  big.used = 41;
  assert.equal(cd.cd_big_used(big), 41);
  big.used = -7;
  assert.equal(cd.cd_big_used(big), -7);
  const ev = cd.new("cd_event");
  ev.data.shape.corners[1].x = 9;
  ev.data.shape.tag = 5;
  ev.stamps[0] = 1.5;
  ev.ranges[1].lo = -300;
  const rec = ev.record();
  assert.equal(rec.data.shape.corners[1].x, 9);
  assert.equal(rec.data.shape.tag, 5);
  assert.equal(rec.stamps[0], 1.5);
  assert.equal(rec.ranges[1].lo, -300);
  ev.data.shape.weight = 1.0;
  assert.equal(ev.data.shape.tag, 0x3f800000); // union members share memory
  ev.data.shape.corners[0] = { x: 4, y: 5 };
  assert.equal(ev.data.shape.corners[0].y, 5); // an object packed into a record element
  ev.ranges[0] = { lo: -1 };
  assert.deepEqual(ev.record().ranges[0], { lo: -1, hi: 0 });
  ev.data.shape = { corners: [{ x: 1, y: 2 }] }; // a record field written whole
  assert.equal(ev.data.shape.corners[0].y, 2);
  assert.equal(ev.data.shape.corners[1].x, 0);
});

test("a borrowed view of C memory never frees", () => {
  const p = rt.alloc(SIZE);
  rt.write(p, new Uint8Array(SIZE));
  const v = cd.view("cd_event", p);
  assert.equal(cd.cd_event_fill(p, 2), 0);
  assert.equal(v.data.shape.corners[1].y, 7);
  v.type = 12;
  assert.equal(new DataView(rt.memory.buffer).getInt32(p, true), 12);
  assert.equal(String(v), `view of cdata.cd_event at ${p}`);
  assert.equal(v.free(), true);
  refuses(() => v.type, "closed", "cd_event object was freed");
  assert.equal(new DataView(rt.memory.buffer).getInt32(p, true), 12); // still there
  const rs = cd.view("cd_event__ranges", p + cd.layout("cd_event").field.ranges.offset, 2);
  assert.equal(rs.length, 2);
  assert.equal(rs[1].hi, -2);
  rs[1].lo = 3;
  assert.equal(rs[1].lo, 3);
  rs[0] = { lo: 8, hi: 9 };
  assert.equal(rs[0].hi, 9);
  refuses(() => rs[2], "range", "index 2 out of range 0..1");
  refuses(() => cd.view("cd_event", rt.memory.buffer.byteLength - 8), "range", "past the end of wasm memory");
  rt.free(p);
});

test("a view of a C object sees its memory", () => {
  const ev = cd.new("cd_event");
  const v = cd.view("cd_event", ev);
  v.type = 3;
  assert.equal(ev.type, 3);
  assert.equal(v.address, ev.address);
});

test("whole-record copies", () => {
  const ev = cd.new("cd_event");
  cd.cd_event_fill(ev, 2);
  const copy = cd.new("cd_event", ev.record());
  assert.equal(copy.ranges[1].hi, -2);
  copy.assign({ type: 7 });
  assert.equal(copy.type, 7);
  assert.equal(copy.ranges[1].hi, 0); // left out is zero
  copy.assign(ev.bytes());
  assert.equal(copy.ranges[1].hi, -2);
  copy.assign({});
  copy.assign(ev); // another C object of the layout
  assert.deepEqual(copy.bytes(), ev.bytes());
  refuses(() => copy.assign(new Uint8Array(3)), "type", `${SIZE} bytes expected, got 3`);
  refuses(() => copy.assign({ nothing: 1 }), "field", "has no field 'nothing'");
});

test("wrong values are refused, C memory unchanged", () => {
  const ev = cd.new("cd_event");
  ev.type = 4;
  refuses(() => { ev.type = 1.5; }, "integral", "field 'type' of cdata.cd_event (number 1.5 has no integer representation)");
  refuses(() => { ev.type = 2 ** 31; }, "range", "out of range for int32");
  refuses(() => { ev.type = "1"; }, "type", "integer expected, got string");
  refuses(() => { ev.ranges[0].lo = 40000; }, "range", "out of range for int16");
  refuses(() => { ev.stamps[0] = "x"; }, "type", "number expected");
  refuses(() => { ev.data.shape.weight = 1e39; }, "range", "out of range for float");
  refuses(() => { ev.data.scalar.value = "abc"; }, "type", "would not outlive the assignment");
  refuses(() => { ev.stamps = [1, 2, 3]; }, "type", "is an array: write its elements");
  refuses(() => cd.cd_event_fill(ev, ev.stamps), "type", "bad argument #2 to 'cdata.cd_event_fill' (integer expected, got C array)");
  assert.equal(ev.type, 4);
  assert.deepEqual(ev.ranges[0].lo, 0);
});

test("past the end, unknown names and layouts are errors", () => {
  const ev = cd.new("cd_event");
  refuses(() => ev.stamps[3], "range", "index 3 out of range 0..2 of field 'stamps' of cdata.cd_event");
  refuses(() => { ev.stamps[-1] = 1; }, "range", "index -1 out of range");
  refuses(() => ev.ranges[1.5], "range", "index 1.5 out of range");
  refuses(() => ev.nothing, "field", "cdata.cd_event has no field 'nothing'");
  refuses(() => { ev.nothing = 1; }, "field", "has no field 'nothing'");
  refuses(() => ev.stamps.nothing, "field", "has no property 'nothing'");
  refuses(() => cd.new("cd_nothing"), "unknown", "a struct or union of cdata expected, got 'cd_nothing'");
  refuses(() => cd.view("cd_event", null), "type", "non-NULL address expected");
  refuses(() => cd.view("cd_event", 0), "type", "non-NULL address expected");
});

test("a freed object is an error, for its views too", () => {
  const big = cd.new("cd_big");
  const ev = cd.new("cd_event");
  const data = ev.data;
  assert.equal(big.free(), true);
  assert.equal(big.free(), false);
  assert.equal(big.freed, true);
  refuses(() => big.used, "closed", "cd_big object was freed");
  refuses(() => { big.used = 1; }, "closed", "freed");
  refuses(() => cd.cd_big_used(big), "closed", "bad argument #1 to 'cdata.cd_big_used' (cd_big object was freed)");
  ev.close();
  refuses(() => data.shape.tag, "closed", "cd_event object was freed");
  refuses(() => ev.stamps, "closed", "freed");
  assert.equal(String(big), "freed cdata.cd_big");
});

test("a view taken from an object keeps its memory", () => {
  let ev = cd.new("cd_event");
  cd.cd_event_fill(ev, 2);
  const shape = ev.data.shape;
  ev = null;
  globalThis.gc?.();
  assert.equal(shape.corners[1].y, 7);
});

test("the parser fills events from kept input", () => {
  const parser = cd.new("cd_parser"), ev = cd.new("cd_event");
  const text = rt.newCString("ab cde");
  cd.cd_parser_set_input(parser, text, 6);
  assert.equal(parser.length, 6);
  assert.equal(parser.input, text);
  const words = [];
  while (cd.cd_parser_next(parser, ev) === 1) words.push(ev.data.scalar.value);
  assert.deepEqual(words, ["ab", "cde"]);
  assert.equal(parser.at, 6);
  rt.free(text);
});

test("a kept Uint8Array lives with its owner", () => {
  const parser = cd.new("cd_parser"), ev = cd.new("cd_event");
  const bytes = new TextEncoder().encode("one two");
  cd.cd_parser_set_input(parser, bytes, bytes.length); // [kept=p]: a copy held by parser
  bytes.fill(0);
  const words = [];
  while (cd.cd_parser_next(parser, ev) === 1) words.push(ev.data.scalar.value);
  assert.deepEqual(words, ["one", "two"]);
  const first = parser.input;
  cd.cd_parser_set_input(parser, new TextEncoder().encode("x y"), 3); // replaces it
  assert.notEqual(parser.input, first);
  assert.equal(cd.cd_parser_next(parser, ev), 1);
  assert.equal(ev.data.scalar.value, "x");
  const p = rt.alloc(cd.layout("cd_parser").size);
  refuses(() => cd.cd_parser_set_input(p, new Uint8Array(1), 1), "type",
    "a Uint8Array the library keeps needs a C object from new as argument #1");
  rt.free(p);
  parser.free(); // frees the kept copy with it
});

test("Uint8Arrays for [bytes] buffers both ways", () => {
  const source = new TextEncoder().encode("bytes both ways");
  let at = 0;
  const sizes = [];
  const dest = new Uint8Array(32);
  const n = cd.cd_read_all((buffer, size) => {
    assert.ok(buffer instanceof Uint8Array); // a writable view of C's buffer
    sizes.push(Number(size));
    const chunk = source.subarray(at, at + buffer.length);
    buffer.set(chunk);
    at += chunk.length;
    return chunk.length;
  }, dest, dest.length);
  assert.equal(Number(n), source.length);
  assert.deepEqual(dest.subarray(0, source.length), source); // C's writes copied back
  assert.deepEqual(sizes.slice(0, 2), [4, 4]);
  assert.equal(Number(cd.cd_text_length("café")), 5);
});
