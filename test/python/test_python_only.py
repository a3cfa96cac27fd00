"""What only Python does (docs/PYTHON.md): callbacks from threads C
started (the GIL taken), calls from several Python threads, with-blocks,
TVM-style global functions (register_func, get_global_func) with their
type codes checked, buffers, generated record classes, and the exception
classes of bad input. Runs under both primitives, like test_cases.py."""

import array
import gc
import struct
import sys
import threading

import pytest

import nccc


def test_the_front_has_the_documented_names():
    assert sorted(nccc.__all__) == sorted([
        "open", "bind", "default_library", "register_func",
        "get_global_func", "release_gil", "Library", "Closure", "Owned", "CData",
        "Record",
        "PackedFunc", "NULL", "Error", "ArgumentError", "ArgumentRangeError",
        "ArgumentValueError", "UnknownError", "CallbackError", "PackedError",
        "RemoteError", "PRIMITIVE", "primitive", "abi"])
    for name in nccc.__all__:
        assert hasattr(nccc, name), name


# ---- threads and the GIL ------------------------------------------------------

def test_a_callback_from_a_thread_c_started_runs_with_the_gil(lib, gen):
    hcb = gen["hcb"]
    seen = []

    def handler(x):
        seen.append((x, threading.get_ident()))
        return 3 * x
    with hcb.callback("handler_fn", handler, "forever", any_thread=True) as c:
        hcb.on_fire(c)
        assert hcb.fire_in_thread(7) == 21
        assert hcb.fire(2) == 6
    hcb.clear_fire()
    assert [x for x, _ in seen] == [7, 2]
    assert seen[0][1] != threading.get_ident()
    assert seen[1][1] == threading.get_ident()


def test_a_callback_raising_on_a_thread_c_started_is_unraisable(lib, gen,
                                                                monkeypatch):
    hcb = gen["hcb"]
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    def handler(x):
        raise KeyError("from a C thread")
    c = hcb.callback("handler_fn", handler, "forever", any_thread=True)
    hcb.on_fire(c)
    assert hcb.fire_in_thread(1) == 0
    assert c.release() is True
    hcb.clear_fire()
    assert len(reported) == 1
    assert isinstance(reported[0].exc_value, KeyError)


def test_a_thread_bound_closure_is_refused_on_another_thread(lib, gen):
    hcb = gen["hcb"]
    before = lib.closure_stats()[4]
    calls = []
    c = hcb.callback("handler_fn", calls.append, "forever")
    hcb.on_fire(c)
    assert hcb.fire_in_thread(5) == 0
    assert calls == [] and lib.closure_stats()[4] == before + 1
    c.release()
    hcb.clear_fire()


def test_python_threads_call_and_are_called_back_at_once(lib, gen):
    hcb, tour = gen["hcb"], gen["tour"]
    errors, results, in_use = [], {}, lib.closure_stats()[1]

    def work(k):
        try:
            total = 0
            for n in range(200):
                total += hcb.fold(5, hcb.callback(
                    "step_fn", lambda acc, i: acc + i + k))
                total += tour.add(n, k)
            results[k] = total
        except Exception as e:  # reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for k in range(4):
        assert results[k] == 200 * (10 + 5 * k) + sum(range(200)) + 200 * k
    assert lib.closure_stats()[1] == in_use


# ---- with, ownership, errors of callbacks -------------------------------------

def test_with_closes_owned_objects_and_releases_closures(lib, gen):
    hcb = gen["hcb"]
    live = hcb.obj_live()
    with hcb.obj_new(4) as o:
        assert hcb.obj_value(o) == 4 and hcb.obj_live() == live + 1
    assert o.closed and o.address() is None and hcb.obj_live() == live
    with pytest.raises(nccc.ArgumentValueError, match="object was closed"):
        hcb.obj_value(o)
    with hcb.callback("handler_fn", lambda x: x + 1, "forever") as c:
        hcb.on_fire(c)
        assert hcb.fire(1) == 2
    assert not c.live
    hcb.clear_fire()
    with hcb.callback("step_fn", lambda acc, i: acc + i, "forever") as s:
        assert hcb.fold(3, s) == 3
    with pytest.raises(nccc.ArgumentValueError, match="closure was released"):
        hcb.fold(2, s)


def test_an_out_owned_pointer_is_an_owned_object(lib, gen):
    hcb = gen["hcb"]
    live = hcb.obj_live()
    status, o = hcb.obj_make(5)
    assert status == 0 and isinstance(o, nccc.Owned)
    assert hcb.obj_value(o) == 5 and hcb.obj_live() == live + 1
    assert o.close() and hcb.obj_live() == live
    with pytest.raises(nccc.ArgumentValueError, match="object was closed"):
        hcb.obj_value(o)
    hcb.obj_make(6)
    gc.collect()
    assert hcb.obj_live() == live


def test_the_finalizer_frees_what_was_never_closed(lib, gen):
    hcb = gen["hcb"]
    live = hcb.obj_live()
    hcb.obj_new(1)
    gc.collect()
    assert hcb.obj_live() == live


def test_a_raising_callback_is_the_cause_of_the_call_error(lib, gen):
    hcb = gen["hcb"]

    def step(acc, i):
        raise ZeroDivisionError("step %d" % i)
    with pytest.raises(nccc.CallbackError) as info:
        hcb.fold(3, hcb.callback("step_fn", step))
    err = info.value
    assert isinstance(err.__cause__, ZeroDivisionError)
    assert [str(e) for e in err.errors] == ["step 0", "step 1", "step 2"]
    assert "(and 2 more callback errors)" in str(err)


# ---- global functions, TVM style ---------------------------------------------

def test_register_func_as_a_decorator_reads_annotations(lib, gen):
    @nccc.register_func("py.scaled")
    def scaled(n: int, x: float) -> float:
        return n * x
    assert scaled(2, 1.5) == 3.0          # the function itself is kept
    f = nccc.get_global_func("py.scaled")
    assert f(4, 2.5) == 10.0
    with pytest.raises(nccc.PackedError, match="expected"):
        f("four", 2.5)                     # a kTVMStr for an int64
    with pytest.raises(nccc.PackedError):
        f(1)                               # too few arguments
    assert gen["hcb"].call_global2("py.scaled", 3, 2) == (0, 3)  # a double


def test_register_func_by_name_and_override(lib, gen):
    @nccc.register_func
    def py_sum(a: int, b: int) -> int:
        return a + b
    assert gen["hcb"].call_global2("py_sum", 40, 2) == (42, 0)
    with pytest.raises(nccc.PackedError):
        nccc.register_func("py_sum", lambda a, b: a - b, signature="ll:l")
    nccc.register_func("py_sum", lambda a, b: a - b, override=True,
                       signature="ll:l")
    assert nccc.get_global_func("py_sum")(40, 2) == 38


def test_get_global_func_missing(lib):
    assert nccc.get_global_func("py.none", allow_missing=True) is None
    with pytest.raises(nccc.UnknownError, match="py.none"):
        nccc.get_global_func("py.none")
    with pytest.raises(nccc.ArgumentError, match="annotation"):
        nccc.register_func("py.bad", lambda a: a)


def test_a_registered_function_raising_reports_to_the_caller(lib, gen):
    @nccc.register_func("py.raises")
    def raises(a: int, b: int) -> int:
        raise ValueError("no")
    with pytest.raises(nccc.CallbackError, match="no"):
        gen["hcb"].call_global2("py.raises", 1, 2)


# ---- values --------------------------------------------------------------------

def test_buffers_pass_their_memory(lib, gen):
    tour, hcb = gen["tour"], gen["hcb"]
    ints = array.array("i", [1, 2, 3])
    assert tour.sum_ints(ints, 3) == 6
    assert tour.sum_ints(bytearray(struct.pack("=3i", 4, 5, 6)), 3) == 15
    assert tour.sum_ints(memoryview(bytearray(struct.pack("=2i", 7, 8))),
                         2) == 15
    assert hcb.first_byte(b"\x07rest") == 7
    buf = bytearray(16)
    assert tour.format_int(buf, len(buf), "<%d>", 42) == 4
    assert bytes(buf[:5]) == b"<42>\0"


def test_records_are_generated_classes(lib, gen):
    tour = gen["tour"]
    mid = tour.midpoint(tour.point(x=2, y=4), {"x": 4, "y": 8})
    assert type(mid) is tour.point and (mid.x, mid.y) == (3, 6)
    assert mid == {"x": 3, "y": 6} and mid["y"] == 6
    moved, old = tour.move_point(tour.point(x=1, y=2), 10)
    assert (moved, old) == (tour.point(x=11, y=2), tour.point(x=1, y=2))
    assert tour.layout("point").size == 8
    assert tour.unpack("point", tour.pack("point", {"x": -1})) == \
        {"x": -1, "y": 0}


def test_results_are_a_tuple_in_the_documented_order(lib, gen):
    tour = gen["tour"]
    assert tour.divmod(17, 5) == (3, 2)
    assert tour.checked_div(1, 0) == (0, tour.lib.constant("hcb.EDOM"))
    assert tour.nothing() is None


@pytest.mark.parametrize("call, cls, words", [
    (lambda t: t.add(1), nccc.ArgumentError, "expects 2 arguments, got 1"),
    (lambda t: t.add(1, "2"), TypeError, "bad argument #2 to 'tour.add'"),
    (lambda t: t.echo_u64(-1), OverflowError, "out of range for uint64"),
    (lambda t: t.echo_u8(256), OverflowError, "value 256 out of range"),
    (lambda t: t.echo_i32(2.5), TypeError, "no integer representation"),
    (lambda t: t.echo_bool(1), TypeError, "bool expected, got int"),
    (lambda t: t.text_length(None), TypeError, "str expected, got None"),
    (lambda t: t.text_length("a\0b"), ValueError, "NUL byte"),
    (lambda t: t.join("a", nccc.NULL), TypeError, "NULL not allowed"),
    (lambda t: t.midpoint({"z": 1}, {}), TypeError, "has no field 'z'"),
    (lambda t: t.add(1, 2, k=3), TypeError, "no keyword arguments"),
    (lambda t: t.nope, AttributeError, "unknown function 'tour.nope'"),
])
def test_bad_input_raises_the_python_exception(lib, gen, call, cls, words):
    with pytest.raises(cls, match=words.replace("(", r"\(")) as info:
        call(gen["tour"])
    assert isinstance(info.value, nccc.Error)


def test_errors_name_the_function_and_parameter(lib, gen):
    with pytest.raises(nccc.ArgumentRangeError) as info:
        gen["tour"].echo_i8(1000)
    assert (info.value.function, info.value.parameter) == ("tour.echo_i8", 1)
    with pytest.raises(nccc.UnknownError) as info:
        lib.call("tour.nope")
    assert info.value.status == nccc.abi.STATUS["ERR_NAME_NOT_FOUND"]
