"""Rust spellings of the binding records' type texts (docs/BINDING.md,
"Types"), for the Rust emitter.

Scalars take the Rust type of their width and signedness (from the ABI
description's codes); the C types whose width the target decides take
the crate's aliases (nccc::c_char, nccc::c_long, nccc::c_ulong) or
usize/isize, which have the width of size_t and intptr_t on every target
Rust supports. Enums are C ints: i32. Other pointers are nccc::Ptr,
function pointers nccc::FnPtr, records their own types.
"""

from stubgen.abi import load as load_abi
from stubgen.ctype import TARGET_CODES

_ABI = load_abi()

_TARGET_RUST = {
    "NCCC_SIG_CHAR": "nccc::c_char",
    "NCCC_SIG_LONG": "nccc::c_long",
    "NCCC_SIG_ULONG": "nccc::c_ulong",
    "NCCC_SIG_SIZE": "usize",
    "NCCC_SIG_SSIZE": "isize",
    "NCCC_SIG_INTPTR": "isize",
    "NCCC_SIG_UINTPTR": "usize",
}
assert set(_TARGET_RUST) == set(TARGET_CODES)

# Rust's keywords: a C name that is one gets the raw form r#name.
_KEYWORDS = set("""as async await box break const continue crate dyn else enum
    extern false fn for if impl in let loop macro match mod move mut priv pub
    ref return self Self static struct super trait true try type typeof union
    unsafe unsized use virtual where while yield""".split())


def ident(name):
    if name in ("self", "Self", "crate", "super"):
        return name + "_"
    return "r#" + name if name in _KEYWORDS else name


def code_rust(code):
    """The Rust type of a value of slot code `code` (one letter, or a
    target-dependent NCCC_SIG_* name)."""
    if code in _TARGET_RUST:
        return _TARGET_RUST[code]
    c = _ABI.code(code)
    if c.kind == "bool":
        return "bool"
    if c.kind in ("int", "errno"):
        return "%s%d" % ("i" if c.signed else "u", c.bits)
    if c.kind == "float":
        return "f%d" % c.bits
    if c.kind == "function":
        return "nccc::FnPtr"
    return "nccc::Ptr"


def text_rust(text):
    """The Rust type of a value of a type text: scalars, enums, pointers,
    records, arrays of them."""
    if text.startswith("{"):
        return ident(text[1:-1])
    if text.startswith("["):
        elem, count = text[1:-1].rsplit("; ", 1)
        return "[%s; %s]" % (text_rust(elem), count)
    if text.startswith("*"):
        return "nccc::Ptr"
    if text in ("void", "function"):
        return "()"
    return code_rust(text)


def text_pointee(text):
    """(the Rust type of what a pointer's type text points to: a scalar
    or record type, else (); whether it is const)."""
    target = text[1:]
    const = target.startswith("const ")
    target = target[len("const "):] if const else target
    if target.startswith("[") or target in ("void", "function"):
        return "()", const
    return text_rust(target), const


def rust_str(text):
    """A Rust string literal."""
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def sigs(signatures, nul=False):
    """A slice of signatures; nul: each ending in NUL, for a claim."""
    end = "\\0" if nul else ""
    return "&[%s]" % ", ".join(rust_str(s)[:-1] + end + '"' for s in signatures)


def slot_at(index):
    """A slot index (slots.Index) as a Rust expression: fixed + the
    records' slots."""
    parts = [str(index.fixed)] if index.fixed or not index.records else []
    parts += ["<%s as nccc::Record>::SLOTS" % ident(r) for r in index.records]
    return " + ".join(parts)
