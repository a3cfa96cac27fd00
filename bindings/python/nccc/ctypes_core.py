"""nccc.ctypes_core: the primitive in pure ctypes, for an interpreter with
no compiler around (docs/PYTHON.md, "The primitive"). It has exactly the
names of the C extension nccc._core and behaves the same: slot specs
(the native cores' item format, docs/ABI.md "Core items"), Function,
the raw call, the one dispatcher, references, memory. The dispatcher is
one ctypes callback, made once when this module loads: the only machine
code made at run time, one callback for every closure.
"""

import ctypes
import re
import struct
import sys
import threading

from nccc import abi

KIND = "ctypes"

_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)
_U64 = ctypes.c_uint64
_TOP = 1 << 64
_KEY = abi.HELPER_KEYS
_FLT_MAX = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]
_frames = threading.local()
_MARKS = (abi.ITEM_NONNULL, abi.ITEM_HELPER)
_RECORD = re.compile(re.escape(abi.GRAMMAR["record_open"]) + r"(\d+)" +
                     re.escape(abi.GRAMMAR["record_close"]))


class _Item:
    __slots__ = ("kind", "nonnull", "bits", "slots", "slot", "lo", "hi")


# How an item converts, as nccc._core's kinds (core.h, enum pcore_kind)
INTS = ("sint", "uint")
FLOATS = ("f32", "f64")
HELPERS = ("word", "bytes")   # the support library's only


def _kind(info, helper):
    """The conversion of a code's item, as nccc._core's (spec.c)."""
    if helper or info.kind == "closure":
        return "word"
    if info.kind == "bool":
        return "bool"
    if info.kind in ("int", "errno"):
        return "sint" if info.signed else "uint"
    if info.kind == "float":
        return "f32" if info.bytes == 4 else "f64"
    return "str" if info.kind == "string" else "ptr"


def _item(body, pos):
    """The item at body[pos] and the position after it, or None."""
    it, helper = _Item(), False
    it.nonnull, it.slots, it.bits = False, 1, 0
    while pos < len(body) and body[pos] in _MARKS:
        mark = body[pos] == abi.ITEM_NONNULL
        if (it.nonnull if mark else helper):
            return None
        it.nonnull, helper = it.nonnull or mark, helper or not mark
        pos += 1
    m = _RECORD.match(body, pos)
    if m:
        size = int(m.group(1))
        if size < 1:
            return None
        it.kind, it.slots = "bytes", -(-size // 8)
        return it, m.end()
    info = abi.CODES.get(body[pos:pos + 1])
    if info is None:
        return None
    it.kind = _kind(info, helper)
    if it.kind in INTS:
        it.bits = info.bits
        it.lo, it.hi = info.min, info.max
    return it, pos + 1


def _parse(spec):
    """[items], var, slots of a spec in the native cores' item format
    (docs/ABI.md, "Core items")."""
    if not isinstance(spec, str):
        raise ValueError("nccc.ctypes_core: malformed slot spec %r" % (spec,))
    var = spec.endswith(abi.GRAMMAR["variadic"])
    body = spec[:-1] if var else spec
    items, pos, slot = [], 0, 0
    while pos < len(body):
        got = _item(body, pos)
        if got is None:
            raise ValueError("nccc.ctypes_core: malformed slot spec %r"
                             % spec)
        it, pos = got
        it.slot = slot
        slot += it.slots
        items.append(it)
    return items, var, slot


def _int(v):
    return type(v) is int or (isinstance(v, int) and not isinstance(v, bool))


def _take(it, v, keep):
    """The slot of v for item it, or None (the support library's)."""
    k = it.kind
    if k == "bool":
        s = 1 if v is True else 0 if v is False else None
    elif k in INTS:
        s = v & (_TOP - 1) if _int(v) and it.lo <= v <= it.hi else None
    elif k == "raw":
        s = v & (_TOP - 1) if _int(v) and -(1 << 63) <= v < _TOP else None
    elif k in FLOATS:
        if isinstance(v, float) or _int(v):
            try:
                d = float(v)
            except OverflowError:
                return None
            if k == "f32" and abs(d) > _FLT_MAX and d != d * 2:
                return None
            s = struct.unpack("<Q", struct.pack("<d", d))[0]
        else:
            s = None
    elif k == "ptr":
        s = 0 if v is None else v if _int(v) and 0 <= v < _TOP else None
    elif k == "str":
        b = v.encode("utf-8", "surrogateescape") if isinstance(v, str) else \
            v if isinstance(v, bytes) else None
        if b is None or b"\0" in b:
            return None
        keep.append(b)
        s = ctypes.cast(ctypes.c_char_p(b), ctypes.c_void_p).value
    else:
        return None
    if s is not None and it.nonnull and s == 0:
        return None
    return s


def _store(v, buf, at, n):
    """What a slow path returned (int, or bytes) into n slots at buf[at]."""
    if _int(v):
        if not -(1 << 63) <= v < _TOP:
            raise OverflowError("nccc.ctypes_core: slot value out of 64 bits")
        buf[at] = v & (_TOP - 1)
    elif isinstance(v, bytes) and len(v) <= 8 * n:
        v = v + bytes(8 * n - len(v))
        for k in range(n):
            buf[at + k] = int.from_bytes(v[8 * k:8 * k + 8], sys.byteorder)
    else:
        raise TypeError("nccc.ctypes_core: a slot value (int or at most %d "
                        "bytes) expected, got %s" % (8 * n, type(v).__name__))


def _give(it, buf, at):
    """The Python value of item it from its slots at buf[at]."""
    s, k = buf[at], it.kind
    if k == "bool":
        return s != 0
    if k in ("sint", "raw"):
        return s - _TOP if s >> 63 else s
    if k in ("uint", "word"):
        return s
    if k in FLOATS:
        return struct.unpack("<d", struct.pack("<Q", s))[0]
    if k == "ptr":
        return s or None
    if k == "str":
        return ctypes.string_at(s).decode("utf-8", "surrogateescape") \
            if s else None
    return b"".join(buf[at + j].to_bytes(8, sys.byteorder)
                    for j in range(it.slots))


def _run(fn, inb, outb):
    """Calls fn (a _FN) as the innermost call of this thread (the GIL
    released by ctypes); the errors its callbacks raised."""
    try:
        stack = _frames.stack
    except AttributeError:
        stack = _frames.stack = []
    errors = []
    stack.append(errors)
    try:
        fn(inb, outb)
    finally:
        stack.pop()
    return errors or None


class Function:
    """Function(addr, ins, outs, name, slow, post[, refused]): as
    nccc._core.Function (function.c)."""

    def __init__(self, addr, ins, outs, name, slow, post, refused=None):
        if not addr:
            raise ValueError("nccc.ctypes_core: NULL function")
        self.addr, self.__name__ = addr, name
        self.fn = _FN(addr)
        self.slow, self.post, self.refused = slow, post, refused
        self.ins, self.var, self.nin = _parse(ins)
        self.outs, var_out, self.nout = _parse(outs)
        if var_out:
            raise ValueError("nccc.ctypes_core: results cannot end in '*'")
        self.nargs = len(self.ins)
        self.in_type = _U64 * (self.nin + 1)
        self.out_type = _U64 * (self.nout + 1)

    def __repr__(self):
        return "<nccc function %s>" % self.__name__

    def _refuse(self, args):
        if self.refused is not None:
            self.refused(args)

    def __call__(self, *args, **kw):
        n = len(args)
        if kw:
            try:
                self.slow(_KEY["keywords"], tuple(kw))
            finally:
                self._refuse(args)
        if n != self.nargs and not (self.var and n > self.nargs):
            try:
                self.slow(_KEY["count"], n)
            finally:
                self._refuse(args)
        extra = n - self.nargs
        inb = (_U64 * (self.nin + extra + 1))() if extra else self.in_type()
        outb = self.out_type()
        keep = []
        try:
            for k, v in enumerate(args):
                if k < self.nargs:
                    it, at = self.ins[k], self.ins[k].slot
                else:
                    it, at = _RAW, self.nin + k - self.nargs
                s = _take(it, v, keep)
                if s is None:
                    _store(self.slow(k + 1, v), inb, at, it.slots)
                else:
                    inb[at] = s
        except BaseException:
            self._refuse(args)
            raise
        errors = _run(self.fn, inb, outb)
        if errors:
            self.slow(_KEY["callback_errors"], errors)
        res = []
        for k, it in enumerate(self.outs):
            v = _give(it, outb, it.slot)
            res.append(self.post(k + 1, v) if it.kind in HELPERS else v)
        if not res:
            return None
        return res[0] if len(res) == 1 else tuple(res)


_RAW = _Item()
_RAW.kind, _RAW.nonnull, _RAW.slots, _RAW.slot = "raw", False, 1, 0
function = Function


def open(path):  # noqa: A001 - the primitive's name
    """The library loaded for good, as an int handle."""
    try:
        return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)._handle
    except OSError as e:
        raise OSError("cannot load %r: %s" % (path, e)) from None


def sym(handle, name):
    p = _dlsym(handle, name.encode())
    if not p:
        raise LookupError("no symbol '%s'" % name)
    return p


_dlsym = ctypes.CDLL(None).dlsym
_dlsym.restype, _dlsym.argtypes = ctypes.c_void_p, [ctypes.c_void_p,
                                                     ctypes.c_char_p]


def read(addr, n):
    if not addr or n < 0:
        raise ValueError("read of NULL or a negative size")
    return ctypes.string_at(addr, n)


def string(addr):
    if not addr:
        raise ValueError("string at NULL")
    return ctypes.string_at(addr)


def call(addr, ins, nout):
    """Raw slots in, (nout raw slots out, callback errors or None)."""
    inb, outb = (_U64 * (len(ins) + 1))(), (_U64 * (nout + 1))()
    for k, v in enumerate(ins):
        _store(v, inb, k, 1)
    errors = _run(_FN(addr), inb, outb)
    return tuple(outb[:nout]), errors


# ---- the dispatcher ------------------------------------------------------

_refs = {}
_next_env = [0]


class _Entry:
    __slots__ = ("fn", "ins", "outs", "nout", "notice", "conv")


def ref(fn, ins, outs, notice, conv, any_thread=False):
    """fn kept for the dispatcher with its specs; its environment word.
    (ctypes releases the GIL in every call: any_thread changes nothing.)"""
    e = _Entry()
    e.fn, e.notice, e.conv = fn, notice, conv
    e.ins, var_in, _ = _parse(ins)
    e.outs, var_out, e.nout = _parse(outs)
    if var_in or var_out:
        raise ValueError("nccc.ctypes_core: a callback's spec cannot end "
                         "in '*'")
    _next_env[0] += 1
    _refs[_next_env[0]] = e
    return _next_env[0]


def unref(env):
    del _refs[env]


_releasing = [0]


def release_gil(delta):
    """The count of reasons to release the GIL, as nccc._core keeps it
    (ctypes releases it in every call anyway)."""
    _releasing[0] += delta
    return _releasing[0]


def refs():
    return len(_refs)


def _keep_error():
    """Keeps the exception for the call under way on this thread: True;
    False when there is none (ctypes then reports it as unraisable)."""
    stack = getattr(_frames, "stack", None)
    if stack:
        stack[-1].append(sys.exc_info()[1])
        return True
    return False


def _put(e, k, v, outb):
    it = e.outs[k]
    s = _take(it, v, None)
    if s is None:
        _store(e.conv(-(k + 1), v), outb, it.slot, it.slots)
    else:
        outb[it.slot] = s


def _dispatch(in_addr, out_addr):
    env = _U64.from_address(in_addr).value
    e = _refs.get(env)
    if e is None:
        return
    if not out_addr:
        del _refs[env]
        try:
            if e.notice is not None:
                e.notice()
        except BaseException:
            if not _keep_error():
                raise
        return
    nin = sum(it.slots for it in e.ins) + 1
    inb = (_U64 * nin).from_address(in_addr)
    outb = (_U64 * max(e.nout, 1)).from_address(out_addr)
    try:
        args = []
        for k, it in enumerate(e.ins):
            v = _give(it, inb, it.slot + 1)
            args.append(e.conv(k + 1, v) if it.kind in HELPERS else v)
        res = e.fn(*args)
        if len(e.outs) == 1:
            _put(e, 0, res, outb)
        elif e.outs:
            seq = list(res) if isinstance(res, (list, tuple)) else None
            if seq is None:
                raise TypeError("a callback with several results returns a "
                                "sequence of them")
            if len(seq) != len(e.outs):
                raise TypeError("bad result (%d values expected, got %d)"
                                % (len(e.outs), len(seq)))
            for k, v in enumerate(seq):
                _put(e, k, v, outb)
    except BaseException:
        for k in range(e.nout):
            outb[k] = 0
        if not _keep_error():
            raise


_DISPATCH = _FN(_dispatch)


def dispatcher():
    return ctypes.cast(_DISPATCH, ctypes.c_void_p).value
