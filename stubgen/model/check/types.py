"""The checker's rules for types: specifiers, declarators, records, enums."""

from stubgen import syntax as S
from stubgen.ctype import (INT_CODE, PREDEFINED, SCALARS, Array, Enum,
                           FuncType, Pointer, Record, Void, array_depth)
from stubgen.errors import IdlError
from stubgen.model.annotations import FIELD_ANNS, annotation_values
from stubgen.model.check.common import is_integer, type_label
from stubgen.model.decls import (Constant, EnumDecl, Enumerator, Field,
                                 Layout, RecordDecl)
from stubgen.model.packed import TVM_TYPES
from stubgen.model.values import ValueInfo


class TypeRules:
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
            if ctx not in ("file", "typedef", "field"):
                raise IdlError(b.pos, "a %s can only be defined at file "
                               "scope, in a typedef or in a record"
                               % b.kind)
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
        nested = ctx == "field" and b.name is None
        decl.defined_pos = b.pos
        decl.defined_in_typedef = ctx == "typedef"
        fields = []
        decl.fields = None   # a record may not contain itself by value
        for f in b.fields:
            fields.extend(self._fields(f, decl))
        if not fields:
            raise IdlError(b.pos, "%s %shas no fields" % (
                b.kind, "'%s' " % b.name if b.name else ""))
        decl.fields = fields
        names = {}
        for fld in decl.members:
            if fld.name in names:
                raise IdlError(fld.pos, "duplicate field '%s' (first at "
                               "%s)" % (fld.name, names[fld.name]))
            names[fld.name] = fld.pos
        self._check_field_annotations(decl.members)
        if nested:
            # C reaches it only through its member: no item of its own
            return decl
        self.m.items.append(decl)
        if b.name is not None:
            self.m.layouts = [e for e in self.m.layouts if e.decl is not decl]
            self.m.layouts.append(Layout(b.name, b.kind, Record(decl), decl))
        return decl

    def _fields(self, f, record):
        base = self._base(f.specifiers, "field")
        b = f.specifiers.base
        inline = base.decl if isinstance(b, S.RecordDef) and \
            b.name is None else None
        if inline is not None:
            inline.parent = record
        if not f.declarators:
            if inline is None:
                raise IdlError(f.pos, "a field needs a name (only a struct "
                               "or union defined in place may be an "
                               "anonymous member)")
            if f.annotations:
                raise IdlError(f.annotations[0].pos, "an anonymous member "
                               "takes no annotations")
            return [Field(f.pos, None, base, ValueInfo())]
        out = []
        for d, bits in f.declarators:
            t, name, pos = self._declarator(base, d, "field")
            if name is None:
                raise IdlError(f.pos, "a field needs a name")
            if inline is not None and inline.member is None:
                # the record is named by its (first) member's path
                inline.member = name
                inline.member_index = "[0]" * array_depth(t)
                self.m.layouts.append(Layout(None, inline.kind,
                                             Record(inline), inline))
            self._check_name(name, pos)
            if bits is not None:
                raise IdlError(bits.pos, "bit-field '%s' is not supported "
                               "(offsetof cannot reach it)" % name)
            self._check_field_type(t, name, pos)
            anns = annotation_values(f.annotations, FIELD_ANNS,
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

    def _nested_names(self):
        """The layout names of records defined in another and the slot
        codes of the fields holding them: a name ("ev__data") is known
        once the outermost record's typedef has named it, after the whole
        file; it may not be another layout's."""
        for e in self.m.layouts:
            if getattr(e.decl, "parent", None) is not None:
                self._add_layout_name(e.name, e.decl.defined_pos)
        for e in self.m.layouts:
            if e.kind == "opaque":
                continue
            for fld in e.fields:
                r = fld.type.resolved()
                if isinstance(r, Array):
                    r = r.innermost()
                if isinstance(r, Record) and r.decl.parent is not None:
                    fld.code = "{%s}" % r.decl.name

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
                           % (name, type_label(t)))
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
                if not is_integer(other.type):
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
            self.m.constants.append(Constant(e.name, INT_CODE, None, en))
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
                declared = t
                t = Pointer(r.elem).qualified(set())
                t.array_size = r.size
                # the header's spelling, so that a redeclaration matches
                # it (-Warray-parameter)
                t.declared = declared
            elif isinstance(r, FuncType):
                t = Pointer(t)
            out.append((p, t, name, pos))
        return out
