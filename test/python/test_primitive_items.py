"""The primitive's slot specs in the native cores' item format
(docs/ABI.md, "Core items"), on the primitive this run has (c or ctypes):
codes, records by size, the nonnull and helper marks, a '*' side, the
helper keys slow is called with, and malformed specs refused."""

import sys

import pytest

from nccc import abi
from nccc.primitive import core

NONNULL, HELPER = abi.ITEM_NONNULL, abi.ITEM_HELPER
KEY = abi.HELPER_KEYS


class Helpers:
    """slow and post that record what the primitive asked them."""

    def __init__(self):
        self.asked = []

    def slow(self, k, v):
        self.asked.append(("slow", k, v))
        if k in KEY.values():
            raise LookupError(k)
        return 0 if v is None else 7

    def post(self, k, v):
        self.asked.append(("post", k, v))
        return ("post", v)


def _fn(lib, name, ins, outs, helpers):
    f = lib.describe(name)
    return core.function(f.addr, ins, outs, name, helpers.slow, helpers.post)


def test_codes_convert_on_the_fast_path(lib):
    h = Helpers()
    add = _fn(lib, "tour.add", "ll", "l", h)
    assert add(40, 2) == 42
    assert h.asked == []


def test_the_helper_mark_hands_a_result_to_post(lib):
    h = Helpers()
    add = _fn(lib, "tour.add", "ll", HELPER + "l", h)
    assert add(40, 2) == ("post", 42)
    assert h.asked == [("post", 1, 42)]


def test_the_helper_mark_hands_an_argument_to_slow(lib):
    h = Helpers()
    add = _fn(lib, "tour.add", HELPER + "ll", "l", h)
    assert add(1, 2) == 9   # slow gave 7 for the first
    assert h.asked == [("slow", 1, 1)]


def test_the_nonnull_mark_hands_a_zero_to_slow(lib):
    h = Helpers()
    add = _fn(lib, "tour.add", "l" + NONNULL + "p", "l", h)
    assert add(1, 5) == 6
    assert h.asked == []
    assert add(1, None) == 1   # slow gave 0 for None
    assert h.asked == [("slow", 2, None)]


def test_a_wrong_count_calls_slow_with_its_key(lib):
    h = Helpers()
    add = _fn(lib, "tour.add", "ll", "l", h)
    with pytest.raises(LookupError):
        add(1)
    assert h.asked == [("slow", KEY["count"], 1)]


def test_keyword_arguments_call_slow_with_their_key(lib):
    h = Helpers()
    add = _fn(lib, "tour.add", "ll", "l", h)
    with pytest.raises(LookupError):
        add(1, 2, x=3)
    assert h.asked == [("slow", KEY["keywords"], ("x",))]


@pytest.mark.parametrize("spec", [
    "q", "l!", NONNULL * 2 + "l", HELPER * 2 + "l", "{0}", "{8", "{x}",
    "l*l", "*l", "ll ",
])
def test_a_malformed_spec_is_refused(lib, spec):
    h = Helpers()
    with pytest.raises(ValueError, match="malformed slot spec"):
        _fn(lib, "tour.add", spec, "l", h)


def test_a_record_takes_its_size_in_bytes(lib):
    h = Helpers()
    # a 12-byte record takes two slots, given to post as their bytes
    f = lib.describe("tour.add")
    fn = core.function(f.addr, "ll", "{12}", "tour.add", h.slow, h.post)
    got = fn(3, 4)
    assert got[0] == "post" and len(got[1]) == 16
    assert int.from_bytes(got[1][:8], sys.byteorder) == 7
