"""The shared host case table, test/hosts/cases.json, unchanged, through
the generated modules tour.py, hcb.py and cdata.py and the support
library, under the primitive NCCC_PRIMITIVE names (ctest runs this file
under both); with NCCC_CASES_NEEDS set, only the cases whose "needs" it
names."""

import json
import os

import pytest

import cases
from conftest import CASES

# NCCC_CASES_NEEDS=cdata: only the cases that need it (ctest
# cdata_cases_python_*)
NEEDS = os.environ.get("NCCC_CASES_NEEDS")
with open(CASES, encoding="utf-8") as _f:
    TABLE = [c for c in json.load(_f)["cases"]
             if NEEDS is None or c.get("needs") == NEEDS]


def test_the_primitive_is_the_one_asked_for():
    import nccc
    want = os.environ.get("NCCC_PRIMITIVE")
    assert want in ("c", "ctypes")
    assert nccc.PRIMITIVE == want


@pytest.mark.parametrize("case", TABLE, ids=[c["name"] for c in TABLE])
def test_case(lib, gen, case):
    try:
        cases.run(lib, gen, case)
    except cases.Failed as e:
        pytest.fail(str(e), pytrace=False)
