-- nccc/binder.lua — the one interpreter of binding records in Lua
-- (docs/LUA.md, "Generated modules"; the records: docs/BINDING.md): a
-- generated module is only its records, handed over as
-- return require("nccc.binder").module(M), which gives it bind(lib).
-- Every binding rule of Lua lives here: which options lib:fast takes,
-- owned results, closure sets, closure checks.
local common = require("nccc.common")
local abi = require("nccc.abi")
common.internal()
local owners = require("nccc.owners")

local fmt = string.format
local unpack = table.unpack or unpack
local binder = {}

-- The targets an entry may carry one signature each for, after its name
-- (the ABI's targets: data models by plain-char signednesses); an entry
-- with one signature has it for all.
local TARGETS = #abi.targets

-- The targets of the targets list whose signature in sigs (a record's:
-- one, or one per target) is sig.
local function agreeing(sigs, sig, targets)
  local keep = {}
  for _, k in ipairs(targets) do
    if (sigs[k] or sigs[1]) == sig then keep[#keep + 1] = k end
  end
  return keep
end

local function find(M, list, name, what)
  for _, e in ipairs(list) do
    if e.name == name then return e end
  end
  error(fmt("unknown %s '%s.%s'", what, M.module, name), 3)
end

-- Why closure v cannot go to parameter k (nil when it can): made for
-- other signatures than want[k], or of scope call where the parameter's
-- scope (params[k].scope) is another.
local function mismatch(v, k, want, params)
  local got, w = v.signatures or {v.signature}, want[k]
  local same = #got == #w
  for j = 1, #w do same = same and got[j] == w[j] end
  if not same then
    return fmt("closure of %s '%s' expected, got one of '%s'",
      table.concat(params[k].callbacks, ", "), table.concat(w, "', '"),
      table.concat(got, "', '"))
  end
  local scope = params[k].scope
  if v.scope == "call" and scope ~= "call" then
    return fmt("closure of scope '%s' expected, got one of scope 'call' (make it with scope '%s', or pass a function)",
      scope, scope)
  end
end

-- call, refusing before C runs a closure argument made for callback
-- signatures other than the parameter's (want: {[position] = {signature
-- per member}}, params: closure_params'), or of scope call for a
-- parameter of another scope; a function passed for a parameter of one
-- callback type becomes a closure of its scope (make(type, fn, scope)).
-- The backward wrapper would refuse a wrong type too, but only once C
-- calls back.
local function checking_closures(name, call, want, params, make)
  local positions = {}
  for k in pairs(want) do positions[#positions + 1] = k end
  return function(...)
    local args, made = nil, false
    for _, k in ipairs(positions) do
      local v = select(k, ...)
      if getmetatable(v) == common.Closure then
        local why = mismatch(v, k, want, params)
        if why then
          for j = 1, select("#", ...) do common.release_refused((select(j, ...))) end
          if args then for _, a in pairs(args) do common.release_refused(a) end end
          error(fmt("bad argument #%d to '%s' (%s)", k, name, why), 2)
        end
      elseif type(v) == "function" and #params[k].callbacks == 1 then
        args = args or {n = select("#", ...), ...}
        args[k] = make(params[k].callbacks[1], v, params[k].scope)
        args[k].fresh, made = true, true
      end
    end
    if not made then return call(...) end
    local function done(...)
      for _, k in ipairs(positions) do
        if getmetatable(args[k]) == common.Closure then args[k].fresh = nil end
      end
      return ...
    end
    return done(call(unpack(args, 1, args.n)))
  end
end

-- A library made by nccc_add_bindings(... SHARED) exports
-- nccc_<module>_open (":i", out[0] = status), which initialises its
-- runtime and registers the module unless present: bind calls it when the
-- library (from nccc.open) has it, so the lookups below find the module.
local function open_module(M, lib)
  if not lib.handle then return end
  local found, addr = pcall(lib.symbol, lib, "nccc_" .. M.module .. "_open")
  if not found then return end
  local st = lib:call_address(addr, ":i")
  if st ~= 0 then
    error(fmt("nccc: nccc_%s_open failed: %s (status 0x%x)", M.module,
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

-- The options of lib:fast a function's record asks for (nil for none):
-- nonnull = {[k] = true}, outs = {[k] = "p"} for owned strings (read
-- as pointers, then converted), thunks = true.
local function fast_options(e)
  local opts, any = {}, false
  if e.nonnull then
    opts.nonnull, any = {}, true
    for _, k in ipairs(e.nonnull) do opts.nonnull[k] = true end
  end
  local strings = {}
  if e.owned and e.owned.kind == "string" then strings[1] = e.owned.result end
  for _, o in ipairs(e.owned_strings or {}) do strings[#strings + 1] = o.result end
  if #strings > 0 then
    opts.outs, any = {}, true
    for _, k in ipairs(strings) do opts.outs[k] = "p" end
  end
  if e.thunks then opts.thunks, any = true, true end
  return any and opts or nil
end

-- call wrapped in the closure sets of the function's record e: per set
-- it has slots of, S.closures with {name, set, owner, members =
-- {[position] = member}, context = position}; then S.release of the
-- sets whose owner it frees.
local function with_sets(e, S, call)
  local specs, order = {}, {}
  for _, c in ipairs(e.closures or {}) do
    local ref = c.set
    if ref then
      local spec = specs[ref.name]
      if not spec then
        spec = {name = e.error_name, set = ref.name, owner = ref.owner, members = {}}
        specs[ref.name], order[#order + 1] = spec, ref.name
      end
      if ref.member then spec.members[c.arg] = ref.member else spec.context = c.arg end
    end
  end
  for _, name in ipairs(order) do call = S.closures(call, e.in_count, specs[name]) end
  if e.frees then call = S.release(call, e.frees) end
  return call
end

-- call with the owned results of record e converted: an owned object
-- (lib:owner, freed by the module's destructor; through S.freeing when
-- closing it also releases closure groups), the return value's or an
-- [out] pointer's, or an owned string (read, then freed).
local function owning(M, lib, e, S, call)
  local convs, n = {}, 0
  local function free_of(o) return o.frees and S.freeing(o.free) or M.module .. "." .. o.free end
  local own = e.owned
  if own then
    local free = free_of(own)
    convs[own.result] = own.kind == "string" and lib:owned_string(free)
      or lib:owner(free, own.type)
    n = 1
  end
  for _, o in ipairs(e.owned_strings or {}) do
    convs[o.result], n = lib:owned_string(M.module .. "." .. o.free), n + 1
  end
  for _, o in ipairs(e.owned_pointers or {}) do
    convs[o.result], n = lib:owner(free_of(o), o.type), n + 1
  end
  if n == 0 then return call end
  local conv = (n == 1 and convs[1]) or lib:owning(convs)
  return function(...) return conv(call(...)) end
end

-- The call of function record e bound to handle h: lib:fast with its
-- options (the plain fast path when it has none), its closure sets and
-- owned results.
local function function_call(M, lib, e, h, S, device_memory)
  local opts = fast_options(e)
  local call = opts and lib:fast(h, opts) or lib:fast(h)
  -- [bytes] arguments: their positions are the same on every target
  call = owners.bytes_in(lib, e, call, device_memory)
  return owning(M, lib, e, S, with_sets(e, S, call))
end

-- The closure arguments of record e that bind checks ({[position] =
-- {callbacks = {callback type per member}, scope}}; slots of closure
-- sets are the owner's,
-- not the caller's), or nil.
local function closure_params(e)
  local params
  for _, c in ipairs(e.closures or {}) do
    if not c.set then
      params = params or {}
      params[c.arg] = {callbacks = c.callbacks, scope = c.scope}
    end
  end
  return params
end

-- bind(lib) of module M: for a library from nccc.open or nccc.bind, a
-- table with a function per IDL function and the constants' values; the
-- helpers lib, layout, pack, unpack, signature and callback come through
-- its metatable.
local function bind(M, lib)
  open_module(M, lib)
  local t, targets, helpers = {}, {}, {lib = lib}
  local S = owners.sets(M, lib, t, helpers)
  local values = lib:constants(M.module)
  local remote = values[abi.rpc_bound_marker] ~= nil
  local memory
  local function device_memory()
    memory = memory or require("nccc.remote_memory").open(lib, M.module)
    return memory
  end
  for k = 1, TARGETS do targets[k] = k end
  for _, e in ipairs(M.functions) do
    local h = lib:lookup(e.error_name)
    local sig = lib:signature(h)
    local keep = agreeing(e.signatures, sig, targets)
    if #keep == 0 then
      error(fmt("nccc: %s has signature '%s' in the library, not the one %s.lua was generated with",
        e.error_name, sig, M.module), 2)
    end
    targets = keep
    t[e.name] = function_call(M, lib, e, h, S, remote and device_memory)
    if remote then t[e.name] = remote_checked(lib, e.error_name, t[e.name]) end
  end
  local function signature_of(name)
    local sigs = find(M, M.callbacks, name, "callback type").signatures
    return sigs[targets[1]] or sigs[1]
  end
  for _, e in ipairs(M.functions) do
    local params = closure_params(e)
    if params then
      local want = {}
      for k, p in pairs(params) do
        want[k] = {}
        for j, tname in ipairs(p.callbacks) do want[k][j] = signature_of(tname) end
      end
      t[e.name] = checking_closures(e.error_name, t[e.name], want, params,
        function(...) return helpers.callback(...) end)
    end
  end
  for _, c in ipairs(M.constants) do
    local v = values[c]
    if v == nil then error(fmt("nccc: the library has no constant '%s.%s'", M.module, c), 2) end
    t[c] = v
  end
  function helpers.layout(name) return lib:layout(M.module .. "." .. name) end
  function helpers.pack(name, v) return lib:pack(M.module .. "." .. name, v) end
  function helpers.unpack(name, bytes) return lib:unpack(M.module .. "." .. name, bytes) end
  function helpers.signature(name) return signature_of(name) end
  -- C objects (docs/LUA.md, "C objects"): new(name[, value]), view(name, p[, count])
  -- (classes made on the first use, from the layout records)
  local cdata, classes
  local function objects()
    if not classes then
      cdata = require("nccc.cdata")
      classes = cdata.classes(lib, M.module, M.layouts or {},
        remote and device_memory() or nil)
    end
    return cdata, classes
  end
  function helpers.new(name, value)
    local c, cl = objects()
    return c.new(cl, M.module, name, value)
  end
  function helpers.view(name, p, count)
    local c, cl = objects()
    return c.view(cl, M.module, name, p, count)
  end
  -- fn converting the arguments callback type name's value descriptions
  -- describe (strings, tables), in the device's memory for a module
  -- bound from one
  local function callback_memory() return remote and device_memory() or lib end
  function helpers.values(name, fn)
    local v = find(M, M.callbacks, name, "callback type").values
    return owners.converting(callback_memory, v and (v[targets[1]] or v[1]), fn)
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
