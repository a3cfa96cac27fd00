"""Rust spellings of the model's C types, for the Rust emitter.

Scalars take the Rust type of their width and signedness (from the ABI
description's codes); the C types whose width the target decides take
the crate's aliases (nccc::c_char, nccc::c_long, nccc::c_ulong) or
usize/isize, which have the width of size_t and intptr_t on every target
Rust supports. Enums are C ints: i32. Other pointers are nccc::Ptr,
function pointers nccc::FnPtr.
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


def record_name(t):
    """The Rust type of a struct/union/opaque C type (its IDL name)."""
    r = t.resolved()
    return ident(r.decl.name)


def value_rust(t):
    """The Rust type of a C value type held in a record field or passed by
    value: scalars, enums, pointers, records, arrays of them."""
    r = t.resolved()
    kind = r.kind
    if kind in ("struct", "union"):
        return record_name(r)
    if kind == "array":
        return "[%s; %s]" % (value_rust(r.elem), r.size)
    if kind == "enum":
        return "i32"
    if kind == "pointer":
        return "nccc::Ptr"
    if kind == "funcptr":
        return "nccc::FnPtr"
    return code_rust(r.code)


def pointee_rust(t):
    """The Rust type of what a pointer points to, for a slice or an owned
    object's marker: a scalar or record type, else ()."""
    target = t.resolved().target
    kind = target.kind
    if kind in ("struct", "union", "opaque"):
        return record_name(target)
    if kind in ("pointer", "funcptr"):
        return value_rust(target)
    if kind in ("void", "function", "array"):
        return "()"
    return value_rust(target)


def text_rust(text):
    """The Rust type of a value of a record's type text (docs/BINDING.md,
    "Types"), as value_rust of the C type."""
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
    """(the Rust type of what a pointer's type text points to, as
    pointee_rust; whether it is const)."""
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
    """A SlotIndex as a Rust expression: fixed + the records' slots (the
    records as C types, or by name)."""
    parts = [str(index.fixed)] if index.fixed or not index.records else []
    parts += ["<%s as nccc::Record>::SLOTS" % (ident(r) if isinstance(r, str) else record_name(r))
              for r in index.records]
    return " + ".join(parts)
