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

from stubgen.host import BinderSyntax, HostModule, binder, value_spec_texts
from stubgen.source import Source


def lua_string(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _entries(src, field, entries, comment, values=False):
    src.line(comment)
    if not entries:
        src.line("M.%s = {}" % field)
        return
    with src.block("M.%s = {" % field, "}"):
        for e in entries:
            items = [lua_string(s) for s in [e.name] + e.signatures]
            if values and e.values:
                items.append("values = {%s}" % ", ".join(
                    lua_string(v) for v in value_spec_texts(e.values)))
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


def _record(pairs):
    return "{%s}" % ", ".join(
        ("[%d] = %s" if isinstance(k, int) else "%s = %s") % (k, v)
        for k, v in pairs)


_SYNTAX = BinderSyntax(
    quote=lua_string,
    record=_record,
    array=lambda texts: "{%s}" % ", ".join(texts),
    option_table=lambda key, pairs: "%s = {%s}" % (key, ", ".join(
        "[%d] = %s" % p for p in pairs)),
    option_flag=lambda key: "%s = true" % key,
    owner=lambda free, t: "lib:owner(%s, %s)" % (free, t),
    owned_string=lambda free: "lib:owned_string(%s)" % free,
    freeing=lambda name: "S.freeing(%s)" % name)


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
    b = binder(host, lf, _SYNTAX)
    if b is None:
        return
    owned = b.facts.owned
    src.line("-- %s" % b.note)
    with src.block("B[%s] = function(lib, h%s)" % (
            lua_string(lf.name), ", S" if b.sets or
            (owned and owned.frees) else ""), "end"):
        src.line("local call = lib:fast(h, {%s})" % ", ".join(b.options))
        for w in b.sets:
            src.line("call = %s" % w)
        convs = b.conversions
        if not convs:
            src.line("return call")
        elif len(convs) == 1 and convs[0][0] == 1:
            src.line("local own = %s" % convs[0][1])
            src.line("return function(...) return own(call(...)) end")
        else:
            src.line("local own = lib:owning({%s})" % ", ".join(
                "[%d] = %s" % c for c in convs))
            src.line("return function(...) return own(call(...)) end")


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
             "-- callback types: {name, signature(s)}, for lib:callback",
             values=True)
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
