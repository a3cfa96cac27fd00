"""Pieces the C emitter writes: section comments, C string literals,
signature expressions, slot index expressions, values to and from slots."""

from stubgen.ctype import SCALARS, Scalar


# The suffix (i8 ... u64) of the slot helpers of each integer scalar whose
# width its code fixes, whatever the target.
_EXACT = {name: ("i" if s.kind == "sint" else "u") + str(s.width)
          for name, s in SCALARS.items()
          if s.kind in ("sint", "uint") and s.width is not None}


def section(src, first, *more):
    """Opens a section of the generated file with its comment:
    "/* ---- first", then a "** line" for each of more, closed by " */"."""
    lines = ["/* ---- " + first] + ["** " + m for m in more]
    lines[-1] += " */"
    for ln in lines:
        src.line(ln)


def lasterror_needs_windows(src, owner, idl, what):
    """[lasterror] on a declaration (a Function or CallbackType) that
    [windows] does not mark: a compile error located at the declaration in
    the IDL on every target without GetLastError (#line then #error)."""
    if not owner.lasterror or owner.windows:
        return
    src.line("#ifndef _WIN32")
    src.line("#line %d %s" % (owner.pos.line, c_string(idl)))
    src.line("#error %s" % c_string(
        "%s: [lasterror] needs Windows (GetLastError); mark the declaration "
        "[windows] if it exists only there" % what))
    src.line("#endif")


def c_string(s):
    """A C string literal for s. A NUL at the end is written \\0 (no
    digit can follow it inside the literal); "??" is broken up so that no
    trigraph can form."""
    out = []
    for i, ch in enumerate(s):
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "?" and i > 0 and s[i - 1] == "?":
            out.append("\\?")
        elif " " <= ch <= "~":
            out.append(ch)
        elif ch == "\0" and i == len(s) - 1:
            out.append("\\0")
        else:
            # octal escapes are at most three digits: no run-on with
            # the next character
            out.extend("\\%03o" % b for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


def signature_literal(codes_in, codes_out):
    """A C expression for the signature: string literals and the
    NCCC_SIG_* macros of slot.h, concatenated."""
    parts, lit = [], []
    for code in list(codes_in) + [":"] + list(codes_out):
        if code.startswith("NCCC_SIG_"):
            if lit:
                parts.append(c_string("".join(lit)))
                lit = []
            parts.append(code)
        else:
            lit.append(code)
    if lit:
        parts.append(c_string("".join(lit)))
    return " ".join(parts)


def slot_index(idx):
    """A C expression for a model.SlotIndex."""
    parts = ["NCCC_SLOTS(sizeof(%s))" % t.unqualified().spell()
             for t in idx.records]
    if idx.fixed or not parts:
        parts.insert(0, str(idx.fixed))
    return " + ".join(parts)


def to_c(t, slot, cast=False):
    """C expression converting the slot expression to a value of type t.
    cast: convert to exactly t (arguments matched by no prototype)."""
    r = t.resolved()
    name = t.unqualified().spell()
    k = r.kind
    if k == "bool":
        e, exact = "nccc_slot_to_bool(%s)" % slot, "bool"
    elif isinstance(r, Scalar) and r.name in _EXACT:
        e = "nccc_slot_to_%s(%s)" % (_EXACT[r.name], slot)
        exact = None
    elif k in ("sint", "char"):
        return "(%s)nccc_slot_to_i64(%s)" % (name, slot)
    elif k == "uint":
        return "(%s)%s" % (name, slot)
    elif k == "float":
        e, exact = "nccc_slot_to_float(%s)" % slot, "float"
    elif k == "double":
        e, exact = "nccc_slot_to_double(%s)" % slot, "double"
    elif k == "enum":
        return "(%s)nccc_slot_to_i32(%s)" % (name, slot)
    elif k == "pointer":
        return "(%s)nccc_slot_to_ptr(%s)" % (name, slot)
    elif k == "funcptr":
        return "(%s)(uintptr_t)%s" % (name, slot)
    else:
        raise AssertionError("to_c of %s" % name)
    if cast and name != exact:
        return "(%s)%s" % (name, e)
    return e


def from_c(t, value):
    """C expression converting a value of type t to a slot."""
    r = t.resolved()
    k = r.kind
    if k == "bool":
        return "nccc_slot_from_bool(%s)" % value
    if isinstance(r, Scalar) and r.name in _EXACT:
        return "nccc_slot_from_%s(%s)" % (_EXACT[r.name], value)
    if k in ("sint", "char"):
        return "nccc_slot_from_i64((int64_t)%s)" % value
    if k == "enum":
        # An enum is an int32 slot (code i) whatever integer type the
        # compiler picked for it: unsigned int for one without negative
        # enumerators under GCC, whose values above INT32_MAX must still
        # come out sign-extended.
        return "nccc_slot_from_i32((int32_t)%s)" % value
    if k == "uint":
        return "nccc_slot_from_u64((uint64_t)%s)" % value
    if k == "float":
        return "nccc_slot_from_float(%s)" % value
    if k == "double":
        return "nccc_slot_from_double(%s)" % value
    if k == "pointer":
        if "volatile" in r.target.resolved().quals:
            return "(uint64_t)(uintptr_t)%s" % value
        return "nccc_slot_from_ptr(%s)" % value
    if k == "funcptr":
        return "(uint64_t)(uintptr_t)%s" % value
    raise AssertionError("from_c of %s" % t.spell())


def slot_ptr(base, idx):
    """base + the slot index idx, as a C expression."""
    e = slot_index(idx)
    return base if e == "0" else "%s + %s" % (base, e)
