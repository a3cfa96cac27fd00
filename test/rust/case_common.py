"""What the case converter's parts share: the fixture's IDL models, the
error kinds of the case table in Rust's terms, integer ranges, literals."""

import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)

from stubgen.model import build  # noqa: E402

IDLS = {"tour": "idl/examples/tour.idl", "hcb": "test/hosts/fixture/hcb.idl",
        "cdata": "test/cdata/cdata.idl"}
MODULES = {m: build(open(os.path.join(ROOT, p)).read()) for m, p in IDLS.items()}
KINDS = {"null": "Null", "closed": "Closed", "callback": "Panic", "unknown": "Unknown",
         "nul": "Text", "released": "Released", "type": "Type", "range": "Range",
         "integral": "Integral", "count": "Count", "field": "Field", "pool": "Status",
         "packed": "Status", "scope": "Scope",
         # C objects: a freed object, an index past an array, bytes of
         # another size than the record's, no such record, host memory
         # for a pointer field
         "freed": "Closed", "index": "Range", "size": "Count", "record": "Unknown",
         "outlive": "Type"}


class Unsupported(Exception):
    pass


def _int(v):
    if isinstance(v, bool):
        raise Unsupported("a boolean for an integer")
    if isinstance(v, dict) and ("i64" in v or "u64" in v):
        text = v.get("i64", v.get("u64"))
        return int(text, 0)
    if isinstance(v, int):
        return v
    raise Unsupported("not an integer: %r" % (v,))


RANGES = {"i%d" % b: (-2 ** (b - 1), 2 ** (b - 1) - 1) for b in (8, 16, 32, 64)}
RANGES.update({"u%d" % b: (0, 2 ** b - 1) for b in (8, 16, 32, 64)})
RANGES.update({"isize": RANGES["i64"], "usize": RANGES["u64"],
               "nccc::c_long": RANGES["i64"], "nccc::c_ulong": RANGES["u64"],
               "nccc::c_char": RANGES["i8"]})



def _lit(text):
    """A Rust string literal."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", r"\\u{\1}", json.dumps(text))


def _debug(v):
    """A value as Rust's {:?} prints the argument a callback received."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return _lit(v)
    if isinstance(v, list):
        return "[%s]" % ", ".join(_debug(x) for x in v)
    return str(_int(v))


