"""The checked model of an IDL module.

check(file) takes the syntax nodes of parse.py and returns a Module in
which every name is resolved and every rule of docs/IDL.md holds; the
first violation raises IdlError at its position. Emitters read only the
model. What they need is computed here once:

  Module.items      declarations in IDL order (for emitting declarations)
  Module.layouts    the layout table: records and opaque types
  Module.constants  the constants table: enumerators and named constants
  Module.functions  the registry, in IDL order, each with
                    in_slots / out_slots (Slot: role, type, code, index),
                    n_in / n_out and the signature; a packed function
                    (`packed "NAME" prototype;`) also has .packed
  Module.callbacks  the callback types (typedefs with a [context]
                    parameter or [thunks=N]), each with its slots as
                    its backward wrapper packs them for the dispatcher

Slot positions can depend on sizeof (a struct by value takes
NCCC_SLOTS(sizeof) slots), so a position is a SlotIndex: a fixed number
plus the records whose slot counts come before it.
"""

from stubgen import syntax as S
from stubgen.ctype import (ASSUMED_SIZES, PREDEFINED, SCALARS, TARGET_CODES,
                           Array, Enum, FuncType, Opaque, Pointer, Record,
                           Scalar, Typedef, Void)
from stubgen.errors import IdlError

C_KEYWORDS = frozenset("""
auto break case char const continue default do double else enum extern
float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while
_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
_Static_assert _Thread_local bool true false
""".split())


# ---- model objects ------------------------------------------------------

class Include:
    def __init__(self, pos, text):
        self.pos = pos
        self.text = text          # the directive as written


class Define:
    """A #define passed through to the generated C (feature macros)."""

    def __init__(self, pos, text):
        self.pos = pos
        self.text = text


class RecordDecl:
    """A struct or union tag (or an anonymous one named by a typedef).
    fields is None while (or if) the record is opaque."""

    def __init__(self, pos, kind, tag):
        self.pos = pos
        self.kind = kind            # "struct" or "union"
        self.tag = tag              # None when anonymous
        self.typedef_name = None    # the typedef naming an anonymous record
        self.fields = None
        self.defined_pos = None
        self.defined_in_typedef = False

    @property
    def c_name(self):
        if self.tag is not None:
            return "%s %s" % (self.kind, self.tag)
        return self.typedef_name

    @property
    def name(self):
        """The name in the layout table and in {name} codes."""
        return self.tag if self.tag is not None else self.typedef_name

    @property
    def opaque(self):
        return self.fields is None


class Field:
    def __init__(self, pos, name, type_, info):
        self.pos = pos
        self.name = name
        self.type = type_
        self.info = info
        self.code = None            # slot code of the value or element
        self.count_type = None      # element type for arrays, else None
        self.anns = {}              # annotation name -> (value, pos)


class EnumDecl:
    def __init__(self, pos, tag):
        self.pos = pos
        self.tag = tag
        self.typedef_name = None
        self.enumerators = []       # Enumerator
        self.defined_in_typedef = False

    @property
    def c_name(self):
        if self.tag is not None:
            return "enum " + self.tag
        return self.typedef_name


class Enumerator:
    def __init__(self, pos, name, value, previous):
        self.pos = pos
        self.name = name
        self.value = value          # C text or None
        self.previous = previous    # the enumerator before it, or None


class TypedefDecl:
    def __init__(self, pos, name, type_):
        self.pos = pos
        self.name = name
        self.type = type_
        # the record or enum defined in the same declaration, if any
        self.defines = None
        # the CallbackType of a callback typedef, else None; the generated
        # C never uses such a name (it spells the type out)
        self.callback = None
        self.spell_through = False


class OpaqueDecl:
    """typedef ... NAME;"""

    def __init__(self, pos, name):
        self.pos = pos
        self.name = name


class ConstantDecl:
    """const T NAME [= value];"""

    def __init__(self, pos, name, type_, value):
        self.pos = pos
        self.name = name
        self.type = type_
        self.value = value          # C text or None


class Constant:
    """An entry of the constants table."""

    def __init__(self, name, code, type_, decl):
        self.name = name
        self.code = code
        self.type = type_           # None for enumerators (they are int)
        self.decl = decl            # ConstantDecl or Enumerator


class Layout:
    """An entry of the layout table: a record or an opaque type."""

    def __init__(self, name, kind, type_, decl):
        self.name = name
        self.kind = kind            # "struct", "union" or "opaque"
        self.type = type_
        self.decl = decl            # RecordDecl or OpaqueDecl

    @property
    def fields(self):
        if isinstance(self.decl, RecordDecl) and self.decl.fields:
            return self.decl.fields
        return []


class ValueInfo:
    """What the annotations say about one value (a parameter, the value an
    [out]/[inout] parameter points to, a return value or a field)."""

    def __init__(self):
        self.string = False         # NUL-terminated char string
        self.zero_terminated = False
        self.length = None          # name of the parameter/field
        self.size = None            # int, or the C text of a constant
        self.nullable = None        # True, False (nonnull) or None
        self.owned = None           # registry name of the destructor
        self.owned_pos = None

    def as_dict(self):
        """The annotations that say something (for hosts and tests)."""
        return {k: v for k, v in vars(self).items()
                if k != "owned_pos" and v is not None
                and (v is not False or k == "nullable")}


class SlotIndex:
    """fixed + the sum of NCCC_SLOTS(sizeof(t)) over records."""

    def __init__(self, fixed=0, records=()):
        self.fixed = fixed
        self.records = tuple(records)

    def plus(self, slot_type):
        """The index after a value of slot_type: one slot, or the
        record's slots."""
        if slot_type is None:
            return SlotIndex(self.fixed + 1, self.records)
        return SlotIndex(self.fixed, self.records + (slot_type,))

    @property
    def constant(self):
        """The index as an int when no sizeof is involved, else None."""
        return None if self.records else self.fixed

    def __eq__(self, other):
        return (isinstance(other, SlotIndex) and self.fixed == other.fixed
                and [r.spell() for r in self.records]
                == [r.spell() for r in other.records])

    def __repr__(self):
        parts = [str(self.fixed)] if self.fixed or not self.records else []
        parts += ["slots(%s)" % r.spell() for r in self.records]
        return "+".join(parts)


class Slot:
    """One value in in[] or out[]. role: in[]: "target" (the function
    pointer of a [function_pointer] function), "arg", "inout"; out[]:
    "return", "out", "inout", "errno". type: the C type of the value
    (the pointee for [out]/[inout]). record: the type when the value is a
    struct or union taking NCCC_SLOTS(sizeof) slots, else None."""

    def __init__(self, role, name, param, type_, code, index, info):
        self.role = role
        self.name = name
        self.param = param
        self.type = type_
        self.code = code
        self.index = index
        self.info = info
        self.record = type_ if type_ is not None and \
            type_.kind in ("struct", "union") else None
        self.callbacks = []

    def __repr__(self):
        return "Slot(%s %s %s @%r)" % (self.role, self.name, self.code,
                                      self.index)


class Param:
    def __init__(self, pos, index, name, type_, direction, info):
        self.pos = pos
        self.index = index          # 0-based position in the C call
        self.name = name            # None when unnamed
        self.type = type_           # declared type, arrays decayed
        self.direction = direction  # "in", "out" or "inout"
        self.info = info
        self.in_slot = None
        self.out_slot = None
        self.anns = {}              # annotation name -> (value, pos)
        # callbacks (docs/IDL.md, "Callbacks"): on a callback parameter,
        # its CallbackType, scope, context parameter (None for a thunk
        # type), member index in that context's group and destroy-notify
        # parameter; on a context parameter, the callbacks it carries; on
        # a destroy notify, the context parameter it releases
        self.callback = None
        self.scope = None
        self.context = None
        self.member = 0
        self.destroy = None
        self.carries = []
        self.destroys = None
        self.is_context = False     # the [context] parameter of a callback

    @property
    def label(self):
        return "'%s'" % self.name if self.name else \
            "parameter %d" % (self.index + 1)

    @property
    def pointee(self):
        return self.type.resolved().target


class Function:
    def __init__(self, pos, name, c_name, ret, params):
        self.pos = pos
        self.name = name            # registry and host name
        self.c_name = c_name        # the C function called
        self.ret = ret
        self.ret_info = ValueInfo()
        self.ret_anns = {}          # the function's annotations: name ->
        self.params = params        # (value, pos)
        self.errno = False
        self.function_pointer = False
        self.macro = False
        self.trace = False          # trace shim (NCCC_SITE_WRAP)
        self.fault = False          # fault injection shim
        self.index = 0              # position in the module's registry
        self.variadic_of = None     # C name of the variadic function called
        self.prototype = None       # its Prototype, when the IDL has one
        self.packed = None          # Packed, for a packed declaration
        self.in_slots = []
        self.out_slots = []
        self.n_in = SlotIndex()
        self.n_out = SlotIndex()

    @property
    def sig_in(self):
        return [s.code for s in self.in_slots]

    @property
    def sig_out(self):
        return [s.code for s in self.out_slots]

    def signature(self, data_model="LP64"):
        """The signature string with the target-dependent codes given for
        one data model ("LP64", "ILP32", "LLP64")."""
        def letters(codes):
            return "".join(TARGET_CODES[c][data_model]
                           if c in TARGET_CODES else c for c in codes)
        return letters(self.sig_in) + ":" + letters(self.sig_out)

    @property
    def c_type(self):
        """The C function type the wrapper calls."""
        return FuncType(self.ret, [(p.name, p.type) for p in self.params],
                        False)

    @property
    def closure_slots(self):
        """The in slots holding closure contexts."""
        return [s for s in self.in_slots if s.role == "closure"]

    @property
    def shims(self):
        """The call-site shims of the wrapper: "trace", "fault"."""
        return [k for k in ("trace", "fault") if getattr(self, k)]


SCOPES = ("call", "async", "notified", "forever")

# Thunks a pool may have (each is a generated function).
MAX_THUNKS = 4096


class CallbackType:
    """A callback typedef: a function (pointer) type with a [context]
    parameter, or without one and with a pool of [thunks=N]. Its
    backward wrapper calls the closure's target with in[0] = the
    environment word, then in_slots (indices from 1; the context
    parameter takes none), and reads out_slots (return value, [out] and
    [inout] values, errno for [errno]) like a forward wrapper's.
    members: the member indices some function uses it as (a backward
    wrapper per member); used: a function takes it."""

    def __init__(self, pos, name, decl, ftype, params):
        self.pos = pos
        self.name = name
        self.decl = decl            # the TypedefDecl
        self.ftype = ftype          # its FuncType
        self.ret = ftype.ret
        self.ret_info = ValueInfo()
        self.params = params        # Param, in C order (context included)
        self.context = None         # the [context] Param, or None
        # [context=FN] on a parameter: the context is FN(that parameter),
        # which still takes its slot; the C name of FN, else None
        self.context_from = None
        self.context_from_pos = None
        self.thunks = None          # pool size when it has no context
        self.errno = False
        self.in_slots = []
        self.out_slots = []
        self.n_in = SlotIndex()     # slots after env
        self.n_out = SlotIndex()
        self.members = set()
        self.used = False

    @property
    def sig_in(self):
        return [s.code for s in self.in_slots]

    @property
    def sig_out(self):
        return [s.code for s in self.out_slots]

    def signature(self, data_model="LP64"):
        """The dispatcher's view, after in[0] (the environment word)."""
        return Function.signature(self, data_model)


class Prototype:
    """A variadic function declared with `...`: no wrapper; its
    instantiations ([variadic=NAME]) call it."""

    def __init__(self, pos, name, type_):
        self.pos = pos
        self.name = name
        self.type = type_


class Packed:
    """What a packed declaration adds to its Function. name: the function's
    name in TVM's registry; where: "global" (TVMFuncGetGlobal), "module"
    (TVMModGetFunction on the module handle in in[0]) or "system_lib";
    codes / ret: the packed signature (nccc/packed.h), one code per
    argument and the result's code or None."""

    def __init__(self, name, where, codes, ret):
        self.name = name
        self.where = where
        self.codes = codes
        self.ret = ret

    def signature(self, data_model="LP64"):
        """The packed signature for one data model, like
        Function.signature."""
        def letter(c):
            return TARGET_CODES[c][data_model] if c in TARGET_CODES else c
        return "".join(letter(c) for c in self.codes) + ":" + \
            (letter(self.ret) if self.ret else "")


class Module:
    def __init__(self, name, pos):
        self.name = name
        self.pos = pos
        self.includes = []
        self.defines = []
        self.items = []             # declarations in IDL order
        self.layouts = []
        self.constants = []
        self.functions = []
        self.callbacks = []
        self.prototypes = []
        self.used_scalars = set()   # scalar names whose size is assumed
        self.uses_errno = False
        self.uses_callbacks = False  # a function takes a callback
        self.uses_ssize_t = False
        self.uses_tvm = False       # packed functions or TVM's types
        self.identifiers = set()    # every C identifier the IDL declares
        self.qualified_returns = False  # a return type has qualifiers

    @property
    def has_includes(self):
        return bool(self.includes)

    @property
    def uses_sites(self):
        """Some wrapper has the trace or fault shim."""
        return any(f.trace or f.fault for f in self.functions)

    def callback(self, name):
        for c in self.callbacks:
            if c.name == name:
                return c
        raise KeyError(name)

    @property
    def packed_functions(self):
        return [f for f in self.functions if f.packed is not None]

    def function(self, name):
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(name)

    def layout(self, name):
        for entry in self.layouts:
            if entry.name == name:
                return entry
        raise KeyError(name)


# ---- TVM's types ----------------------------------------------------------
# Predefined, like size_t; the generated C takes them from <nccc/packed.h>.
# In a packed declaration the two handle typedefs and pointers to the two
# structs have packed codes of their own (nccc/packed.h).

def _tvm_types():
    out = {}
    for name in ("TVMModuleHandle", "TVMFunctionHandle"):
        out[name] = Typedef(TypedefDecl(None, name, Pointer(Void())))
    for name in ("TVMByteArray", "DLTensor"):
        out[name] = Opaque(OpaqueDecl(None, name))
    return out


TVM_TYPES = _tvm_types()
_TVM_HANDLE_CODES = {"TVMModuleHandle": "m", "TVMFunctionHandle": "k"}
_TVM_POINTEE_CODES = {"TVMByteArray": "y", "DLTensor": "t"}


def _tvm_name(t):
    """The name of the TVM type t is, looking through the IDL's own
    typedefs, or None."""
    while isinstance(t, (Typedef, Opaque)):
        name = t.decl.name
        if name in TVM_TYPES and t.decl is TVM_TYPES[name].decl:
            return name
        if isinstance(t, Opaque):
            return None
        t = t.decl.type
    return None


def tvm_code(t):
    """The packed code of a TVM type: m or k for TVMModuleHandle and
    TVMFunctionHandle, y or t for a pointer to TVMByteArray or DLTensor;
    None for every other type."""
    name = _tvm_name(t)
    if name in _TVM_HANDLE_CODES:
        return _TVM_HANDLE_CODES[name]
    r = t.resolved()
    if isinstance(r, Pointer):
        return _TVM_POINTEE_CODES.get(_tvm_name(r.target))
    return None


# ---- annotations --------------------------------------------------------

# name -> how its value is written: "bool" (flag, or =true/false),
# "name" (=NAME or (NAME)), "size" (=N or =CONSTANT), "dir" (flag only),
# "count" (=N, a positive integer), "context" (a flag in a callback
# typedef, =NAME or (NAME, ...) on a function's parameter)
_ANN_FORMS = {
    "in": "dir", "out": "dir", "inout": "dir",
    "string": "bool", "zero_terminated": "bool", "nullable": "bool",
    "nonnull": "bool", "length": "name", "size": "size", "owned": "name",
    "errno": "bool", "function_pointer": "bool", "macro": "bool",
    "rename": "name", "variadic": "name",
    "module": "bool", "system_lib": "bool",
    "trace": "bool", "fault": "bool",
    "context": "context", "scope": "name", "destroy": "name",
    "thunks": "count",
}
_VALUE_ANNS = ("string", "zero_terminated", "nullable", "nonnull", "length",
               "size", "owned")
_FUNCTION_ANNS = ("errno", "function_pointer", "macro", "rename",
                  "variadic", "trace", "fault")
_DEFAULTABLE = ("errno", "function_pointer", "trace", "fault")
_PACKED_ANNS = ("module", "system_lib")
_FIELD_ANNS = ("string", "zero_terminated", "nullable", "nonnull",
               "length", "size")
_PARAM_ANNS = ("in", "out", "inout") + _VALUE_ANNS + ("context", "scope",
                                                     "destroy")
_CB_PARAM_ANNS = ("in", "out", "inout", "context", "string",
                  "zero_terminated", "nullable", "nonnull", "length", "size")
_CB_TYPEDEF_ANNS = ("thunks", "errno", "string", "zero_terminated",
                    "nullable", "nonnull", "size")


def _annotation_values(anns, allowed, where):
    """Checks annotation names, forms and duplicates; returns
    {name: (value, pos)}; flag-like values are True/False."""
    out = {}
    for a in anns:
        form = _ANN_FORMS.get(a.name)
        if form is None:
            raise IdlError(a.pos, "unknown annotation '%s'" % a.name)
        if a.name not in allowed:
            raise IdlError(a.pos, "'%s' is not allowed on %s"
                           % (a.name, where))
        if a.name in out:
            raise IdlError(a.pos, "duplicate annotation '%s'" % a.name)
        out[a.name] = (_annotation_value(a, form, where), a.pos)
    return out


def _annotation_value(a, form, where=""):
    if form == "context":
        if where == "a callback parameter":
            # [context]: this parameter is the context; [context=FN]: the
            # context is FN(this parameter)
            if a.kind == "flag":
                return True
            v = a.values[0]
            if a.kind != "value" or v.kind != "name":
                raise IdlError(a.pos, "'context' in a callback typedef is a "
                               "flag, or names the function that gets the "
                               "context from the parameter, as in "
                               "[context=NAME]")
            return (v.value, v.pos)
        if a.kind == "flag":
            raise IdlError(a.pos, "'context' needs the callbacks whose "
                           "context the parameter carries, as in "
                           "[context=NAME] or [context(NAME, NAME)]")
        names = []
        for v in a.values:
            if v.kind != "name":
                raise IdlError(v.pos, "'context' needs parameter names, "
                               "not %s" % v.text)
            names.append((v.value, v.pos))
        return names
    if form == "count":
        v = a.values[0] if a.kind == "value" and len(a.values) == 1 \
            else None
        if v is None or v.kind != "int" or not 1 <= v.value <= MAX_THUNKS:
            raise IdlError(a.pos, "'%s' needs the pool size, an integer "
                           "from 1 to %d, as in [%s=4]"
                           % (a.name, MAX_THUNKS, a.name))
        return v.value
    if form == "dir":
        if a.kind != "flag":
            raise IdlError(a.pos, "'%s' takes no value" % a.name)
        return True
    if form == "bool":
        if a.kind == "flag":
            return True
        v = a.values[0] if len(a.values) == 1 else None
        if v is not None and a.kind == "value":
            if v.kind == "name" and v.value in ("true", "false"):
                return v.value == "true"
            if v.kind == "int" and v.value in (0, 1):
                return v.value == 1
        raise IdlError(a.pos, "'%s' takes no value, or =true or =false"
                       % a.name)
    if a.kind == "flag":
        example = {"name": "%s=NAME", "size": "%s=16"}[form] % a.name
        raise IdlError(a.pos, "'%s' needs a value, as in [%s]"
                       % (a.name, example))
    if len(a.values) != 1:
        raise IdlError(a.pos, "'%s' takes one value" % a.name)
    v = a.values[0]
    if form == "name":
        if v.kind == "string":
            if not _is_ident(v.value):
                raise IdlError(v.pos, "'%s' needs a C identifier, not %s"
                               % (a.name, v.text))
            return v.value
        if v.kind != "name":
            raise IdlError(v.pos, "'%s' needs a name, not %s"
                           % (a.name, v.text))
        return v.value
    # size
    if v.kind == "int":
        if v.value <= 0:
            raise IdlError(v.pos, "'size' must be a positive integer or a "
                           "constant name, not %s" % v.text)
        return v.value
    if v.kind == "name":
        return v.value
    raise IdlError(v.pos, "'size' must be a positive integer or a "
                   "constant name, not %s" % v.text)


def _is_ident(s):
    return (bool(s) and (s[0].isalpha() or s[0] == "_") and s.isascii()
            and all(c.isalnum() or c == "_" for c in s))


# ---- the checker ---------------------------------------------------------

def check(tree):
    """syntax.File -> Module. Raises IdlError at the first problem."""
    return _Checker(tree).run()


def _type_label(t):
    r = t.resolved()
    if isinstance(r, Record):
        return "'%s'" % r.decl.c_name
    return "'%s'" % t.spell()


class _Checker:
    def __init__(self, tree):
        self.tree = tree
        self.m = Module(tree.module.name, tree.module.pos)
        self.ordinary = {}     # name -> pos: typedefs, functions, constants
        self.tags = {}         # tag -> RecordDecl or EnumDecl
        self.typedefs = {}     # name -> Type (Typedef or Opaque)
        self.registry = {}     # registry name -> pos
        self.layout_names = {}
        self.consts = set()    # constant and enumerator names
        self.prototypes = {}
        self.defaults = {"errno": False, "function_pointer": False,
                         "trace": False, "fault": False}
        self._cb_fnode = None  # the parameter list of a callback typedef
        self._cb_params = None

    # ---- driver
    def run(self):
        mod = self.tree.module
        if mod.keyword[0] != "module":
            raise IdlError(mod.keyword[1], 'a file starts with "module NAME;"')
        self._check_name(mod.name, mod.pos)
        for name, (value, _) in _annotation_values(
                mod.annotations, _DEFAULTABLE, "a module").items():
            self.defaults[name] = value
        # #include anywhere in the file decides how declarations are used
        for item in self.tree.items:
            if isinstance(item, S.Directive):
                self._directive(item)
        for item in self.tree.items:
            if isinstance(item, S.Directive):
                continue
            getattr(self, "_item_" + type(item).__name__)(item)
        self._resolve_owned()
        self._resolve_context_accessors()
        self.m.identifiers = set(self.ordinary) | set(
            f.c_name for f in self.m.functions)
        return self.m

    def _directive(self, d):
        text = d.text.strip()
        body = text[1:].strip()
        word = body.split(None, 1)[0] if body.split() else ""
        if word == "include":
            rest = body[len("include"):].strip()
            if not (len(rest) >= 3 and
                    ((rest[0] == "<" and rest[-1] == ">") or
                     (rest[0] == '"' and rest[-1] == '"'))):
                raise IdlError(d.pos, 'expected #include <file> or '
                               '#include "file"')
            self.m.includes.append(Include(d.pos, "#include " + rest))
        elif word == "define":
            rest = body[len("define"):].strip()
            if not rest or not _is_ident(rest.split()[0].split("(")[0]):
                raise IdlError(d.pos, "expected #define NAME [VALUE]")
            self.m.defines.append(Define(d.pos, "#define " + rest))
        else:
            raise IdlError(d.pos, "unsupported directive '#%s': only "
                           "#include and #define are allowed" % word)

    def _item_DefaultDecl(self, d):
        for name, (value, _) in _annotation_values(
                d.annotations, _DEFAULTABLE, "a default statement").items():
            self.defaults[name] = value

    # ---- packed functions
    def _item_PackedDecl(self, d):
        if d.keyword[0] != "packed":
            raise IdlError(d.keyword[1], 'expected "packed" before the name '
                           'of a packed function')
        if d.name == "":
            raise IdlError(d.pos, "the name of a packed function is empty")
        if "\0" in d.name:
            raise IdlError(d.pos, "the name of a packed function contains "
                           "a NUL character")
        if len(d.name.encode("utf-8")) > 255:
            raise IdlError(d.pos, "the name of a packed function is longer "
                           "than 255 bytes")
        self.m.uses_tvm = True
        base = self._base(d.specifiers, "function")
        fd = d.declarator
        outer, node = [], fd
        while node is not None and not isinstance(node, S.DName):
            outer.append(node)
            node = node.inner
        if node is None:
            raise IdlError(d.specifiers.pos, "a packed function needs a "
                           "name for its wrapper")
        name, pos = node.name, node.pos
        fnode = None
        for n in outer:
            if isinstance(n, S.DFunction):
                fnode = n
        if fnode is None or fnode.inner is not node:
            self._declarator(base, fd, "file")
            raise IdlError(pos, "'%s' is a pointer to a function; a packed "
                           "function is declared with a prototype" % name)
        ret = self._declarator_prefix(base, fd, fnode)
        r = ret.resolved()
        if isinstance(r, (FuncType, Array)):
            raise IdlError(pos, "a function cannot return %s"
                           % ("a function" if isinstance(r, FuncType)
                              else "an array"))
        if fnode.variadic:
            raise IdlError(pos, "packed function '%s' cannot be variadic"
                           % name)
        anns = _annotation_values(d.annotations, _PACKED_ANNS + _VALUE_ANNS,
                                  "a packed function")
        where = "global"
        for k in _PACKED_ANNS:
            if k in anns and anns[k][0]:
                if where != "global":
                    raise IdlError(anns[k][1], "conflicting annotations "
                                   "'%s' and '%s'" % (where, k))
                where = k
        self._check_name(name, pos)
        if name in self.registry:
            raise IdlError(pos, "function '%s' is already in the registry "
                           "(at %s)" % (name, self.registry[name]))
        self.registry[name] = pos
        params = self._function_params(fnode, name)
        for p in params:
            if p.direction != "in":
                raise IdlError(p.anns[p.direction][1], "[%s] is not allowed "
                               "on a parameter of a packed function: its "
                               "one result is the return value"
                               % p.direction)
            for k in ("context", "scope", "destroy"):
                if k in p.anns:
                    raise IdlError(p.anns[k][1], "'%s' is not allowed on a "
                                   "parameter of a packed function" % k)
        f = Function(pos, name, name, ret, params)
        self._check_value_type(ret, "the return value of '%s'" % name, pos,
                               allow_void=True)
        f.ret_info = self._value_info(anns, ret, "the return value")
        f.ret_anns = anns
        self._check_lengths(f, anns, f.ret_info, None)
        for p in params:
            self._check_lengths(f, p.anns, p.info, p)
        codes = [self._packed_code(p.type, p.info, "parameter %s of packed "
                                   "function '%s'" % (p.label, name), p.pos)
                 for p in params]
        ret_code = None
        if not isinstance(r, Void):
            ret_code = self._packed_code(ret, f.ret_info, "the return value "
                                         "of packed function '%s'" % name,
                                         pos)
        f.packed = Packed(d.name, where, codes, ret_code)
        self._packed_slots(f)
        f.index = len(self.m.functions)
        self.m.functions.append(f)
        self.m.items.append(f)

    def _packed_code(self, t, info, what, pos):
        code = tvm_code(t)
        if code is not None:
            return code
        r = t.resolved()
        if isinstance(r, Scalar):
            return r.code
        if isinstance(r, Enum):
            return "i"
        if isinstance(r, Pointer) and r.kind == "pointer":
            return "s" if info.string else "p"
        raise IdlError(pos, "%s has type %s, which has no TVM type code"
                       % (what, _type_label(t)))

    def _packed_slots(self, f):
        """in[]: the module handle ([module]), then one slot per argument;
        out[]: the status (TVM's error code as int), then the result."""
        idx = SlotIndex()
        ins = []
        if f.packed.where == "module":
            ins.append(Slot("module", "module", None,
                            TVM_TYPES["TVMModuleHandle"], "p", idx, None))
            idx = idx.plus(None)
        for p in f.params:
            s = Slot("arg", p.name, p, p.type, self._code(p.type, p.info),
                     idx, p.info)
            p.in_slot = s
            ins.append(s)
            idx = idx.plus(None)
        f.in_slots, f.n_in = ins, idx
        outs = [Slot("status", "status", None, SCALARS["int"], "i",
                     SlotIndex(), None)]
        idx = SlotIndex(1)
        if f.packed.ret is not None:
            outs.append(Slot("return", "return", None, f.ret,
                             self._code(f.ret, f.ret_info), idx, f.ret_info))
            idx = idx.plus(None)
        f.out_slots, f.n_out = outs, idx

    # ---- names
    def _check_name(self, name, pos):
        if name in C_KEYWORDS:
            raise IdlError(pos, "'%s' is a C keyword" % name)

    def _declare(self, name, pos):
        self._check_name(name, pos)
        if name in PREDEFINED or name in TVM_TYPES:
            raise IdlError(pos, "'%s' is a predefined type" % name)
        if name in self.ordinary:
            raise IdlError(pos, "'%s' is already declared (at %s)"
                           % (name, self.ordinary[name]))
        self.ordinary[name] = pos

    def _add_layout(self, name, kind, type_, decl, pos):
        if name in self.layout_names:
            raise IdlError(pos, "type name '%s' is used twice in the layout "
                           "table (first at %s)"
                           % (name, self.layout_names[name]))
        self.layout_names[name] = pos
        entry = Layout(name, kind, type_, decl)
        self.m.layouts.append(entry)
        return entry

    # ---- specifiers and declarators
    def _base(self, spec, ctx):
        """Type of a Specifiers node; ctx says where it appears ("file",
        "typedef", "field", "param", "function")."""
        b = spec.base
        if isinstance(b, S.Builtin):
            t = self._builtin(b)
        elif isinstance(b, S.TypeName):
            t = self._type_name(b)
        elif isinstance(b, S.RecordRef):
            t = Record(self._record_ref(b))
        elif isinstance(b, S.RecordDef):
            if ctx not in ("file", "typedef"):
                raise IdlError(b.pos, "a %s can only be defined at file "
                               "scope or in a typedef" % b.kind)
            t = Record(self._record_def(b, ctx))
        elif isinstance(b, S.EnumRef):
            decl = self.tags.get(b.name)
            if not isinstance(decl, EnumDecl):
                if decl is not None:
                    raise IdlError(b.pos, "'%s' is a %s, not an enum"
                                   % (b.name, decl.kind))
                raise IdlError(b.pos, "unknown enum '%s'" % b.name)
            t = Enum(decl)
        else:  # EnumDef
            if ctx not in ("file", "typedef"):
                raise IdlError(b.pos, "an enum can only be defined at file "
                               "scope or in a typedef")
            t = Enum(self._enum_def(b, ctx))
        quals = set()
        for q, qpos in spec.quals:
            if q in quals:
                raise IdlError(qpos, "duplicate '%s'" % q)
            if q == "restrict":
                raise IdlError(qpos, "'restrict' applies to pointers only")
            quals.add(q)
        return t.qualified(quals)

    def _builtin(self, b):
        words = ["bool" if w == "_Bool" else w for w in b.words]
        text = " ".join(b.words)
        count = {w: words.count(w) for w in set(words)}

        def bad():
            raise IdlError(b.pos, "invalid type '%s'" % text)

        if count == {"void": 1}:
            return Void()
        if count == {"bool": 1}:
            return SCALARS["bool"]
        if count == {"float": 1}:
            return SCALARS["float"]
        if count == {"double": 1}:
            return SCALARS["double"]
        if count == {"long": 1, "double": 1}:
            raise IdlError(b.pos, "long double does not fit in a slot and "
                           "is not supported")
        signed = count.pop("signed", 0)
        unsigned = count.pop("unsigned", 0)
        if signed + unsigned > 1:
            bad()
        if "char" in count:
            if count != {"char": 1}:
                bad()
            return SCALARS["unsigned char" if unsigned else
                           "signed char" if signed else "char"]
        ints = count.pop("int", 0)
        short = count.pop("short", 0)
        long_ = count.pop("long", 0)
        if count or ints > 1 or short > 1 or long_ > 2 or (short and long_):
            bad()
        base = "short" if short else ("long long" if long_ == 2 else
                                      "long" if long_ else "int")
        if not (ints or short or long_ or signed or unsigned):
            bad()
        if unsigned:
            base = "unsigned " + base
        return SCALARS[base]

    def _type_name(self, b):
        if b.name in self.typedefs:
            return self.typedefs[b.name]
        if b.name in TVM_TYPES:
            self.m.uses_tvm = True
            return TVM_TYPES[b.name]
        if b.name in SCALARS and b.name in PREDEFINED:
            if b.name == "ssize_t":
                self.m.uses_ssize_t = True
            return SCALARS[b.name]
        raise IdlError(b.pos, "unknown type '%s'" % b.name)

    def _record_ref(self, b):
        self._check_name(b.name, b.pos)
        decl = self.tags.get(b.name)
        if decl is None:
            decl = RecordDecl(b.pos, b.kind, b.name)
            self.tags[b.name] = decl
            self.m.items.append(decl)
            self._add_layout(b.name, "opaque", Record(decl), decl, b.pos)
        elif not isinstance(decl, RecordDecl) or decl.kind != b.kind:
            was = "an enum" if isinstance(decl, EnumDecl) else \
                "a " + decl.kind
            raise IdlError(b.pos, "'%s' was declared as %s, not a %s"
                           % (b.name, was, b.kind))
        return decl

    def _record_def(self, b, ctx):
        if b.name is not None:
            decl = self._record_ref(S.RecordRef(b.pos, b.kind, b.name))
            if decl.fields is not None:
                raise IdlError(b.pos, "%s '%s' is already defined (at %s)"
                               % (b.kind, b.name, decl.defined_pos))
            # the definition moves the record to here in IDL order
            self.m.items.remove(decl)
        else:
            decl = RecordDecl(b.pos, b.kind, None)
        decl.defined_pos = b.pos
        decl.defined_in_typedef = ctx == "typedef"
        fields, names = [], {}
        decl.fields = None   # a record may not contain itself by value
        for f in b.fields:
            for fld in self._fields(f, decl):
                if fld.name in names:
                    raise IdlError(fld.pos, "duplicate field '%s' (first at "
                                   "%s)" % (fld.name, names[fld.name]))
                names[fld.name] = fld.pos
                fields.append(fld)
        if not fields:
            raise IdlError(b.pos, "%s %shas no fields" % (
                b.kind, "'%s' " % b.name if b.name else ""))
        self._check_field_annotations(fields)
        decl.fields = fields
        self.m.items.append(decl)
        if b.name is not None:
            self.m.layouts = [e for e in self.m.layouts if e.decl is not decl]
            self.m.layouts.append(Layout(b.name, b.kind, Record(decl), decl))
        return decl

    def _fields(self, f, record):
        base = self._base(f.specifiers, "field")
        if not f.declarators:
            raise IdlError(f.pos, "a field needs a name (anonymous members "
                           "are not supported)")
        out = []
        for d, bits in f.declarators:
            t, name, pos = self._declarator(base, d, "field")
            if name is None:
                raise IdlError(f.pos, "a field needs a name")
            self._check_name(name, pos)
            if bits is not None:
                raise IdlError(bits.pos, "bit-field '%s' is not supported "
                               "(offsetof cannot reach it)" % name)
            self._check_field_type(t, name, pos)
            anns = _annotation_values(f.annotations, _FIELD_ANNS,
                                      "a field")
            # an array field is annotated like a pointer to its elements
            r = t.resolved()
            vt = Pointer(r.innermost()) if isinstance(r, Array) else t
            info = self._value_info(anns, vt, "field '%s'" % name)
            fld = Field(pos, name, t, info)
            fld.anns = anns
            r = t.resolved()
            if isinstance(r, Array):
                fld.count_type = r.innermost()
                fld.code = self._code(fld.count_type, ValueInfo())
            else:
                fld.code = self._code(t, info)
            out.append(fld)
        return out

    def _check_field_type(self, t, name, pos):
        r = t.resolved()
        if isinstance(r, Array):
            if r.size is None:
                raise IdlError(pos, "flexible array member '%s' is not "
                               "supported" % name)
            r = r.innermost()
        if isinstance(r, Void):
            raise IdlError(pos, "field '%s' has type void" % name)
        if isinstance(r, FuncType):
            raise IdlError(pos, "field '%s' has a function type; use a "
                           "pointer to function" % name)
        if r.kind == "opaque":
            raise IdlError(pos, "field '%s' has incomplete type %s"
                           % (name, _type_label(t)))
        self._use(r)

    def _check_field_annotations(self, fields):
        by_name = {f.name: f for f in fields}
        for f in fields:
            if f.info.length is not None:
                pos = f.anns["length"][1]
                other = by_name.get(f.info.length)
                if other is None or other is f:
                    raise IdlError(pos, "[length] names '%s', which is not "
                                   "another field" % f.info.length)
                if not _is_integer(other.type):
                    raise IdlError(pos, "[length] field '%s' is not an "
                                   "integer" % f.info.length)

    def _enum_def(self, b, ctx):
        if b.name is not None:
            self._check_name(b.name, b.pos)
            if b.name in self.tags:
                old = self.tags[b.name]
                raise IdlError(b.pos, "'%s' is already declared (at %s)"
                               % (b.name, old.pos))
        decl = EnumDecl(b.pos, b.name)
        decl.defined_in_typedef = ctx == "typedef"
        if b.name is not None:
            self.tags[b.name] = decl
        prev = None
        for e in b.enumerators:
            self._declare(e.name, e.pos)
            value = None
            if e.value is not None:
                self._check_expr(e.value)
                value = e.value.text
            en = Enumerator(e.pos, e.name, value, prev)
            decl.enumerators.append(en)
            self.consts.add(e.name)
            self.m.constants.append(Constant(e.name, "i", None, en))
            prev = en
        self.m.items.append(decl)
        return decl

    def _check_expr(self, expr):
        """Names in expressions must be IDL constants, unless a header
        may define them."""
        if self.m.has_includes:
            return
        for name, pos in expr.names:
            if name not in self.consts:
                raise IdlError(pos, "unknown constant '%s'" % name)

    def _declarator(self, base, d, ctx):
        """(type, name, pos) of declarator d applied to base."""
        t, name, pos = base, None, None
        while d is not None:
            if isinstance(d, S.DName):
                name, pos = d.name, d.pos
                break
            if isinstance(d, S.DPointer):
                quals = set()
                for q, qpos in d.quals:
                    if q in quals:
                        raise IdlError(qpos, "duplicate '%s'" % q)
                    quals.add(q)
                t = Pointer(t).qualified(quals)
            elif isinstance(d, S.DArray):
                if isinstance(t.resolved(), (FuncType, Void)):
                    raise IdlError(d.pos, "array of %s"
                                   % ("functions" if t.kind == "function"
                                      else "void"))
                size = None
                if d.size is not None:
                    self._check_expr(d.size)
                    if d.size.literal is not None and d.size.literal <= 0:
                        raise IdlError(d.size.pos, "array size must be "
                                       "positive")
                    size = d.size.text
                t = Array(t, size)
            elif isinstance(d, S.DFunction):
                if isinstance(t.resolved(), (FuncType, Array)):
                    raise IdlError(d.pos, "a function cannot return %s"
                                   % ("a function" if t.kind == "function"
                                      else "an array"))
                self._note_return(t)
                t = self._func_type(t, d, ctx)
            d = d.inner
        return t, name, pos

    def _note_return(self, t):
        """C ignores qualifiers on a return type, and compilers warn about
        them; the generated C keeps them (a header may have them too, and
        GCC then wants them repeated) and silences the warning."""
        if t.resolved().quals:
            self.m.qualified_returns = True

    def _func_type(self, ret, d, ctx):
        """The FuncType of a parameter list that is not the one of a
        declared function (pointers to functions, typedefs)."""
        params = []
        if d is not self._cb_fnode:
            for p in d.params:
                if p.annotations:
                    raise IdlError(p.annotations[0].pos, "annotations on "
                                   "the parameters of a function pointer "
                                   "belong in a callback typedef")
        syntax = self._param_types(d)
        if d is self._cb_fnode:
            self._cb_params = syntax
        for p, t, name, pos in syntax:
            params.append((name, t))
        return FuncType(ret, params, d.variadic)

    def _param_types(self, d):
        """[(syntax param, type, name, pos)] with arrays and functions
        decayed and (void) turned into no parameters."""
        out = []
        seen = {}
        for i, p in enumerate(d.params):
            base = self._base(p.specifiers, "param")
            t, name, pos = self._declarator(base, p.declarator, "param")
            pos = pos or p.pos
            if name is not None:
                self._check_name(name, pos)
                if name in seen:
                    raise IdlError(pos, "duplicate parameter '%s'" % name)
                seen[name] = pos
            r = t.resolved()
            if isinstance(r, Void) and not isinstance(t, Pointer):
                if name is None and len(d.params) == 1 and not r.quals \
                        and not d.variadic and p.declarator is None:
                    return []
                if name is not None:
                    raise IdlError(pos, "parameter '%s' has type void" % name)
                raise IdlError(pos, "'void' must be the only parameter")
            if isinstance(r, Array):
                t = Pointer(r.elem).qualified(set())
                t.array_size = r.size
            elif isinstance(r, FuncType):
                t = Pointer(t)
            out.append((p, t, name, pos))
        return out

    # ---- declarations
    def _item_OpaqueTypedef(self, d):
        self._declare(d.name, d.pos)
        decl = OpaqueDecl(d.pos, d.name)
        t = Opaque(decl)
        self.typedefs[d.name] = t
        self.m.items.append(decl)
        self._add_layout(d.name, "opaque", t, decl, d.pos)

    def _item_Typedef(self, d):
        base = self._base(d.specifiers, "typedef")
        defined = None
        b = d.specifiers.base
        if isinstance(b, (S.RecordDef, S.EnumDef)):
            defined = base.resolved().decl
        for decl_node, anns in d.declarators:
            fnode = _callback_fnode(decl_node)
            annotated = bool(anns) or (fnode is not None and any(
                p.annotations for p in fnode.params))
            if anns and fnode is None:
                raise IdlError(anns[0].pos, "annotations on a typedef make "
                               "it a callback type, which needs a function "
                               "or function pointer type")
            self._cb_fnode = fnode if annotated else None
            self._cb_params = None
            try:
                t, name, pos = self._declarator(base, decl_node, "typedef")
            finally:
                self._cb_fnode = None
            if name is None:
                raise IdlError(d.pos, "a typedef needs a name")
            if isinstance(t.resolved(), Array) and t.resolved().size is None:
                raise IdlError(pos, "typedef '%s' of an array without a size "
                               "is not supported" % name)
            self._declare(name, pos)
            td = TypedefDecl(pos, name, t)
            if defined is not None:
                td.defines = defined
                if defined.tag is None and defined.typedef_name is None \
                        and t is base:
                    defined.typedef_name = name
                    if isinstance(defined, RecordDecl):
                        self._add_layout(name, defined.kind, Record(defined),
                                         defined, pos)
            self.typedefs[name] = Typedef(td)
            self.m.items.append(td)
            if annotated:
                self._callback_type(td, fnode, anns)
        if defined is not None and defined.tag is None and \
                defined.typedef_name is None:
            raise IdlError(b.pos, "an anonymous %s needs a typedef name "
                           "(typedef %s { ... } NAME;)"
                           % (b.kind if isinstance(b, S.RecordDef) else
                              "enum", b.kind if isinstance(b, S.RecordDef)
                              else "enum"))

    def _item_TagDecl(self, d):
        b = d.specifiers.base
        if d.specifiers.quals:
            raise IdlError(d.specifiers.quals[0][1], "qualifier on a "
                           "declaration that declares nothing")
        if isinstance(b, S.RecordDef):
            if b.name is None:
                raise IdlError(b.pos, "an anonymous %s declares nothing; "
                               "give it a tag or a typedef name" % b.kind)
            self._record_def(b, "file")
        elif isinstance(b, S.RecordRef):
            self._record_ref(b)
        elif isinstance(b, S.EnumDef):
            self._enum_def(b, "file")
        else:
            raise IdlError(d.pos, "declaration declares nothing")

    def _item_Decl(self, d):
        if d.is_fn or _declares_function(d.declarator):
            return self._function(d)
        return self._constant(d)

    def _constant(self, d):
        base = self._base(d.specifiers, "function")
        t, name, pos = self._declarator(base, d.declarator, "file")
        if name is None:
            raise IdlError(d.pos, "a declaration needs a name")
        if not t.is_const or not isinstance(d.declarator, S.DName):
            raise IdlError(pos, "'%s' is a variable; only functions and "
                           "constants (const T NAME;) can be declared" % name)
        if d.storage is not None and d.storage[0] == "extern":
            raise IdlError(d.storage[1], "an extern object is not a constant "
                           "expression; constants must be macros or "
                           "enumerators")
        if not _is_integer(t):
            raise IdlError(pos, "constant '%s' must have an integer type"
                           % name)
        if d.value is None and not self.m.has_includes:
            raise IdlError(pos, "constant '%s' needs a value (no #include "
                           "provides it)" % name)
        if d.value is not None:
            self._check_expr(d.value)
        self._declare(name, pos)
        decl = ConstantDecl(pos, name, t, d.value.text if d.value else None)
        self.consts.add(name)
        self.m.items.append(decl)
        self.m.constants.append(Constant(name, self._code(t, ValueInfo()),
                                         t, decl))
        self._use(t.resolved())

    # ---- functions
    def _function(self, d):
        base = self._base(d.specifiers, "function")
        fd = d.declarator
        # the declared function is the innermost parameter list
        outer = []
        node = fd
        while node is not None and not isinstance(node, S.DName):
            outer.append(node)
            node = node.inner
        if node is None:
            raise IdlError(d.pos, "a declaration needs a name")
        name, pos = node.name, node.pos
        fnode = None
        for n in outer:
            if isinstance(n, S.DFunction):
                fnode = n
        if fnode is None or not (fnode.inner is node):
            # a pointer to a function, or worse; the declarator's own
            # errors (an array of functions, ...) come first
            self._declarator(base, fd, "file")
            raise IdlError(pos, "'%s' is a variable; only functions and "
                           "constants (const T NAME;) can be declared" % name)
        ret = self._declarator_prefix(base, fd, fnode)
        if d.storage is not None and d.storage[0] == "static":
            raise IdlError(d.storage[1], "a static function is not visible "
                           "to the generated C")
        r = ret.resolved()
        if isinstance(r, (FuncType, Array)):
            raise IdlError(pos, "a function cannot return %s"
                           % ("a function" if isinstance(r, FuncType)
                              else "an array"))
        if fnode.variadic:
            return self._prototype(d, base, fd, name, pos)
        anns = _annotation_values(d.annotations,
                                  _FUNCTION_ANNS + _VALUE_ANNS, "a function")
        flags = dict(self.defaults, macro=False)
        for k in ("errno", "function_pointer", "macro", "trace", "fault"):
            if k in anns:
                flags[k] = anns[k][0]
        reg_name = anns["rename"][0] if "rename" in anns else name
        if "rename" in anns:
            self._check_name(reg_name, anns["rename"][1])
        c_name = name
        if "rename" in anns and "variadic" in anns:
            raise IdlError(anns["rename"][1], "a variadic instantiation is "
                           "already named by its declaration; drop 'rename'")
        if "variadic" in anns:
            c_name = anns["variadic"][0]
            self._check_name(c_name, anns["variadic"][1])
        if flags["function_pointer"] and "variadic" in anns:
            raise IdlError(anns["variadic"][1], "'variadic' and "
                           "'function_pointer' cannot be combined")
        if flags["macro"] and (flags["function_pointer"]
                               or "variadic" in anns):
            raise IdlError(anns["macro"][1] if "macro" in anns else pos,
                           "'macro' cannot be combined with '%s'"
                           % ("variadic" if "variadic" in anns
                              else "function_pointer"))
        if flags["macro"] and not self.m.has_includes:
            raise IdlError(anns["macro"][1] if "macro" in anns else pos,
                           "[macro] needs an #include that defines the macro")
        if not flags["function_pointer"] and "variadic" not in anns:
            self._declare(name, pos)
        else:
            self._check_name(name, pos)
        if reg_name in self.registry:
            raise IdlError(anns["rename"][1] if "rename" in anns else pos,
                           "function '%s' is already in the registry (at %s)"
                           % (reg_name, self.registry[reg_name]))
        if len(reg_name) > 255:
            raise IdlError(pos, "the registry name '%s...' is longer than "
                           "255 bytes" % reg_name[:20])
        self.registry[reg_name] = pos

        params = self._function_params(fnode, name)
        f = Function(pos, reg_name, c_name, ret, params)
        f.errno = flags["errno"]
        f.function_pointer = flags["function_pointer"]
        f.macro = flags["macro"]
        f.trace = flags["trace"]
        f.fault = flags["fault"]
        if "variadic" in anns:
            f.variadic_of = c_name
        self._check_value_type(ret, "the return value of '%s'" % name, pos,
                               allow_void=True)
        f.ret_info = self._value_info(anns, ret, "the return value")
        f.ret_anns = anns
        self._check_lengths(f, anns, f.ret_info, None)
        for p in params:
            self._check_lengths(f, p.anns, p.info, p)
        if "variadic" in anns:
            self._instantiation(f, anns["variadic"][1])
        self._callbacks(f)
        self._slots(f)
        f.index = len(self.m.functions)
        self.m.functions.append(f)
        self.m.items.append(f)
        if f.errno:
            self.m.uses_errno = True

    def _declarator_prefix(self, base, fd, fnode):
        """The return type: base with every declarator level outside the
        function's own parameter list applied."""
        t = base
        node = fd
        while node is not fnode:
            if isinstance(node, S.DPointer):
                quals = set(q for q, _ in node.quals)
                t = Pointer(t).qualified(quals)
            elif isinstance(node, S.DArray):
                t = Array(t, node.size.text if node.size else None)
            elif isinstance(node, S.DFunction):
                self._note_return(t)
                t = self._func_type(t, node, "file")
            node = node.inner
        self._note_return(t)
        return t

    def _prototype(self, d, base, fd, name, pos):
        if d.annotations:
            raise IdlError(d.annotations[0].pos, "a variadic prototype takes "
                           "no annotations; annotate its instantiations")
        t, _, _ = self._declarator(base, fd, "file")
        self._declare(name, pos)
        proto = Prototype(pos, name, t)
        self.prototypes[name] = proto
        self.m.prototypes.append(proto)
        self.m.items.append(proto)

    def _instantiation(self, f, apos):
        proto = self.prototypes.get(f.c_name)
        if proto is None:
            if not self.m.has_includes:
                raise IdlError(apos, "variadic '%s' needs its prototype: "
                               "declare it (for example int %s(const char *, "
                               "...);) or #include its header"
                               % (f.c_name, f.c_name))
            return
        f.prototype = proto
        ft = proto.type
        if ft.ret.canon() != f.ret.canon():
            raise IdlError(f.pos, "the return type of '%s' does not match "
                           "'%s'" % (f.name, f.c_name))
        if len(f.params) < len(ft.params):
            raise IdlError(f.pos, "'%s' has fewer parameters than the %d "
                           "fixed ones of '%s'" % (f.name, len(ft.params),
                                                   f.c_name))
        for i, (p, (_, pt)) in enumerate(zip(f.params, ft.params)):
            if p.type.unqualified().canon() != pt.unqualified().canon():
                raise IdlError(p.pos, "parameter %d of '%s' does not match "
                               "'%s'" % (i + 1, f.name, f.c_name))

    def _function_params(self, fnode, fname):
        params = []
        for i, (p, t, name, pos) in enumerate(self._param_types(fnode)):
            anns = _annotation_values(p.annotations, _PARAM_ANNS,
                                      "a parameter")
            label = "'%s'" % name if name else "parameter %d" % (i + 1)
            direction, value_t = self._direction(anns, t, label, pos)
            if "owned" in anns and direction == "in":
                raise IdlError(anns["owned"][1], "[owned] applies to return "
                               "values and [out]/[inout] parameters")
            param = Param(pos, i, name, t, direction, None)
            param.anns = anns
            param.info = self._value_info(anns, value_t, "parameter %s"
                                          % label)
            if getattr(t, "array_size", None) and param.info.size is None \
                    and param.info.length is None and direction == "in":
                size = t.array_size
                param.info.size = int(size) if size.isdigit() else size
            self._use(value_t.resolved())
            params.append(param)
        return params

    def _direction(self, anns, t, label, pos):
        """(direction, value type) of a parameter from its in / out /
        inout annotation; the value of [out]/[inout] is the pointee."""
        dirs = [k for k in ("in", "out", "inout") if k in anns]
        if len(dirs) > 1:
            raise IdlError(anns[dirs[1]][1], "conflicting annotations "
                           "'%s' and '%s'" % (dirs[0], dirs[1]))
        direction = dirs[0] if dirs else "in"
        value_t = t
        if direction != "in":
            apos = anns[direction][1]
            r = t.resolved()
            if not isinstance(r, Pointer):
                raise IdlError(apos, "[%s] parameter %s is not a pointer"
                               % (direction, label))
            target = r.target.resolved()
            if target.is_const:
                raise IdlError(apos, "[%s] parameter %s points to const"
                               % (direction, label))
            if isinstance(target, Void):
                raise IdlError(apos, "[%s] parameter %s points to void"
                               % (direction, label))
            if isinstance(target, FuncType):
                raise IdlError(apos, "[%s] parameter %s points to a "
                               "function" % (direction, label))
            if isinstance(target, Array):
                raise IdlError(apos, "[%s] parameter %s points to an "
                               "array" % (direction, label))
            if target.kind == "opaque":
                raise IdlError(apos, "[%s] parameter %s points to an "
                               "opaque type" % (direction, label))
            value_t = r.target
        else:
            self._check_value_type(t, "parameter %s" % label, pos)
        return direction, value_t

    # ---- callbacks
    def _callback_type(self, td, fnode, anns):
        """The CallbackType of an annotated typedef of a function (pointer)
        type; its parameters' syntax is in self._cb_params."""
        name = td.name
        t = td.type.resolved()
        ftype = t.target.resolved() if isinstance(t, Pointer) else t
        if not isinstance(ftype, FuncType) or self._cb_params is None:
            raise IdlError(td.pos, "callback type '%s' needs a function or "
                           "function pointer type" % name)
        tanns = _annotation_values(anns, _CB_TYPEDEF_ANNS,
                                   "a callback typedef")
        if fnode.variadic:
            raise IdlError(td.pos, "callback type '%s' cannot be variadic"
                           % name)
        params = []
        cb = CallbackType(td.pos, name, td, ftype, params)
        for i, (p, pt, pname, ppos) in enumerate(self._cb_params):
            panns = _annotation_values(p.annotations, _CB_PARAM_ANNS,
                                       "a callback parameter")
            label = "'%s'" % pname if pname else "parameter %d" % (i + 1)
            direction, value_t = self._direction(panns, pt, label, ppos)
            if value_t.kind in ("struct", "union"):
                raise IdlError(ppos, "parameter %s of callback type '%s' is "
                               "a %s by value, which callbacks do not take"
                               % (label, name, value_t.kind))
            param = Param(ppos, i, pname, pt, direction, None)
            param.anns = panns
            param.info = self._value_info(panns, value_t, "parameter %s"
                                          % label)
            if "context" in panns:
                cval, cpos = panns["context"]
                if cb.context is not None:
                    raise IdlError(cpos, "callback type '%s' has two "
                                   "[context] parameters (%s and %s)"
                                   % (name, cb.context.label, label))
                r = pt.resolved()
                if direction != "in" or not isinstance(r, Pointer) or \
                        r.kind != "pointer":
                    raise IdlError(cpos, "[context] parameter %s of "
                                   "callback type '%s' is not a data "
                                   "pointer" % (label, name))
                cb.context = param
                if cval is True:
                    param.is_context = True
                else:
                    self._check_name(cval[0], cval[1])
                    cb.context_from, cb.context_from_pos = cval
            self._use(value_t.resolved())
            params.append(param)
        self._check_value_type(cb.ret, "the return value of callback type "
                               "'%s'" % name, td.pos, allow_void=True)
        if cb.ret.kind in ("struct", "union"):
            raise IdlError(td.pos, "callback type '%s' returns a %s by "
                           "value, which callbacks do not do"
                           % (name, cb.ret.kind))
        cb.ret_info = self._value_info(tanns, cb.ret, "the return value")
        for prm in params:
            self._check_lengths(cb, prm.anns, prm.info, prm)
        if "thunks" in tanns:
            if cb.context is not None:
                raise IdlError(tanns["thunks"][1], "callback type '%s' has a "
                               "[context] parameter; [thunks] is for "
                               "callbacks without one" % name)
            cb.thunks = tanns["thunks"][0]
        elif cb.context is None:
            raise IdlError(td.pos, "callback type '%s' needs a [context] "
                           "parameter or a pool of thunks ([thunks=N] after "
                           "its parameter list)" % name)
        cb.errno = bool(tanns.get("errno", (False,))[0])
        self._callback_slots(cb)
        td.callback = cb
        td.spell_through = True
        self.m.callbacks.append(cb)

    def _callback_slots(self, cb):
        idx = SlotIndex(1)          # in[0] is the environment word
        ins = []
        for p in cb.params:
            if p.is_context or p.direction == "out":
                continue
            t = p.type if p.direction == "in" else p.pointee
            s = Slot("arg" if p.direction == "in" else "inout", p.name, p,
                     t, self._code(t, p.info), idx, p.info)
            p.in_slot = s
            ins.append(s)
            idx = idx.plus(None)
        cb.in_slots, cb.n_in = ins, SlotIndex(idx.fixed - 1)
        idx = SlotIndex()
        outs = []
        if not isinstance(cb.ret.resolved(), Void):
            outs.append(Slot("return", "return", None, cb.ret,
                             self._code(cb.ret, cb.ret_info), idx,
                             cb.ret_info))
            idx = idx.plus(None)
        for p in cb.params:
            if p.direction == "in":
                continue
            s = Slot(p.direction, p.name, p, p.pointee,
                     self._code(p.pointee, p.info), idx, p.info)
            p.out_slot = s
            outs.append(s)
            idx = idx.plus(None)
        if cb.errno:
            outs.append(Slot("errno", "errno", None, SCALARS["int"], "e",
                             idx, None))
            idx = idx.plus(None)
        cb.out_slots, cb.n_out = outs, idx

    def _callbacks(self, f):
        """Links a function's callback parameters with the parameters
        that carry their contexts and their destroy notifies."""
        by_name = {p.name: p for p in f.params if p.name}
        cbs = []
        for p in f.params:
            cb = _callback_of(p.type) if p.direction == "in" else None
            if cb is None:
                if "scope" in p.anns:
                    raise IdlError(p.anns["scope"][1], "[scope] needs a "
                                   "parameter of a callback type, but %s is "
                                   "%s" % (p.label, _type_label(p.type)))
                continue
            scope = "call"
            if "scope" in p.anns:
                scope, spos = p.anns["scope"]
                if scope not in SCOPES:
                    raise IdlError(spos, "'scope' must be call, async, "
                                   "notified or forever, not '%s'" % scope)
            p.callback, p.scope = cb, scope
            cb.used = True
            cbs.append(p)
        for p in f.params:
            if "context" not in p.anns:
                continue
            names, apos = p.anns["context"]
            r = p.type.resolved()
            if p.direction != "in" or not isinstance(r, Pointer) or \
                    r.kind != "pointer":
                raise IdlError(apos, "[context] parameter %s is not a data "
                               "pointer" % p.label)
            for n, npos in names:
                target = by_name.get(n)
                if target is None or target.callback is None:
                    raise IdlError(npos, "[context] names '%s', which is not "
                                   "a callback parameter of '%s'"
                                   % (n, f.name))
                if target.callback.context is None:
                    raise IdlError(npos, "[context] names '%s', whose type "
                                   "'%s' has no context parameter (it has a "
                                   "pool of thunks)"
                                   % (n, target.callback.name))
                if target.context is not None:
                    raise IdlError(npos, "callback '%s' already has its "
                                   "context in %s" % (n, target.context.label))
                target.context = p
                p.carries.append(target)
            p.carries.sort(key=lambda c: c.index)
            first = p.carries[0]
            for c in p.carries[1:]:
                if c.scope != first.scope:
                    raise IdlError(apos, "callbacks '%s' and '%s' share "
                                   "context %s but have different scopes"
                                   % (first.name, c.name, p.label))
                if bool(c.info.nullable) != bool(first.info.nullable):
                    raise IdlError(apos, "callbacks '%s' and '%s' share "
                                   "context %s; both or neither must be "
                                   "[nullable]" % (first.name, c.name,
                                                   p.label))
            for k, c in enumerate(p.carries):
                c.member = k
                c.callback.members.add(k)
        for p in cbs:
            if p.callback.context is not None and p.context is None:
                raise IdlError(p.pos, "callback %s needs the parameter that "
                               "carries its context: mark it [context=%s]"
                               % (p.label, p.name or "NAME"))
        for p in f.params:
            if "destroy" not in p.anns:
                continue
            n, apos = p.anns["destroy"]
            if not _is_destroy_notify(p.type) or p.direction != "in":
                raise IdlError(apos, "[destroy] parameter %s must have type "
                               "'void (*)(void *)', not %s"
                               % (p.label, _type_label(p.type)))
            target = by_name.get(n)
            if target is None or target.callback is None:
                raise IdlError(apos, "[destroy] names '%s', which is not a "
                               "callback parameter of '%s'" % (n, f.name))
            if target.context is None:
                raise IdlError(apos, "[destroy] names '%s', whose type '%s' "
                               "has no context to pass to a destroy notify"
                               % (n, target.callback.name))
            if target.scope != "notified":
                raise IdlError(apos, "[destroy] names '%s', whose scope is "
                               "%s; a destroy notify needs [scope=notified]"
                               % (n, target.scope))
            ctx = target.context
            if ctx.carries[0].destroy is not None:
                raise IdlError(apos, "context %s already has a destroy "
                               "notify (%s)" % (ctx.label,
                                                ctx.carries[0].destroy.label))
            p.destroys = ctx
            for c in ctx.carries:
                c.destroy = p
        for p in cbs:
            if p.scope == "notified" and p.destroy is None:
                raise IdlError(p.anns["scope"][1], "callback %s has "
                               "[scope=notified] but no destroy notify: mark "
                               "the parameter that takes one [destroy=%s]"
                               % (p.label, p.name or "NAME"))

    def _check_value_type(self, t, what, pos, allow_void=False):
        r = t.resolved()
        if isinstance(r, Void):
            if allow_void:
                return
            raise IdlError(pos, "%s has type void" % what)
        if r.kind == "opaque":
            raise IdlError(pos, "%s has opaque type %s; it cannot be passed "
                           "by value" % (what, _type_label(t)))
        self._use(r)

    def _value_info(self, anns, t, what):
        """ValueInfo from the value annotations, checked against the value
        type t."""
        info = ValueInfo()
        r = t.resolved()
        is_ptr = isinstance(r, Pointer)

        def need_pointer(key):
            if not is_ptr:
                raise IdlError(anns[key][1], "[%s] needs a pointer, but %s "
                               "is %s" % (key, what, _type_label(t)))

        for key in ("nullable", "nonnull"):
            if key in anns and anns[key][0]:
                need_pointer(key)
        if anns.get("nullable", (False,))[0] and \
                anns.get("nonnull", (False,))[0]:
            raise IdlError(anns["nonnull"][1], "conflicting annotations "
                           "'nullable' and 'nonnull'")
        if "nullable" in anns and anns["nullable"][0]:
            info.nullable = True
        elif "nonnull" in anns and anns["nonnull"][0]:
            info.nullable = False
        if "length" in anns and "size" in anns:
            raise IdlError(anns["size"][1], "conflicting annotations "
                           "'length' and 'size'")
        for key in ("length", "size", "zero_terminated", "owned"):
            if key in anns and anns[key][0] is not False:
                need_pointer(key)
        if "length" in anns:
            info.length = anns["length"][0]
        if "size" in anns:
            v = anns["size"][0]
            if isinstance(v, str) and not self.m.has_includes \
                    and v not in self.consts:
                raise IdlError(anns["size"][1], "unknown constant '%s'" % v)
            info.size = v
        if "zero_terminated" in anns:
            info.zero_terminated = anns["zero_terminated"][0]
        if "owned" in anns:
            info.owned = anns["owned"][0]
            info.owned_pos = anns["owned"][1]
        is_char_ptr = is_ptr and isinstance(r.target.resolved(), Scalar) \
            and r.target.resolved().name == "char"
        if "string" in anns:
            if anns["string"][0]:
                if not is_char_ptr:
                    raise IdlError(anns["string"][1], "[string] needs a char "
                                   "pointer, but %s is %s"
                                   % (what, _type_label(t)))
                info.string = True
        elif is_char_ptr and r.target.is_const and info.length is None \
                and info.size is None and not info.zero_terminated:
            info.string = True   # const char * is a string by default
        return info

    def _check_lengths(self, f, anns, info, param):
        if info.length is None:
            return
        pos = anns["length"][1]
        target = None
        for p in f.params:
            if p.name == info.length:
                target = p
        if target is None or target is param:
            raise IdlError(pos, "[length] names '%s', which is not another "
                           "parameter of '%s'" % (info.length, f.name))
        t = target.type if target.direction == "in" else target.pointee
        if not _is_integer(t):
            raise IdlError(pos, "[length] parameter '%s' is not an integer"
                           % info.length)

    def _resolve_context_accessors(self):
        """[context=FN] in a callback typedef: FN is a function of the
        module (by C name) that takes one pointer and returns the data
        pointer the library keeps (sqlite3_user_data)."""
        by_c = {}
        for f in self.m.functions:
            if f.packed is None and not f.function_pointer and \
                    f.variadic_of is None:
                by_c.setdefault(f.c_name, f)
        for cb in self.m.callbacks:
            if cb.context_from is None:
                continue
            f = by_c.get(cb.context_from)
            if f is None:
                raise IdlError(cb.context_from_pos, "[context] names '%s', "
                               "which is not a function of module '%s'"
                               % (cb.context_from, self.m.name))
            r = f.ret.resolved()
            if len(f.params) != 1 or \
                    not isinstance(f.params[0].type.resolved(), Pointer) or \
                    not isinstance(r, Pointer) or r.kind != "pointer":
                raise IdlError(cb.context_from_pos, "context accessor '%s' "
                               "must take one pointer and return a data "
                               "pointer" % cb.context_from)

    def _resolve_owned(self):
        names = {}
        for f in self.m.functions:
            if f.packed is not None:
                continue   # a destructor is a C function
            names.setdefault(f.name, f)
            if not f.function_pointer:
                names.setdefault(f.c_name, f)
        for f in self.m.functions:
            for info in [f.ret_info] + [p.info for p in f.params]:
                if info.owned is None:
                    continue
                d = names.get(info.owned)
                if d is None:
                    raise IdlError(info.owned_pos, "[owned] names '%s', which "
                                   "is not a function of module '%s'"
                                   % (info.owned, self.m.name))
                if len(d.in_slots) != 1 or d.in_slots[0].code != "p":
                    raise IdlError(info.owned_pos, "destructor '%s' must take "
                                   "exactly one pointer" % info.owned)
                info.owned = d.name

    # ---- slots
    def _code(self, t, info):
        r = t.resolved()
        if isinstance(r, Scalar):
            return r.code
        if isinstance(r, Enum):
            return "i"
        if isinstance(r, Pointer):
            if r.kind == "funcptr":
                return "F"
            return "s" if info.string else "p"
        if isinstance(r, Record) and not r.decl.opaque:
            return "{%s}" % r.decl.name
        raise AssertionError("no slot code for %s" % t.spell())

    def _slots(self, f):
        idx = SlotIndex()
        ins = []
        if f.function_pointer:
            fp = Pointer(f.c_type)
            ins.append(Slot("target", "target", None, fp, "F", idx, None))
            idx = idx.plus(None)
        for p in f.params:
            if p.direction == "out" or p.destroys is not None:
                continue
            if p.callback is not None and p.callback.context is not None:
                continue    # its context parameter's slot carries it
            if p.carries or p.callback is not None:
                s = Slot("closure", p.name, p, p.type, "c", idx, p.info)
                s.callbacks = list(p.carries) if p.carries else [p]
                p.in_slot = s
                ins.append(s)
                idx = idx.plus(None)
                self.m.uses_callbacks = True
                continue
            t = p.type if p.direction == "in" else p.pointee
            s = Slot("arg" if p.direction == "in" else "inout",
                     p.name, p, t, self._code(t, p.info), idx, p.info)
            p.in_slot = s
            ins.append(s)
            idx = idx.plus(s.record)
        f.in_slots, f.n_in = ins, idx
        idx = SlotIndex()
        outs = []
        if not isinstance(f.ret.resolved(), Void):
            s = Slot("return", "return", None, f.ret,
                     self._code(f.ret, f.ret_info), idx, f.ret_info)
            outs.append(s)
            idx = idx.plus(s.record)
        for p in f.params:
            if p.direction == "in":
                continue
            s = Slot(p.direction, p.name, p, p.pointee,
                     self._code(p.pointee, p.info), idx, p.info)
            p.out_slot = s
            outs.append(s)
            idx = idx.plus(s.record)
        if f.errno:
            outs.append(Slot("errno", "errno", None, SCALARS["int"], "e",
                             idx, None))
            idx = idx.plus(None)
        f.out_slots, f.n_out = outs, idx
        if len(ins) > 0x7FFF or len(outs) > 0x7FFF:
            raise IdlError(f.pos, "too many slots")

    def _use(self, r):
        if isinstance(r, Scalar) and (r.name in ASSUMED_SIZES
                                      or r.name == "ptrdiff_t"):
            self.m.used_scalars.add(r.name)
        elif isinstance(r, Enum):
            self.m.used_scalars.add("int")


def _callback_of(t):
    """The CallbackType a parameter of type t takes — t names a callback
    typedef of a function pointer type, or points to one of a function
    type — or None."""
    u = t
    while isinstance(u, Typedef):
        if u.decl.callback is not None:
            ok = isinstance(u.decl.type.resolved(), Pointer)
            return u.decl.callback if ok else None
        u = u.decl.type
    r = t.resolved()
    if isinstance(r, Pointer):
        u = r.target
        while isinstance(u, Typedef):
            if u.decl.callback is not None:
                ok = isinstance(u.decl.type.resolved(), FuncType)
                return u.decl.callback if ok else None
            u = u.decl.type
    return None


def _is_destroy_notify(t):
    """t is a pointer to a function void (void *) (a GDestroyNotify)."""
    r = t.resolved()
    if not isinstance(r, Pointer) or r.kind != "funcptr":
        return False
    ft = r.target.resolved()
    if not isinstance(ft.ret.resolved(), Void) or ft.variadic or \
            len(ft.params) != 1:
        return False
    pr = ft.params[0][1].resolved()
    return isinstance(pr, Pointer) and isinstance(pr.target.resolved(), Void) \
        and not pr.target.resolved().quals


def _callback_fnode(d):
    """The parameter list of the function (pointer) type a typedef
    declarator declares — "NAME(...)" or "(*NAME)(...)" — or None."""
    chain = []
    while d is not None and not isinstance(d, S.DName):
        chain.append(d)
        d = d.inner
    if d is None:
        return None
    inner = list(reversed(chain))   # from the name outward
    if inner and isinstance(inner[0], S.DPointer):
        inner = inner[1:]
    if inner and isinstance(inner[0], S.DFunction):
        return inner[0]
    return None


def _declares_function(d):
    """Whether the innermost suffix of declarator d is a parameter list
    right after the name (a function returning a pointer to an array has
    its array suffix outermost)."""
    last = None
    while d is not None and not isinstance(d, S.DName):
        last = d
        d = d.inner
    return d is not None and isinstance(last, S.DFunction)


def _is_integer(t):
    r = t.resolved()
    return isinstance(r, Enum) or (isinstance(r, Scalar) and r.is_integer)


def is_char_pointer(t):
    r = t.resolved()
    return isinstance(r, Pointer) and isinstance(r.target.resolved(), Scalar) \
        and r.target.resolved().name == "char"


def build(text):
    """IDL text -> Module (parse and check)."""
    from stubgen.parse import parse
    return check(parse(text))
