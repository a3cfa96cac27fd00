"""A bound nccc runtime (docs/PYTHON.md, "Loading", "Registry, layouts,
constants, memory"): nccc.open / nccc.bind, the built-ins called with raw
slots, C memory, and what the registry holds — modules, functions,
record layouts, constants — read once and cached on the library."""

import math

from nccc import abi
from nccc.errors import (ArgumentError, ArgumentValueError, Error,
                         UnknownError, callback_error, describe_type)
from nccc.primitive import core
from nccc.signature import RECORD
from nccc import values

B = abi.BUILTIN
H = abi.HANDLE
ST = abi.STATUS


class Layout:
    """A record layout: name, module, size, align, kind, slots, fields
    (Field list) and field (by name)."""

    def __init__(self, name, module, size, align, kind):
        self.name, self.module = name, module
        self.size, self.align, self.kind = size, align, kind
        self.slots = (size + 7) // 8
        self.fields, self.field = [], {}

    def __repr__(self):
        return "<layout %s.%s: %s, %d bytes>" % (self.module, self.name,
                                                 self.kind, self.size)


class Field:
    """A field of a layout: name, type (a signature code or {name}),
    offset, size, count, and the layout of a nested record."""

    def __init__(self, name, type_code, offset, size, count):
        self.name, self.type = name, type_code
        self.offset, self.size, self.count = offset, size, count
        self.layout = None

    def __repr__(self):
        return "<field %s %s at %d>" % (self.name, self.type, self.offset)


class Library:
    """A bound runtime: made by nccc.open(path) or nccc.bind(address)."""

    def __init__(self, root, handle=None, path=None):
        self.handle, self.path, self.root = handle, path, root
        self.builtins = []
        self._functions, self._modules, self._types = {}, {}, {}
        self._consts, self._sig_cstrings = {}, {}
        self._dispatch = None
        self._packed_envs = {}
        for b in abi.BUILTINS:
            outs, st = self._raw(root, [b.index], 4)
            name = self._cstring(outs[2]) if st == 0 else ""
            if st != 0 or name != b.name:
                raise Error("nccc: the root at 0x%x has no built-in %d '%s'"
                            % (root, b.index, b.name), status=st)
            self.builtins.append(outs[1])
        self.version = self._cstring(self.builtin("version", 3)[2])

    def __repr__(self):
        return "<nccc library %s (runtime %s)>" % (
            self.path or "0x%x" % self.root, self.version)

    # ---- built-ins with raw slots ---------------------------------------

    def _raw(self, fn, ins, nout):
        outs, errors = core.call(fn, ins, nout)
        if errors:
            raise callback_error(errors)
        return outs, outs[0] if outs else 0

    def builtin(self, name, nout, *ins):
        """Calls built-in name with raw slots: its nout out slots (the
        status first)."""
        return self._raw(self.builtins[B[name]], list(ins), nout)[0]

    def check(self, name, nout, *ins):
        """The same, raising the runtime's last error on a failure."""
        outs = self.builtin(name, nout, *ins)
        if outs[0] != 0:
            st, msg = self.last_error()
            raise Error("nccc: %s failed: %s (status 0x%x)" % (name, msg,
                                                               outs[0]),
                        status=outs[0], function="nccc." + name)
        return outs

    def last_error(self):
        """The runtime's last error on this thread: (status, message)."""
        outs = self.builtin("last_error", 3)
        return outs[1], self._cstring(outs[2]) if outs[2] else ""

    def _cstring(self, p):
        return core.string(p).decode("utf-8", "surrogateescape")

    # ---- memory ----------------------------------------------------------

    def alloc(self, n):
        return self.check("alloc", 2, n)[1]

    def free(self, p):
        self.builtin("free", 1, values.encode_pointer("p", p))

    def read(self, p, n):
        """n bytes at address p."""
        return core.read(values.encode_pointer("p", p), n)

    def write(self, p, data):
        """Writes bytes at address p (through the built-in write)."""
        data = bytes(data)
        padded = data + bytes(-len(data) % 8)
        slots = [int.from_bytes(padded[k:k + 8], values.ORDER)
                 for k in range(0, len(padded), 8)]
        self.check("write", 1, values.encode_pointer("p", p), len(data),
                   *slots)

    def string(self, p, n=None):
        """The C string at p (n bytes when given), as str; None for NULL."""
        if p is None or p is values.NULL or p == 0:
            return None
        raw = core.read(p, n) if n is not None else core.string(p)
        return raw.decode("utf-8", "surrogateescape")

    def peek(self, p, code):
        outs = self.check("peek", 2, values.encode_pointer("p", p), ord(code))
        return values.decode(code, outs[1])

    def poke(self, p, code, v):
        self.check("poke", 1, values.encode_pointer("p", p), ord(code),
                   values.encode(code, v))

    def cstring(self, text):
        """A C copy of str text (free it with lib.free)."""
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        if b"\0" in data:
            raise ArgumentValueError("string contains a NUL byte")
        p = self.alloc(len(data) + 1)
        self.write(p, data + b"\0")
        return p

    def symbol(self, name):
        """The address of an exported symbol of the library."""
        if self.handle is None:
            raise Error("nccc: a library bound by address has no symbols")
        try:
            return core.sym(self.handle, name)
        except LookupError:
            raise UnknownError("unknown symbol '%s'" % name) from None

    # ---- modules ---------------------------------------------------------

    def _with_cstring(self, text, name, nout, *more):
        p = self.cstring(text)
        try:
            return self.builtin(name, nout, p, *more)
        finally:
            self.free(p)

    def modules(self):
        """[{index, name, functions, types, constants, global}]: every
        present module, the global registry last (named "")."""
        count = self.check("module_count", 2)[1]
        found = []
        for mi in range(count):
            outs = self.builtin("module_info", 5, mi)
            if outs[0] == 0:
                found.append({"index": mi, "name": self._cstring(outs[1]),
                              "functions": outs[2], "types": outs[3],
                              "constants": outs[4],
                              "global": mi == count - 1})
        return found

    def _module(self, m, what):
        """(index, name, functions, types, constants) of a module."""
        mi = m
        if isinstance(m, str):
            mi = self._modules.get(m)
            if mi is None:
                outs = self._with_cstring(m, "module_find", 2)
                mi = outs[1] if outs[0] == 0 else None
                if mi is None and m == "":
                    mi = self.modules()[-1]["index"]
                if mi is not None:
                    self._modules[m] = mi
        outs = self.builtin("module_info", 5, mi) \
            if isinstance(mi, int) else [1]
        if outs[0] != 0:
            raise UnknownError("unknown module '%s' in %s" % (m, what),
                               status=ST["ERR_NAME_NOT_FOUND"])
        return mi, self._cstring(outs[1]), outs[2], outs[3], outs[4]

    def functions(self, m):
        """[{name, signature, handle}] of a module (name or index)."""
        mi, mname, nfn, _, _ = self._module(m, "functions")
        found = []
        for k in range(nfn):
            h = H["module_marker"] | (mi << H["module_shift"]) | \
                H["function_marker"] | k
            outs = self.check("function", 6, h)
            name = self._cstring(outs[2])
            found.append({"name": mname + "." + name if mname else name,
                          "signature": self._cstring(outs[3]), "handle": h})
        return found

    # ---- layouts and constants ------------------------------------------

    def _layouts(self, mi):
        if mi in self._types:
            return self._types[mi]
        _, mname, _, ntypes, _ = self._module(mi, "layout")
        types = {}
        for t in range(ntypes):
            o = self.check("module_type", 6, mi, t)
            layout = Layout(self._cstring(o[1]), mname, o[2], o[3],
                            abi.TYPE_KINDS.get(o[4], "unknown"))
            for k in range(o[5]):
                f = self.check("module_field", 6, mi, t, k)
                fd = Field(self._cstring(f[1]), self._cstring(f[2]), f[3],
                           f[4], f[5])
                layout.fields.append(fd)
                layout.field[fd.name] = fd
            types[layout.name] = layout
        for layout in types.values():
            for fd in layout.fields:
                if fd.type.startswith(RECORD):
                    sub = fd.type[1:].split(abi.GRAMMAR["record_count"])[0]
                    sub = sub.rstrip(abi.GRAMMAR["record_close"])
                    fd.layout = types.get(sub)
                    if fd.layout is None:
                        raise Error("nccc: layout %s.%s: unknown type %s"
                                    % (mname, layout.name, sub))
        self._types[mi] = types
        return types

    def find_layout(self, name, mi=None):
        """A layout by type name: in module mi, else in any module."""
        if mi is not None and name in self._layouts(mi):
            return self._layouts(mi)[name]
        for m in self.modules():
            found = self._layouts(m["index"]).get(name)
            if found is not None:
                return found
        return None

    def layout(self, qualified):
        """The Layout of MODULE.TYPE."""
        m, name = _split(qualified, "type")
        found = self._layouts(self._module(m, "layout")[0]).get(name)
        if found is None:
            raise UnknownError("unknown type '%s'" % qualified,
                               status=ST["ERR_NAME_NOT_FOUND"])
        return found

    def pack(self, qualified, value):
        try:
            return values.pack_record(self.layout(qualified), value)
        except values.Refusal as r:
            raise r.cls("bad argument #2 to 'pack' (%s)" % r.why) from None

    def unpack(self, qualified, data):
        layout = self.layout(qualified)
        if not isinstance(data, (bytes, bytearray)) or \
                len(data) != layout.size:
            raise ArgumentError("bad argument #2 to 'unpack' (%d bytes"
                                       " expected)" % layout.size)
        return values.unpack_record(layout, bytes(data))

    def constants(self, m):
        """{name: value} of a module's constants and enumerators."""
        mi, _, _, _, nconst = self._module(m, "constants")
        if mi not in self._consts:
            consts = {}
            for k in range(nconst):
                o = self.check("module_constant", 4, mi, k)
                consts[self._cstring(o[1])] = values.decode(
                    self._cstring(o[2]), o[3])
            self._consts[mi] = consts
        return self._consts[mi]

    def constant(self, qualified):
        m, name = _split(qualified, "constant")
        consts = self.constants(m)
        if name not in consts:
            raise UnknownError("unknown constant '%s'" % qualified,
                               status=ST["ERR_NAME_NOT_FOUND"])
        return consts[name]

    def lookup(self, name):
        """The handle of a function by name."""
        if not isinstance(name, str):
            raise ArgumentError("function name expected, got %s"
                                       % describe_type(name))
        outs = self._with_cstring(name, "lookup", 2)
        if outs[0] == ST["ERR_NAME_NOT_FOUND"]:
            raise UnknownError("unknown function '%s'" % name,
                               status=outs[0], function=name)
        if outs[0] != 0:
            raise Error("lookup of '%s' failed: %s" % (name,
                                                       self.last_error()[1]),
                        status=outs[0], function=name)
        return outs[1]

    def closure_stats(self):
        """(capacity, in use, stale calls, type mismatches, wrong-thread
        calls): the runtime's closure pool counters."""
        n = abi.BUILTINS[B["closure_stats"]].n_out
        return tuple(self.check("closure_stats", n)[1:])


def _split(qualified, what):
    m, dot, name = str(qualified).rpartition(".")
    if not dot or not name:
        raise UnknownError("bad %s name '%s' (MODULE.NAME expected)"
                           % (what, qualified))
    return m, name


def slots_for(rule, n):
    """The slots a '*' side needs for count n by a built-in's rule."""
    return math.ceil(n * rule.mul / rule.div)
