"""The checker's rules for file-scope declarations: typedefs, tags and
constants."""

from stubgen import syntax as S
from stubgen.ctype import Array, Opaque, Record, Typedef
from stubgen.errors import IdlError
from stubgen.model.check.callbacks import callback_fnode
from stubgen.model.check.common import is_integer
from stubgen.model.decls import (Constant, ConstantDecl, OpaqueDecl,
                                 RecordDecl, TypedefDecl)
from stubgen.model.values import ValueInfo


class DeclarationRules:
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
            fnode = callback_fnode(decl_node)
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
        if d.is_fn or declares_function(d.declarator):
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
        if not is_integer(t):
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


def declares_function(d):
    """Whether the innermost suffix of declarator d is a parameter list
    right after the name (a function returning a pointer to an array has
    its array suffix outermost)."""
    last = None
    while d is not None and not isinstance(d, S.DName):
        last = d
        d = d.inner
    return d is not None and isinstance(last, S.DFunction)
