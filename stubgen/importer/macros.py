"""Integer and string #define constants. Which object-like macros are
constants, and of which type, the compiler says: one more translation
unit includes the header and declares, per macro,

    static const __typeof__((NAME)) nccc_probe_K = NAME;

A macro whose line does not compile is no constant expression (a
keyword, an attribute, a type) and is skipped; the others are integer
constants (written `const T NAME;`, the value comes from the header),
strings, floating-point numbers or pointers (both left out with a
comment: the IDL's constants are integers)."""

import os

from clang.cindex import CursorKind as CK, TypeKind as TK

from stubgen.importer import front
from stubgen.importer.decls import Constant
from stubgen.importer.read import SCALARS

PROBE = "nccc_probe_"
# include guards (Expat_INCLUDED 1, ZLIB_H): no constants of the API
_GUARDS = ("_INCLUDED", "_H", "_H_")


def constants(reader, cflags):
    """Adds the header's macro constants and the notes on function-like
    macros to reader.header."""
    h = reader.header
    taken = {v for e in h.enums for v, _ in e.values}
    taken |= {f.name for f in h.functions} | set(h.typedefs)
    macros = []
    for c in reader.tu.cursor.get_children():
        if c.kind != CK.MACRO_DEFINITION or not reader.own(c) or \
                c.spelling.startswith("_") or c.spelling in taken or \
                c.spelling.endswith(_GUARDS):
            continue
        toks = list(c.get_tokens())
        if len(toks) < 2:
            continue
        if _function_like(toks):
            if c.spelling.startswith(reader.prefix):
                h.notes.append((reader.order(c), "left out: %s(...) is a "
                                "function-like macro; bind it with a "
                                "prototype marked [macro]" % c.spelling))
            continue
        taken.add(c.spelling)
        macros.append(c)
    if not macros:
        return
    lines = ['#include "%s"' % os.path.abspath(h.path)]
    first = len(lines) + 1
    for k, c in enumerate(macros):
        lines.append("static const __typeof__((%s)) %s%d = %s;"
                     % (c.spelling, PROBE, k, c.spelling))
    name = os.path.join(os.path.dirname(os.path.abspath(h.path)),
                        "nccc_probe.c")
    tu, errors = front.parse(h.path, cflags,
                             (name, "\n".join(lines) + "\n"), True)
    failed = {line - first for f, line in errors if f == name}
    for v in tu.cursor.get_children():
        if v.kind != CK.VAR_DECL or not v.spelling.startswith(PROBE):
            continue
        k = int(v.spelling[len(PROBE):])
        if k in failed:
            continue
        _add(h, reader, macros[k], v.type.get_canonical())


def _add(h, reader, c, t):
    order, where = reader.order(c), reader.where(c)
    kind = t.kind
    if kind == TK.ENUM:
        kind = t.get_declaration().enum_type.get_canonical().kind
    if kind in SCALARS and kind not in (TK.FLOAT, TK.DOUBLE):
        h.constants.append(Constant(c.spelling, order, where,
                                    SCALARS[kind]))
        return
    if kind == TK.CONSTANTARRAY and t.element_type.kind in (TK.CHAR_S,
                                                            TK.CHAR_U):
        what = "a string"
    elif kind in (TK.FLOAT, TK.DOUBLE):
        what = "a floating-point number"
    elif kind == TK.POINTER:
        what = "a pointer"
    else:
        return
    k = Constant(c.spelling, order, where, None)
    k.left_out = "%s constant; the IDL's constants are integers" % what
    h.constants.append(k)


def _function_like(toks):
    """NAME( with no space between: a function-like macro."""
    a, b = toks[0].extent.end, toks[1].extent.start
    return toks[1].spelling == "(" and a.line == b.line and \
        a.column == b.column
