"""Clang's cursors and types -> the importer's declaration model
(decls.py): functions (whose name matches the filter), the records,
enums and typedefs they use, every enum of the library's files, and
what is left out with the reason."""

import os

from clang.cindex import AvailabilityKind, CursorKind as CK, TypeKind as TK

from stubgen.ctype import PREDEFINED
from stubgen.docs import doc
from stubgen.importer.decls import (CType, Enum, Function, Header, Param,
                                    Record, Typedef)
from stubgen.importer.spell import spell

SCALARS = {
    TK.BOOL: "_Bool", TK.CHAR_S: "char", TK.CHAR_U: "char",
    TK.SCHAR: "signed char", TK.UCHAR: "unsigned char", TK.SHORT: "short",
    TK.USHORT: "unsigned short", TK.INT: "int", TK.UINT: "unsigned int",
    TK.LONG: "long", TK.ULONG: "unsigned long", TK.LONGLONG: "long long",
    TK.ULONGLONG: "unsigned long long", TK.FLOAT: "float",
    TK.DOUBLE: "double"}
_VA_LIST = ("va_list", "__gnuc_va_list", "__builtin_va_list")


class Unsupported(Exception):
    """A type or declaration the IDL cannot express; the text says why."""


class Reader:
    def __init__(self, tu, path, library, prefix):
        self.header = Header(path)
        self.library = library
        self.prefix = prefix or ""
        self.top = {}
        for i, c in enumerate(tu.cursor.get_children()):
            self.top[c.hash] = i
        self.tu = tu
        self.enum_typedefs = {}   # anonymous enum's hash -> typedef name

    # ---- positions -------------------------------------------------------
    def order(self, cursor):
        """Sorts declarations as the header has them; a nested record
        comes before the record it is nested in."""
        depth = 0
        while cursor is not None and cursor.hash not in self.top:
            cursor = cursor.lexical_parent
            depth -= 1
        return (self.top.get(cursor.hash, 0) if cursor else 0, depth)

    def where(self, cursor):
        loc = cursor.location
        name = os.path.basename(loc.file.name) if loc.file else "?"
        return "%s:%d" % (name, loc.line)

    def own(self, cursor):
        f = cursor.location.file
        return f is not None and os.path.realpath(f.name) in self.library

    # ---- the walk ------------------------------------------------------
    def read(self):
        h = self.header
        seen = set()
        for c in self.tu.cursor.get_children():
            if not self.own(c):
                continue
            if c.kind == CK.TYPEDEF_DECL:
                under = c.underlying_typedef_type.get_canonical()
                if under.kind == TK.ENUM and not \
                        under.get_declaration().spelling:
                    self.enum_typedefs[under.get_declaration().hash] = \
                        c.spelling
            elif c.kind == CK.FUNCTION_DECL:
                if c.spelling.startswith(self.prefix) and \
                        c.spelling not in seen:
                    seen.add(c.spelling)
                    h.functions.append(self.function(c))
            elif c.kind == CK.VAR_DECL:
                h.notes.append((self.order(c), "left out: '%s' is a "
                                "variable; the IDL binds functions and "
                                "constants" % c.spelling))
        for c in self.tu.cursor.get_children():
            if c.kind == CK.ENUM_DECL and self.own(c) and \
                    c.is_definition():
                self.enum(c)
        return h

    def function(self, c):
        try:
            ret = self.ctype(c.result_type)
            params = [Param(a.spelling or None, self.ctype(a.type, a))
                      for a in c.get_arguments()]
            variadic = c.type.kind == TK.FUNCTIONPROTO and \
                c.type.is_function_variadic()
        except Unsupported as e:
            f = Function(c.spelling, self.order(c), self.where(c), None, [],
                         False)
            f.left_out = str(e)
            return f
        _name_params(params)
        f = Function(c.spelling, self.order(c), self.where(c), ret, params,
                     variadic)
        if c.availability == AvailabilityKind.DEPRECATED:
            f.left_out = "the header marks it deprecated (a call to it " \
                "would not compile warning-free)"
            return f
        for t in [ret] + [p.type for p in params]:
            if not _by_value_known(t):
                f.left_out = "it passes '%s' by value, a type known here " \
                    "only by name" % spell(t)
                return f
        f.defined = c.is_definition()     # an inline function
        if variadic:
            f.left_out = ("variadic: the IDL calls it through instantiations "
                          "with fixed parameters ([variadic=%s], %s)"
                          % (c.spelling, doc("IDL.md")))
        return f

    # ---- types ----------------------------------------------------------
    def ctype(self, t, cursor=None):
        """The CType of clang type t; cursor (a declaration of t) gives
        the names of a function type's parameters."""
        const = t.is_const_qualified()
        k = t.kind
        if k == TK.ELABORATED:
            inner = self.ctype(t.get_named_type(), cursor)
            inner.const = inner.const or const
            return inner
        if k == TK.TYPEDEF:
            decl = t.get_declaration()
            name = decl.spelling
            if name in PREDEFINED:
                return CType("scalar", name, const=const)
            if name in _VA_LIST:
                raise Unsupported("a va_list parameter cannot be passed "
                                  "through slots")
            td = self.typedef(decl)
            return CType("typedef", name, td.type, const)
        if k == TK.POINTER:
            return CType("pointer", target=self.ctype(t.get_pointee(),
                                                      cursor), const=const)
        if k in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
            a = CType("array", target=self.ctype(t.element_type),
                      const=const)
            a.size = t.element_count if k == TK.CONSTANTARRAY else None
            return a
        if k in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO):
            return self.functype(t, cursor)
        if k == TK.RECORD:
            rec = self.record(t.get_declaration())
            c = CType("record", rec.name, const=const)
            c.record = rec
            return c
        if k == TK.ENUM:
            decl = t.get_declaration()
            name = decl.spelling or self.enum_typedefs.get(decl.hash)
            if not name:
                raise Unsupported("an anonymous enum type has no name to "
                                  "spell")
            e = CType("enum", name, const=const)
            e.record = self.enum(decl.get_definition() or decl)
            return e
        if k == TK.VOID:
            return CType("void", const=const)
        if k in SCALARS:
            return CType("scalar", SCALARS[k], const=const)
        if k == TK.LONGDOUBLE:
            raise Unsupported("long double does not fit in a slot")
        raise Unsupported("type '%s' has no slot code" % t.spelling)

    def functype(self, t, cursor):
        f = CType("func")
        f.ret = self.ctype(t.get_result())
        names = [c.spelling for c in cursor.get_children()
                 if c.kind == CK.PARM_DECL] if cursor is not None else []
        f.params = [Param(None, self.ctype(a)) for a in t.argument_types()] \
            if t.kind == TK.FUNCTIONPROTO else []
        if len(names) == len(f.params):
            for p, n in zip(f.params, names):
                p.name = n or None
        _name_params(f.params)
        f.variadic = t.kind == TK.FUNCTIONPROTO and t.is_function_variadic()
        if f.variadic:
            raise Unsupported("a variadic function type cannot be called "
                              "back")
        return f

    def typedef(self, decl):
        h = self.header
        name = decl.spelling
        if name in h.typedefs:
            td = h.typedefs[name]
            if td.left_out:
                raise Unsupported(td.left_out)
            return td
        td = Typedef(name, self.order(decl), self.where(decl), None)
        h.typedefs[name] = td
        under = decl.underlying_typedef_type
        if not self.own(decl):
            canon = under.get_canonical()
            if canon.kind in SCALARS and not canon.is_volatile_qualified() \
                    and not canon.is_const_qualified():
                td.type = CType("scalar", SCALARS[canon.kind])
            else:
                td.opaque = True
                td.type = CType("opaque", name)
            return td
        try:
            inner = under
            while inner.kind == TK.ELABORATED:
                inner = inner.get_named_type()
            if inner.kind == TK.RECORD and \
                    not inner.get_declaration().spelling:
                rec = self.record(inner.get_declaration(), name)
                td.type = CType("record", rec.name,
                                const=under.is_const_qualified())
                td.type.record = rec
            else:
                td.type = self.ctype(under, decl)
        except Unsupported as e:
            td.left_out = str(e)
            raise
        return td

    def record(self, decl, typedef=None):
        h = self.header
        defn = decl.get_definition()
        name = decl.spelling or typedef
        if not name:
            raise Unsupported("an anonymous struct or union has no name")
        if name in h.records:
            return h.records[name]
        union = decl.kind == CK.UNION_DECL
        rec = Record(name, self.order(defn or decl), self.where(defn or decl),
                     union, typedef if not decl.spelling else None)
        h.records[name] = rec
        if defn is None or not self.own(defn):
            return rec
        fields = self.fields(defn, rec)
        if fields is not None:
            rec.fields = fields
        return rec

    def inline_record(self, decl):
        """A struct or union defined without a tag inside another."""
        rec = Record(None, self.order(decl), self.where(decl),
                     decl.kind == CK.UNION_DECL)
        rec.inline = True
        rec.fields = self.fields(decl, rec)
        if rec.fields is None:
            raise Unsupported("a struct or union in it %s"
                              % "; ".join(rec.reviews))
        return rec

    def fields(self, defn, rec):
        """The fields of a record definition, a record defined in place
        written in place, an anonymous member as a field named None; None
        (and a REVIEW on rec) when one of them cannot be written."""
        fields = []
        members = {_record_of(c.type) for c in defn.get_children()
                   if c.kind == CK.FIELD_DECL}
        for c in defn.get_children():
            why = None
            if c.kind in (CK.STRUCT_DECL, CK.UNION_DECL) and \
                    not c.spelling:
                if c.hash in members:
                    continue          # written with its member
                try:
                    inner = self.inline_record(c)
                    t = CType("record", None)
                    t.record = inner
                    fields.append(Param(None, t))
                    continue
                except Unsupported as e:
                    why = "an anonymous member (%s)" % e
            elif c.kind != CK.FIELD_DECL:
                continue
            elif c.is_bitfield():
                why = "the bit-field '%s'" % c.spelling
            elif c.type.kind == TK.INCOMPLETEARRAY:
                why = "the flexible array member '%s'" % c.spelling
            else:
                try:
                    t = self.field_type(c.type, c)
                    if not _by_value_known(t):
                        raise Unsupported("a type known here only by name")
                    fields.append(Param(c.spelling, t))
                    continue
                except Unsupported as e:
                    why = "the field '%s' (%s)" % (c.spelling, e)
            rec.review("written as opaque: it has %s, which the IDL cannot "
                       "express" % why)
            return None
        return fields

    def field_type(self, t, cursor):
        """A field's type: a struct or union defined in place (also as an
        array's elements) is written there."""
        if t.kind == TK.CONSTANTARRAY:
            a = CType("array", target=self.field_type(t.element_type, None),
                      const=t.is_const_qualified())
            a.size = t.element_count
            return a
        decl = _record_decl(t)
        if decl is not None and not decl.spelling:
            c = CType("record", None, const=t.is_const_qualified())
            c.record = self.inline_record(decl)
            return c
        return self.ctype(t, cursor)

    def enum(self, decl):
        h = self.header
        for e in h.enums:
            if e.order == self.order(decl):
                return e
        values = [(c.spelling, c.enum_value) for c in decl.get_children()
                  if c.kind == CK.ENUM_CONSTANT_DECL]
        e = Enum(decl.spelling or None, self.order(decl), self.where(decl),
                 values, self.enum_typedefs.get(decl.hash))
        h.enums.append(e)
        return e


def _record_decl(t):
    """The declaration of a struct or union type (through elaborated
    spellings), or None."""
    while t.kind == TK.ELABORATED:
        t = t.get_named_type()
    if t.kind == TK.RECORD:
        return t.get_declaration()
    return None


def _record_of(t):
    """The hash of the record a field's type holds (arrays looked
    through), or None."""
    while t.kind == TK.CONSTANTARRAY:
        t = t.element_type
    decl = _record_decl(t)
    return decl.hash if decl is not None else None


def _by_value_known(t):
    """Whether a value of type t can travel by value: not an opaque type
    or a struct or union written without its fields (arrays of them
    neither)."""
    r = t.resolved()
    while r.kind == "array":
        r = r.target.resolved()
    return r.kind != "opaque" and not (r.kind == "record" and
                                       r.record.fields is None)


def _name_params(params):
    """Unnamed parameters get p1, p2, ... (by position): annotations and
    the rules need names, and C does not care."""
    taken = {p.name for p in params}
    for i, p in enumerate(params):
        if not p.name:
            n = "p%d" % (i + 1)
            while n in taken:
                n += "_"
            p.name = n
            taken.add(n)
