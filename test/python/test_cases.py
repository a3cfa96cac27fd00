"""The shared host case table, test/hosts/cases.json, unchanged, through
the generated modules tour.py and hcb.py and the support library, under
the primitive NCCC_PRIMITIVE names (ctest runs this file under both)."""

import json
import os

import pytest

import cases
from conftest import CASES

with open(CASES, encoding="utf-8") as _f:
    TABLE = json.load(_f)["cases"]


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
