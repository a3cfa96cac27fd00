"""Owned results of generated modules (docs/PYTHON.md, "Ownership"):
pointers freed once by their IDL function, through close(), a with-block,
or weakref.finalize when the object is collected; and owned strings, read
and freed at once."""

import weakref

from nccc import values
from nccc.errors import ArgumentValueError


class Owned(values.Ending):
    """A pointer an IDL function frees: close() frees it now (True; False
    once closed); the collector frees it once if it was never closed."""
    __slots__ = ("_addr", "type", "_finalizer", "_kept", "__weakref__")
    _ENDS = "close"

    def __init__(self, addr, free, type_name=None):
        self._addr, self.type, self._kept = addr, type_name, {}
        self._finalizer = weakref.finalize(self, free, addr)
        self._finalizer.atexit = False

    @property
    def closed(self):
        return not self._finalizer.alive

    def close(self):
        if not self._finalizer.alive:
            return False
        self._finalizer()
        self._kept.clear()
        return True

    def address(self):
        """The pointer, or None once closed."""
        return None if self.closed else self._addr

    def __repr__(self):
        return "<%s %s0x%x>" % (self.type or "owned",
                                "(closed) " if self.closed else "",
                                self._addr)

    def _nccc_keep(self, slot, value):
        """Holds value (what C keeps of a call's argument, [kept]) as long
        as this object lives or until it is closed; slot names the kept
        argument, so a later call replaces what an earlier one kept."""
        self._kept[slot] = value

    def _nccc_address(self):
        if self.closed:
            raise values.Refusal(ArgumentValueError, "%s object was closed"
                                 % (self.type or "owned"))
        return self._addr


def owner(free, type_name=None):
    """A conversion of a raw pointer result into an Owned object freed by
    free(address); NULL is None."""
    def own(p):
        return Owned(p, free, type_name) if p else None
    return own


def owned_string(lib, free):
    """A conversion of a raw pointer result into a str, the memory freed
    by free(address) at once; NULL is None."""
    def take(p):
        if not p:
            return None
        try:
            return lib.string(p)
        finally:
            free(p)
    return take
