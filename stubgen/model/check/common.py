"""Small predicates the checker's rules share."""

from stubgen.ctype import Enum, Record, Scalar


def type_label(t):
    """A type as messages quote it."""
    r = t.resolved()
    if isinstance(r, Record):
        return "'%s'" % r.decl.c_name
    return "'%s'" % t.spell()


def is_integer(t):
    r = t.resolved()
    return isinstance(r, Enum) or (isinstance(r, Scalar) and r.is_integer)
