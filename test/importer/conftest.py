"""Shared helpers of the importer's tests (ctest label import). The
compile and link helpers and the runtime fixture are the generator
tests' own (test/stubgen/conftest.py)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
HEADERS = HERE / "headers"

_spec = importlib.util.spec_from_file_location(
    "stubgen_test_helpers", ROOT / "test" / "stubgen" / "conftest.py")
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)
runtime_lib = base.runtime_lib          # the pytest fixture

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from stubgen.importer import import_header  # noqa: E402
from stubgen.model import build  # noqa: E402


def draft(header, *cflags, prefix="", module=None, library=None):
    return import_header(str(header), list(cflags), prefix, module, library)


def unit(text, needle):
    """The declaration of a draft holding needle, with its comments."""
    for u in text.split("\n\n"):
        if needle in u:
            return u
    pytest.fail("no %r in the draft" % needle)


def stubgen(*args, cwd=None):
    return base.run_stubgen(*args, cwd=cwd)


def signatures(idl_text):
    """name -> LP64 signature of every function of an IDL text."""
    return {f.name: f.signature("LP64") for f in build(idl_text).functions}


def link_and_run(idl_text, module, main_c, libs, runtime, tmp):
    """Generates the C of idl_text, compiles it with main_c, links the
    program with the runtime and libs, runs it; returns its stdout."""
    base.write_outputs(idl_text, tmp, module + ".idl")
    (tmp / "main.c").write_text(main_c)
    exe = tmp / "prog"
    r = base.compile_c([tmp / ("%s_nccc.c" % module), tmp / "main.c"], exe,
                       "-I", str(tmp), link=True,
                       libs=[runtime] + list(libs))
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout
