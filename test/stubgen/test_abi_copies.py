"""No product source carries a hand-written copy of an ABI table.

idl/abi.json is the one source of the ABI's facts; nccc/abi.h, the Lua
table and the Scheme library are generated from it (test_abi.py). This
suite reads every other source of the runtime, the host layers and the
generator and fails on the shapes a hand-written copy takes: a status
code, a handle marker, a range limit, a list of signature codes or a
signature with a '*' side spelled as a literal, a list of built-in
names, the number of targets or a list of them, the flags of registering
a packed function, the rule that sizes a '*' side, TVM's type codes of
packed values, or a native core's helper key written as its number.
"""

import re

import pytest

from conftest import ROOT
from stubgen.abi import load

GENERATED = {"nccc_runtime/include/nccc/abi.h", "bindings/lua/nccc/abi.lua",
             "bindings/python/nccc/abi.py", "bindings/python/core/nccc_items.h",
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
     r"(?i)\b(0x7fffu?|0x8000u?)\b|#x7fff|#x8000\b"),
    ("an index or slot limit", HOSTS, r"(?i)\b(32767|32768|0x7fff|0x8000)\b"),
    ("an integer range", HOSTS,
     r"(?<![\w.])-?(2147483647|2147483648|4294967295|65535|32768)\b"),
]

_N_TARGETS = len(ABI.targets)
_TYPE_CODES = {t.name: t.value for t in ABI.packed.type_codes}
# (what, pattern) of the facts of targets, packed functions and sized
# '*' sides, in the host layers and the generator
_SHAPES = [
    ("the number of targets",
     r"(?i)\btargets?\b\s*=\s*%d\b" % _N_TARGETS),
    ("a list of the targets",
     r"[\[{(]\s*%s\s*[\]})]" % r"[\s,]+".join(
         str(k) for k in range(_N_TARGETS))),
    ("a list of the data models",
     r"[\"'](%s)[\"'].*[\"'](%s)[\"']" % (("|".join(ABI.data_models),) * 2)),
    ("a packed function's flag",
     r"(?i)\bpacked[\w-]*(flag|override|status)[\w-]*\s*(=|\s)\s*\d"),
    ("the rule that sizes a '*' side",
     r"\barg\s*[=:]\s*\d+\s*,.*\bmul\s*[=:]\s*\d"),
    ("a TVM type code by TVM's name",
     r"\bk(DL|TVM)[A-Z]\w*\s*=\s*\d"),
    ("a native core's helper key by number (abi items.helper_keys)",
     r"\b(call_slow|slow|lcore_ask)\((\s*\w+\s*,){0,2}\s*-?\d+\s*,"
     r"|\bk\s*==\s*-[1-9]\b"),
]


@pytest.mark.parametrize("what, pattern", _SHAPES,
                         ids=[w for w, _ in _SHAPES])
def test_no_target_or_packed_fact_is_spelled_out(what, pattern):
    found = []
    for rel, text in _sources():
        if not rel.startswith(HOSTS):
            continue
        for k, line in _code_lines(text):
            if re.search(pattern, line):
                found.append("%s:%d: %s" % (rel, k, line.strip()))
    assert not found, "%s written by hand (use the generated ABI table):\n%s" \
        % (what, "\n".join(found))


def test_no_list_of_tvm_type_codes():
    """Three or more distinct TVM type codes in one list of numbers."""
    codes = set(_TYPE_CODES.values())
    found = []
    for rel, text in _sources():
        if not rel.startswith(HOSTS):
            continue
        for k, line in _code_lines(text):
            for m in re.finditer(r"(?<![\w.])\d+(\s*,\s*\d+)+(?![\w.])",
                                 line):
                seen = {int(n) for n in re.findall(r"\d+", m.group(0))}
                if seen <= codes and len(seen) >= 3:
                    found.append("%s:%d: %s" % (rel, k, line.strip()))
    assert not found, "TVM type codes listed by hand:\n" + "\n".join(found)


def test_no_packed_value_is_tagged_by_number():
    """A host converting packed values names TVM's codes from the table:
    a bare code that only a packed value has (a string's, a bool's) in a
    source about packed functions is a copy."""
    only_packed = [_TYPE_CODES["str"], _TYPE_CODES["bool"]]
    pattern = r"(?<![\w.#-])(%s)(?![\w.])" % "|".join(map(str, only_packed))
    found = []
    for rel, text in _sources():
        if not rel.startswith(HOSTS) or "packed" not in text.lower():
            continue
        for k, line in _code_lines(text):
            code = re.sub(r"\"(\\.|[^\"])*\"", "", line)
            if re.search(pattern, code):
                found.append("%s:%d: %s" % (rel, k, line.strip()))
    assert not found, "TVM type codes written by hand:\n" + "\n".join(found)


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


# The shapes of a host parsing a value spec as text ("k,S,COUNT" /
# "k,A,CODE,STRIDE,COUNT" joined by ";", what the lowering once handed the
# emitters): a field compared with the string tag S, or the text split at
# ";". The binding records carry value descriptions as data
# (docs/BINDING.md); a host reads them, and parses no text of them.
_SPEC_PARSING = r"""[=!~]=+\s*["']S["']|string=\?\s*\([^()]*\)\s*"S"|""" \
    r"""split\(\s*["'];["']\s*\)|gmatch\(\s*["']\[\^;\]\+["']\s*\)"""


def test_no_host_parses_a_value_spec_text():
    found = []
    for rel, text in _sources():
        if not rel.startswith("bindings/"):
            continue
        for k, line in _code_lines(text):
            if re.search(_SPEC_PARSING, line):
                found.append("%s:%d: %s" % (rel, k, line.strip()))
    assert not found, "value specs parsed by a host:\n" + "\n".join(found)
