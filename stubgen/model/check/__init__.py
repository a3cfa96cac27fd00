"""The checker: check(file) takes the syntax nodes of parse.py and returns
the Module in which every name is resolved and every rule of docs/IDL.md
holds; the first violation raises IdlError at its position.

The rules are split by concept, one mixin each: types (types.py),
file-scope declarations (decls.py), functions (functions.py), callbacks
(callbacks.py), closure sets (closures.py), packed functions (packed.py) and the slot layout
(slots.py). This file holds the driver and the name tables they share.
"""

from stubgen import syntax as S
from stubgen.ctype import PREDEFINED
from stubgen.errors import IdlError
from stubgen.model.annotations import DEFAULTABLE, annotation_values, \
    is_ident
from stubgen.model.check.callbacks import CallbackRules
from stubgen.model.check.closures import ClosureSetRules
from stubgen.model.check.decls import DeclarationRules
from stubgen.model.check.functions import FunctionRules
from stubgen.model.check.packed import PackedRules
from stubgen.model.check.slots import SlotRules
from stubgen.model.check.types import TypeRules
from stubgen.model.decls import C_KEYWORDS, Define, Include, Layout
from stubgen.model.functions import Module
from stubgen.model.packed import TVM_TYPES


def check(tree):
    """syntax.File -> Module. Raises IdlError at the first problem."""
    return _Checker(tree).run()


class _Checker(TypeRules, DeclarationRules, FunctionRules,
               CallbackRules, ClosureSetRules, PackedRules, SlotRules):
    """One pass over the file's items; each concept's rules are a mixin."""

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
        self.closure_sets = {}  # name -> ClosureSet
        self.defaults = {"errno": False, "lasterror": False,
                         "function_pointer": False,
                         "trace": False, "fault": False}
        self._cb_fnode = None  # the parameter list of a callback typedef
        self._cb_params = None

    # ---- driver
    def run(self):
        mod = self.tree.module
        if mod.keyword[0] != "module":
            raise IdlError(mod.keyword[1], 'a file starts with "module NAME;"')
        self._check_name(mod.name, mod.pos)
        for name, (value, _) in annotation_values(
                mod.annotations, DEFAULTABLE, "a module").items():
            self.defaults[name] = value
        # #include anywhere in the file decides how declarations are used
        for item in self.tree.items:
            if isinstance(item, S.Directive):
                self._directive(item)
        for item in self.tree.items:
            if isinstance(item, S.Directive):
                continue
            getattr(self, "_item_" + type(item).__name__)(item)
        self._nested_names()
        self._resolve_owned()
        self._resolve_closure_destructors()
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
            if not rest or not is_ident(rest.split()[0].split("(")[0]):
                raise IdlError(d.pos, "expected #define NAME [VALUE]")
            self.m.defines.append(Define(d.pos, "#define " + rest))
        else:
            raise IdlError(d.pos, "unsupported directive '#%s': only "
                           "#include and #define are allowed" % word)

    def _item_DefaultDecl(self, d):
        for name, (value, _) in annotation_values(
                d.annotations, DEFAULTABLE, "a default statement").items():
            self.defaults[name] = value

    def _add_layout_name(self, name, pos):
        if name in self.layout_names:
            raise IdlError(pos, "type name '%s' is used twice in the layout "
                           "table (first at %s)"
                           % (name, self.layout_names[name]))
        self.layout_names[name] = pos

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
        self._add_layout_name(name, pos)
        entry = Layout(name, kind, type_, decl)
        self.m.layouts.append(entry)
        return entry
