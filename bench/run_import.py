#!/usr/bin/env python3
"""How long nccc-stubgen --import takes on sqlite3.h (target: under 2 s).

    bench/run_import.py [--header H] [--runs R]

Runs bin/nccc-stubgen --import on the header (default the installed
/usr/include/sqlite3.h) R times (default 3), the whole command from
start to exit: Python, libclang's two parses (the header, then the
macro probe) and the rules. Prints each wall-clock time, the best, the
functions bound and left out. Exit status 0 even when the target is
missed: this is a benchmark, not a test (test/importer tests what the
drafts say).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STUBGEN = os.path.join(HERE, "..", "bin", "nccc-stubgen")
TARGET_SECONDS = 2.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--header", default="/usr/include/sqlite3.h")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "draft.idl")
        for _ in range(args.runs):
            start = time.perf_counter()
            r = subprocess.run([STUBGEN, "--import", args.header, "-o", out],
                               capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if r.returncode != 0:
                sys.exit("nccc-stubgen --import failed:\n" + r.stderr)
        with open(out, encoding="utf-8") as f:
            text = f.read()
    # a function starts a line with its return type, a name and "("
    bound = len(re.findall(r"^(?!typedef |struct |union |enum |"
                           r"closures |//)[A-Za-z_][^;(]*\b\w+\(",
                           text, re.M))
    left_out = len(re.findall(r"^// left out: \w+: (?:variadic|a va_list)",
                              text, re.M))
    for k, t in enumerate(times, 1):
        print("run %d: %.3f s" % (k, t))
    best = min(times)
    print("%s: best %.3f s (target < %.1f s: %s); %d functions bound, "
          "%d left out (variadic, va_list)"
          % (os.path.basename(args.header), best, TARGET_SECONDS,
             "met" if best < TARGET_SECONDS else "MISSED", bound, left_out))


if __name__ == "__main__":
    main()
