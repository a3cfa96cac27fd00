"""Small predicates the checker's rules share."""

from stubgen.ctype import Enum, Record, Scalar


def type_label(t):
    """A type as messages quote it."""
    r = t.resolved()
    if isinstance(r, Record):
        return "'%s'" % (r.decl.c_name or r.decl.name)
    return "'%s'" % t.spell()


def is_byte(t):
    """char, signed char, unsigned char or an 8-bit integer typedef: what
    [string] and [bytes] may point to."""
    r = t.resolved()
    return isinstance(r, Scalar) and r.is_integer and r.kind != "bool" \
        and r.width == 8


def is_integer(t):
    r = t.resolved()
    return isinstance(r, Enum) or (isinstance(r, Scalar) and r.is_integer)
