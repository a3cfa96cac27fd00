"""The callback rules: which function pointers become callback types,
which parameter carries their context, how long their closures live,
and closure sets for handlers that get user data set by a separate
function (IDL.md, "Callbacks" and "Closures kept by an owner")."""

import re

from stubgen.importer.decls import ClosureSet, CType, Typedef
from stubgen.importer.spell import canon
from stubgen.model.decls import C_KEYWORDS

# NCCC_CLOSURE_GROUP_MAX's default (nccc/config.h): the members a
# closure set can have and still be claimed at run time.
GROUP_MAX = 4
USER_DATA_SETTER = re.compile(r"(?i)set_?user_?data$")
# Functions that use a callback only while they run.
CALL_SCOPE = re.compile(r"(?i)exec|each|sort|search|walk|apply|visit|"
                        r"iterate|find|scan")
_SUFFIXES = ("Handler", "Callback", "Func", "Fn", "_handler", "_callback",
             "_fn", "_cb", "_t")


def apply(header, live):
    claimed = closure_sets(header, live)
    uses = {}
    for f in live:
        for i, p in enumerate(f.params):
            if p.type.is_funcptr() and not _destroy_shape(p.type) and \
                    not p.anns:
                uses.setdefault(p.type.typedef_name(), []).append((f, i))
    for name, sites in uses.items():
        if name is None:
            for f, i in sites:
                _inline(header, f, i)
        elif name not in claimed:
            _named(header, header.typedefs[name], sites)


def _destroy_shape(t):
    """void (*)(void *): a destroy notify, never a callback with context."""
    fn = t.func()
    return fn.ret.resolved().kind == "void" and len(fn.params) == 1 and \
        fn.params[0].type.is_void_pointer()


def _context_index(fn):
    """The index of the callback type's context: its first void *; None
    if it has none, or a record by value (no callback can take one)."""
    if any(t.resolved().kind == "record"
           for t in [fn.ret] + [p.type for p in fn.params]):
        return None, False
    idx = [k for k, p in enumerate(fn.params)
           if p.type.is_void_pointer() and not p.type.pointee().const]
    return (idx[0] if idx else None), len(idx) > 1


def _beside(f, i):
    """The free (non-const) void * parameter right before or after
    parameter i."""
    for j in (i + 1, i - 1):
        if 0 <= j < len(f.params) and f.params[j].type.is_void_pointer() \
                and not f.params[j].type.pointee().const and \
                not f.params[j].anns:
            return f.params[j]
    return None


def _inline(header, f, i):
    """A function pointer spelled out in the prototype, with a void *
    beside it: a callback type of its own, FUNCTION_PARAM_fn."""
    p = f.params[i]
    fn = p.type.func()
    k, several = _context_index(fn)
    ctx = _beside(f, i)
    if k is None or ctx is None:
        return
    name = "%s_%s_fn" % (f.name, p.name)
    td = Typedef(name, (f.order[0], f.order[1] - 1), f.where, fn)
    td.callback = True
    header.typedefs[name] = td
    p.type = CType("pointer", target=CType("typedef", name, fn),
                   const=p.type.resolved().const)
    _mark(td, fn, k, several)
    _connect(f, p, ctx)


def _named(header, td, sites):
    """A callback typedef: a callback type if every use has a void *
    beside it."""
    fn = td.type.func()
    k, several = _context_index(fn)
    contexts = [_beside(f, i) for f, i in sites]
    if k is None or None in contexts or \
            len({id(c) for c in contexts}) < len(contexts):
        return        # a use without a context of its own: a plain F
    _mark(td, fn, k, several)
    for (f, i), ctx in zip(sites, contexts):
        _connect(f, f.params[i], ctx)


def _mark(td, fn, k, several):
    td.callback = True
    fn.params[k].anns.append("context")
    td.rule("context", "%s, its first void *" % fn.params[k].name)
    if several:
        td.review("several void * parameters: is %s the one the library "
                  "passes back?" % fn.params[k].name)


def _connect(f, p, ctx):
    ctx.anns.append("context=%s" % p.name)
    f.rule("context", "%s carries %s's context" % (ctx.name, p.name))
    d = next((q for q in f.params if q is not p and q.type.is_funcptr()
              and _destroy_shape(q.type) and not q.anns), None)
    if d is not None:
        p.anns.append("scope=notified")
        d.anns.append("destroy=%s" % p.name)
        f.rule("destroy", "%s releases %s's closure" % (d.name, p.name))
    elif CALL_SCOPE.search(f.name):
        f.rule("scope", "%s: call (used while %s runs)" % (p.name, f.name))
    else:
        p.anns.append("scope=forever")
        f.review("how long does the library keep %s? [scope=forever] "
                 "never releases it; [scope=call] if only this call uses it"
                 % p.name)


# ---- closure sets ----------------------------------------------------------
def closure_sets(header, live):
    """A function SetUserData(OWNER, void *) with handler typedefs
    (first parameter void *) registered by functions taking OWNER: a
    closure set of the first GROUP_MAX handler types. Returns the names
    of the typedefs it claims."""
    claimed = set()
    for s in live:
        if not USER_DATA_SETTER.search(s.name) or len(s.params) != 2 or \
                not s.params[1].type.is_void_pointer():
            continue
        owner = s.params[0]
        want = canon(owner.type)
        if not any(any(a.startswith("owned(") for a in f.anns) and
                   canon(f.ret) == want for f in live):
            s.review("no function that makes a %s is [owned]: no closure "
                     "set for its handlers" % owner.type.typedef_name())
            continue
        users = [f for f in live if f is not s and
                 sum(canon(p.type) == want for p in f.params) == 1]
        kinds = {}
        for f in users:
            for i, p in enumerate(f.params):
                name = p.type.typedef_name()
                if name and p.type.is_funcptr() and not p.anns and \
                        _beside(f, i) is None and \
                        _handler(header.typedefs[name]):
                    kinds.setdefault(name, set()).add(f.name)
        # the handler types most functions register first (alone and in
        # pairs: start and end element), then in the header's order
        ranked = sorted(kinds, key=lambda n: (-len(kinds[n]),
                                              header.typedefs[n].order))
        if ranked:
            claimed |= _make_set(header, s, owner, users, ranked)
    return claimed


def _handler(td):
    fn = td.type.func()
    k, _ = _context_index(fn)
    return k == 0


def _make_set(header, setter, owner, users, kinds):
    name = "handlers" if not header.closures else \
        "handlers%d" % (len(header.closures) + 1)
    kept = kinds[:GROUP_MAX]
    members = []
    for n in kept:
        m = _member_name(n, [x for x, _ in members])
        members.append((m, n))
        td = header.typedefs[n]
        td.callback = True
        td.type.func().params[0].anns.append("context")
        td.rule("closures", "member %s of %s: user data first" % (m, name))
    member_of = {n: m for m, n in members}
    last = max(header.typedefs[n].order for n in kept)
    cs = ClosureSet(name, (last[0], last[1] + 1),
                    owner.type.typedef_name() or owner.type.resolved().name,
                    members)
    header.closures.append(cs)
    setter.params[1].anns.append("context=%s" % name)
    setter.rule("closures", "%s carries the user data of %s"
                % (setter.params[1].name, name))
    for f in users + [setter]:
        if f.order < cs.order:    # a user comes after the set
            f.order = (cs.order[0], cs.order[1] + 1)
    for f in users:
        taken = {p.name for p in f.params}
        for p in f.params:
            n = p.type.typedef_name()
            if n in member_of and member_of[n] not in taken - {p.name}:
                taken.add(member_of[n])
                p.name = member_of[n]
                p.anns += ["closures=%s" % name, "nullable"]
                f.rule("closures", "%s (member of %s, NULL unsets it)"
                       % (p.name, name))
            elif n in kinds:
                f.review("%s stays a plain function pointer: closure set "
                         "%s is full (%d members)" % (p.name, name,
                                                      GROUP_MAX))
    return set(kinds)


def _member_name(typedef, taken):
    """XML_StartElementHandler -> start_element."""
    base = typedef.split("_", 1)[1] if "_" in typedef and \
        typedef.split("_", 1)[0].isupper() else typedef
    for suffix in _SUFFIXES:
        if base.endswith(suffix) and base != suffix:
            base = base[:-len(suffix)]
            break
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).lower().strip("_")
    name = snake or "handler"
    if name in C_KEYWORDS:        # XML_DefaultHandler: not `default`
        name += "_handler"
    while name in taken:
        name += "_"
    return name
