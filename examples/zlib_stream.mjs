// zlib_stream.mjs — zlib streamed from JavaScript through a z_stream
// that JavaScript allocates, its fields read and written by name
// (docs/JS.md, "C objects"): real zlib built for wasm with the wrappers
// of idl/zlib.idl (nccc_js_zlib.wasm, made by the project's wasm build).
// tools/demo.sh runs it; test/cdata/test_zlib_stream.mjs uses stream.
//   node zlib_stream.mjs WASM GENERATED_DIR FILE
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { inflateSync } from "node:zlib";

// Feeds input in chunk pieces to step (z.deflate or z.inflate) through
// the fields of strm (a z_stream from z.new), with the flush finish on
// the last piece; returns what step wrote, collected from chunk-sized
// outputs. z is the bound zlib module, rt its runtime.
export function stream(rt, z, strm, step, finish, input, chunk = 64 << 10) {
  const inbuf = rt.alloc(chunk), outbuf = rt.alloc(chunk);
  const out = [];
  try {
    let pos = 0, ended = false;
    while (!ended) {
      const piece = input.subarray(pos, pos + chunk);
      pos += piece.length;
      rt.write(inbuf, piece);
      strm.next_in = inbuf;
      strm.avail_in = piece.length;
      const flush = pos >= input.length ? finish : z.Z_NO_FLUSH;
      for (;;) {
        strm.next_out = outbuf;
        strm.avail_out = chunk;
        const st = step(strm, flush);
        if (st !== z.Z_OK && st !== z.Z_STREAM_END && st !== z.Z_BUF_ERROR) {
          throw new Error(`zlib status ${st}: ${rt.cstring(strm.msg)}`);
        }
        out.push(rt.read(outbuf, chunk - strm.avail_out));
        if (st === z.Z_STREAM_END) {
          ended = true;
          break;
        }
        if (strm.avail_out !== 0) break;
      }
      if (pos >= input.length && flush === z.Z_NO_FLUSH) break;
    }
  } finally {
    rt.free(inbuf);
    rt.free(outbuf);
  }
  return Buffer.concat(out);
}

// deflate then inflate FILE, each through its own z_stream.
async function main([wasm, generated, file]) {
  const nccc = await import("../bindings/js/nccc/index.mjs");
  const rt = await nccc.load(wasm);
  const z = (await import(`${pathToFileURL(generated).href}/zlib.mjs`)).bind(rt);
  const input = readFileSync(file);
  const d = z.new("z_stream_s");        // zeroed: zlib's own allocator
  z.deflateInit(d, z.Z_BEST_COMPRESSION);
  const packed = stream(rt, z, d, z.deflate, z.Z_FINISH, input, 4096);
  console.log(`deflate: ${d.total_in} bytes in, ${d.total_out} out (zlib ${z.zlibVersion()})`);
  z.deflateEnd(d);
  d.free();
  const i = z.new("z_stream_s");
  z.inflateInit(i);
  const back = stream(rt, z, i, z.inflate, z.Z_NO_FLUSH, packed, 4096);
  z.inflateEnd(i);
  i.free();
  console.log(`inflate: ${back.length} bytes, equal to the file: ${back.equals(input)}, ` +
    `node's zlib agrees: ${inflateSync(packed).equals(input)}`);
  if (!back.equals(input)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
