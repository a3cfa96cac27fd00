"""C objects (docs/PYTHON.md, "C objects"): records in C memory with
their fields as attributes, made from a module's layout records
(docs/BINDING.md, "A layout") and the library's layout table (sizes and
offsets from the C compiler).

Each layout becomes a ctypes union of one packed wrapper per field (the
field at its table offset, after padding) whose members are anonymous,
plus one byte array of the layout's size: ctypes then reads and writes
`obj.field` itself, at the field's offset, without Python code in
between. A record field is a view of the nested record, an array field a
ctypes array with its bounds checked; a text field (the record's
`texts`) reads COUNT bytes. A freed object changes its class to one
that refuses every attribute."""

import ctypes

from nccc.errors import ArgumentError, ArgumentValueError, Error
from nccc import values

_SCALARS = {"?": ctypes.c_bool, "b": ctypes.c_int8, "B": ctypes.c_uint8,
            "h": ctypes.c_int16, "H": ctypes.c_uint16, "i": ctypes.c_int32,
            "I": ctypes.c_uint32, "l": ctypes.c_int64, "L": ctypes.c_uint64,
            "f": ctypes.c_float, "d": ctypes.c_double, "e": ctypes.c_int32}
_POINTERS = "psFc"


class CData(values.Ending):
    """What every C object class adds to its ctypes union: the address,
    free/close, a with-block, and whole-record copies."""

    _nccc_layout = None
    _ENDS = "free"
    _nccc_classes = None
    _nccc_owned = False

    def _nccc_address(self):
        return ctypes.addressof(self)

    def _nccc_keep(self, slot, value):
        """Holds value (what C keeps of a call's argument, [kept]) with
        this object, as long as it lives; slot names the kept argument,
        so a later call replaces what an earlier one kept."""
        self.__dict__.setdefault("_nccc_kept", {})[slot] = value

    @property
    def address(self):
        """The object's C address (pass the object itself to a T *)."""
        return ctypes.addressof(self)

    def free(self):
        """Frees an object made by new (its memory goes when no view of
        it is left); a view only stops being usable. Later uses of it
        raise nccc.Error. True the first time, False after."""
        self.__class__ = _freed_class(type(self))
        return True

    close = free

    def record(self):
        """A copy of the whole record as a Record value."""
        lay = self._nccc_layout
        return values.unpack_record(lay, ctypes.string_at(self.address,
                                                          lay.size),
                                    self._nccc_classes)

    def assign(self, value):
        """Copies a whole record in: a Record, a mapping (fields left out
        are zero) or bytes of the layout's size."""
        lay = self._nccc_layout
        if isinstance(value, (bytes, bytearray)):
            if len(value) != lay.size:
                raise ArgumentError("bad argument #1 to 'assign' (%d bytes"
                                    " expected, got %d)"
                                    % (lay.size, len(value)))
            data = bytes(value)
        else:
            try:
                data = values.pack_record(lay, value)
            except values.Refusal as r:
                raise r.cls("bad argument #1 to 'assign' (%s)" % r.why) \
                    from None
        ctypes.memmove(self.address, data, lay.size)

    def __bytes__(self):
        return ctypes.string_at(self.address, self._nccc_layout.size)

    def __repr__(self):
        lay = self._nccc_layout
        return "<%s %s.%s at 0x%x>" % ("C object" if self._nccc_owned
                                      else "view of", lay.module, lay.name,
                                      self.address)


_FREED = {}


def _freed_class(cls):
    """The class a freed object of class cls takes: every attribute but
    its class refused."""
    if cls in _FREED.values():
        return cls
    found = _FREED.get(cls)
    if found is None:
        name = cls._nccc_layout.name

        def refuse(self, attr):
            if attr == "__class__":
                return object.__getattribute__(self, attr)
            if attr == "_nccc_address":
                def gone():
                    raise values.Refusal(ArgumentValueError,
                                         "%s object was freed" % name)
                return gone
            if attr in ("free", "close"):
                return lambda: False
            raise Error("%s object was freed" % name)

        def refuse_set(self, attr, value):
            raise Error("%s object was freed" % name)

        found = type(cls.__name__, (cls,), {
            "__getattribute__": refuse, "__setattr__": refuse_set,
            "__repr__": lambda self: "<freed %s>" % name,
            "__exit__": lambda self, *exc: False})
        _FREED[cls] = found
    return found


def _text_property(raw, text, fields):
    """A text field (docs/BINDING.md, "texts"): COUNT bytes at the
    pointer, as str (kind string) or bytes; None for NULL. Written with
    an address, None or another C object."""
    count = text["count"]

    def get(self):
        p = raw.__get__(self)
        if not p:
            return None
        n = getattr(self, count["field"]) if "field" in count \
            else count["fixed"]
        data = ctypes.string_at(p, n)
        return data.decode("utf-8", "replace") if text["kind"] == "string" \
            else data

    def put(self, v):
        raw.__set__(self, _pointer_value(v, fields))
    return property(get, put)


def _pointer_value(v, what):
    if isinstance(v, (bytes, bytearray, memoryview, str)):
        raise ArgumentError("%s: an address, None or a C object expected, "
                            "got %s (the object's memory would not outlive "
                            "the assignment)" % (what, type(v).__name__))
    try:
        return values.encode_pointer("p", v) or None
    except values.Refusal as r:
        raise r.cls("%s: %s" % (what, r.why)) from None


def _pointer_property(raw, what):
    return property(raw.__get__,
                    lambda self, v: raw.__set__(self, _pointer_value(v, what)))


def _ctype(fd, classes):
    if fd.layout is not None:
        base = classes[fd.layout.name]
    elif fd.type in _POINTERS:
        base = ctypes.c_void_p
    else:
        base = _SCALARS[fd.type]
    return base * fd.count if fd.count > 1 or fd.size != ctypes.sizeof(base) \
        else base


def _make_class(lay, rec, classes, record_classes):
    members, anon = [], []
    for k, fd in enumerate(lay.fields):
        parts = [(fd.name, _ctype(fd, classes))]
        if fd.offset:
            parts.insert(0, ("_nccc_pad", ctypes.c_char * fd.offset))
        wrapper = type("_%s_%s" % (lay.name, fd.name), (ctypes.Structure,),
                       {"_pack_": 1, "_fields_": parts})
        members.append(("_nccc_f%d" % k, wrapper))
        anon.append("_nccc_f%d" % k)
    members.append(("_nccc_bytes", ctypes.c_char * lay.size))
    what = "%s.%s" % (lay.module, lay.name)
    # ctypes.Union first: every field access checks that the object is a
    # ctypes instance by walking the class's MRO, and finds _CData sooner
    cls = type(lay.name, (ctypes.Union, CData), {
        "_anonymous_": anon, "_fields_": members, "_nccc_layout": lay,
        "_nccc_classes": record_classes, "_nccc_owned": False})
    for fd in lay.fields:
        if fd.type in _POINTERS and fd.count == 1:
            setattr(cls, fd.name, _pointer_property(
                cls.__dict__[fd.name], "field '%s' of %s" % (fd.name, what)))
    for text in rec.get("texts", ()):
        setattr(cls, text["field"], _text_property(
            cls.__dict__[text["field"]], text,
            "field '%s' of %s" % (text["field"], what)))
    return cls


def make_classes(lib, module, layout_records, record_classes):
    """{layout name: C object class} of a module's struct and union
    layouts, each made once the layouts it holds have theirs; a record
    holding one that has none (not a struct or union of the module) gets
    none either, and new names it unknown."""
    classes = {}
    pending = [r for r in layout_records if r["kind"] in ("struct", "union")]
    while pending:
        rest = []
        for rec in pending:
            lay = lib.layout(module + "." + rec["name"])
            if all(fd.layout is None or fd.layout.name in classes
                   for fd in lay.fields):
                classes[rec["name"]] = _make_class(lay, rec, classes,
                                                   record_classes)
            else:
                rest.append(rec)
        if len(rest) == len(pending):
            break       # records holding a layout without a class: none
        pending = rest
    return classes


class Objects:
    """new and view of a bound module's C object classes, made on the
    first use."""

    def __init__(self, lib, module, layout_records, record_classes):
        self.lib, self.module = lib, module
        self.layout_records, self.record_classes = layout_records, \
            record_classes
        self.classes = None

    def _class(self, name, fn):
        if self.classes is None:
            self.classes = make_classes(self.lib, self.module,
                                        self.layout_records,
                                        self.record_classes)
        cls = self.classes.get(name) if isinstance(name, str) else None
        if cls is None:
            raise ArgumentError("bad argument #1 to '%s' (a struct or union "
                                "of %s expected, got %r)"
                                % (fn, self.module, name))
        return cls

    def new(self, name, value=None):
        """A zeroed C object of layout name, owned by the returned
        object (value: copied in, as by assign)."""
        cls = self._class(name, "new")
        obj = cls()
        obj._nccc_owned = True
        if value is not None:
            obj.assign(value)
        return obj

    def view(self, name, p, count=None):
        """A borrowed view of the record at address p (a C object of its
        own class, never freeing); with count, a bounds-checked array of
        count records there."""
        cls = self._class(name, "view")
        p = view_arguments(p, count, CData, values.TOP, "")
        if count is None:
            return cls.from_address(p)
        return (cls * count).from_address(p)


def view_arguments(p, count, objects, top, where):
    """The address of view(name, p, count), checked with its count: p an
    address below top, or an object of class objects (its address);
    count None or a count. where: words before 'address' in errors."""
    if isinstance(p, objects):
        try:
            p = p._nccc_address()
        except values.Refusal as r:
            raise r.cls("bad argument #2 to 'view' (%s)" % r.why) from None
    if not isinstance(p, int) or isinstance(p, bool) or not 0 < p < top:
        raise ArgumentError("bad argument #2 to 'view' (non-NULL %saddress "
                            "expected, got %r)" % (where, p))
    if count is not None and (not isinstance(count, int) or
                              isinstance(count, bool) or count < 0):
        raise ArgumentError("bad argument #3 to 'view' (count expected, "
                            "got %r)" % (count,))
    return p

