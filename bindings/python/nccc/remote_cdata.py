"""C objects on a device (docs/PYTHON.md, "C objects on a device"): the
records of a module bound from a device, in the device's memory, their
fields read and written by name through the device's memory module
(docs/RPC.md, "Calling through a bound module": M_memory's alloc, free,
read and write), at the device's offsets and sizes (the bound module's
layout table is the device's) and in the device's byte order (the
memory module's constant big_endian).

Every field access is one read or write request. An object made by new
owns a block of device memory, freed by free()/close(), or when the
object and every view taken from it are collected; freeing it stops
every view taken from it. A view never frees."""

import operator
import struct

from nccc import abi
from nccc.cdata import _pointer_value, view_arguments
from nccc.errors import ArgumentError, ArgumentValueError, Error
from nccc import values

_STATUS_NAME = {v: k for k, v in abi.STATUS.items()}
_SIGNED = "bhile"
_POINTERS = "psFc"


class Memory:
    """The device's memory as the module M_memory of a bound module M
    gives it (remotes.bind_memory(device, "M_memory"))."""

    def __init__(self, lib, module):
        self.lib, self.name = lib, module + "_memory"
        consts = lib.constants(self.name) if any(
            m["name"] == self.name for m in lib.modules()) else {}
        if "big_endian" not in consts:
            raise Error("nccc: C objects of %s: the device's memory is not "
                        "bound as %s (remotes.bind_memory)"
                        % (module, self.name))
        self.order = "big" if consts["big_endian"] else "little"
        self.pointer_bytes = consts["pointer_bytes"]
        self.float_order = ">" if consts["big_endian"] else "<"

    def _call(self, fn, *args):
        res = self.lib.call(self.name + "." + fn, *args)
        status = res[0] if isinstance(res, tuple) else res
        if status != 0:
            raise Error("nccc: %s.%s failed: %s (status 0x%x)" % (
                self.name, fn, _STATUS_NAME.get(status, "unknown status"),
                status), status=status)
        return res

    def alloc(self, n):
        return self._call("alloc", n)[1]

    def free(self, p):
        self._call("free", p)

    def read(self, p, n):
        buf = bytearray(n)
        if n:
            self._call("read", p, n, buf)
        return bytes(buf)

    def strlen(self, p):
        """The length of the C string at device address p."""
        return self._call("strlen", p)[1]

    def write(self, p, data):
        if data:
            self._call("write", p, len(data), bytes(data))

    def scalar(self, code, size, p):
        """The value of type code and size bytes at device address p."""
        data = self.read(p, size)
        if code in "fd":
            return struct.unpack(self.float_order + code, data)[0]
        n = int.from_bytes(data, self.order, signed=code in _SIGNED)
        if code == "?":
            return n != 0
        if code in _POINTERS:
            return n or None
        return n

    def put_scalar(self, code, size, p, v, what):
        if code in "fd":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError("%s: must be real number, not %s"
                                % (what, type(v).__name__))
            data = struct.pack(self.float_order + code, v)
        elif code in _POINTERS:
            n = _pointer_value(v, what) or 0
            if n >> (8 * size):
                raise OverflowError("%s: address 0x%x out of the device's "
                                    "range" % (what, n))
            data = n.to_bytes(size, self.order)
        else:
            # an int out of the field's range is truncated, as in C
            n = operator.index(v) % (1 << (8 * size))
            data = n.to_bytes(size, self.order)
        self.write(p, data)


class _Block:
    """Device memory that a C object owns (or a view borrows); freed
    when no object or view holds it any more, unless freed before."""

    def __init__(self, mem, address, owned, name, parent=None):
        self.mem, self.address, self.owned, self.name = \
            mem, address, owned, name
        self.parent, self.closed = parent, False

    @property
    def gone(self):
        """Freed, or a view of an object that was."""
        return self.closed or (self.parent is not None and self.parent.gone)

    def check(self):
        if self.gone:
            raise Error("%s object was freed" % self.name)

    def free(self):
        if self.closed:
            return False
        self.closed = True
        if self.owned:
            self.mem.free(self.address)
        return True

    def __del__(self):
        if not self.closed and self.owned:
            self.closed = True
            self.mem.free(self.address)


def _swap(layout, data):
    """The record's bytes with each scalar reversed; of members that
    share bytes (a union's, an anonymous union's in a struct) the first
    largest, as the device's record conversion does."""
    out = bytearray(data)
    end = 0
    for fd in sorted(layout.fields, key=lambda f: (f.offset, -f.size)):
        if fd.offset < end:
            continue
        end = fd.offset + fd.size
        esize = fd.size // fd.count
        for k in range(fd.count):
            at = fd.offset + k * esize
            chunk = out[at:at + esize]
            out[at:at + esize] = _swap(fd.layout, chunk) \
                if fd.layout is not None else chunk[::-1]
    return bytes(out)


class RemoteObject(values.Ending):
    """A record in the device's memory; its fields are attributes."""

    __slots__ = ("_nccc_lay", "_nccc_at", "_nccc_block", "_nccc_objs",
                 "__weakref__")
    _ENDS = "free"

    def __init__(self, objs, lay, at, block):
        object.__setattr__(self, "_nccc_objs", objs)
        object.__setattr__(self, "_nccc_lay", lay)
        object.__setattr__(self, "_nccc_at", at)
        object.__setattr__(self, "_nccc_block", block)

    def _nccc_address(self):
        if self._nccc_block.gone:
            raise values.Refusal(ArgumentValueError, "%s object was freed"
                                 % self._nccc_block.name)
        return self._nccc_at

    def _field(self, name):
        self._nccc_block.check()
        fd = self._nccc_lay.field.get(name)
        if fd is None:
            raise AttributeError("'%s' object has no attribute '%s'"
                                 % (self._nccc_lay.name, name))
        return fd

    def __getattr__(self, name):
        fd = self._field(name)
        return self._nccc_objs.value(self, fd, self._nccc_at + fd.offset)

    def __setattr__(self, name, v):
        fd = self._field(name)
        self._nccc_objs.put(self, fd, self._nccc_at + fd.offset, v)

    @property
    def address(self):
        """The object's device address."""
        return self._nccc_address()

    def free(self):
        """Frees an object made by new on the device (a view only stops
        being usable; so does every view taken from the object): True
        the first time, False after."""
        return self._nccc_block.free()

    close = free

    def __bytes__(self):
        self._nccc_block.check()
        return self._nccc_objs.mem.read(self._nccc_at, self._nccc_lay.size)

    def record(self):
        """A copy of the whole record as a Record value."""
        return self._nccc_objs.unpack(self._nccc_lay, bytes(self))

    def assign(self, value):
        """Copies a whole record in: a Record, a mapping (fields left out
        are zero) or bytes of the layout's size (the device's)."""
        self._nccc_block.check()
        data = self._nccc_objs.pack(self._nccc_lay, value, "assign")
        self._nccc_objs.mem.write(self._nccc_at, data)

    def __repr__(self):
        lay, block = self._nccc_lay, self._nccc_block
        return "<%s %s.%s at device 0x%x>" % (
            "C object" if block.owned else "view of", lay.module, lay.name,
            self._nccc_at)


class RemoteArray:
    """An array field, or count records a view holds: indexes from 0,
    checked (IndexError)."""

    __slots__ = ("_objs", "_owner", "_fd", "_at", "_count", "_esize")

    def __init__(self, objs, owner, fd, at, count):
        self._objs, self._owner, self._fd, self._at = objs, owner, fd, at
        self._count, self._esize = count, fd.size // fd.count

    def _element(self, k):
        self._owner._nccc_block.check()
        if not isinstance(k, int) or not 0 <= k < self._count:
            raise IndexError("invalid index")
        return self._at + k * self._esize

    def __len__(self):
        return self._count

    def __getitem__(self, k):
        return self._objs.element(self._owner, self._fd, self._element(k))

    def __setitem__(self, k, v):
        self._objs.put_element(self._owner, self._fd, self._element(k), v)


class _Many:
    """A view's field-like description of count records of a layout."""

    def __init__(self, lay, count):
        self.name, self.layout, self.type = lay.name, lay, "{"
        self.count, self.size, self.offset = count, lay.size * count, 0


class RemoteObjects:
    """new and view of a module bound from a device."""

    def __init__(self, lib, module, layout_records, record_classes):
        self.lib, self.module = lib, module
        self.kinds = {r["name"]: r for r in layout_records
                      if r["kind"] in ("struct", "union")}
        self.record_classes = record_classes
        self._mem = None

    def memory(self):
        """The device's memory (an error when it is not bound)."""
        if self._mem is None:
            self._mem = Memory(self.lib, self.module)
        return self._mem

    mem = property(memory)

    def _layout(self, name, fn):
        self.memory()   # first: without the device's memory nothing works
        if not isinstance(name, str) or name not in self.kinds:
            raise ArgumentError("bad argument #1 to '%s' (a struct or union "
                                "of %s expected, got %r)"
                                % (fn, self.module, name))
        return self.lib.layout(self.module + "." + name)

    # ---- values of fields -------------------------------------------------

    def value(self, owner, fd, at):
        if fd.count > 1:
            return RemoteArray(self, owner, fd, at, fd.count)
        v = self.element(owner, fd, at)
        text = self._text(owner._nccc_lay, fd.name)
        if text is None or v is None:
            return v
        count = text["count"]
        n = getattr(owner, count["field"]) if "field" in count \
            else count["fixed"]
        data = self.mem.read(v, n)
        return data.decode("utf-8", "replace") if text["kind"] == "string" \
            else data

    def _text(self, lay, name):
        rec = self.kinds.get(lay.name, {})
        return next((t for t in rec.get("texts", ()) if t["field"] == name),
                    None)

    def element(self, owner, fd, at):
        if fd.layout is not None:
            return RemoteObject(self, fd.layout, at, owner._nccc_block)
        return self.mem.scalar(fd.type, fd.size // fd.count, at)

    def put(self, owner, fd, at, v):
        if fd.count > 1:
            raise TypeError("field '%s' of %s.%s is an array: write its "
                            "elements" % (fd.name, self.module,
                                          owner._nccc_lay.name))
        self.put_element(owner, fd, at, v)

    def put_element(self, owner, fd, at, v):
        what = "field '%s' of %s.%s" % (fd.name, self.module,
                                         owner._nccc_lay.name)
        if fd.layout is not None:
            self.mem.write(at, self.pack(fd.layout, v, what))
        else:
            self.mem.put_scalar(fd.type, fd.size // fd.count, at, v, what)

    # ---- whole records ----------------------------------------------------

    def pack(self, lay, value, what):
        if isinstance(value, (bytes, bytearray)):
            if len(value) != lay.size:
                raise ArgumentError("bad argument #1 to '%s' (%d bytes "
                                    "expected, got %d)"
                                    % (what, lay.size, len(value)))
            return bytes(value)
        try:
            data = values.pack_record(lay, value)
        except values.Refusal as r:
            raise r.cls("bad argument #1 to '%s' (%s)" % (what, r.why)) \
                from None
        return data if self.mem.order == values.ORDER else _swap(lay, data)

    def unpack(self, lay, data):
        if self.mem.order != values.ORDER:
            data = _swap(lay, data)
        return values.unpack_record(lay, data, self.record_classes)

    # ---- new and view -----------------------------------------------------

    def new(self, name, value=None):
        """A zeroed record of layout name in the device's memory, owned
        by the returned object (value: copied in, as by assign)."""
        lay = self._layout(name, "new")
        address = self.mem.alloc(lay.size)
        block = _Block(self.mem, address, True, name)
        obj = RemoteObject(self, lay, address, block)
        obj.assign(bytes(lay.size) if value is None else value)
        return obj

    def view(self, name, p, count=None):
        """A borrowed view of the record at device address p (an int, or
        another object of this device); with count, count records there,
        indexed from 0."""
        lay = self._layout(name, "view")
        parent = p._nccc_block if isinstance(p, RemoteObject) else None
        p = view_arguments(p, count, RemoteObject,
                           1 << (8 * self.mem.pointer_bytes), "device ")
        obj = RemoteObject(self, lay, p, _Block(self.mem, p, False, name,
                                                parent))
        if count is None:
            return obj
        return RemoteArray(self, obj, _Many(lay, count), p, count)
