"""No product source carries a hand-written copy of an ABI table.

idl/abi.json is the one source of the ABI's facts; nccc/abi.h, the Lua
table and the Scheme library are generated from it (test_abi.py). This
suite reads every other source of the runtime, the host layers and the
generator and fails on the shapes a hand-written copy takes: a status
code, a handle marker, a range limit, a list of signature codes or a
signature with a '*' side spelled as a literal, or a list of built-in
names.
"""

import re

import pytest

from conftest import ROOT
from stubgen.abi import load

GENERATED = {"nccc_runtime/include/nccc/abi.h", "bindings/lua/nccc/abi.lua",
             "bindings/python/nccc/abi.py",
             "bindings/scheme/nccc/abi.sls", "bindings/rust/nccc/src/abi.rs",
             "bindings/js/nccc/abi.mjs",
             "nccc_runtime/rpc/include/nccc/rpc_wire.h"}
SUFFIXES = {".c", ".h", ".lua", ".sls", ".scm", ".rkt", ".py", ".rs", ".mjs",
            ".js"}
PRODUCT = ["nccc_runtime", "shims", "bindings", "stubgen"]


def _sources():
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in SUFFIXES and rel not in GENERATED and \
                    not rel.startswith("stubgen/abi/") and \
                    "__pycache__" not in rel:
                yield rel, path.read_text(encoding="utf-8")


def _code_lines(text):
    """(line number, line) with comments blanked: what a line says in
    prose is not a copy."""
    for k, line in enumerate(text.splitlines(), 1):
        line = re.sub(r"(//|--|;|#(?![x\\(\w])).*$", "", line) \
            if not line.lstrip().startswith(("#include", "#define",
                                              "#if", "#error")) else line
        line = re.sub(r"/\*.*?(\*/|$)|^\s*\*\*.*$", "", line)
        yield k, line


ABI = load()
HOSTS = ("bindings/", "stubgen/")
RUNTIME = ("nccc_runtime/", "shims/")
# slot.h converts C types (int16_t, float ...) whose widths are C's own;
# no table of codes is in it.
C_TYPES = {"nccc_runtime/include/nccc/slot.h"}
_STATUS = sorted({s.value for s in ABI.status if s.value})
# (what, where, pattern): host layers may spell no ABI number at all;
# the runtime's C has the enums by name, so there the risk is the handle
# layout and the slot limits written out again.
_LITERALS = [
    ("a status code", HOSTS, r"(?<![\w.])(?:0x|#x)(%s)\b"
     % "|".join("%04x" % v for v in _STATUS)),
    ("a status code", HOSTS, r"(?<![\w.-])(%s)(?![\w.])"
     % "|".join(str(v) for v in _STATUS if v > 4096)),
    ("the handle's module marker", HOSTS + RUNTIME,
     r"\b(0x80000000u?|2147483648)\b|#x80000000"),
    ("an index or slot mask", HOSTS + RUNTIME,
     r"\b(0x7fffu?|0x8000u?)\b|#x7fff|#x8000\b"),
    ("an index or slot limit", HOSTS, r"\b(32767|32768)\b"),
    ("an integer range", HOSTS,
     r"(?<![\w.])-?(2147483647|2147483648|4294967295|65535|32768)\b"),
]


def test_the_scan_sees_the_sources():
    names = [rel for rel, _ in _sources()]
    assert "nccc_runtime/src/call.c" in names
    assert any(n.startswith("bindings/lua/") for n in names)
    assert any(n.startswith("bindings/scheme/") for n in names)


@pytest.mark.parametrize("what, where, pattern", _LITERALS,
                         ids=[w for w, _, _ in _LITERALS])
def test_no_abi_number_is_spelled_out(what, where, pattern):
    found = []
    for rel, text in _sources():
        if not rel.startswith(where) or rel in C_TYPES:
            continue
        for k, line in _code_lines(text):
            m = re.search(pattern, line)
            if m:
                found.append("%s:%d: %s" % (rel, k, line.strip()))
    assert not found, "%s written by hand (use the generated ABI table):\n%s" \
        % (what, "\n".join(found))


def test_no_list_of_signature_codes():
    codes = set(c.code for c in ABI.codes)
    found = []
    for rel, text in _sources():
        for k, line in _code_lines(text):
            for m in re.finditer(r"[\"']([^\"'\s]{6,})[\"']", line):
                s = m.group(1)
                if set(s) <= codes and len(set(s)) >= 6:
                    found.append("%s:%d: %s" % (rel, k, s))
    assert not found, "code lists written by hand:\n" + "\n".join(found)


def test_no_variable_signature_is_spelled_out():
    """The signatures with a '*' side (the closure target's, the
    built-ins' that take one) come from the table: a host checking or
    registering one reads it there."""
    sigs = {b.signature for b in ABI.builtins
            if (b.n_in | b.n_out) & ABI.slots_variable}
    sigs.add(ABI.closure_target_signature)
    found = []
    for rel, text in _sources():
        for k, line in _code_lines(text):
            for m in re.finditer(r"[\"']([^\"'\s]+)[\"']", line):
                if m.group(1) in sigs:
                    found.append("%s:%d: %s" % (rel, k, m.group(1)))
    assert not found, "signatures written by hand:\n" + "\n".join(found)


def test_no_list_of_builtin_names():
    names = {b.name for b in ABI.builtins if len(b.name) > 5}
    found = []
    for rel, text in _sources():
        # a name looked up in the generated table is a use, not a copy
        lines = ["" if "abi" in line.lower() else line
                 for line in text.splitlines()]
        for k in range(len(lines)):
            window = "\n".join(lines[k:k + 10])
            quoted = set(re.findall(r"[\"']([a-z_]+)[\"']", window)) & names
            if len(quoted) >= 5:
                found.append("%s:%d: %s" % (rel, k + 1, sorted(quoted)))
                break
    assert not found, "built-in names listed by hand:\n" + "\n".join(found)
