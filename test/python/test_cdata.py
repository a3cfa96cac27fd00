"""C data in Python (docs/PYTHON.md, "Bytes, kept arguments and closure
scopes"): [bytes] buffers as bytes-like objects both ways, a callback
filling a buffer through a writable memoryview of C's memory, an
argument the library keeps held by its owner's object, and closure
scopes checked before C runs. Runs under both primitives."""

import array
import gc
import weakref

import pytest

import nccc


def test_bytes_like_objects_pass_as_a_bytes_buffer(lib, gen):
    hcb = gen["hcb"]
    assert hcb.byte_sum(b"\x01\x02\xff", 3) == 258
    assert hcb.byte_sum(bytearray(b"\x10\x20"), 2) == 48
    assert hcb.byte_sum(memoryview(bytearray(b"abc")), 3) == 294
    assert hcb.byte_sum(array.array("B", [200, 100]), 2) == 300
    assert hcb.byte_sum(b"", 0) == 0


def test_a_callback_fills_the_buffer_through_a_writable_memoryview(lib, gen):
    hcb = gen["hcb"]
    source = b"hello, bytes!"
    seen = []

    def reader(buffer, size):
        seen.append((type(buffer), buffer.format, buffer.readonly,
                     len(buffer), size))
        chunk = source[sum(s[3] for s in seen[:-1]):][:size]
        buffer[:len(chunk)] = chunk
        return len(chunk)
    dest = bytearray(32)
    assert hcb.fill_from(reader, dest, len(dest)) == len(source)
    assert bytes(dest[:len(source)]) == source
    assert seen[0] == (memoryview, "B", False, 4, 4)
    assert seen[-1][3] == 4  # the call that found nothing left


def test_a_fill_view_is_released_when_the_callback_returns(lib, gen):
    hcb = gen["hcb"]
    views = []

    def reader(buffer, size):
        views.append(buffer)
        buffer[0] = 7
        return 1
    dest = bytearray(2)
    assert hcb.fill_from(reader, dest, 2) == 2
    assert dest == bytearray([7, 7])
    with pytest.raises(ValueError):
        views[0][0] = 1


def test_a_kept_argument_lives_as_long_as_its_owner(lib, gen):
    hcb = gen["hcb"]
    o = hcb.obj_new(1)
    assert hcb.obj_kept_sum(o) == 0
    held = _Buffer(b"\x01\x01")
    gone = weakref.ref(held)
    hcb.obj_keep(o, held, 2)
    del held
    gc.collect()
    assert gone() is not None  # the owner holds it
    assert hcb.obj_kept_sum(o) == 2
    hcb.obj_keep(o, b"\x03", 1)  # a later call replaces what was kept
    gc.collect()
    assert gone() is None and hcb.obj_kept_sum(o) == 3
    last = _Buffer(b"\x09")
    gone = weakref.ref(last)
    hcb.obj_keep(o, last, 1)
    del last
    assert o.close() is True  # released with its owner
    gc.collect()
    assert gone() is None


class _Buffer(bytearray):
    """A bytearray that a weak reference can watch."""


def test_a_call_scope_closure_is_refused_where_the_scope_is_another(lib, gen):
    hcb = gen["hcb"]
    before = lib.closure_stats()[1]
    c = hcb.callback("plain_fn", lambda x: x + 1, "call")
    with pytest.raises(nccc.ArgumentValueError) as e:
        hcb.keep(c)
    assert str(e.value) == (
        "bad argument #1 to 'hcb.keep' (closure of scope 'forever' "
        "expected, got one of scope 'call' (make it with scope 'forever', "
        "or pass a function))")
    assert c.live is False  # refused: released as its scope says
    assert lib.closure_stats()[1] == before
    with pytest.raises(nccc.ArgumentValueError, match="scope 'async'.*"
                       "scope 'call'"):
        hcb.later(1, hcb.callback("later_fn", lambda v: None, "call"))


def test_a_function_becomes_a_closure_of_the_parameters_scope(lib, gen):
    hcb = gen["hcb"]
    before = lib.closure_stats()[1]
    hcb.on_fire(lambda x: 10 * x)
    assert lib.closure_stats()[1] == before + 1  # forever: still there
    assert hcb.fire(4) == 40 and hcb.fire(5) == 50
    hcb.clear_fire()
    before += 1
    got = []
    hcb.later(5, got.append)
    assert lib.closure_stats()[1] == before + 1
    assert hcb.run_pending() == 1 and got == [5]
    assert lib.closure_stats()[1] == before  # async: released after its call
    assert hcb.fold(3, lambda acc, i: acc + i) == 3
    assert lib.closure_stats()[1] == before  # call: released by the call
