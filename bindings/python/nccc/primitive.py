"""Which primitive the support library runs on (docs/PYTHON.md, "The
primitive"): the C extension nccc._core, or its pure-ctypes twin
nccc.ctypes_core with the same names. NCCC_PRIMITIVE=c or =ctypes forces
one (the tests run under both); otherwise the C extension when it was
built, else ctypes. This is the one place that asks."""

import importlib
import os

from nccc.errors import Error

CHOICES = {"c": "nccc._core", "ctypes": "nccc.ctypes_core"}


def _pick():
    forced = os.environ.get("NCCC_PRIMITIVE", "")
    if forced:
        if forced not in CHOICES:
            raise Error("NCCC_PRIMITIVE=%s: expected one of %s"
                        % (forced, ", ".join(sorted(CHOICES))))
        return importlib.import_module(CHOICES[forced])
    try:
        return importlib.import_module(CHOICES["c"])
    except ImportError:
        return importlib.import_module(CHOICES["ctypes"])


core = _pick()
