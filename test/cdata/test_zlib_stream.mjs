// test_zlib_stream.mjs — zlib streaming from JavaScript through a C
// object (docs/JS.md, "C objects"): 10 MiB deflated and inflated in 64
// KiB chunks through a z_stream made by new, its fields (next_in,
// avail_in, next_out, avail_out, total_in, total_out, msg) read and
// written by name, and the bytes come back equal; node's own zlib
// inflates what the wasm deflate made. zlib is real zlib 1.3.1 built for
// wasm (test/cdata/fetch_zlib.cmake) with idl/zlib.idl's wrappers into
// nccc_js_zlib.wasm; the chunks go through examples/zlib_stream.mjs's
// stream. ctest runs it as cdata_zlib_js (labels cdata, js) with
// NCCC_JS_ZLIB_WASM and NCCC_JS_GENERATED.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";
import * as nccc from "../../bindings/js/nccc/index.mjs";
import { stream } from "../../examples/zlib_stream.mjs";

if (!existsSync(process.env.NCCC_JS_ZLIB_WASM)) {
  throw new Error(`${process.env.NCCC_JS_ZLIB_WASM} was not built: the wasm build could not fetch ` +
    "zlib's sources with npm (its configure log, wasm.configure.log, says why)");
}
const rt = await nccc.load(process.env.NCCC_JS_ZLIB_WASM);
const gen = pathToFileURL(process.env.NCCC_JS_GENERATED).href;
const z = (await import(`${gen}/zlib.mjs`)).bind(rt);
const SIZE = 10 << 20, CHUNK = 64 << 10;

// 10 MiB of words from a fixed pseudo-random sequence, with a few random
// bytes among them: compressible, but not trivially.
function data() {
  let seed = 23;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  const words = Array.from({ length: 500 }, () =>
    Uint8Array.from({ length: 2 + (next() % 8) }, () => 97 + (next() % 8)));
  const out = new Uint8Array(SIZE);
  let at = 0;
  while (at < SIZE) {
    const w = words[next() % words.length];
    out.set(w.subarray(0, SIZE - at), at);
    at += w.length;
    if (at < SIZE) out[at++] = next() % 10 === 0 ? next() & 0xff : 32;
  }
  return out;
}

test("deflate and inflate 10 MiB in 64 KiB chunks", () => {
  const input = data();
  const d = z.new("z_stream_s");
  assert.equal(z.deflateInit(d, z.Z_DEFAULT_COMPRESSION), z.Z_OK);
  const packed = stream(rt, z, d, z.deflate, z.Z_FINISH, input, CHUNK);
  assert.equal(d.total_in, SIZE);
  assert.equal(d.total_out, packed.length);
  assert.equal(z.deflateEnd(d), z.Z_OK);
  d.free();
  assert.ok(packed.length < SIZE / 2, `${packed.length} bytes`);
  assert.ok(inflateSync(packed).equals(input)); // node's own zlib agrees
  const i = z.new("z_stream_s");
  assert.equal(z.inflateInit(i), z.Z_OK);
  const back = stream(rt, z, i, z.inflate, z.Z_NO_FLUSH, packed, CHUNK);
  assert.equal(i.total_out, SIZE);
  assert.equal(z.inflateEnd(i), z.Z_OK);
  i.free();
  assert.equal(back.length, SIZE);
  assert.ok(back.equals(input));
});

test("an error message is a field", () => {
  const s = z.new("z_stream_s");
  assert.equal(z.inflateInit(s), z.Z_OK);
  const garbage = rt.alloc(16), out = rt.alloc(64);
  rt.write(garbage, new Uint8Array(16).fill(0xff));
  s.next_in = garbage;
  s.avail_in = 16;
  s.next_out = out;
  s.avail_out = 64;
  assert.equal(z.inflate(s, z.Z_NO_FLUSH), z.Z_DATA_ERROR);
  assert.equal(rt.cstring(s.msg), "incorrect header check");
  assert.equal(z.inflateEnd(s), z.Z_OK);
  s.free();
  rt.free(garbage);
  rt.free(out);
  assert.throws(() => z.deflate(s, z.Z_FINISH), /z_stream_s object was freed/);
});
