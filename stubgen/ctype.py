"""C types of the model, their C spelling and their slot codes.

A type is one of: Void, Scalar (integers, bool, floating point; also the
predefined names such as size_t and int32_t), Pointer, Array, FuncType,
Record (struct or union), Enum, Typedef (a name for another type) and
Opaque (`typedef ... T;`). Qualifiers (const, volatile, restrict) sit on
the type they qualify. `resolved()` looks through typedefs, carrying
their qualifiers along.

Every type has a `kind` (see KINDS) that emitters dispatch on; a value
type also has a slot code (the signature letters of nccc/registry.h; a
code such as "NCCC_SIG_LONG" names the slot.h macro of a code that
depends on the target).
"""

# The kinds a resolved type can have.
KINDS = ("void", "bool", "sint", "uint", "char", "float", "double",
         "enum", "pointer", "funcptr", "struct", "union", "opaque", "array",
         "function")

QUAL_ORDER = ("const", "volatile", "restrict")


def _quals_text(quals):
    return " ".join(q for q in QUAL_ORDER if q in quals)


class Type:
    quals = frozenset()

    def resolved(self):
        """This type with every typedef looked through."""
        return self

    def qualified(self, quals):
        """A copy with extra qualifiers."""
        quals = frozenset(quals)
        if not quals or quals <= self.quals:
            return self
        t = self._copy()
        t.quals = self.quals | quals
        return t

    def unqualified(self):
        if not self.quals:
            return self
        t = self._copy()
        t.quals = frozenset()
        return t

    def _copy(self):
        t = object.__new__(type(self))
        t.__dict__.update(self.__dict__)
        return t

    @property
    def is_const(self):
        return "const" in self.resolved().quals

    @property
    def kind(self):
        return self.resolved()._kind()

    def spell(self, name=""):
        """The C declaration of name with this type ("" for the type name
        alone): spell("x") of pointer-to-int is "int *x"."""
        return _spell(self, name)

    def __str__(self):
        return self.spell()

    def __repr__(self):
        return "<%s %s>" % (type(self).__name__, self.spell())

    def canon(self):
        """A string that is equal for compatible C types: typedefs looked
        through, qualifiers kept except at top level of parameters."""
        return _canon(self)


class Void(Type):
    def _kind(self):
        return "void"

    def base_name(self):
        return "void"


class Scalar(Type):
    """An arithmetic type. width: bits when the code fixes them (8..64),
    None when the target decides (long, size_t, ...)."""

    def __init__(self, name, kind, code, width):
        self.name = name
        self._k = kind
        self.code = code
        self.width = width

    def _kind(self):
        return self._k

    def base_name(self):
        return self.name

    @property
    def is_integer(self):
        return self._k in ("sint", "uint", "char", "bool")


def _scalar_table():
    t = {}

    def add(name, kind, code, width):
        t[name] = Scalar(name, kind, code, width)

    add("bool", "bool", "?", None)
    add("char", "char", "NCCC_SIG_CHAR", 8)
    add("signed char", "sint", "b", 8)
    add("unsigned char", "uint", "B", 8)
    add("short", "sint", "h", 16)
    add("unsigned short", "uint", "H", 16)
    add("int", "sint", "i", 32)
    add("unsigned int", "uint", "I", 32)
    add("long", "sint", "NCCC_SIG_LONG", None)
    add("unsigned long", "uint", "NCCC_SIG_ULONG", None)
    add("long long", "sint", "l", 64)
    add("unsigned long long", "uint", "L", 64)
    add("float", "float", "f", 32)
    add("double", "double", "d", 64)
    # predefined typedef names: <stdint.h>, <stddef.h>, <sys/types.h>
    for bits, s, u in ((8, "b", "B"), (16, "h", "H"), (32, "i", "I"),
                       (64, "l", "L")):
        add("int%d_t" % bits, "sint", s, bits)
        add("uint%d_t" % bits, "uint", u, bits)
    add("size_t", "uint", "NCCC_SIG_SIZE", None)
    add("ssize_t", "sint", "NCCC_SIG_SSIZE", None)
    add("intptr_t", "sint", "NCCC_SIG_INTPTR", None)
    add("uintptr_t", "uint", "NCCC_SIG_UINTPTR", None)
    add("ptrdiff_t", "sint", "NCCC_SIG_INTPTR", None)
    return t


SCALARS = _scalar_table()

# Names that need no declaration in the IDL.
PREDEFINED = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
              "uint32_t", "int64_t", "uint64_t", "size_t", "ssize_t",
              "intptr_t", "uintptr_t", "ptrdiff_t")

# Scalars whose size the slot code assumes, with that size in bytes: the
# generated C checks them at compile time.
ASSUMED_SIZES = {"short": 2, "unsigned short": 2, "int": 4,
                 "unsigned int": 4, "long long": 8,
                 "unsigned long long": 8, "float": 4, "double": 8}

# Target-dependent codes and their letters on the usual data models.
TARGET_CODES = {
    "NCCC_SIG_CHAR": {"LP64": "b", "ILP32": "b", "LLP64": "b"},
    "NCCC_SIG_LONG": {"LP64": "l", "ILP32": "i", "LLP64": "i"},
    "NCCC_SIG_ULONG": {"LP64": "L", "ILP32": "I", "LLP64": "I"},
    "NCCC_SIG_SIZE": {"LP64": "L", "ILP32": "I", "LLP64": "L"},
    "NCCC_SIG_SSIZE": {"LP64": "l", "ILP32": "i", "LLP64": "l"},
    "NCCC_SIG_INTPTR": {"LP64": "l", "ILP32": "i", "LLP64": "l"},
    "NCCC_SIG_UINTPTR": {"LP64": "L", "ILP32": "I", "LLP64": "L"},
}


class Pointer(Type):
    def __init__(self, target):
        self.target = target

    def _kind(self):
        return "funcptr" if isinstance(self.target.resolved(), FuncType) \
            else "pointer"


class Array(Type):
    """size: the C text of the element count, or None for []."""

    def __init__(self, elem, size):
        self.elem = elem
        self.size = size

    def _kind(self):
        return "array"

    def innermost(self):
        t = self.elem.resolved()
        while isinstance(t, Array):
            t = t.elem.resolved()
        return t


class FuncType(Type):
    """params: list of (name or None, Type)."""

    def __init__(self, ret, params, variadic):
        self.ret = ret
        self.params = params
        self.variadic = variadic

    def _kind(self):
        return "function"


class Record(Type):
    """A struct or union; decl is the model.RecordDecl shared by every use."""

    def __init__(self, decl):
        self.decl = decl

    def _kind(self):
        if self.decl.fields is None:
            return "opaque"
        return self.decl.kind

    def base_name(self):
        return self.decl.c_name


class Enum(Type):
    def __init__(self, decl):
        self.decl = decl

    def _kind(self):
        return "enum"

    def base_name(self):
        return self.decl.c_name


class Typedef(Type):
    def __init__(self, decl):
        self.decl = decl

    def resolved(self):
        return self.decl.type.resolved().qualified(self.quals)

    def base_name(self):
        return self.decl.name


class Opaque(Type):
    """`typedef ... NAME;`: a type known only by name."""

    def __init__(self, decl):
        self.decl = decl

    def _kind(self):
        return "opaque"

    def base_name(self):
        return self.decl.name


def _spell(t, name):
    if isinstance(t, Typedef) and getattr(t.decl, "spell_through", False):
        # a callback typedef: a name of the IDL only, spelled out
        return _spell(t.decl.type.qualified(t.quals), name)
    if isinstance(t, Pointer):
        q = _quals_text(t.quals)
        inner = "*" + (q + " " if q and name else q) + name
        target = t.target
        while isinstance(target, Typedef) and \
                getattr(target.decl, "spell_through", False):
            target = target.decl.type
        if isinstance(target, (Array, FuncType)):
            inner = "(" + inner + ")"
        return _spell(t.target, inner)
    if isinstance(t, Array):
        return _spell(t.elem, "%s[%s]" % (name, t.size or ""))
    if isinstance(t, FuncType):
        ps = [p.spell(n or "") for n, p in t.params]
        if t.variadic:
            ps.append("...")
        return _spell(t.ret, "%s(%s)" % (name, ", ".join(ps) or "void"))
    q = _quals_text(t.quals)
    base = (q + " " if q else "") + t.base_name()
    if not name:
        return base
    if name[0] == "*":
        return base + " " + name
    return base + " " + name


def _canon(t, top=True):
    r = t.resolved()
    q = _quals_text(r.quals)
    q = (q + " ") if q else ""
    if isinstance(r, Pointer):
        return "%sptr(%s)" % (q, _canon(r.target))
    if isinstance(r, Array):
        return "%sarr(%s)" % (q, _canon(r.elem))
    if isinstance(r, FuncType):
        ps = [_canon(p.unqualified()) for _, p in r.params]
        if r.variadic:
            ps.append("...")
        return "fn(%s)->%s" % (",".join(ps), _canon(r.ret))
    if isinstance(r, Record):
        return "%s%s %s" % (q, r.decl.kind, id(r.decl))
    if isinstance(r, (Enum, Opaque)):
        return "%s%s %s" % (q, type(r).__name__, id(r.decl))
    return q + r.base_name()
