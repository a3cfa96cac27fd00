"""C objects in Python (docs/PYTHON.md, "C objects") over the cdata
fixture (cdata.idl, cdata.c) as a shared library: new, fields by name
through nested records, unions and arrays, the object passed as a T *,
borrowed views of what C filled, whole-record copies, and the errors
(a view's bounds, a wrong type, a freed object). Run by ctest as
cdata_python (test/cdata/CMakeLists.txt)."""

import gc
import os
import sys

import pytest

for var in ("NCCC_PYTHON_BINDINGS", "NCCC_CDATA_GENERATED"):
    sys.path.insert(0, os.environ[var])

import cdata  # noqa: E402
import nccc  # noqa: E402


@pytest.fixture(scope="module")
def b():
    return cdata.bind(nccc.open(os.environ["NCCC_CDATA_LIB"]))


def test_new_is_zeroed_and_sized(b):
    ev = b.new("cd_event")
    assert bytes(ev) == bytes(b.layout("cd_event").size)
    assert ev.type == 0 and ev.data.scalar.value is None
    assert list(ev.stamps) == [0.0, 0.0, 0.0]


def test_c_fills_an_object_passed_as_a_pointer(b):
    ev = b.new("cd_event")
    assert b.cd_event_fill(ev, 2) == 0
    assert ev.type == 2
    assert ev.data.shape.corners[0].x == -3
    assert ev.data.shape.corners[1].y == 7
    assert ev.data.shape.weight == 0.5          # anonymous union member
    assert ev.stamps[2] == 2.25
    assert ev.ranges[1].hi == -2
    assert b.cd_event_fill(ev, 1) == 0
    assert ev.data.scalar.value == "café"        # a text read by its count
    assert ev.data.scalar.length == 5


def test_fields_written_by_name_reach_c(b):
    big = b.new("cd_big")
    big.used = 41
    assert b.cd_big_used(big) == 41
    big.used += 1
    assert b.cd_big_used(big) == 42
    ev = b.new("cd_event")
    ev.data.shape.corners[1].x = 9
    ev.data.shape.tag = 5
    ev.stamps[0] = 1.5
    rec = ev.record()
    assert rec.data.shape.corners[1].x == 9
    assert rec.data.shape.tag == 5 and rec.stamps[0] == 1.5


def test_union_members_share_memory(b):
    ev = b.new("cd_event")
    ev.data.shape.weight = 1.0
    assert ev.data.shape.tag == 0x3F800000


def test_borrowed_view_of_c_memory(b):
    p = b.lib.alloc(b.layout("cd_event").size)
    try:
        view = b.view("cd_event", p)
        assert b.cd_event_fill(p, 2) == 0
        assert view.data.shape.corners[1].y == 7
        view.type = 12
        assert b.lib.peek(p, "i") == 12
        assert view.address == p
        view.free()                      # a view stops, C memory stays
        with pytest.raises(nccc.Error, match="freed"):
            view.type
        assert b.lib.peek(p, "i") == 12
    finally:
        b.lib.free(p)


def test_view_of_records_is_bounds_checked(b):
    ev = b.new("cd_event")
    ranges = b.view("cd_event__ranges", ev.address + 56, 2)
    ranges[1].lo = 3
    assert ev.ranges[1].lo == 3
    with pytest.raises(IndexError):
        ranges[2]
    with pytest.raises(IndexError):
        ev.stamps[3]
    with pytest.raises(IndexError):
        ev.stamps[3] = 1.0


def test_whole_record_copies(b):
    ev = b.new("cd_event")
    b.cd_event_fill(ev, 2)
    copy = b.new("cd_event", ev.record())
    assert bytes(copy) == bytes(ev)
    copy.assign({"type": 7})
    assert copy.type == 7 and copy.ranges[1].hi == 0
    copy.assign(bytes(ev))
    assert copy.ranges[1].hi == -2
    with pytest.raises(nccc.ArgumentError, match="64 bytes expected"):
        copy.assign(b"\0" * 3)


def test_wrong_field_types_are_refused(b):
    ev = b.new("cd_event")
    with pytest.raises(TypeError):
        ev.type = 1.5
    with pytest.raises(TypeError):
        ev.stamps[0] = "x"
    with pytest.raises(AttributeError):
        ev.no_such_field
    with pytest.raises(nccc.ArgumentError, match="memory would not outlive"):
        ev.data.scalar.value = b"abc"
    assert ev.type == 0


def test_freed_object_is_an_error(b):
    big = b.new("cd_big")
    big.used = 3
    assert big.free() is True
    assert big.free() is False
    with pytest.raises(nccc.Error, match="cd_big object was freed"):
        big.used
    with pytest.raises(nccc.Error, match="freed"):
        big.used = 1
    with pytest.raises(nccc.ArgumentValueError, match="freed"):
        b.cd_big_used(big)
    with pytest.raises(nccc.ArgumentValueError, match="freed"):
        b.view("cd_big", big)
    with b.new("cd_big") as scoped:
        scoped.used = 1
    with pytest.raises(nccc.Error, match="freed"):
        scoped.used


def test_nested_view_outlives_its_freed_object(b):
    ev = b.new("cd_event")
    b.cd_event_fill(ev, 2)
    shape = ev.data.shape
    ev.free()
    del ev
    gc.collect()
    assert shape.corners[1].y == 7


def test_parser_fills_events_from_kept_input(b):
    parser, ev = b.new("cd_parser"), b.new("cd_event")
    text = b.lib.cstring("ab cde")
    try:
        b.cd_parser_set_input(parser, text, 6)
        assert parser.length == 6 and parser.input == text
        words = []
        while b.cd_parser_next(parser, ev):
            words.append(ev.data.scalar.value)
        assert words == ["ab", "cde"] and parser.at == 6
    finally:
        b.lib.free(text)


def test_kept_bytes_live_with_their_owner(b):
    import weakref

    class Held(bytearray):
        """A bytearray that a weak reference can watch."""
    parser, ev = b.new("cd_parser"), b.new("cd_event")
    text = Held(b"one two")
    gone = weakref.ref(text)
    b.cd_parser_set_input(parser, text, 7)  # [kept=p]: held by parser
    del text
    gc.collect()
    assert gone() is not None
    words = []
    while b.cd_parser_next(parser, ev):
        words.append(ev.data.scalar.value)
    assert words == ["one", "two"]
    b.cd_parser_set_input(parser, b"x", 1)  # replaces what was kept
    gc.collect()
    assert gone() is None
    last = Held(b"y")
    gone = weakref.ref(last)
    b.cd_parser_set_input(parser, last, 1)
    del last, parser
    gc.collect()  # released with its owner
    assert gone() is None


def test_unknown_layout_is_refused(b):
    with pytest.raises(nccc.ArgumentError, match="struct or union"):
        b.new("cd_nothing")
    with pytest.raises(nccc.ArgumentError, match="non-NULL address"):
        b.view("cd_event", 0)
