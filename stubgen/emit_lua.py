"""The Lua emitter: M.lua, a module for the Lua support library
bindings/lua (Lua 5.4 and LuaJIT alike, docs/LUA.md "Generated modules").

    local tour = require("tour").bind(nccc.open(path))
    tour.add(40, 2)   --> 42

The file holds only data and calls: tables (stubgen/host.py), one binder
per function that needs more than lib:fast, printed from its lowered
facts (stubgen/model/lower.py: non-NULL arguments, owned results, owned
strings, thunks to bind), and a last line handing the table to
bindings/lua/nccc/binder.lua, whose bind looks every function up once,
checks its signature and makes each function's converter and call once
(lib:fast: a C closure on Lua 5.4, compiled Lua on LuaJIT).
"""

from stubgen.ctype import POINTER_CODE
from stubgen.host import HostModule
from stubgen.source import Source


def lua_string(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _entries(src, field, entries, comment):
    src.line(comment)
    if not entries:
        src.line("M.%s = {}" % field)
        return
    with src.block("M.%s = {" % field, "}"):
        for e in entries:
            items = [lua_string(s) for s in [e.name] + e.signatures]
            if getattr(e, "values", None):
                items.append("values = {%s}" % ", ".join(
                    lua_string(v) for v in e.values))
            src.line("{%s}," % ", ".join(items))


def _closure_sets(src, sets):
    src.line("-- closure sets: {name, {member, callback type}, ...}, "
             "member k of the group is the k-th")
    if not sets:
        src.line("M.closure_sets = {}")
        return
    with src.block("M.closure_sets = {", "}"):
        for cs in sets:
            src.line("{%s}," % ", ".join(
                [lua_string(cs.name)] + ["{%s, %s}" % (
                    lua_string(m.name), lua_string(m.callback.name))
                    for m in cs.members]))


def _set_wrappers(host, lf):
    """The closure-set wrappers of a function, as Lua expressions around
    call: the owner's group for its [closures] and [context] slots
    (positions are in-slot positions), then the release of the groups
    of an owner it frees."""
    out = []
    by_set = {}
    for c in lf.set_closures:
        by_set.setdefault(c.closures, []).append(c)
    for cs, cl in by_set.items():
        members = ", ".join("[%d] = %d" % (lf.position(c.slot), c.member)
                            for c in cl if c.member is not None)
        context = [lf.position(c.slot) for c in cl if c.member is None]
        out.append("S.closures(call, %d, {name = %s, set = %s, owner = %d, "
                   "members = {%s}%s})" % (len(lf.in_slots),
                                 lua_string(host.qualified(lf.name)),
                                 lua_string(cs.name),
                                 lf.position(cl[0].owner), members,
                                 ", context = %d" % context[0]
                                 if context else ""))
    if lf.frees:
        out.append("S.release(call, {%s})" % ", ".join(
            lua_string(cs.name) for cs in lf.frees))
    return out


def _closure_params(src, functions):
    """M.closure_params: per function taking closures, the argument
    position of each closure slot and the callback type of each of its
    members (bind refuses a closure of other signatures before C runs).
    Slots of closure sets are the owner's, not the caller's: left out."""
    src.line("-- closure arguments: {[position] = {callback type per member}}")
    rows = []
    for lf in functions:
        slots = ["[%d] = {%s}" % (lf.position(c.slot), ", ".join(
            lua_string(p.callback.name) for p in c.params))
            for c in lf.closures if c.closures is None]
        if slots:
            rows.append("%s = {%s}," % (lua_string(lf.name).join("[]"),
                                        ", ".join(slots)))
    if not rows:
        src.line("M.closure_params = {}")
        return
    with src.block("M.closure_params = {", "}"):
        for r in rows:
            src.line(r)


def _names(src, field, names):
    if not names:
        src.line("M.%s = {}" % field)
        return
    with src.block("M.%s = {" % field, "}"):
        for n in names:
            src.line("%s," % lua_string(n))


def _binder(src, host, lf):
    """The binder of one function (a LoweredFunction), when it needs more
    than lib:fast: non-NULL arguments, an owned result (an object with a
    finalizer), an owned string (read, then freed; also from [out]
    parameters), a thunk to bind (the last error checked after the
    call). Owned pointers from [out] parameters other than strings stay
    plain pointers: the caller frees them (docs/LUA.md, "Ownership")."""
    owned = lf.owned_return
    sets = _set_wrappers(host, lf)
    if not lf.nonnull and not owned and not lf.thunks and \
            not lf.owned_out_strings and not sets:
        return
    opts = []
    if lf.nonnull:
        opts.append("nonnull = {%s}" % ", ".join(
            "[%d] = true" % lf.position(s) for s in lf.nonnull))
    string = owned is not None and owned.string
    raw = ([1] if string else []) + [o.index + 1
                                     for o in lf.owned_out_strings]
    if raw:
        opts.append("outs = {%s}" % ", ".join(
            '[%d] = "%s"' % (k, POINTER_CODE) for k in raw))
    if lf.thunks:
        opts.append("thunks = true")
    src.line("-- %s" % _describe(lf))
    with src.block("B[%s] = function(lib, h%s)" % (
            lua_string(lf.name), ", S" if sets or
            (owned and owned.frees) else ""), "end"):
        src.line("local call = lib:fast(h, {%s})" % ", ".join(opts))
        for w in sets:
            src.line("call = %s" % w)
        convs = []
        if owned:
            free = lua_string(host.qualified(owned.destructor))
            if owned.frees:
                # closing the object releases the owner's groups too
                free = "S.freeing(%s)" % lua_string(owned.destructor)
            if string:
                convs.append((1, "lib:owned_string(%s)" % free))
            else:
                tname = owned.slot.type.spell()
                convs.append((1, "lib:owner(%s, %s)" % (
                    free, lua_string(tname.replace(" *", "").strip()))))
        for o in lf.owned_out_strings:
            free = lua_string(host.qualified(o.destructor))
            convs.append((o.index + 1, "lib:owned_string(%s)" % free))
        if not convs:
            src.line("return call")
        elif len(convs) == 1 and convs[0][0] == 1:
            src.line("local own = %s" % convs[0][1])
            src.line("return function(...) return own(call(...)) end")
        else:
            src.line("local own = lib:owning({%s})" % ", ".join(
                "[%d] = %s" % c for c in convs))
            src.line("return function(...) return own(call(...)) end")


def _describe(lf):
    notes = []
    if lf.nonnull:
        notes.append("non-NULL: " + ", ".join(
            (s.callbacks[0].name if s.callbacks else s.name) or "?"
            for s in lf.nonnull))
    if lf.owned_return:
        notes.append("owned(%s)" % lf.owned_return.destructor)
    for o in lf.owned_out_strings:
        notes.append("owned string result %d (%s)"
                     % (o.index + 1, o.destructor))
    if lf.thunks:
        notes.append("binds a thunk of " + ", ".join(
            cb.name for cb in lf.thunks))
    for c in lf.set_closures:
        notes.append("%s of closures %s, owner #%d" % (
            "member %d" % c.member if c.member is not None else "context",
            c.closures.name, lf.position(c.owner)))
    if lf.frees:
        notes.append("frees the owner of closures " + ", ".join(
            cs.name for cs in lf.frees))
    return "%s: %s" % (lf.name, "; ".join(notes))


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    src = Source()
    src.line("-- %s.lua: the nccc module %s for Lua, %s." % (
        host.name, lua_string(host.name), host.generated_by()))
    src.lines("""
        -- Data only: bind, the conversions and calls are the support
        -- library's (bindings/lua/nccc/binder.lua; docs/LUA.md,
        -- "Generated modules"):
        --   local m = require("%s").bind(nccc.open(path))
        """ % host.name)
    src.line("local M = {name = %s}" % lua_string(host.name))
    src.blank()
    _entries(src, "functions", host.functions,
             "-- {registry name, signature} or {name, one signature per "
             "target} (stubgen/host.py)")
    src.blank()
    _entries(src, "callbacks", host.callbacks,
             "-- callback types: {name, signature(s)}, for lib:callback")
    src.blank()
    _closure_sets(src, host.closure_sets)
    src.blank()
    _closure_params(src, host.functions)
    src.blank()
    _names(src, "constants", host.constants)
    src.blank()
    _names(src, "layouts", host.layouts)
    src.blank()
    src.line("-- binders of functions that need more than lib:fast")
    src.line("local B = {}")
    for lf in host.functions:
        _binder(src, host, lf)
    src.line("M.binders = B")
    src.blank()
    src.line('return require("nccc.binder").module(M)')
    return {host.name + ".lua": str(src)}
