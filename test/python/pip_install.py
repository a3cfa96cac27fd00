"""pip_install.py FIXTURE - `pip install --no-build-isolation` of
bindings/python works offline with the system's setuptools and builds the
C extension (docs/PYTHON.md, "Install"): installs a copy of it into a
temporary directory (--target: no system directory is touched), then, in
a fresh interpreter with only that directory on its path, imports nccc,
checks that it runs on the C extension and makes a call into the host
fixture. Exits 1 on any failure."""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
CHECK = """
import sys, nccc
lib = nccc.open(sys.argv[1])
assert lib.call_address(lib.symbol("nccc_fixture_open"), ":iI")[0] == 0
assert nccc.PRIMITIVE == "c", nccc.PRIMITIVE
assert lib.call("tour.add", 40, 2) == 42
print("installed nccc runs on", nccc.PRIMITIVE)
"""


def main():
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src")
        shutil.copytree(os.path.join(ROOT, "bindings", "python"), src)
        site = os.path.join(tmp, "site")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                        "--no-build-isolation", "--no-deps", "--no-index",
                        "--target", site, src], check=True)
        env = dict(os.environ, PYTHONPATH=site)
        env.pop("NCCC_PRIMITIVE", None)
        subprocess.run([sys.executable, "-c", CHECK, sys.argv[1]], env=env,
                       check=True, cwd=tmp)


if __name__ == "__main__":
    main()
