"""The checker's rules for callback types and callback parameters."""

from stubgen import syntax as S
from stubgen.ctype import FuncType, Pointer, Typedef, Void
from stubgen.errors import IdlError
from stubgen.model.annotations import (CB_PARAM_ANNS, CB_TYPEDEF_ANNS,
                                       annotation_values)
from stubgen.model.callbacks import SCOPES, CallbackType
from stubgen.model.check.common import type_label
from stubgen.model.values import Param


class CallbackRules:
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
        tanns = annotation_values(anns, CB_TYPEDEF_ANNS,
                                   "a callback typedef")
        if fnode.variadic:
            raise IdlError(td.pos, "callback type '%s' cannot be variadic"
                           % name)
        params = []
        cb = CallbackType(td.pos, name, td, ftype, params)
        for i, (p, pt, pname, ppos) in enumerate(self._cb_params):
            panns = annotation_values(p.annotations, CB_PARAM_ANNS,
                                       "a callback parameter")
            label = "'%s'" % pname if pname else "parameter %d" % (i + 1)
            # [out] with a count: a buffer the callback fills, passed in
            fills = "out" in panns and ("length" in panns or
                                        "size" in panns)
            direction, value_t = self._direction(
                {k: v for k, v in panns.items() if k != "out" or not fills},
                pt, label, ppos)
            if value_t.kind in ("struct", "union"):
                raise IdlError(ppos, "parameter %s of callback type '%s' is "
                               "a %s by value, which callbacks do not take"
                               % (label, name, value_t.kind))
            param = Param(ppos, i, pname, pt, direction, None)
            param.anns = panns
            param.info = self._value_info(panns, value_t, "parameter %s"
                                          % label)
            if fills:
                self._check_filled(panns, pt, label)
                param.info.fills = True
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
        if cb.ret_info.bytes:
            raise IdlError(tanns["bytes"][1], "[bytes] applies to "
                           "parameters and fields")
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
        cb.lasterror = bool(tanns.get("lasterror", (False,))[0])
        cb.windows = bool(tanns.get("windows", (False,))[0])
        if cb.lasterror:
            self.m.uses_lasterror = True
        self._callback_slots(cb)
        td.callback = cb
        td.spell_through = True
        self.m.callbacks.append(cb)

    def _callbacks(self, f):
        """Links a function's callback parameters with the parameters
        that carry their contexts and their destroy notifies."""
        by_name = {p.name: p for p in f.params if p.name}
        cbs = []
        for p in f.params:
            cb = callback_of(p.type) if p.direction == "in" else None
            if cb is not None and cb.windows != f.windows:
                raise IdlError(p.pos, "callback type '%s' is%s [windows] and "
                               "'%s' is%s: a callback type of a [windows] "
                               "function is [windows], and only [windows] "
                               "functions take one" % (
                                   cb.name, "" if cb.windows else " not",
                                   f.name, "" if f.windows else " not"))
            if cb is None:
                if "closures" in p.anns:
                    raise IdlError(p.anns["closures"][1], "[closures] needs "
                                   "a parameter of a callback type, but %s "
                                   "is %s" % (p.label, type_label(p.type)))
                if "scope" in p.anns:
                    raise IdlError(p.anns["scope"][1], "[scope] needs a "
                                   "parameter of a callback type, but %s is "
                                   "%s" % (p.label, type_label(p.type)))
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
            if "closures" in p.anns:
                self._registered_closure(f, p)
        for p in f.params:
            if "context" not in p.anns:
                continue
            names, apos = p.anns["context"]
            r = p.type.resolved()
            if p.direction != "in" or not isinstance(r, Pointer) or \
                    r.kind != "pointer":
                raise IdlError(apos, "[context] parameter %s is not a data "
                               "pointer" % p.label)
            if names[0][0] not in by_name and \
                    self._closures_context(f, p, names, apos):
                continue
            for n, npos in names:
                target = by_name.get(n)
                if target is None or target.callback is None:
                    raise IdlError(npos, "[context] names '%s', which is not "
                                   "a callback parameter of '%s' or a "
                                   "closure set" % (n, f.name))
                if target.callback.context is None:
                    raise IdlError(npos, "[context] names '%s', whose type "
                                   "'%s' has no context parameter (it has a "
                                   "pool of thunks)"
                                   % (n, target.callback.name))
                if target.context is not None:
                    raise IdlError(npos, "callback '%s' already has its "
                                   "context in %s" % (n, target.context.label))
                if target.closures is not None:
                    raise IdlError(npos, "callback '%s' gets its context from "
                                   "closures '%s'" % (n, target.closures.name))
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
        self._one_closure_set(f)
        for p in cbs:
            if p.callback.context is not None and p.context is None and \
                    p.closures is None:
                raise IdlError(p.pos, "callback %s needs the parameter that "
                               "carries its context: mark it [context=%s]"
                               % (p.label, p.name or "NAME"))
        for p in f.params:
            if "destroy" not in p.anns:
                continue
            n, apos = p.anns["destroy"]
            if not is_destroy_notify(p.type) or p.direction != "in":
                raise IdlError(apos, "[destroy] parameter %s must have type "
                               "'void (*)(void *)', not %s"
                               % (p.label, type_label(p.type)))
            target = by_name.get(n)
            if target is None or target.callback is None:
                raise IdlError(apos, "[destroy] names '%s', which is not a "
                               "callback parameter of '%s'" % (n, f.name))
            if target.context is None:
                raise IdlError(apos, "[destroy] names '%s', whose %s"
                               % (n, "closures live until their owner is "
                                  "freed" if target.closures is not None else
                                  "type '%s' has no context to pass to a "
                                  "destroy notify" % target.callback.name))
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
            f = self._named_function(by_c, cb.context_from,
                                     cb.context_from_pos, "context")
            r = f.ret.resolved()
            if len(f.params) != 1 or \
                    not isinstance(f.params[0].type.resolved(), Pointer) or \
                    not isinstance(r, Pointer) or r.kind != "pointer":
                raise IdlError(cb.context_from_pos, "context accessor '%s' "
                               "must take one pointer and return a data "
                               "pointer" % cb.context_from)

    def _check_filled(self, anns, t, label):
        """[out, length=N] on a callback's pointer: C hands the callback
        a buffer to write, of N elements (not a value to return)."""
        r = t.resolved()
        if not isinstance(r, Pointer) or r.kind != "pointer":
            raise IdlError(anns["out"][1], "[out] parameter %s is not a "
                           "pointer" % label)
        if r.target.is_const:
            raise IdlError(anns["out"][1], "[out] buffer %s points to "
                           "const data, which the callback cannot fill"
                           % label)

def callback_of(t):
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


def is_destroy_notify(t):
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


def callback_fnode(d):
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
