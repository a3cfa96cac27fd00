-- nccc/binder.lua — what generated Lua modules call (docs/LUA.md,
-- "Generated modules"): a module file holds only its tables (name,
-- functions, callbacks, constants, layouts, binders) and ends with
-- return require("nccc.binder").module(M), which gives it bind(lib).
local common = require("nccc.common")
local abi = require("nccc.abi")
common.internal()
local owners = require("nccc.owners")

local fmt = string.format
local binder = {}

-- The targets an entry may carry one signature each for, after its name
-- (stubgen/host.py, TARGETS: three data models by two plain-char
-- signednesses); an entry with one signature has it for all.
local TARGETS = 6

-- The targets of the targets list whose signature of entry e is sig.
local function agreeing(e, sig, targets)
  local keep = {}
  for _, k in ipairs(targets) do
    if (e[k + 1] or e[2]) == sig then keep[#keep + 1] = k end
  end
  return keep
end

local function find(M, list, name, what)
  for _, e in ipairs(list) do
    if e[1] == name then return e end
  end
  error(fmt("unknown %s '%s.%s'", what, M.name, name), 3)
end

-- call, refusing before C runs a closure argument made for callback
-- signatures other than the parameter's (want: {[position] = {signature
-- per member}}, types: the same as callback type names, for messages).
-- The backward wrapper would refuse it too, but only once C calls back.
local function checking_closures(name, call, want, types)
  local positions = {}
  for k in pairs(want) do positions[#positions + 1] = k end
  return function(...)
    for _, k in ipairs(positions) do
      local v = select(k, ...)
      if getmetatable(v) == common.Closure then
        local got, w = v.signatures or {v.signature}, want[k]
        local same = #got == #w
        for j = 1, #w do same = same and got[j] == w[j] end
        if not same then
          error(fmt("bad argument #%d to '%s' (closure of %s '%s' expected, got one of '%s')",
            k, name, table.concat(types[k], ", "), table.concat(w, "', '"),
            table.concat(got, "', '")), 2)
        end
      end
    end
    return call(...)
  end
end

-- A library made by nccc_add_bindings(... SHARED) exports
-- nccc_<module>_open (":i", out[0] = status), which initialises its
-- runtime and registers the module unless present: bind calls it when the
-- library (from nccc.open) has it, so the lookups below find the module.
local function open_module(M, lib)
  if not lib.handle then return end
  local found, addr = pcall(lib.symbol, lib, "nccc_" .. M.name .. "_open")
  if not found then return end
  local st = lib:call_address(addr, ":i")
  if st ~= 0 then
    error(fmt("nccc: nccc_%s_open failed: %s (status 0x%x)", M.name,
      abi.status_text[st] or "unknown status", st), 3)
  end
end

-- The statuses of a failure of a remote call itself (ERR_RPC_...): value -> name.
local RPC_FAILURES = {}
for name, v in pairs(abi.status) do
  if name:sub(1, 8) == "ERR_RPC_" then RPC_FAILURES[v] = name end
end

-- call of a function of a module bound from a device (it has the constant
-- abi.rpc_bound_marker; docs/RPC.md, "Calling through a bound module"):
-- a failure of the remote call itself (the link, a timeout, a restart, a
-- request too big) leaves zeroed results and shows only as the last
-- error, so the last error is cleared before each call and such a
-- failure raised after it.
local function remote_checked(lib, name, call)
  local builtins = require("nccc.builtins") -- the C core's, loaded only here
  local function raise_failure(...)
    local st, msg = builtins.last_error(lib)
    if RPC_FAILURES[st] then
      error(fmt("'%s': remote call failed: %s (NCCC_%s)", name, msg, RPC_FAILURES[st]), 2)
    end
    return ...
  end
  return function(...)
    builtins.call(lib, builtins.B.clear_error, 1)
    return raise_failure(call(...))
  end
end

-- bind(lib) of module M: for a library from nccc.open or nccc.bind, a
-- table with a function per IDL function and the constants' values; the
-- helpers lib, layout, pack, unpack, signature and callback come through
-- its metatable.
local function bind(M, lib)
  open_module(M, lib)
  local t, targets, helpers = {}, {}, {lib = lib}
  local S = owners.sets(M, lib, t, helpers)
  local values = lib:constants(M.name)
  local remote = values[abi.rpc_bound_marker] ~= nil
  for k = 1, TARGETS do targets[k] = k end
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
    t[e[1]] = (M.binders[e[1]] or lib.fast)(lib, h, S)
    if remote then t[e[1]] = remote_checked(lib, name, t[e[1]]) end
  end
  for fname, params in pairs(M.closure_params or {}) do
    local want = {}
    for k, types in pairs(params) do
      want[k] = {}
      for j, tname in ipairs(types) do
        local e = find(M, M.callbacks, tname, "callback type")
        want[k][j] = e[targets[1] + 1] or e[2]
      end
    end
    t[fname] = checking_closures(fname, t[fname], want, params)
  end
  for _, c in ipairs(M.constants) do
    local v = values[c]
    if v == nil then error(fmt("nccc: the library has no constant '%s.%s'", M.name, c), 2) end
    t[c] = v
  end
  function helpers.layout(name) return lib:layout(M.name .. "." .. name) end
  function helpers.pack(name, v) return lib:pack(M.name .. "." .. name, v) end
  function helpers.unpack(name, bytes) return lib:unpack(M.name .. "." .. name, bytes) end
  function helpers.signature(name)
    local e = find(M, M.callbacks, name, "callback type")
    return e[targets[1] + 1] or e[2]
  end
  -- fn converting the arguments callback type name's value annotations
  -- describe (strings, tables)
  function helpers.values(name, fn)
    local e = find(M, M.callbacks, name, "callback type")
    local v = e.values
    return owners.converting(lib, v and (v[targets[1]] or v[1]), fn)
  end
  function helpers.callback(name, fn, scope)
    return lib:callback(helpers.signature(name), helpers.values(name, fn), scope)
  end
  return setmetatable(t, {__index = helpers})
end

-- module(M): M with its bind function; the calling file (the generated
-- module) counts as library code, so errors point past it.
function binder.module(M)
  common.internal(debug.getinfo(2, "S").source)
  function M.bind(lib) return bind(M, lib) end
  return M
end

return binder
