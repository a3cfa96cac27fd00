"""zlib streamed from Python through a z_stream that Python allocates, its
fields read and written by name (docs/PYTHON.md, "C objects"), on the
demo's library (the wrappers of idl/zlib.idl). tools/demo.sh runs it.

    PYTHONPATH=build/python python3 zlib_stream.py LIBRARY FILE GENERATED_DIR

GENERATED_DIR holds the generated zlib.py, loaded from its path: Python's
own zlib module has the same name."""

import importlib.util
import os
import sys

import nccc

CHUNK = 4096


def stream(z, strm, step, flush_last, data):
    """Runs step (z.deflate or z.inflate) over data in CHUNK pieces
    through the fields of strm, flush_last on the last piece, until the
    stream ends; returns what step wrote."""
    lib = z.lib
    inbuf, outbuf = lib.alloc(CHUNK), lib.alloc(CHUNK)
    out, pos, st = [], 0, z.Z_OK
    try:
        while st != z.Z_STREAM_END:
            if pos >= len(data):
                raise RuntimeError("the input ended before the stream")
            piece = data[pos:pos + CHUNK]
            pos += len(piece)
            lib.write(inbuf, piece)
            strm.next_in, strm.avail_in = inbuf, len(piece)
            flush = flush_last if pos == len(data) else z.Z_NO_FLUSH
            while True:  # until the output has room to spare
                strm.next_out, strm.avail_out = outbuf, CHUNK
                st = step(strm, flush)
                if st not in (z.Z_OK, z.Z_STREAM_END, z.Z_BUF_ERROR):
                    raise RuntimeError("zlib status %d" % st)
                out.append(lib.read(outbuf, CHUNK - strm.avail_out))
                if strm.avail_out != 0 or st == z.Z_STREAM_END:
                    break
    finally:
        lib.free(inbuf)
        lib.free(outbuf)
    return b"".join(out)


def main(library, path, generated):
    spec = importlib.util.spec_from_file_location(
        "zlib_generated", os.path.join(generated, "zlib.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    z = gen.bind(nccc.open(library))
    with open(path, "rb") as f:
        data = f.read()
    with z.new("z_stream_s") as d:  # zeroed: zlib's own allocator
        assert z.deflateInit(d, z.Z_BEST_COMPRESSION) == z.Z_OK
        packed = stream(z, d, z.deflate, z.Z_FINISH, data)
        print("  deflate: %d bytes in, %d out" % (d.total_in, d.total_out))
        z.deflateEnd(d)
    with z.new("z_stream_s") as i:
        assert z.inflateInit(i) == z.Z_OK
        back = stream(z, i, z.inflate, z.Z_NO_FLUSH, packed)
        z.inflateEnd(i)
    print("  inflate: %d bytes, equal to the file: %s"
          % (len(back), str(back == data).lower()))
    return 0 if back == data else 1


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: python3 zlib_stream.py LIBRARY FILE GENERATED_DIR")
    sys.exit(main(*sys.argv[1:]))
