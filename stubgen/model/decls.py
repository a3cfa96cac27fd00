"""The declarations of a checked module: what the IDL declares besides
functions and callback types, in the form the emitters print them."""

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


# Joins the member path of a record defined in place into its layout name.
NESTED_SEPARATOR = "__"


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
        # an anonymous record defined inside another: the record holding
        # it, and the member of that type (None for an anonymous member)
        self.parent = None
        self.member = None
        self.member_index = ""      # "[0]" per array dimension of it

    @property
    def c_name(self):
        """Its C type name; None for an anonymous record defined inside
        another, which C reaches only through its member."""
        if self.tag is not None:
            return "%s %s" % (self.kind, self.tag)
        return self.typedef_name

    @property
    def name(self):
        """The name in the layout table and in {name} codes: an anonymous
        record of a member is named by the member's path, its parts joined
        by NESTED_SEPARATOR ("ev__data"): an identifier, as every host
        reads layout names."""
        if self.tag is not None or self.parent is None:
            return self.tag if self.tag is not None else self.typedef_name
        # (while the file is read, the outermost name may be unknown yet)
        return "%s%s%s" % (self.parent.name, NESTED_SEPARATOR, self.member)

    @property
    def outermost(self):
        """The record with a C name that holds this one (itself when it
        has one), and the member path from it ("data.scalar")."""
        if self.parent is None or self.c_name is not None:
            return self, ""
        top, path = self.parent.outermost
        if self.member is None:     # an anonymous member: no name of its own
            return top, path
        return top, ((path + "." if path else "") + self.member
                     + self.member_index)

    @property
    def members(self):
        """The fields by which C names its members: an anonymous member's
        fields in its place, at any depth."""
        out = []
        for f in self.fields or ():
            if f.anonymous:
                out.extend(f.type.resolved().decl.members)
            else:
                out.append(f)
        return out

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

    @property
    def anonymous(self):
        """An anonymous member (a struct or union without a member name,
        C11): its fields are members of the record that holds it."""
        return self.name is None


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
        self._name = name           # None: the record's own (a nested one)
        self.kind = kind            # "struct", "union" or "opaque"
        self.type = type_
        self.decl = decl            # RecordDecl or OpaqueDecl

    @property
    def name(self):
        """An anonymous record defined inside another is named by its
        member's path ("ev__data"), known once the outermost record has
        its name."""
        return self._name if self._name is not None else self.decl.name

    @property
    def fields(self):
        """The members by name (an anonymous member's fields in its
        place)."""
        if isinstance(self.decl, RecordDecl) and self.decl.fields:
            return self.decl.members
        return []


class Prototype:
    """A variadic function declared with `...`: no wrapper; its
    instantiations ([variadic=NAME]) call it."""

    def __init__(self, pos, name, type_):
        self.pos = pos
        self.name = name
        self.type = type_
