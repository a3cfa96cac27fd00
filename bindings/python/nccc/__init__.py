"""nccc for Python (docs/PYTHON.md): call nccc functions, and let C call
Python back, through one primitive: the C extension nccc._core, or its
ctypes twin (nccc.primitive picks one; NCCC_PRIMITIVE forces it).

    import nccc
    lib = nccc.open("libthing.so")
    lib.call("tour.add", 40, 2)          # 42
    tour = tour_module.bind(lib)         # a generated module
"""

from nccc import abi
from nccc.callbacks import Closure
from nccc.errors import (ArgumentError, ArgumentRangeError,
                         ArgumentValueError, CallbackError, Error,
                         PackedError, RemoteError, UnknownError)
from nccc.cdata import CData
from nccc.owned import Owned
from nccc import calls, callbacks, library, packed
from nccc.packed import PackedFunc, global_func, packed_signature
from nccc.primitive import core as primitive
from nccc.values import NULL, Record


class Library(packed.Packed, callbacks.Callbacks, calls.Calls,
              library.Library):
    """A bound library (what nccc.open returns): loading, built-ins and
    memory (nccc/library.py), then each part's methods: calls, callbacks,
    packed functions."""


PRIMITIVE = primitive.KIND
# nccc/packed.h: NCCC_PACKED_OVERRIDE, replace a global of the same name
PACKED_OVERRIDE = abi.PACKED_OVERRIDE

_default = []


def open(path, root="nccc_root"):  # noqa: A001 - nccc.open, as in Lua
    """Loads a library for good and binds its root; the library becomes
    the default of register_func and get_global_func."""
    handle = primitive.open(str(path))
    try:
        address = primitive.sym(handle, root)
    except LookupError:
        raise UnknownError("%s has no symbol '%s'" % (path, root)) from None
    lib = Library(address, handle, str(path))
    _default[:] = [lib]
    return lib


def bind(address):
    """Binds a root found otherwise (its address)."""
    lib = Library(address)
    _default[:] = [lib]
    return lib


def default_library():
    """The library nccc.open or nccc.bind made last."""
    if not _default:
        raise Error("no nccc library is open (nccc.open(path) first)")
    return _default[0]


def register_func(func_name, f=None, override=False, signature=None,
                  lib=None):
    """Registers a Python function as the global packed function
    func_name (TVM's tvm.register_func): as a decorator,
    @nccc.register_func("name") or @nccc.register_func; or called with f.
    The packed signature comes from signature= or from f's annotations
    (int, float, str, bool); C checks every caller's TVM type codes
    against it. Returns f."""
    if callable(func_name):
        f, func_name = func_name, func_name.__name__
    if not isinstance(func_name, str):
        raise ArgumentError("register_func: a name expected, got %r"
                            % (func_name,))

    def register(fn):
        psig = signature if signature is not None else packed_signature(fn)
        (lib or default_library()).register_packed(
            func_name, psig, fn, PACKED_OVERRIDE if override else 0)
        return fn
    return register(f) if f is not None else register


def release_gil(on=True):
    """Makes every call release the GIL while C runs (on=True), as calls
    do anyway while a closure claimed with any_thread=True or a packed
    function registered from Python lives: what a call needs when C may
    call back from a thread it starts without such a closure. False
    undoes it."""
    if on != _releasing[0]:
        primitive.release_gil(1 if on else -1)
        _releasing[0] = bool(on)


_releasing = [False]


def get_global_func(name, allow_missing=False, lib=None):
    """The global packed function name, callable (TVM's
    tvm.get_global_func); None when missing and allow_missing."""
    return global_func(lib or default_library(), name, allow_missing)


__all__ = ["open", "bind", "default_library", "register_func",
           "get_global_func", "release_gil", "Library", "Closure", "Owned",
           "CData", "Record",
           "PackedFunc", "NULL", "Error", "ArgumentError",
           "ArgumentRangeError", "ArgumentValueError", "UnknownError",
           "CallbackError", "PackedError", "RemoteError", "PRIMITIVE", "primitive", "abi"]
