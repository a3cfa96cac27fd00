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

from stubgen.abi import load as load_abi

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


# The signature codes, from the ABI description (idl/abi.json).
_ABI = load_abi()

# The data models a target-dependent code is resolved for (idl/abi.json,
# targets), and the bytes of long and of a pointer on each.
DATA_MODELS = tuple(_ABI.data_models)
_MODEL_BYTES = {t.data_model: {"long": t.long_bytes,
                               "pointer": t.pointer_bytes, "char": 1}
                for t in _ABI.targets}


def _code_of(kind, bits=None, signed=False):
    """The ABI's code of a value of kind (an ABI kind: bool, int, float,
    pointer, string, function, closure, errno); int and float need the
    width in bits, int its signedness."""
    for c in _ABI.codes:
        if c.kind == kind and (kind not in ("int", "float") or
                               c.bits == bits) and \
                (kind != "int" or c.signed == signed):
            return c.code
    raise AssertionError("no code for %s%s" % (kind, bits or ""))


def code_kind(code):
    """The ABI kind of a slot code, or None for a record ({name}) or a
    target-dependent code (NCCC_SIG_*, an integer)."""
    c = _ABI.code(code)
    return c.kind if c is not None else None


# The codes the model gives by kind rather than by C type.
INT_CODE = _code_of("int", 32, True)      # an enum, the status of TVM
POINTER_CODE = _code_of("pointer")
STRING_CODE = _code_of("string")
FUNCTION_CODE = _code_of("function")      # a function pointer
CLOSURE_CODE = _code_of("closure")        # a closure context
ERRNO_CODE = _code_of("errno")
LASTERROR_CODE = next(c.code for c in _ABI.codes if c.name == "lasterror")
# The letters of plain char when signed and when unsigned.
CHAR_CODES = (_code_of("int", 8, True), _code_of("int", 8, False))
# The last code of a side whose slot count the caller gives.
VARIADIC = _ABI.variadic


# Target-dependent codes: signed, and whose width they have on a data
# model (char: one byte everywhere; its signedness is the target's own).
_TARGET_WIDTHS = {
    "NCCC_SIG_CHAR": (True, "char"),
    "NCCC_SIG_LONG": (True, "long"),
    "NCCC_SIG_ULONG": (False, "long"),
    "NCCC_SIG_SIZE": (False, "pointer"),
    "NCCC_SIG_SSIZE": (True, "pointer"),
    "NCCC_SIG_INTPTR": (True, "pointer"),
    "NCCC_SIG_UINTPTR": (False, "pointer"),
}

# Target-dependent codes and their letters on each data model.
TARGET_CODES = {
    name: {dm: _code_of("int", 8 * _MODEL_BYTES[dm][width], signed)
           for dm in DATA_MODELS}
    for name, (signed, width) in _TARGET_WIDTHS.items()}


def _scalar_table():
    t = {}

    def add(name, kind, width, target_code=None):
        """A scalar; its code is the ABI's for kind and width, or
        target_code when the target decides the width (width None)."""
        if target_code is not None:
            code = target_code
        elif kind == "bool":
            code = _code_of("bool")
        elif kind in ("float", "double"):
            code = _code_of("float", width)
        else:
            code = _code_of("int", width, kind == "sint")
        t[name] = Scalar(name, kind, code, width)

    add("bool", "bool", None)
    add("char", "char", 8, "NCCC_SIG_CHAR")
    add("signed char", "sint", 8)
    add("unsigned char", "uint", 8)
    add("short", "sint", 16)
    add("unsigned short", "uint", 16)
    add("int", "sint", 32)
    add("unsigned int", "uint", 32)
    add("long", "sint", None, "NCCC_SIG_LONG")
    add("unsigned long", "uint", None, "NCCC_SIG_ULONG")
    add("long long", "sint", 64)
    add("unsigned long long", "uint", 64)
    add("float", "float", 32)
    add("double", "double", 64)
    # predefined typedef names: <stdint.h>, <stddef.h>, <sys/types.h>
    for bits in (8, 16, 32, 64):
        add("int%d_t" % bits, "sint", bits)
        add("uint%d_t" % bits, "uint", bits)
    add("size_t", "uint", None, "NCCC_SIG_SIZE")
    add("ssize_t", "sint", None, "NCCC_SIG_SSIZE")
    add("intptr_t", "sint", None, "NCCC_SIG_INTPTR")
    add("uintptr_t", "uint", None, "NCCC_SIG_UINTPTR")
    add("ptrdiff_t", "sint", None, "NCCC_SIG_INTPTR")
    return t


SCALARS = _scalar_table()

# Names that need no declaration in the IDL.
PREDEFINED = ("int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
              "uint32_t", "int64_t", "uint64_t", "size_t", "ssize_t",
              "intptr_t", "uintptr_t", "ptrdiff_t")

# Scalars whose size the slot code assumes, with that size in bytes (the
# standard types the code fixes a width for, chars aside): the generated
# C checks them at compile time.
ASSUMED_SIZES = {name: s.width // 8 for name, s in SCALARS.items()
                 if s.width is not None and name not in PREDEFINED
                 and "char" not in name}


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

    def qualified(self, quals):
        """C qualifies the elements of an array, never the array: a
        `const T` of `typedef unsigned char T[16]` is an array of const
        unsigned char."""
        quals = frozenset(quals)
        if not quals:
            return self
        t = self._copy()
        t.elem = self.elem.qualified(quals)
        return t

    def innermost(self):
        t = self.elem.resolved()
        while isinstance(t, Array):
            t = t.elem.resolved()
        return t


def array_depth(t):
    """How many array dimensions t has (0 when it is none)."""
    depth, r = 0, t.resolved()
    while isinstance(r, Array):
        depth, r = depth + 1, r.elem.resolved()
    return depth


class FuncType(Type):
    """params: list of (name or None, Type)."""

    def __init__(self, ret, params, variadic):
        self.ret = ret
        self.params = params
        self.variadic = variadic

    def _kind(self):
        return "function"


class Declared(Type):
    """A type an IDL declaration names (decl, shared by every use of the
    type): a record, an enum, a typedef or an opaque type; spelled by the
    declaration's name unless the class says otherwise."""

    def __init__(self, decl):
        self.decl = decl

    def base_name(self):
        return self.decl.name


class Record(Declared):
    """A struct or union; decl is the model.RecordDecl."""

    def _kind(self):
        if self.decl.fields is None:
            return "opaque"
        return self.decl.kind

    def base_name(self):
        if self.decl.c_name is None:
            # defined in place inside another record: only that record's
            # body spells it (stubgen/emit_c/decls.py), at this mark
            return INLINE_RECORD
        return self.decl.c_name


# Where the spelling of a record defined inside another has its body.
INLINE_RECORD = "\x00"


class Enum(Declared):
    def _kind(self):
        return "enum"

    def base_name(self):
        return self.decl.c_name


class Typedef(Declared):
    def resolved(self):
        return self.decl.type.resolved().qualified(self.quals)


class Opaque(Declared):
    """`typedef ... NAME;`: a type known only by name."""

    def _kind(self):
        return "opaque"


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
