"""zlib streaming from Python through a C object (docs/PYTHON.md, "C
objects"): 10 MiB deflated and inflated in 64 KiB chunks through a
z_stream made by new, its fields (next_in, avail_in, next_out,
avail_out, total_out) read and written by name, and the bytes come back
equal. Run by ctest as cdata_zlib_python (idl/zlib.idl, linked with
-lz)."""

import ctypes
import importlib.util
import os
import random
import sys

import pytest

sys.path.insert(0, os.environ["NCCC_PYTHON_BINDINGS"])

import nccc  # noqa: E402
import zlib as pyzlib  # noqa: E402  (Python's own, to cross-check)

SIZE, CHUNK = 10 << 20, 64 << 10


@pytest.fixture(scope="module")
def z():
    # the generated zlib.py, loaded from its path: Python's own zlib
    # module has the same name
    spec = importlib.util.spec_from_file_location(
        "zlib_generated", os.path.join(os.environ["NCCC_CDATA_GENERATED"],
                                       "zlib.py"))
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen.bind(nccc.open(os.environ["NCCC_CDATA_LIB"]))


def _data():
    rnd = random.Random(23)
    words = [bytes(rnd.choice(b"abcdefgh") for _ in range(rnd.randint(2, 9)))
             for _ in range(500)]
    out = bytearray()
    while len(out) < SIZE:
        out += rnd.choice(words) + (b" " if rnd.random() < 0.9 else
                                    rnd.randbytes(3))
    return bytes(out[:SIZE])


def _stream(z, strm, step, finish, data):
    """Feeds data in CHUNK pieces to step (deflate or inflate) through
    strm's fields, collecting what it writes in CHUNK outputs."""
    inbuf = ctypes.create_string_buffer(CHUNK)
    outbuf = ctypes.create_string_buffer(CHUNK)
    out = []
    pos, ended = 0, False
    while not ended:
        piece = data[pos:pos + CHUNK]
        pos += len(piece)
        ctypes.memmove(inbuf, piece, len(piece))
        strm.next_in, strm.avail_in = ctypes.addressof(inbuf), len(piece)
        flush = finish if pos >= len(data) else z.Z_NO_FLUSH
        while True:
            strm.next_out = ctypes.addressof(outbuf)
            strm.avail_out = CHUNK
            st = step(strm, flush)
            assert st in (z.Z_OK, z.Z_STREAM_END, z.Z_BUF_ERROR), st
            out.append(outbuf.raw[:CHUNK - strm.avail_out])
            if st == z.Z_STREAM_END:
                ended = True
                break
            if strm.avail_out != 0:
                break
        if pos >= len(data) and flush == z.Z_NO_FLUSH:
            break
    return b"".join(out)


def test_deflate_inflate_10_mib_in_64_kib_chunks(z):
    data = _data()
    with z.new("z_stream_s") as strm:
        assert z.deflateInit(strm, z.Z_DEFAULT_COMPRESSION) == z.Z_OK
        packed = _stream(z, strm, z.deflate, z.Z_FINISH, data)
        assert strm.total_in == SIZE and strm.total_out == len(packed)
        assert z.deflateEnd(strm) == z.Z_OK
    assert len(packed) < SIZE // 2
    assert pyzlib.decompress(packed) == data
    with z.new("z_stream_s") as strm:
        assert z.inflateInit(strm) == z.Z_OK
        back = _stream(z, strm, z.inflate, z.Z_NO_FLUSH, packed)
        assert strm.total_out == SIZE
        assert z.inflateEnd(strm) == z.Z_OK
    assert back == data


def test_an_error_message_is_a_field(z):
    with z.new("z_stream_s") as strm:
        assert z.inflateInit(strm) == z.Z_OK
        garbage = ctypes.create_string_buffer(b"\xff" * 16)
        out = ctypes.create_string_buffer(64)
        strm.next_in, strm.avail_in = ctypes.addressof(garbage), 16
        strm.next_out, strm.avail_out = ctypes.addressof(out), 64
        assert z.inflate(strm, z.Z_NO_FLUSH) == z.Z_DATA_ERROR
        assert z.lib.string(strm.msg) == "incorrect header check"
        assert z.inflateEnd(strm) == z.Z_OK
