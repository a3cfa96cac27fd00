"""The Lua emitter: M.lua, a module for bindings/lua/nccc.lua (Lua 5.4 and
LuaJIT alike, docs/LUA.md "Generated modules").

    local tour = require("tour").bind(nccc.open(path))
    tour.add(40, 2)   --> 42

The file holds tables (stubgen/host.py), one binder per function,
printed from its lowered facts (stubgen/model/lower.py: non-NULL
arguments, owned results, owned strings, thunks to bind), and a bind function that looks every function up once,
checks its signature and makes each function's converter and call once
(lib:fast: a C closure on Lua 5.4, compiled Lua on LuaJIT).
"""

from stubgen.host import HostModule
from stubgen.source import Source

# The part every generated module shares: binding and the helpers.
_BIND = r'''
local fmt = string.format
local SOURCE = debug.getinfo(1, "S").source

-- The targets of the targets list whose signature of entry e is sig.
local function agreeing(e, sig, targets)
  local keep = {}
  for _, k in ipairs(targets) do
    if (e[k + 1] or e[2]) == sig then keep[#keep + 1] = k end
  end
  return keep
end

local function find(list, name, what)
  for _, e in ipairs(list) do
    if e[1] == name then return e end
  end
  error(fmt("unknown %s '%s.%s'", what, M.name, name), 3)
end

-- bind(lib): for a library from nccc.open or nccc.bind, a table with a
-- function per IDL function and the constants' values; the helpers lib,
-- layout, pack, unpack and callback come through its metatable.
function M.bind(lib)
  require("nccc").internal(SOURCE) -- errors point past this file
  local t, targets = {}, {1, 2, 3, 4, 5, 6}
  for _, e in ipairs(M.functions) do
    local name = M.name .. "." .. e[1]
    local h = lib:lookup(name)
    local sig = lib:signature(h)
    local keep = agreeing(e, sig, targets)
    if #keep == 0 then
      error(fmt("nccc: %s has signature '%s' in the library, not the one %s.lua was generated with",
        name, sig, M.name), 2)
    end
    targets = keep
    t[e[1]] = (B[e[1]] or lib.fast)(lib, h)
  end
  local values = lib:constants(M.name)
  for _, c in ipairs(M.constants) do
    local v = values[c]
    if v == nil then error(fmt("nccc: the library has no constant '%s.%s'", M.name, c), 2) end
    t[c] = v
  end
  local helpers = {lib = lib}
  function helpers.layout(name) return lib:layout(M.name .. "." .. name) end
  function helpers.pack(name, v) return lib:pack(M.name .. "." .. name, v) end
  function helpers.unpack(name, bytes) return lib:unpack(M.name .. "." .. name, bytes) end
  function helpers.signature(name)
    local e = find(M.callbacks, name, "callback type")
    return e[targets[1] + 1] or e[2]
  end
  function helpers.callback(name, fn, scope)
    local e = find(M.callbacks, name, "callback type")
    return lib:callback(e[targets[1] + 1] or e[2], fn, scope)
  end
  return setmetatable(t, {__index = helpers})
end

return M
'''


def lua_string(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


def _entries(src, field, entries, comment):
    src.line(comment)
    if not entries:
        src.line("M.%s = {}" % field)
        return
    with src.block("M.%s = {" % field, "}"):
        for e in entries:
            src.line("{%s}," % ", ".join(
                lua_string(s) for s in [e.name] + e.signatures))


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
    if not lf.nonnull and not owned and not lf.thunks and \
            not lf.owned_out_strings:
        return
    opts = []
    if lf.nonnull:
        opts.append("nonnull = {%s}" % ", ".join(
            "[%d] = true" % lf.position(s) for s in lf.nonnull))
    string = owned is not None and owned.string
    raw = ([1] if string else []) + [o.index + 1
                                     for o in lf.owned_out_strings]
    if raw:
        opts.append("outs = {%s}" % ", ".join('[%d] = "p"' % k for k in raw))
    if lf.thunks:
        opts.append("thunks = true")
    src.line("-- %s" % _describe(lf))
    with src.block("B[%s] = function(lib, h)" % lua_string(lf.name), "end"):
        src.line("local call = lib:fast(h, {%s})" % ", ".join(opts))
        convs = []
        if owned:
            free = lua_string(host.qualified(owned.destructor))
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
            (s.callbacks[0].name if s.role == "closure" else s.name) or "?"
            for s in lf.nonnull))
    if lf.owned_return:
        notes.append("owned(%s)" % lf.owned_return.destructor)
    for o in lf.owned_out_strings:
        notes.append("owned string result %d (%s)"
                     % (o.index + 1, o.destructor))
    if lf.thunks:
        notes.append("binds a thunk of " + ", ".join(
            cb.name for cb in lf.thunks))
    return "%s: %s" % (lf.name, "; ".join(notes))


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    src = Source()
    src.line("-- %s.lua: the nccc module %s for Lua, %s." % (
        host.name, lua_string(host.name), host.generated_by()))
    src.lines("""
        -- Conversions are bindings/lua/nccc.lua's, from the registry's
        -- signatures (docs/LUA.md, "Generated modules"):
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
    _names(src, "constants", host.constants)
    src.blank()
    _names(src, "layouts", host.layouts)
    src.blank()
    src.line("-- binders of functions that need more than lib:fast")
    src.line("local B = {}")
    for lf in host.functions:
        _binder(src, host, lf)
    src.line("M.binders = B")
    src.lines(_BIND)
    return {host.name + ".lua": str(src)}
