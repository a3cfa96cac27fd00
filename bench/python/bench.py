"""bench/python/bench.py [BUILD_DIR] - time per call from Python 3 of
tour's add (int64 add(int64, int64)) and mix (six arguments of mixed
codes), and per callback of hcb.fold, through the generated modules on
both primitives, against ctypes with argtypes, cffi's ABI mode, a
hand-written C extension (handext.c) and a ctypes CFUNCTYPE callback
(docs/BENCHMARKS.md, "Python"). Needs the plain build's host fixture and
Python package (default BUILD_DIR: build/plain; cmake --build BUILD_DIR
--target nccc_host_fixture nccc_host_generated nccc_python_core).

Each primitive is measured in its own process (NCCC_PRIMITIVE), which
measures the peers too, so every ratio is between timings of one run:
the best of 5 repeats of N calls, wall clock. A benchmark, not a test.
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


def best(stmt, env, n=N):
    return min(timeit.repeat(stmt, globals=env, number=n, repeat=5)) / n * 1e9


def build_handext(tmp):
    out = os.path.join(tmp, "handext" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I",
                    sysconfig.get_paths()["include"],
                    os.path.join(HERE, "handext.c"), "-o", out], check=True)
    return tmp


def measure(build):
    """One process: the generated modules on this process's primitive,
    and every peer. Prints "name ns" lines."""
    fixture = os.path.join(build, "test/hosts/fixture/libnccc_host_fixture.so")
    sys.path[:0] = [os.path.join(build, "python"),
                    os.path.join(build, "test/hosts/fixture/generated/python")]
    import nccc
    import hcb
    import tour
    lib = nccc.open(fixture)
    lib.call_address(lib.symbol("nccc_fixture_open"), ":iI")
    t, h = tour.bind(lib), hcb.bind(lib)
    kind = nccc.PRIMITIVE
    env = {"add": t.add, "mix": t.mix, "fold": h.fold, "h": h}
    rows = [("nccc-%s add" % kind, best("add(40, 2)", env)),
            ("nccc-%s mix" % kind, best("mix(-1, 65535, 0.5, 0.25, -10, 3)",
                                        env))]
    env["step"] = h.callback("step_fn", lambda acc, i: acc + i, "forever")
    rows.append(("nccc-%s callback" % kind,
                 best("fold(%d, step)" % FOLD, env, N // FOLD) / FOLD))
    env["step"].release()

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
    rows += [("ctypes add", best("cadd(40, 2)", env)),
             ("ctypes mix", best("cmix(-1, 65535, 0.5, 0.25, -10, b'\\x03')",
                                 env)),
             ("ctypes callback",
              best("cfold(%d, cstep, None)" % FOLD, env, N // FOLD) / FOLD)]

    import cffi
    ffi = cffi.FFI()
    ffi.cdef("int64_t add(int64_t, int64_t); double mix(int8_t, uint16_t, "
             "float, double, int64_t, char);")
    abi = ffi.dlopen(fixture)
    env.update(fadd=abi.add, fmix=abi.mix)
    rows += [("cffi-abi add", best("fadd(40, 2)", env)),
             ("cffi-abi mix", best("fmix(-1, 65535, 0.5, 0.25, -10, b'\\x03')",
                                   env))]

    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, build_handext(tmp))
        import handext
    handext.bind(ctypes.cast(c.add, ctypes.c_void_p).value,
                 ctypes.cast(c.mix, ctypes.c_void_p).value)
    env.update(hadd=handext.add, hmix=handext.mix)
    rows += [("handext add", best("hadd(40, 2)", env)),
             ("handext mix", best("hmix(-1, 65535, 0.5, 0.25, -10, 3)", env))]
    for name, ns in rows:
        print("%s %.1f" % (name, ns))


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                            else os.path.join(ROOT, "build", "plain"))
    print("Python %s, ns per call (per callback), best of 5 x %d"
          % (sys.version.split()[0], N))
    for kind in ("c", "ctypes"):
        out = subprocess.run([sys.executable, __file__, "--measure", build],
                             env=dict(os.environ, NCCC_PRIMITIVE=kind),
                             check=True, capture_output=True, text=True).stdout
        t = {}
        for line in out.split("\n"):
            if line:
                name, ns = line.rsplit(" ", 1)
                t[name] = float(ns)
        print()
        print("primitive %s:" % kind)
        for what in ("add", "mix"):
            ours = t["nccc-%s %s" % (kind, what)]
            print("  %-4s nccc %7.1f  ctypes %7.1f (%.2fx)  cffi-abi %7.1f "
                  "(%.2fx)  handext %6.1f (%.2fx)" % (
                      what, ours, t["ctypes " + what],
                      ours / t["ctypes " + what], t["cffi-abi " + what],
                      ours / t["cffi-abi " + what], t["handext " + what],
                      ours / t["handext " + what]))
        ours = t["nccc-%s callback" % kind]
        print("  callback nccc %7.1f  ctypes CFUNCTYPE %7.1f (%.2fx)" % (
            ours, t["ctypes callback"], ours / t["ctypes callback"]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        measure(sys.argv[2])
    else:
        main()
