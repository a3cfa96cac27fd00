"""Packed functions over the module "tvm" (docs/PACKED.md, "Dynamic
calls"; docs/PYTHON.md, "Global functions"): calling a global packed
function with Python values, registering a Python callable as one, and
TVM's own spelling of both, nccc.register_func and nccc.get_global_func."""

import inspect
import struct

from nccc import abi, signature, values
from nccc.errors import (ArgumentError, ArgumentRangeError, PackedError,
                         UnknownError, describe_type)
from nccc.primitive import core

# TVM's type codes of packed values (the ABI's table)
K_INT, K_FLOAT, K_HANDLE, K_NULL, K_STR = (
    abi.PACKED_TYPE_CODES[n] for n in ("int", "float", "handle", "null", "str"))
# a packed signature code's slot conversion when C calls a Python one
_SLOT_OF = {"l": "l", "i": "l", "b": "l", "h": "l", "?": "l", "L": "L",
            "I": "L", "B": "L", "H": "L", "d": "d", "f": "d", "s": "s"}
# Python annotations to packed codes, for register_func without signature
_CODE_OF = {int: "l", float: "d", str: "s", bool: "?"}


def _packed_arg(name, k, v):
    """(type code, slot) of argument k; a str stays a str for the call."""
    if v is None or v is values.NULL:
        return K_NULL, 0
    if isinstance(v, str):
        return K_STR, v
    if isinstance(v, bool):
        return K_INT, int(v)
    if isinstance(v, float):
        return K_FLOAT, struct.unpack("=Q", struct.pack("=d", v))[0]
    if isinstance(v, int):
        if not -(1 << 63) <= v < 1 << 64:
            raise ArgumentRangeError(
                "bad argument #%d to packed '%s' (value out of 64 bits)"
                % (k, name))
        return K_INT, v % (1 << 64)
    try:
        return K_HANDLE, values.encode_pointer("p", v)
    except values.Refusal as r:
        raise r.cls("bad argument #%d to packed '%s' (%s)"
                    % (k, name, r.why)) from None


class Packed:
    """The library object's packed functions (a part of nccc.Library,
    composed in nccc/__init__.py): packed and register_packed."""

    def packed(self, name, *args):
        """Calls the global packed function name: int as kDLInt, float as
        kDLFloat, str as kTVMStr, None/NULL as kTVMNullptr, pointers as
        handles. Its result (None for none); a failure raises
        PackedError."""
        slots, temps = [], []
        try:
            for k, v in enumerate(args, 1):
                code, slot = _packed_arg(name, k, v)
                if isinstance(slot, str):
                    temps.append(self.cstring(slot))
                    slot = temps[-1]
                slots += [code, slot]
            st, code, value = self.call("tvm.call_global", name, len(args),
                                        *slots)
        finally:
            for p in temps:
                self.free(p)
        if st != 0:
            raise PackedError("packed call '%s' failed: %s (status 0x%x)" % (
                name, self.last_error()[1], st), status=st, function=name)
        if code == K_INT:
            return value - (1 << 64) if value >> 63 else value
        if code == K_FLOAT:
            return struct.unpack("=d", struct.pack("=Q", value))[0]
        if code == K_NULL:
            return None
        if code == K_STR:
            return self.string(value)
        return value

    def register_packed(self, name, psig, fn, flags=0):
        """fn becomes the global packed function name (tvm.register_env
        with the one dispatcher), its arguments and result converted by
        the packed signature psig. fn stays referenced for the life of
        the process: the registry gives no notice when a name stops being
        used."""
        if not callable(fn):
            raise ArgumentError("bad argument #3 to 'register_packed' "
                                "(callable expected, got %s)"
                                % describe_type(fn))
        ins, sep, out = str(psig).partition(":")
        if not sep or len(out) > 1:
            raise ArgumentError("malformed packed signature '%s'" % (psig,))
        # the slots C gives: strings as pointers, read here
        codes_in = "".join(_SLOT_OF.get(c, "p") for c in ins)
        code_out = "".join(_SLOT_OF.get(c, "p") for c in out)
        strings = [c == "s" for c in codes_in]
        items_in, _, items_out, _ = signature.parse(
            codes_in.replace("s", "p") + ":" + code_out)
        lib = self

        def conv(k, v):
            if k > 0:
                return v
            try:
                return values.encode(code_out, v)
            except values.Refusal as r:
                raise r.cls("packed %s: bad result (%s)" % (name, r.why)) \
                    from None

        def call(*args):
            return fn(*[lib.string(a) if s else a
                        for a, s in zip(args, strings)])
        # C may call a global from any thread: calls release the GIL
        env = core.ref(call, signature.spec(items_in),
                       signature.spec(items_out), None, conv, True)
        try:
            st = self.call("tvm.register_env", name, self._dispatcher(), env,
                           str(psig), flags)
        except BaseException:
            core.unref(env)
            raise
        if st != 0:
            core.unref(env)
            raise PackedError("cannot register packed '%s' (%s): %s (status "
                              "0x%x)" % (name, psig, self.last_error()[1], st),
                              status=st, function=name)
        self._packed_envs[name] = env
        return True


class PackedFunc:
    """A global packed function found by name (nccc.get_global_func):
    calling it calls it by name through the library."""

    def __init__(self, lib, name):
        self.lib, self.name = lib, name

    def __call__(self, *args):
        return self.lib.packed(self.name, *args)

    def __repr__(self):
        return "<nccc packed function %s>" % self.name


def packed_signature(fn):
    """The packed signature of a Python function from its annotations:
    int l, float d, str s, bool ?; no return annotation or None: no
    result."""
    sig = inspect.signature(fn)
    codes = []
    for p in sig.parameters.values():
        code = _CODE_OF.get(p.annotation)
        if code is None:
            raise ArgumentError("register_func: parameter '%s' of %s needs an "
                                "annotation int, float, str or bool (or give "
                                "signature=)" % (p.name, fn.__name__))
        codes.append(code)
    ret = sig.return_annotation
    if ret in (inspect.Signature.empty, None, type(None)):
        return "".join(codes) + ":"
    if ret not in _CODE_OF:
        raise ArgumentError("register_func: the result of %s must be int, "
                            "float, str or bool" % fn.__name__)
    return "".join(codes) + ":" + _CODE_OF[ret]


def global_func(lib, name, allow_missing=False):
    """The PackedFunc of a global packed function, or None (allow_missing)
    when there is none."""
    st, handle = lib.call("tvm.get_global", name)
    if st != 0 or not handle:
        if allow_missing:
            return None
        raise UnknownError("no global packed function '%s'" % name,
                           status=st, function=name)
    return PackedFunc(lib, name)
