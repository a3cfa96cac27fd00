"""The Lua emitter: M.lua, a module for bindings/lua/nccc.lua (Lua 5.4 and
LuaJIT alike, docs/LUA.md "Generated modules").

    local tour = require("tour").bind(nccc.open(path))
    tour.add(40, 2)   --> 42

The file holds tables (stubgen/host.py), one binder per function,
specialised from its slots (non-NULL arguments, owned results, owned
strings, thunks to bind), and a bind function that looks every function up once,
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


def _thunks(f):
    """The callback types without a context (a pool of thunks) that f
    binds: a full pool shows only as the runtime's last error."""
    names = []
    for s in f.in_slots:
        if s.role != "closure":
            continue
        for p in s.callbacks:
            cb = p.callback
            if cb is not None and cb.thunks and cb.name not in names:
                names.append(cb.name)
    return names


def _nonnull(s):
    """A pointer slot the IDL marks [nonnull], or a closure slot whose
    callback is not [nullable] (the wrapper would refuse NULL; the
    module refuses it first, as a NULL error)."""
    if s.role == "closure":
        return bool(s.callbacks) and not s.callbacks[0].info.nullable
    return s.info is not None and s.info.nullable is False and \
        s.code in "psF"


def _owned_strings(f):
    """The 1-based result positions of f's owned strings after the
    first: [out] parameters the caller frees (read, then freed at once)."""
    return [k for k, s in enumerate(f.out_slots, 1)
            if k > 1 and s.info is not None and s.info.owned
            and s.code == "s"]


def _binder(src, host, e):
    """The binder of one function, when it needs more than lib:fast:
    non-NULL arguments, an owned result (an object with a finalizer), an
    owned string (read, then freed; also from [out] parameters), a thunk
    to bind (the last error checked after the call). Owned pointers from
    [out] parameters other than strings stay plain pointers: the caller
    frees them (docs/LUA.md, "Ownership")."""
    f = e.decl
    nonnull = [k + 1 for k, s in enumerate(a for a in f.in_slots
                                           if a.role != "target")
               if _nonnull(s)]
    if f.function_pointer:
        nonnull = [k + 1 for k in nonnull]
    ret = f.out_slots[0] if f.out_slots and \
        f.out_slots[0].role == "return" else None
    owned = ret.info.owned if ret is not None and ret.info is not None \
        else None
    out_strings = _owned_strings(f)
    thunks = _thunks(f)
    if not nonnull and not owned and not thunks and not out_strings:
        return
    opts = []
    if nonnull:
        opts.append("nonnull = {%s}" % ", ".join(
            "[%d] = true" % k for k in nonnull))
    string = owned and ret.code == "s"
    raw = ([1] if string else []) + out_strings
    if raw:
        opts.append("outs = {%s}" % ", ".join('[%d] = "p"' % k for k in raw))
    if thunks:
        opts.append("thunks = true")
    src.line("-- %s" % _describe(e))
    with src.block("B[%s] = function(lib, h)" % lua_string(e.name), "end"):
        src.line("local call = lib:fast(h, {%s})" % ", ".join(opts))
        convs = []
        if owned:
            free = lua_string(host.qualified(owned))
            if string:
                convs.append((1, "lib:owned_string(%s)" % free))
            else:
                tname = ret.type.spell() if ret.type is not None else "owned"
                convs.append((1, "lib:owner(%s, %s)" % (
                    free, lua_string(tname.replace(" *", "").strip()))))
        for k in out_strings:
            free = lua_string(host.qualified(f.out_slots[k - 1].info.owned))
            convs.append((k, "lib:owned_string(%s)" % free))
        if not convs:
            src.line("return call")
        elif len(convs) == 1 and convs[0][0] == 1:
            src.line("local own = %s" % convs[0][1])
            src.line("return function(...) return own(call(...)) end")
        else:
            src.line("local own = lib:owning({%s})" % ", ".join(
                "[%d] = %s" % c for c in convs))
            src.line("return function(...) return own(call(...)) end")


def _describe(e):
    f = e.decl
    notes = []
    ins = [s for s in f.in_slots if s.role != "target" and _nonnull(s)]
    if ins:
        notes.append("non-NULL: " + ", ".join(
            (s.callbacks[0].name if s.role == "closure" and s.callbacks
             else s.name) or "?" for s in ins))
    ret = f.out_slots[0] if f.out_slots else None
    if ret is not None and ret.role == "return" and ret.info and \
            ret.info.owned:
        notes.append("owned(%s)" % ret.info.owned)
    for k in _owned_strings(f):
        notes.append("owned string result %d (%s)"
                     % (k, f.out_slots[k - 1].info.owned))
    thunks = _thunks(f)
    if thunks:
        notes.append("binds a thunk of " + ", ".join(thunks))
    return "%s: %s" % (e.name, "; ".join(notes))


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
    for e in host.functions:
        _binder(src, host, e)
    src.line("M.binders = B")
    src.lines(_BIND)
    return {host.name + ".lua": str(src)}
