"""bench/python/bench.py [--instructions] [BUILD_DIR] - the cost from
Python 3 of tour's add (int64 add(int64, int64)) and mix (six arguments of
mixed codes) per call, and of a callback of hcb.fold, through the
generated modules on both primitives, against ctypes with argtypes,
cffi's ABI mode, a hand-written C extension (handext.c) and a ctypes
CFUNCTYPE callback (docs/BENCHMARKS.md, "Python"). Needs the host fixture
and Python package of a plain build (default BUILD_DIR: build/plain;
cmake --build BUILD_DIR --target nccc_host_fixture nccc_host_generated
nccc_python_core). A benchmark, not a test.

Wall clock (default): each primitive is measured in its own process
(NCCC_PRIMITIVE), which measures the peers too, so every ratio is between
timings of one run: the best of 5 repeats of N calls.
--instructions: instructions per call under callgrind (valgrind), which a
loaded machine does not disturb: for each variant, a process making N
calls less one making none.

Every measured process runs with the same PYTHONHASHSEED (HASH_SEED):
with a random one, the dictionaries of each process probe differently,
and a count moved by up to 130 instructions from run to run.
"""

import ctypes
import os
import subprocess
import sys
import sysconfig
import tempfile
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
N = 200000
FOLD = 1000
HASH_SEED = "0"
# variant -> (statement, calls it makes)
CALLS = {
    "nccc add": ("add(40, 2)", 1),
    "nccc mix": ("mix(-1, 65535, 0.5, 0.25, -10, 3)", 1),
    "nccc callback": ("fold(%d, step)" % FOLD, FOLD),
    "ctypes add": ("cadd(40, 2)", 1),
    "ctypes mix": ("cmix(-1, 65535, 0.5, 0.25, -10, b'\\x03')", 1),
    "ctypes callback": ("cfold(%d, cstep, None)" % FOLD, FOLD),
    "cffi-abi add": ("fadd(40, 2)", 1),
    "cffi-abi mix": ("fmix(-1, 65535, 0.5, 0.25, -10, b'\\x03')", 1),
    "handext add": ("hadd(40, 2)", 1),
    "handext mix": ("hmix(-1, 65535, 0.5, 0.25, -10, 3)", 1),
}


def build_handext(out_dir):
    out = os.path.join(out_dir, "handext" +
                       sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I",
                    sysconfig.get_paths()["include"],
                    os.path.join(HERE, "handext.c"), "-o", out], check=True)


def setup(build, handext_dir):
    """Every variant's callable, in one namespace."""
    fixture = os.path.join(build, "test/hosts/fixture/libnccc_host_fixture.so")
    sys.path[:0] = [os.path.join(build, "python"), handext_dir,
                    os.path.join(build, "test/hosts/fixture/generated/python")]
    import cffi
    import handext
    import hcb
    import nccc
    import tour
    lib = nccc.open(fixture)
    lib.call_address(lib.symbol("nccc_fixture_open"), ":iI")
    t, h = tour.bind(lib), hcb.bind(lib)
    env = {"add": t.add, "mix": t.mix, "fold": h.fold,
           "step": h.callback("step_fn", lambda acc, i: acc + i, "forever")}
    c = ctypes.CDLL(fixture)
    c.add.argtypes, c.add.restype = [ctypes.c_int64] * 2, ctypes.c_int64
    c.mix.argtypes = [ctypes.c_int8, ctypes.c_uint16, ctypes.c_float,
                      ctypes.c_double, ctypes.c_int64, ctypes.c_char]
    c.mix.restype = ctypes.c_double
    step_t = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_void_p)
    c.hcb_fold.argtypes = [ctypes.c_int, step_t, ctypes.c_void_p]
    c.hcb_fold.restype = ctypes.c_int
    env.update(cadd=c.add, cmix=c.mix, cfold=c.hcb_fold,
               cstep=step_t(lambda acc, i, ctx: acc + i))
    ffi = cffi.FFI()
    ffi.cdef("int64_t add(int64_t, int64_t); double mix(int8_t, uint16_t, "
             "float, double, int64_t, char);")
    abi = ffi.dlopen(fixture)
    env.update(fadd=abi.add, fmix=abi.mix)
    handext.bind(ctypes.cast(c.add, ctypes.c_void_p).value,
                 ctypes.cast(c.mix, ctypes.c_void_p).value)
    env.update(hadd=handext.add, hmix=handext.mix)
    for name, (stmt, _) in CALLS.items():  # every variant works
        eval(stmt, env)
    return env, nccc.PRIMITIVE


def wall_clock(build, handext_dir):
    """Prints "variant ns" lines, the generated module's on this process's
    primitive."""
    env, kind = setup(build, handext_dir)
    for name, (stmt, calls) in CALLS.items():
        n = N // calls
        ns = min(timeit.repeat(stmt, globals=env, number=n, repeat=5)) \
            / (n * calls) * 1e9
        print("%s %.1f" % (name.replace("nccc", "nccc-" + kind), ns))


def count(build, handext_dir, name, n):
    env, _ = setup(build, handext_dir)
    exec("for _ in range(%d): %s" % (n, CALLS[name][0]), env)


def instructions(build, handext_dir, kind, name):
    """Instructions per call of one variant under callgrind."""
    got = []
    for n in (N // 10 // CALLS[name][1], 0):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "cg.out")
            subprocess.run(["valgrind", "--tool=callgrind",
                            "--callgrind-out-file=" + out, sys.executable,
                            __file__, "--count", build, handext_dir, name,
                            str(n)], env=dict(os.environ, NCCC_PRIMITIVE=kind,
                                              PYTHONHASHSEED=HASH_SEED),
                           check=True, capture_output=True)
            with open(out) as f:
                got.append(int([ln for ln in f if ln.startswith("summary:")
                                ][0].split()[1]))
    return (got[0] - got[1]) / (N // 10)


def report(t, kind, unit):
    print()
    print("primitive %s (%s):" % (kind, unit))
    for what in ("add", "mix"):
        ours = t["nccc-%s %s" % (kind, what)]
        print("  %-4s nccc %7.1f  ctypes %7.1f (%.2fx)  cffi-abi %7.1f "
              "(%.2fx)  handext %6.1f (%.2fx)" % (
                  what, ours, t["ctypes " + what], ours / t["ctypes " + what],
                  t["cffi-abi " + what], ours / t["cffi-abi " + what],
                  t["handext " + what], ours / t["handext " + what]))
    ours = t["nccc-%s callback" % kind]
    print("  callback nccc %7.1f  ctypes CFUNCTYPE %7.1f (%.2fx)" % (
        ours, t["ctypes callback"], ours / t["ctypes callback"]))


def main(args):
    by_instructions = "--instructions" in args
    args = [a for a in args if a != "--instructions"]
    build = os.path.abspath(args[0] if args else
                            os.path.join(ROOT, "build", "plain"))
    with tempfile.TemporaryDirectory() as handext_dir:
        build_handext(handext_dir)
        print("Python %s, %s" % (sys.version.split()[0], (
            "instructions per call (per callback), callgrind" if
            by_instructions else "ns per call (per callback), best of 5 x "
            "%d" % N)))
        peers = {}   # the peers' counts do not depend on the primitive
        for kind in ("c", "ctypes"):
            t = {}
            if by_instructions:
                for name in CALLS:
                    key = name.replace("nccc", "nccc-" + kind)
                    if name not in peers:
                        t[key] = instructions(build, handext_dir, kind, name)
                    else:
                        t[key] = peers[name]
                    if not name.startswith("nccc"):
                        peers[name] = t[key]
            else:
                out = subprocess.run(
                    [sys.executable, __file__, "--measure", build,
                     handext_dir], env=dict(os.environ, NCCC_PRIMITIVE=kind,
                                          PYTHONHASHSEED=HASH_SEED),
                    check=True, capture_output=True, text=True).stdout
                for line in filter(None, out.split("\n")):
                    name, ns = line.rsplit(" ", 1)
                    t[name] = float(ns)
            report(t, kind, "instructions" if by_instructions else "ns")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        wall_clock(*sys.argv[2:4])
    elif sys.argv[1:2] == ["--count"]:
        count(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    else:
        main(sys.argv[1:])
