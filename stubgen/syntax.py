"""Syntax nodes: the parse tree of an IDL file, unchecked.

parse.py builds these from Lark's tree; model.py checks them and builds
the model. Every node has a pos (errors.Pos) for messages.
"""


class Node:
    __slots__ = ("pos",)

    def __repr__(self):
        fields = ", ".join("%s=%r" % (k, getattr(self, k))
                           for k in self.__slots__ if k != "pos")
        return "%s(%s)" % (type(self).__name__, fields)


def _node(name, fields):
    """A Node subclass with the given fields (and pos). Its __init__ is
    written out field by field: a parse makes one node per few tokens,
    and a loop of setattr calls was a tenth of the parse."""
    fields = tuple(fields.split())
    source = "def __init__(self, pos%s):\n    self.pos = pos\n%s" % (
        "".join(", " + f for f in fields),
        "".join("    self.%s = %s\n" % (f, f) for f in fields))
    namespace = {}
    exec(source, namespace)
    return type(name, (Node,), {"__slots__": fields,
                                "__init__": namespace["__init__"]})


# ---- file level ---------------------------------------------------------
# keyword: (word, pos) of the word before the name, which must be "module"
ModuleDecl = _node("ModuleDecl", "name annotations keyword")
Directive = _node("Directive", "text")
DefaultDecl = _node("DefaultDecl", "annotations")
# keyword: (word, pos) of the word before the string, which must be
# "packed"; name: the string's value; pos: the string's position
PackedDecl = _node("PackedDecl",
                   "name keyword specifiers declarator annotations")
OpaqueTypedef = _node("OpaqueTypedef", "name")
# declarators: list of (declarator, annotations)
Typedef = _node("Typedef", "specifiers declarators")
TagDecl = _node("TagDecl", "specifiers")
# is_fn: the declarator's outermost suffix is a parameter list
Decl = _node("Decl", "storage specifiers declarator annotations value is_fn")
# closures NAME(OWNER) { members }: keyword is the specifiers (the word
# "closures" as a type name, checked by the model); declarator the
# function declarator NAME(OWNER); members a list of Field
ClosuresDecl = _node("ClosuresDecl", "keyword declarator annotations members")
File = _node("File", "module items")

# ---- types --------------------------------------------------------------
# quals: list of (word, pos)
Specifiers = _node("Specifiers", "quals base")
Builtin = _node("Builtin", "words")
TypeName = _node("TypeName", "name")
RecordRef = _node("RecordRef", "kind name")
RecordDef = _node("RecordDef", "kind name fields")
EnumRef = _node("EnumRef", "name")
EnumDef = _node("EnumDef", "name enumerators")
# declarators: list of (declarator, bit_width expr or None)
Field = _node("Field", "annotations specifiers declarators")
Enumerator = _node("Enumerator", "name value")

# ---- declarators --------------------------------------------------------
DName = _node("DName", "name")
DPointer = _node("DPointer", "quals inner")
DArray = _node("DArray", "inner size")
DFunction = _node("DFunction", "inner params variadic")
Param = _node("Param", "annotations specifiers declarator")

# ---- annotations and expressions ----------------------------------------
# kind: "flag", "value" or "call"; values: list of AnnValue
Annotation = _node("Annotation", "name kind values")
# kind: "name", "int" or "string"; value: str or int
AnnValue = _node("AnnValue", "kind text value")
# text: the C text; names: list of (name, pos) it mentions;
# literal: its int value when it is one integer literal, else None
Expr = _node("Expr", "text names literal")


def declarator_name(d):
    """The (name, pos) a declarator declares, or (None, None)."""
    while d is not None:
        if isinstance(d, DName):
            return d.name, d.pos
        d = d.inner
    return None, None
