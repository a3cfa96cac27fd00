"""The importer's declaration model: what the header declares, as C types
and declarations, with the annotations and comments the rules add.

A CType is one of these kinds: "scalar" (name: "int", "unsigned long",
"size_t", ...), "void", "pointer" and "array" (target; array: size or
None), "func" (ret, params: [Param], variadic), "record" (name: the
struct/union tag, record: the Record), "enum" (name: the tag), "typedef"
(name, target: the CType it names). `const` marks a const-qualified type.
"""

INTEGER_SCALARS = frozenset((
    "char", "signed char", "unsigned char", "short", "unsigned short",
    "int", "unsigned int", "long", "unsigned long", "long long",
    "unsigned long long", "_Bool", "int8_t", "uint8_t", "int16_t",
    "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t",
    "ssize_t", "intptr_t", "uintptr_t", "ptrdiff_t"))


class CType:
    def __init__(self, kind, name=None, target=None, const=False):
        self.kind = kind
        self.name = name
        self.target = target
        self.const = const
        self.size = None          # arrays
        self.ret = None           # functions
        self.params = []
        self.variadic = False
        self.record = None        # records

    def resolved(self):
        """This type with typedefs looked through (const carried along)."""
        t = self
        const = self.const
        while t.kind == "typedef":
            t = t.target
            const = const or t.const
        if const and not t.const:
            copy = CType(t.kind, t.name, t.target, True)
            copy.__dict__.update({k: v for k, v in t.__dict__.items()
                                  if k != "const"})
            return copy
        return t

    def pointee(self):
        """The resolved target of a pointer, or None."""
        r = self.resolved()
        return r.target.resolved() if r.kind == "pointer" else None

    def is_integer(self):
        r = self.resolved()
        return r.kind == "enum" or (r.kind == "scalar"
                                    and r.name in INTEGER_SCALARS)

    def is_char(self):
        r = self.resolved()
        return r.kind == "scalar" and r.name == "char"

    def is_void_pointer(self):
        p = self.pointee()
        return p is not None and p.kind == "void"

    def is_funcptr(self):
        p = self.pointee()
        return p is not None and p.kind == "func"

    def func(self):
        """The function type of a function pointer (or function), else
        None."""
        r = self.resolved()
        if r.kind == "func":
            return r
        p = self.pointee()
        return p if p is not None and p.kind == "func" else None

    def typedef_name(self):
        """The name of the outermost typedef (through one pointer for a
        pointer-to-function typedef use such as `fn *p`), or None."""
        if self.kind == "typedef":
            return self.name
        if self.kind == "pointer" and self.target.kind == "typedef":
            return self.target.name
        return None


class Param:
    """A parameter of a function or function type."""

    def __init__(self, name, ctype):
        self.name = name
        self.type = ctype
        self.anns = []            # annotation texts, in order


class Decl:
    """Something the draft writes or explains: `order` sorts declarations
    as the header has them; `rules` are the rule comments (rule name,
    detail), `reviews` the `// REVIEW:` comments, `left_out` the reason
    a declaration is written as a comment only."""

    kind = "decl"

    def __init__(self, name, order, where):
        self.name = name
        self.order = order
        self.where = where        # "file:line"
        self.rules = []
        self.reviews = []
        self.left_out = None

    def rule(self, name, detail):
        self.rules.append((name, detail))

    def review(self, text):
        self.reviews.append(text)


class Record(Decl):
    kind = "record"

    def __init__(self, name, order, where, union, typedef=None):
        super().__init__(name, order, where)
        self.union = union
        self.typedef = typedef    # the typedef naming an anonymous record
        self.fields = None        # [Param] when defined, None when opaque
        # defined in place inside another record (no tag, no typedef): it
        # is written where its member is; a Param of it named None is an
        # anonymous member
        self.inline = False


class Enum(Decl):
    kind = "enum"

    def __init__(self, name, order, where, values, typedef=None):
        super().__init__(name, order, where)
        self.values = values      # [(name, int)]
        self.typedef = typedef


class Typedef(Decl):
    kind = "typedef"

    def __init__(self, name, order, where, ctype):
        super().__init__(name, order, where)
        self.type = ctype         # the named type
        self.opaque = False       # written `typedef ... NAME;`
        self.callback = False     # a callback type (its params annotated)
        self.anns = []            # annotations after the parameter list


class Constant(Decl):
    kind = "constant"

    def __init__(self, name, order, where, ctype_text):
        super().__init__(name, order, where)
        self.ctype_text = ctype_text   # "int", "unsigned long", ...


class Function(Decl):
    kind = "function"

    def __init__(self, name, order, where, ret, params, variadic):
        super().__init__(name, order, where)
        self.ret = ret
        self.params = params
        self.variadic = variadic
        self.anns = []            # annotations after the parameter list
        self.defined = False      # defined in the header (inline)



class ClosureSet(Decl):
    kind = "closures"

    def __init__(self, name, order, owner, members):
        super().__init__(name, order, "")
        self.owner = owner        # the owner's type name
        self.members = members    # [(member name, typedef name)]


class Header:
    """Everything read from one header: declarations by kind, in the
    header's order, and `notes`: comments on what was left out that
    belongs to no declaration (function-like macros, variables)."""

    def __init__(self, path):
        self.path = path
        self.records = {}         # tag (or typedef of an anonymous) -> Record
        self.enums = []
        self.typedefs = {}        # name -> Typedef
        self.constants = []
        self.functions = []
        self.closures = []
        self.notes = []           # (order, text)

