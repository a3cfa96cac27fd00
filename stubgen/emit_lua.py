"""The Lua emitter: M.lua, a module for bindings/lua/nccc.lua (Lua 5.4 and
LuaJIT alike, docs/LUA.md "Generated modules").

    local tour = require("tour").bind(nccc.open(path))
    tour.add(40, 2)   --> 42

The file holds tables (stubgen/host.py) and a bind function that looks
every function up once, checks its signature, and calls it with
lib:call; the support library does every conversion.
"""

from stubgen.host import HostModule
from stubgen.source import Source

# The part every generated module shares: binding and the helpers.
_BIND = r'''
local fmt = string.format

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
    t[e[1]] = function(...) return lib:call(h, ...) end
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
    src.lines(_BIND)
    return {host.name + ".lua": str(src)}
