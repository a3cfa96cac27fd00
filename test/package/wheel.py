"""wheel.py VERSION FIXTURE GENERATED - ctest package_wheel: the Python
wheel of bindings/python, built offline and installed from the wheel.

1. A copy of bindings/python (the build writes build/ and *.egg-info
   where it runs) goes through `pip wheel --no-build-isolation --no-index
   --no-deps`: the system's setuptools and wheel, no network.
2. The wheel is nccc-VERSION-*.whl and holds every Python file of
   bindings/python/nccc (subfolders too), the C extension
   nccc/_core*.so and METADATA with `Version: VERSION`.
3. `pip install --no-index --no-deps --target SITE` of the wheel file.
4. A fresh interpreter with SITE and GENERATED (the host fixture's
   generated hcb.py) on its path, NCCC_PRIMITIVE unset: nccc comes from
   SITE, runs on the wheel's C extension, importlib.metadata reports
   VERSION, and hcb.fold(4, a callback adding i to acc) into FIXTURE is
   0+1+2+3 = 6.
Prints "wheel: NAME" and "python: nccc VERSION from the wheel, fold 6".
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = """
import importlib.metadata, os, sys
import nccc, hcb
site, version, fixture = sys.argv[1:4]
assert os.path.dirname(os.path.dirname(nccc.__file__)) == site, nccc.__file__
assert nccc.PRIMITIVE == "c", nccc.PRIMITIVE
assert importlib.metadata.version("nccc") == version, importlib.metadata.version("nccc")
m = hcb.bind(nccc.open(fixture))
folded = m.fold(4, m.callback("step_fn", lambda acc, i: acc + i))
assert folded == 6, folded
print("python: nccc %s from the wheel, fold %d" % (version, folded))
"""


def pip(*args):
    subprocess.run([sys.executable, "-m", "pip", "--quiet", "--no-cache-dir",
                    "--disable-pip-version-check", *args], check=True)


def check_wheel(path, version):
    """The wheel's name, version and contents."""
    name = os.path.basename(path)
    if not name.startswith("nccc-%s-" % version):
        sys.exit("FAIL: the wheel is %s, not nccc-%s-*.whl" % (name, version))
    with zipfile.ZipFile(path) as z:
        files = z.namelist()
        meta = z.read("nccc-%s.dist-info/METADATA" % version).decode()
    if "Version: %s\n" % version not in meta:
        sys.exit("FAIL: METADATA of %s has no 'Version: %s'" % (name, version))
    top = os.path.join(ROOT, "bindings", "python")
    wanted = [os.path.relpath(p, top).replace(os.sep, "/") for p in
              glob.glob(os.path.join(top, "nccc", "**", "*.py"), recursive=True)]
    missing = [f for f in wanted if f not in files]
    if missing or not any(f.startswith("nccc/_core") and f.endswith(".so") for f in files):
        sys.exit("FAIL: %s lacks %s" % (name, missing or "the C extension nccc/_core*.so"))
    print("wheel:", name)


def main():
    version = sys.argv[1]
    fixture, generated = (os.path.abspath(p) for p in sys.argv[2:4])
    with tempfile.TemporaryDirectory() as tmp:
        src, dist, site = (os.path.join(tmp, d) for d in ("src", "dist", "site"))
        shutil.copytree(os.path.join(ROOT, "bindings", "python"), src)
        pip("wheel", "--no-build-isolation", "--no-index", "--no-deps", "-w", dist, src)
        wheels = glob.glob(os.path.join(dist, "*.whl"))
        if len(wheels) != 1:
            sys.exit("FAIL: pip wheel made %s" % (wheels or "no wheel"))
        check_wheel(wheels[0], version)
        pip("install", "--root-user-action=ignore", "--no-index", "--no-deps", "--target", site, wheels[0])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([site, generated]))
        env.pop("NCCC_PRIMITIVE", None)
        subprocess.run([sys.executable, "-c", CHECK, site, version, fixture],
                       env=env, check=True, cwd=tmp)


if __name__ == "__main__":
    main()
