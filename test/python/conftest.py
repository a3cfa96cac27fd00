"""The Python host suite (docs/PYTHON.md, "Tests"): the fixture library,
the generated modules and the support library, found from the
environment ctest gives (test/python/CMakeLists.txt):

  NCCC_HOST_FIXTURE     the host fixture library (test/hosts/fixture)
  NCCC_HOST_GENERATED   the directory holding tour.py, hcb.py and cdata.py
  NCCC_PYTHON_BINDINGS  the directory holding the package nccc
  NCCC_PRIMITIVE        c or ctypes (nccc/primitive.py)
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for var, default in (("NCCC_PYTHON_BINDINGS",
                      os.path.join(ROOT, "bindings", "python")),
                     ("NCCC_HOST_GENERATED", "")):
    path = os.environ.get(var, default)
    if path and path not in sys.path:
        sys.path.insert(0, path)
CASES = os.path.join(ROOT, "test", "hosts", "cases.json")


def _fixture_path():
    path = os.environ.get("NCCC_HOST_FIXTURE")
    if not path:
        pytest.fail("NCCC_HOST_FIXTURE is not set (run through ctest -L "
                    "python)")
    return path


@pytest.fixture(scope="session")
def lib():
    import json

    import nccc
    with open(CASES, encoding="utf-8") as f:
        doc = json.load(f)
    lib = nccc.open(_fixture_path())
    status, _ = lib.call_address(lib.symbol(doc["fixture"]["open"]),
                                 doc["fixture"]["signature"])
    assert status == 0
    return lib


@pytest.fixture(scope="session")
def gen(lib):
    """The generated modules tour, hcb and cdata, bound once."""
    import cdata
    import hcb
    import tour
    return {"tour": tour.bind(lib), "hcb": hcb.bind(lib),
            "cdata": cdata.bind(lib)}
