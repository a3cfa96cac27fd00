"""bench/python/fields.py [--instructions] [BUILD_DIR] - reading and
writing an int field of a C object from Python (docs/PYTHON.md, "C
objects": `big.used`, `big.used = 5` of cdata's struct cd_big) against
cffi's attribute access on a cdata of the same struct (ABI mode,
ffi.new). Needs the cdata fixture's shared library and the Python
package of a plain build (default BUILD_DIR: build/plain; cmake --build
BUILD_DIR --target nccc_cdata_host nccc_python_core). A benchmark, not a
test (docs/BENCHMARKS.md, "C objects").

Wall clock (default): the best of 5 repeats of N accesses, every variant
in one process; the cost of the loop alone (`pass`) is taken off each.
--instructions: instructions per access under callgrind
(valgrind): a process making N accesses less one making none.
"""

import os
import subprocess
import sys
import tempfile
import timeit

N = 2_000_000
N_CG = 200_000
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
VARIANTS = {"loop": "pass", "nccc read": "big.used", "cffi read": "c.used",
            "nccc write": "big.used = 5", "cffi write": "c.used = 5"}
CDEF = "struct cd_big { char before[24]; int used; char after[40]; };"


def _paths(build):
    gen = os.path.join(build, "test", "cdata", "nccc", "nccc_cdata_host")
    return (os.path.join(build, "python"), gen,
            os.path.join(build, "test", "cdata", "libnccc_cdata_host.so"))


def _objects(build):
    pkg, gen, lib = _paths(build)
    sys.path[:0] = [pkg, gen]
    import cffi
    import cdata
    import nccc
    ffi = cffi.FFI()
    ffi.cdef(CDEF)
    big = cdata.bind(nccc.open(lib)).new("cd_big")
    return {"big": big, "c": ffi.new("struct cd_big *")}


def _one(build, variant, n):
    """Runs variant n times in this process (a callgrind child)."""
    g = _objects(build)
    exec(compile("for _ in range(%d):\n    %s\n" % (n, VARIANTS[variant]),
                 "<bench>", "exec"), g)


def _instructions(build, variant, n):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file="
                        + out, sys.executable, __file__, "--one", variant,
                        str(n), build], check=True, capture_output=True,
                       env=dict(os.environ, PYTHONHASHSEED="0"))
        with open(out, encoding="utf-8") as f:
            for line in f:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    raise RuntimeError("no callgrind summary")


def main(argv):
    if argv[:1] == ["--one"]:
        return _one(argv[3], argv[1], int(argv[2]))
    count = argv[:1] == ["--instructions"]
    args = argv[1:] if count else argv
    build = os.path.abspath(args[0] if args else
                            os.path.join(ROOT, "build", "plain"))
    if count:
        res = {v: (_instructions(build, v, N_CG) - _instructions(build, v, 0))
               / N_CG for v in VARIANTS}
        unit = "instructions"
    else:
        g = _objects(build)
        res = {v: min(timeit.repeat(s, globals=g, number=N, repeat=5))
               / N * 1e9 for v, s in VARIANTS.items()}
        unit = "ns"
    loop = res.pop("loop")
    print("(the loop alone, %.1f %s, taken off each)" % (loop, unit))
    for v, x in res.items():
        print("%-11s %7.1f %s" % (v, x - loop, unit))
    for op in ("read", "write"):
        print("%-5s nccc / cffi: %.3fx" % (op, (res["nccc " + op] - loop)
                                           / (res["cffi " + op] - loop)))


if __name__ == "__main__":
    main(sys.argv[1:])
