"""The checker's rules for closure sets: callbacks registered one by one
on an owning object, whose context is the user data another function
sets on it (closures NAME(OWNER) { members }; docs/IDL.md, "Closures
kept by an owner")."""

from stubgen import syntax as S
from stubgen.ctype import Pointer
from stubgen.errors import IdlError
from stubgen.model.callbacks import ClosureMember, ClosureSet
from stubgen.model.check.callbacks import callback_of
from stubgen.model.check.common import type_label


class ClosureSetRules:
    def _item_ClosuresDecl(self, d):
        spec = d.keyword
        if not isinstance(spec.base, S.TypeName) or \
                spec.base.name != "closures" or spec.quals:
            raise IdlError(spec.pos, "a declaration with members in braces "
                           "is a closure set, as in closures NAME(OWNER) "
                           "{ members };")
        fnode = d.declarator
        if not isinstance(fnode, S.DFunction) or \
                not isinstance(fnode.inner, S.DName):
            raise IdlError(d.pos, "a closure set is written closures "
                           "NAME(OWNER) { members };")
        name, pos = fnode.inner.name, fnode.inner.pos
        if d.annotations:
            raise IdlError(d.annotations[0].pos, "closures '%s' takes no "
                           "annotations" % name)
        self._check_name(name, pos)
        if name in self.closure_sets:
            raise IdlError(pos, "closures '%s' is already declared (at %s)"
                           % (name, self.closure_sets[name].pos))
        params = self._param_types(fnode)
        if len(params) != 1 or fnode.variadic:
            raise IdlError(pos, "closures '%s' needs its owner's type, one "
                           "type in its parentheses, as in closures "
                           "%s(XML_Parser)" % (name, name))
        if params[0][0].annotations:
            raise IdlError(params[0][0].annotations[0].pos, "the owner of "
                           "closures '%s' takes no annotations" % name)
        owner, opos = params[0][1], params[0][3]
        if not _is_data_pointer(owner):
            raise IdlError(opos, "the owner of closures '%s' must be a data "
                           "pointer type, not %s" % (name, type_label(owner)))
        members = []
        for fld in d.members:
            if fld.annotations:
                raise IdlError(fld.annotations[0].pos, "the members of "
                               "closures '%s' take no annotations" % name)
            base = self._base(fld.specifiers, "param")
            for decl, width in fld.declarators:
                members.append(self._closure_member(name, base, decl, width,
                                                    members, fld.pos))
        if not members:
            raise IdlError(pos, "closures '%s' has no members" % name)
        cs = ClosureSet(pos, name, owner, members)
        self.closure_sets[name] = cs
        self.m.closure_sets.append(cs)

    def _closure_member(self, set_name, base, decl, width, members, fpos):
        t, mname, mpos = self._declarator(base, decl, "param")
        mpos = mpos or fpos
        if width is not None:
            raise IdlError(width.pos, "a member of closures '%s' cannot be "
                           "a bit-field" % set_name)
        if mname is None:
            raise IdlError(mpos, "a member of closures '%s' needs a name"
                           % set_name)
        for m in members:
            if m.name == mname:
                raise IdlError(mpos, "duplicate member '%s'" % mname)
        cb = callback_of(t)
        if cb is None:
            raise IdlError(mpos, "member '%s' of closures '%s' must have a "
                           "callback type, not %s"
                           % (mname, set_name, type_label(t)))
        if cb.context is None:
            raise IdlError(mpos, "member '%s' of closures '%s' has type "
                           "'%s', which has no [context] parameter to get "
                           "the owner's user data" % (mname, set_name,
                                                       cb.name))
        return ClosureMember(mname, mpos, cb, len(members))

    def _closure_set(self, name, pos, f):
        cs = self.closure_sets.get(name)
        if cs is None:
            raise IdlError(pos, "[closures] names '%s', which is not a "
                           "closure set (declare closures %s(OWNER) { ... } "
                           "before '%s')" % (name, name, f.name))
        return cs

    def _owner_param(self, f, cs, pos):
        """The one parameter of f whose type is the owner of closure set
        cs."""
        want = _canon(cs.owner)
        found = [p for p in f.params
                 if p.direction == "in" and _canon(p.type) == want]
        if len(found) != 1:
            raise IdlError(pos, "'%s' needs exactly one parameter of type "
                           "%s, the owner of closures '%s' (it has %d)"
                           % (f.name, type_label(cs.owner), cs.name,
                              len(found)))
        return found[0]

    def _registered_closure(self, f, p):
        """A callback parameter marked [closures=NAME]: the member of the
        same name of that set."""
        name, apos = p.anns["closures"]
        cs = self._closure_set(name, apos, f)
        if "scope" in p.anns:
            raise IdlError(p.anns["scope"][1], "callback %s is a member of "
                           "closures '%s', which live until their owner is "
                           "freed; drop [scope]" % (p.label, cs.name))
        m = cs.member(p.name)
        if m is None:
            raise IdlError(p.pos, "closures '%s' has no member %s (its "
                           "members: %s); name the parameter after its "
                           "member" % (cs.name, p.label, ", ".join(
                               x.name for x in cs.members)))
        if m.callback is not p.callback:
            raise IdlError(p.pos, "callback %s has type '%s', but member "
                           "'%s' of closures '%s' has type '%s'"
                           % (p.label, p.callback.name, m.name, cs.name,
                              m.callback.name))
        p.closures, p.member, p.scope = cs, m.index, "forever"
        p.owner = self._owner_param(f, cs, apos)
        p.callback.members.add(m.index)

    def _closures_context(self, f, p, names, apos):
        """[context=NAME] naming a closure set: p carries the context of
        the owner's group (the user data the library keeps)."""
        name, npos = names[0]
        cs = self.closure_sets.get(name)
        if cs is None:
            return False
        if len(names) > 1:
            raise IdlError(names[1][1], "[context] names closures '%s'; it "
                           "carries no other callbacks" % name)
        p.closures = cs
        p.owner = self._owner_param(f, cs, apos)
        return True

    def _one_closure_set(self, f):
        """A function takes part in one closure set at most (hosts fill
        its slots from one owner's group)."""
        seen = None
        for p in f.params:
            if p.closures is None:
                continue
            if seen is not None and p.closures is not seen:
                raise IdlError(p.pos, "'%s' takes part in closures '%s' and "
                               "'%s'; a function takes part in one closure "
                               "set" % (f.name, seen.name, p.closures.name))
            seen = p.closures

    def _resolve_closure_destructors(self):
        """Each set's destructors: the functions named by [owned(FN)] on
        a result of the owner's type (run after _resolve_owned)."""
        for cs in self.m.closure_sets:
            want = _canon(cs.owner)
            for f in self.m.functions:
                values = [(f.ret, f.ret_info)] + [
                    (p.pointee, p.info) for p in f.params
                    if p.direction != "in"]
                for t, info in values:
                    if info.owned is not None and _canon(t) == want and \
                            info.owned not in cs.destructors:
                        cs.destructors.append(info.owned)
            if not cs.destructors:
                raise IdlError(cs.pos, "nothing frees the owner of closures "
                               "'%s': mark the function that makes one "
                               "[owned(FN)], FN the function that frees it"
                               % cs.name)


def _is_data_pointer(t):
    r = t.resolved()
    return isinstance(r, Pointer) and r.kind == "pointer"


def _canon(t):
    return t.unqualified().canon()
