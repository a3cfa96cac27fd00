"""Python values to slots and back, by signature code (docs/PYTHON.md,
"Values"), and records (structs and unions) to bytes and back by their
registry layouts. This is the slow path: the primitive converts the
common values itself and hands the rest here, which converts them or
says why not."""

import ctypes
import operator
import struct
import sys

from nccc import abi
from nccc.errors import ArgumentError, ArgumentRangeError, describe_type
from nccc.signature import RECORD, TYPE_NAME

TOP = 1 << 64
ORDER = sys.byteorder
FLT_MAX = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]


class Null:
    """nccc.NULL: an explicit NULL where None is refused (strings)."""
    __slots__ = ()

    def __repr__(self):
        return "nccc.NULL"

    def __bool__(self):
        return False


NULL = Null()
_EXPECTED = {"bool": "bool", "float": "float", "pointer": "pointer",
             "function": "pointer", "string": "str", "closure": "closure",
             "int": "integer", "errno": "integer"}


class Refusal(Exception):
    """Why a value was refused: the exception class and the text inside
    "bad argument #k to 'f' (...)"."""

    def __init__(self, cls, why):
        super().__init__(why)
        self.cls, self.why = cls, why


def expected(code):
    if code == RECORD:
        return "record, mapping or bytes"
    return _EXPECTED[abi.CODES[code].kind]


def type_refusal(code, v):
    return Refusal(ArgumentError, "%s expected, got %s"
                   % (expected(code), describe_type(v)))


def null_refusal(code):
    return Refusal(ArgumentError, "NULL not allowed (non-NULL %s expected)"
                   % expected(code))


def encode_int(code, v):
    info = abi.CODES[code]
    if isinstance(v, bool) or isinstance(v, float):
        if isinstance(v, float) and v == v and v not in (
                float("inf"), float("-inf")) and v != int(v):
            raise Refusal(ArgumentError,
                          "number %r has no integer representation" % v)
        raise type_refusal(code, v)
    try:
        n = operator.index(v)
    except TypeError:
        raise type_refusal(code, v) from None
    if not info.min <= n <= info.max:
        raise Refusal(ArgumentRangeError, "value %d out of range for %s"
                      % (n, info.name))
    return n % TOP


def encode_float(code, v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise type_refusal(code, v)
    try:
        d = float(v)
    except OverflowError:
        raise Refusal(ArgumentRangeError, "value %d out of range for %s"
                      % (v, TYPE_NAME[code])) from None
    if abi.CODES[code].bytes == 4 and d == d and abs(d) != float("inf") \
            and abs(d) > FLT_MAX:
        raise Refusal(ArgumentRangeError, "value %r out of range for %s"
                      % (d, TYPE_NAME[code]))
    return struct.unpack("=Q", struct.pack("=d", d))[0]


def buffer_address(v):
    """The address of a buffer's memory (bytes, or a writable buffer)."""
    if isinstance(v, bytes):
        return ctypes.cast(ctypes.c_char_p(v), ctypes.c_void_p).value or 0
    view = memoryview(v)
    if view.readonly or not view.contiguous:
        raise TypeError("read-only or non-contiguous buffer")
    holder = (ctypes.c_char * view.nbytes).from_buffer(view)
    return ctypes.addressof(holder)


def memory_view(p, n):
    """A writable memoryview (format "B") of the n bytes of C memory at
    address p; valid only while C keeps that memory."""
    return memoryview((ctypes.c_ubyte * n).from_address(p)).cast("B")


def encode_pointer(code, v):
    """A pointer's slot: None/NULL, an int address, an owned object, a
    closure (its context), a buffer (its memory, for the call)."""
    if v is None or v is NULL:
        return 0
    address = getattr(v, "_nccc_address", None)
    if address is not None:
        return address()
    if isinstance(v, int) and not isinstance(v, bool):
        if not 0 <= v < TOP:
            raise Refusal(ArgumentRangeError, "address %d out of range" % v)
        return v
    try:
        return buffer_address(v)
    except TypeError:
        raise type_refusal(code, v) from None


def encode_raw(v):
    """A raw slot ('*' sides): any 64-bit integer, or a pointer value."""
    if isinstance(v, int) and not isinstance(v, bool):
        if not -(1 << 63) <= v < TOP:
            raise Refusal(ArgumentRangeError, "value %d out of range for a "
                          "slot" % v)
        return v % TOP
    return encode_pointer("p", v)


def encode(code, v):
    """The slot of value v for a code (no strings, records, closures)."""
    kind = abi.CODES[code].kind
    if kind == "bool":
        if not isinstance(v, bool):
            raise type_refusal(code, v)
        return int(v)
    if kind in ("int", "errno"):
        return encode_int(code, v)
    if kind == "float":
        return encode_float(code, v)
    return encode_pointer(code, v)


def decode(code, s):
    """The Python value of slot s of a code."""
    info = abi.CODES[code]
    if info.kind == "bool":
        return s != 0
    if info.kind in ("int", "errno"):
        return s - TOP if info.signed and s >> 63 else s
    if info.kind == "float":
        return struct.unpack("=d", struct.pack("=Q", s))[0]
    return s or None


class Ending:
    """A with-block of an object that ends (a closure, an owned object, a
    C object): it ends the object when the block is left, by the method
    its class names in _ENDS (release, close or free)."""
    __slots__ = ()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        getattr(self, type(self)._ENDS)()
        return False


# ---- records ---------------------------------------------------------------

class Record:
    """A struct or union value: its fields by name, as attributes and
    items. Generated modules subclass it per layout with __slots__; a
    record of a layout without a class is a plain Record."""
    __slots__ = ("__dict__",)
    _layout_name = None

    def __init__(self, **fields):
        for k, v in fields.items():
            setattr(self, k, v)

    def _fields(self):
        names = getattr(type(self), "__slots__", ())
        if names and names != ("__dict__",):
            return [(n, getattr(self, n, None)) for n in names]
        return list(self.__dict__.items())

    def __getitem__(self, name):
        try:
            return getattr(self, name)
        except AttributeError:
            raise KeyError(name) from None

    def keys(self):
        return [n for n, _ in self._fields()]

    def __iter__(self):
        return iter(self.keys())

    def __eq__(self, other):
        if isinstance(other, Record):
            other = dict(other._fields())
        return isinstance(other, dict) and dict(self._fields()) == other

    __hash__ = None

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % kv for kv in self._fields()))


def _scalar_bytes(code, size, v):
    if code == "s":
        code = "p"
    info = abi.CODES[code]
    if info.kind == "float":
        encode_float(code, v)
        return struct.pack("=f" if size == 4 else "=d", v)
    s = encode(code, v)
    if info.kind in ("int", "errno") and info.signed and s >> 63:
        s -= TOP
    return s.to_bytes(size, ORDER, signed=s < 0)


def _pack_one(code, size, v, sub):
    if sub is not None:
        if isinstance(v, (bytes, bytearray)):
            if len(v) != size:
                raise Refusal(ArgumentError, "%d bytes expected, got %d"
                              % (size, len(v)))
            return bytes(v)
        return pack_record(sub, v)
    return _scalar_bytes(code, size, v)


def _items_of(layout, v):
    if isinstance(v, Record):
        return [(k, x) for k, x in v._fields() if x is not None]
    if isinstance(v, dict):
        return list(v.items())
    raise type_refusal(RECORD, v)


def pack_record(layout, v):
    """The bytes of a record value (a Record, a mapping of fields, or
    bytes of exactly its size); missing fields are 0."""
    if isinstance(v, (bytes, bytearray)):
        if len(v) != layout.size:
            raise Refusal(ArgumentError, "%d bytes expected, got %d"
                          % (layout.size, len(v)))
        return bytes(v)
    items = _items_of(layout, v)
    out = bytearray(layout.size)
    for key, value in items:
        fd = layout.field.get(key)
        if fd is None:
            raise Refusal(ArgumentError, "%s %s has no field '%s'"
                          % (layout.kind, layout.name, key))
        try:
            piece = _pack_field(fd, value)
        except Refusal as r:
            raise Refusal(r.cls, "field '%s': %s" % (key, r.why)) from None
        out[fd.offset:fd.offset + len(piece)] = piece
    return bytes(out)


def _pack_field(fd, value):
    if fd.count <= 1:
        return _pack_one(fd.type, fd.size, value, fd.layout)
    esize = fd.size // fd.count
    if isinstance(value, str):
        value = value.encode("utf-8")
    if isinstance(value, (bytes, bytearray)) and fd.type in "bB" and \
            len(value) <= fd.count:
        return bytes(value)
    if not isinstance(value, (list, tuple)) or len(value) > fd.count:
        raise Refusal(ArgumentError, "a sequence of at most %d elements "
                      "expected" % fd.count)
    return b"".join(_pack_one(fd.type, esize, x, fd.layout) for x in value)


def _unpack_one(code, size, data, sub, classes):
    if sub is not None:
        return unpack_record(sub, data, classes)
    if code == "s":
        code = "p"
    info = abi.CODES[code]
    if info.kind == "float":
        return struct.unpack("=f" if size == 4 else "=d", data)[0]
    n = int.from_bytes(data, ORDER, signed=info.kind in ("int", "errno")
                       and info.signed)
    if info.kind == "bool":
        return n != 0
    if info.kind in ("pointer", "function"):
        return n or None
    return n


def unpack_record(layout, data, classes=None):
    """The record value of bytes: an instance of the class generated for
    the layout (classes: {layout name: class}), or a plain Record."""
    cls = (classes or {}).get(layout.name, Record)
    rec = cls.__new__(cls)
    for fd in layout.fields:
        chunk = data[fd.offset:fd.offset + fd.size]
        if fd.count > 1:
            esize = fd.size // fd.count
            value = [_unpack_one(fd.type, esize, chunk[k * esize:(k + 1)
                                                       * esize],
                                 fd.layout, classes)
                     for k in range(fd.count)]
        else:
            value = _unpack_one(fd.type, fd.size, chunk, fd.layout, classes)
        setattr(rec, fd.name, value)
    return rec
