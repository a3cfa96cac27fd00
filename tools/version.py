#!/usr/bin/env python3
"""version.py [--check | --write] [ROOT] - the project's version, one place.

The version is the one of `project(nccc VERSION X.Y.Z ...)` in ROOT's
CMakeLists.txt (ROOT: the repository, by default this script's parent).
Every file a packaging tool or a compiler reads it from without CMake
holds a copy, and so does the shared case table's expectation of the
version built-in:

  nccc_runtime/include/nccc/runtime.h   NCCC_VERSION_MAJOR/MINOR/PATCH/STRING
  stubgen/__init__.py                   __version__ (nccc-stubgen --version)
  bindings/python/pyproject.toml        the wheel's version
  bindings/js/package.json              the npm tarball's version
  bindings/rust/nccc/Cargo.toml         the crate's version (and its Cargo.lock)
  bindings/lua/nccc-X.Y.Z-1.rockspec    the rock's version, in its name too
  cmake/nccc-racket-info.rkt            the Racket package's version
  test/hosts/cases.json                 what the built-in nccc.version returns

--check (the default) prints each stale copy as `FILE: has A, CMakeLists.txt
says B` and exits 1 when there is one; --write rewrites the stale copies
(renaming the rockspec). The Debian package takes PROJECT_VERSION from
CMake itself (cmake/NcccPackage.cmake). ctest `package_version` runs
--check.
"""

import os
import re
import sys

PROJECT = re.compile(r"project\(\s*nccc\s+VERSION\s+(\d+)\.(\d+)\.(\d+)")


def project_version(root):
    with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
        m = PROJECT.search(f.read())
    if not m:
        raise SystemExit("version.py: no `project(nccc VERSION X.Y.Z` in %s/CMakeLists.txt"
                         % root)
    return tuple(int(g) for g in m.groups())


def _pattern(regex, spell):
    """A copy found by regex (its one group is the version as written),
    and the text it should read for a version (a tuple)."""
    return re.compile(regex, re.M), spell


def _dotted(v):
    return "%d.%d.%d" % v


# (file, [(regex with one group, spelling of a version)])
COPIES = [
    ("nccc_runtime/include/nccc/runtime.h", [
        _pattern(r"^#define NCCC_VERSION_MAJOR (\d+)$", lambda v: str(v[0])),
        _pattern(r"^#define NCCC_VERSION_MINOR (\d+)$", lambda v: str(v[1])),
        _pattern(r"^#define NCCC_VERSION_PATCH (\d+)$", lambda v: str(v[2])),
        _pattern(r'^#define NCCC_VERSION_STRING "([^"]*)"$', _dotted)]),
    ("stubgen/__init__.py", [_pattern(r'^__version__ = "([^"]*)"$', _dotted)]),
    ("bindings/python/pyproject.toml", [_pattern(r'^version = "([^"]*)"$', _dotted)]),
    ("bindings/js/package.json", [_pattern(r'^  "version": "([^"]*)",$', _dotted)]),
    ("bindings/rust/nccc/Cargo.toml", [_pattern(r'^version = "([^"]*)"$', _dotted)]),
    ("bindings/rust/nccc/Cargo.lock",
     [_pattern(r'^name = "nccc"\nversion = "([^"]*)"$', _dotted)]),
    ("cmake/nccc-racket-info.rkt", [_pattern(r'^\(define version "([^"]*)"\)', _dotted)]),
    ("test/hosts/cases.json", [
        _pattern(r'"call": "nccc\.version", "args": \[\], "expect": \[0, (\d+), "',
                 lambda v: str(v[0] << 16 | v[1] << 8 | v[2])),
        _pattern(r'"call": "nccc\.version", "args": \[\], "expect": \[0, \d+, "([^"]*)"\]',
                 _dotted)]),
]

ROCKSPEC_DIR = "bindings/lua"
ROCKSPEC_NAME = re.compile(r"^nccc-(.+)-1\.rockspec$")
ROCKSPEC_VERSION = _pattern(r'^version = "([^"]*)-1"$', _dotted)


def _rockspec(root):
    names = [n for n in os.listdir(os.path.join(root, ROCKSPEC_DIR)) if ROCKSPEC_NAME.match(n)]
    if len(names) != 1:
        raise SystemExit("version.py: expected one nccc-*-1.rockspec in %s, found %s"
                         % (ROCKSPEC_DIR, names or "none"))
    return "%s/%s" % (ROCKSPEC_DIR, names[0])


def _fix(text, path, patterns, version):
    """text with every copy set to version, and the stale copies as
    (path, found, wanted)."""
    stale = []
    for regex, spell in patterns:
        found = regex.findall(text)
        if len(found) != 1:
            raise SystemExit("version.py: %s: %d matches of %r, expected 1"
                             % (path, len(found), regex.pattern))
        want = spell(version)
        if found[0] != want:
            stale.append((path, found[0], want))
            m = regex.search(text)
            text = text[:m.start(1)] + want + text[m.end(1):]
    return text, stale


def sync(root, write):
    """The stale copies (path, found, wanted); with write, fixed."""
    version = project_version(root)
    stale = []
    rockspec = _rockspec(root)
    for path, patterns in COPIES + [(rockspec, [ROCKSPEC_VERSION])]:
        full = os.path.join(root, path)
        with open(full, encoding="utf-8") as f:
            text = f.read()
        fixed, found = _fix(text, path, patterns, version)
        stale += found
        if write and found:
            with open(full, "w", encoding="utf-8") as f:
                f.write(fixed)
    name = ROCKSPEC_NAME.match(os.path.basename(rockspec)).group(1)
    if name != _dotted(version):
        stale.append((rockspec + " (its name)", name, _dotted(version)))
        if write:
            os.rename(os.path.join(root, rockspec),
                      os.path.join(root, ROCKSPEC_DIR, "nccc-%s-1.rockspec" % _dotted(version)))
    return stale


def main(argv):
    write = "--write" in argv
    args = [a for a in argv if a not in ("--write", "--check")]
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    stale = sync(root, write)
    for path, found, want in stale:
        print("%s: %s %s, CMakeLists.txt says %s"
              % (path, "had" if write else "has", found, want))
    return 0 if write or not stale else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
