"""Shared helpers of the generator tests.

Environment (set by test/stubgen/CMakeLists.txt under ctest; all
optional when pytest runs by hand):
  NCCC_CC            the C compiler (default: cc)
  NCCC_TEST_CFLAGS   extra flags for compiling and linking test programs
                     (the sanitizer flags of an NCCC_SANITIZE build)
  NCCC_RUNTIME_LIB   the built runtime library; without it the tests build
                     one from nccc_runtime/src/*.c
"""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from stubgen.cli import generate  # noqa: E402
from stubgen.errors import IdlError  # noqa: E402
from stubgen.model import build  # noqa: E402

STUBGEN = ROOT / "bin" / "nccc-stubgen"
RUNTIME_INCLUDE = ROOT / "nccc_runtime" / "include"
SHIMS_INCLUDE = ROOT / "shims"
HERE = Path(__file__).resolve().parent
C_DIR = HERE / "c"
IDL_DIR = HERE / "idl"
EXAMPLES = ROOT / "idl" / "examples"
# every IDL the repository ships (test/scheme/CMakeLists.txt binds the
# same ones from Scheme): the hosts' binders must read each one's records
SHIPPED_IDLS = sorted(p for d in ("idl", "examples", "bench", "device", "test")
                      for p in (ROOT / d).rglob("*.idl"))


def cc():
    return shlex.split(os.environ.get("NCCC_CC") or "cc")


def extra_cflags():
    return shlex.split(os.environ.get("NCCC_TEST_CFLAGS", ""))


def model(text):
    return build(text)


def error(text, filename="t.idl"):
    """The formatted diagnostic of a bad IDL text (fails if it is good)."""
    try:
        build(text)
    except IdlError as e:
        return e.format(filename, text)
    pytest.fail("no error for %r" % text)


def write_outputs(text, outdir, idl_name="t.idl"):
    files = generate(text, idl_name, ["c"])
    outdir.mkdir(parents=True, exist_ok=True)
    for name, body in files.items():
        (outdir / name).write_text(body)
    return files


def compile_c(sources, out, *flags, std="c99", link=False, libs=()):
    cmd = cc() + ["-std=" + std, "-Wall", "-Wextra", "-Werror",
                  "-I", str(RUNTIME_INCLUDE), "-I", str(SHIMS_INCLUDE)] \
        + extra_cflags() + list(flags)
    if not link:
        cmd.append("-c")
    cmd += [str(s) for s in sources] + ["-o", str(out)]
    if link:
        cmd += [str(lib) for lib in libs] + ["-pthread", "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r


@pytest.fixture(scope="session")
def runtime_lib(tmp_path_factory):
    """The runtime as a static library: the one CMake built, or one built
    here from nccc_runtime/src."""
    lib = os.environ.get("NCCC_RUNTIME_LIB")
    if lib:
        assert Path(lib).is_file(), "NCCC_RUNTIME_LIB=%s is missing" % lib
        return Path(lib)
    src = ROOT / "nccc_runtime" / "src"
    sources = sorted(src.rglob("*.c"))
    assert sources, "no runtime sources in %s" % src
    d = tmp_path_factory.mktemp("runtime")
    objs = []
    for s in sources:
        o = d / ("_".join(s.relative_to(src).with_suffix(".o").parts))
        r = subprocess.run(
            cc() + ["-std=c11", "-c", str(s), "-o", str(o),
                    "-I", str(RUNTIME_INCLUDE),
                    "-I", str(RUNTIME_INCLUDE / "nccc" / "tvm-compat"),
                    "-I", str(src)] + extra_cflags(),
            capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        objs.append(str(o))
    lib = d / "libnccc_runtime.a"
    r = subprocess.run(["ar", "rcs", str(lib)] + objs, capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    return lib


def run_stubgen(*args, cwd=None, env=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    return subprocess.run([str(STUBGEN)] + [str(a) for a in args], cwd=cwd,
                          capture_output=True, text=True, env=e)
