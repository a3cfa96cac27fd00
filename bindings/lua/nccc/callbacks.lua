-- nccc/callbacks.lua — C calling Lua back (docs/LUA.md, "Callbacks"):
-- closures claimed from the runtime whose target is the interpreter's
-- one dispatcher and whose environment word names a Lua function kept by
-- the primitive, with its arguments and results converted by the
-- callback's signature.
require("nccc.common").internal()
local abi = require("nccc.abi")
local common = require("nccc.common")
local core = require("nccc.interpreter").core
local N = require("nccc.numbers").N
local builtins = require("nccc.builtins")
local registry = require("nccc.registry")
local signature = require("nccc.signature")
local values = require("nccc.values")
-- the methods this part gives the library object (composed in nccc.lua)
local methods = {}

local fmt = string.format
local unpack = table.unpack or unpack
local Closure, vtype = common.Closure, common.vtype
local B, call, check = builtins.B, builtins.call, builtins.check
local RECORD = abi.grammar.record_open
local callbacks = {}

-- The dispatcher's address, registered once per bound runtime.
function callbacks.dispatcher(lib)
  if lib.dispatch then return lib.dispatch end
  local d = core.dispatcher()
  -- Only for other code and tools to see: a name taken already (another
  -- state of this process) changes nothing, closures target d anyway.
  local sig = builtins.cstring(lib, abi.closure_target_signature)
  local ok, _, st = pcall(builtins.with_cstring, lib, core.kind .. ".dispatch", B.register, 2, d, sig, 0)
  call(lib, B.free, 1, sig)
  lib.dispatch_status = ok and st or -1
  lib.dispatch = d
  return d
end

-- One member: fn, with the dispatcher converting its arguments and
-- results by the callback's signature (the primitive's converted
-- references); the release notice marks the closure released.
local function member(lib, sig, fn, obj, k)
  if type(sig) ~= "string" then error(fmt("bad callback #%d (signature string expected)", k), 3) end
  local mt = getmetatable(fn)
  if type(fn) ~= "function" and not (mt and mt.__call) then
    error(fmt("bad callback #%d (function expected, got %s)", k, vtype(fn)), 3)
  end
  if type(fn) ~= "function" then
    local callable = fn
    fn = function(...) return callable(...) end
  end
  local p = signature.parse(sig)
  if p.ins.var or p.outs.var then error("a callback signature cannot end in '*'", 3) end
  local cs = {ins = p.ins, outs = p.outs}
  local function find(name) return registry.find_type(lib, nil, name) end
  signature.count_side(cs.ins, find, "callback " .. sig)
  signature.count_side(cs.outs, find, "callback " .. sig)
  for _, item in ipairs(cs.outs) do
    if item.code == "s" then
      error(fmt("callback %s: cannot return a string (nothing would own its memory)", sig), 3)
    end
  end
  -- conv(k, v): argument k from its slot/bytes (k > 0); result -k to its
  -- slot/bytes, or the error (k < 0)
  local function conv(k, v)
    if k > 0 then
      local item = cs.ins[k]
      if item.code == RECORD then return values.unpack_record(item.layout, v) end
      return N.vu64(v)
    end
    local item = cs.outs[-k]
    local s, why
    if item.code == RECORD then
      s, why = values.pack_record(item.layout, v)
    else
      s, why = values.ENCODE[item.code](v)
      if s == nil then why = values.describe(why, item.code, v) end
    end
    if s == nil then error(fmt("callback %s: bad result #%d (%s)", sig, -k, why), 0) end
    return s
  end
  return core.ref(fn, signature.spec_side(cs.ins), signature.spec_side(cs.outs),
    function() obj.live = false end, conv)
end

-- Every closure sends release notices and runs only on the thread that
-- claimed it: neither Lua 5.4 nor LuaJIT can run Lua on a thread they
-- did not start, so the runtime refuses (and counts) such calls before
-- the dispatcher runs (docs/LUA.md, "Threads").
local function scope_flags(scope)
  local flags = abi.scopes[scope or "call"]
  if not flags then error(fmt("unknown scope '%s' (call, async, notified or forever)", tostring(scope)), 3) end
  return flags + abi.closure_notify + abi.closure_thread
end

-- The C string of a callback signature, made once per library: claims
-- pass it to the runtime, which records the closure's type from it.
local function sig_cstring(lib, sig)
  lib.sig_cstrings = lib.sig_cstrings or {}
  local p = lib.sig_cstrings[sig]
  if p == nil then
    p = builtins.cstring(lib, sig)
    lib.sig_cstrings[sig] = p
  end
  return p
end

-- callback(sig, fn[, scope]): a closure for fn, to pass in a 'c' slot.
-- sig is the callback type's signature (its slots after in[0]); scope is
-- "call" (default), "async", "notified" or "forever".
function methods:callback(sig, fn, scope)
  local flags = scope_flags(scope)
  local obj = setmetatable({lib = self, scope = scope or "call", live = true, calls = 0,
    signature = sig}, Closure)
  local env = member(self, sig, fn, obj, 1)
  local outb, st = call(self, B.closure_claim_typed, 2, callbacks.dispatcher(self), env, flags,
    sig_cstring(self, sig))
  if st ~= 0 then
    core.unref(env)
    error((st == abi.status.ERR_POOL_EXHAUSTED and "closure pool exhausted: " or "cannot claim a closure: ")
      .. select(2, builtins.last_error(self)), 2)
  end
  obj.ctx, obj.envs = core.get(outb, 1), {env}
  return obj
end

-- callback_group(scope, final, {sig, fn}, ...): callbacks of one C
-- function that share one context; member k is the k-th pair (0-based
-- for final, the member whose call ends an async group).
function methods:callback_group(scope, final, ...)
  local flags, n = scope_flags(scope), select("#", ...)
  if n == 0 then error("callback_group needs at least one {sig, fn}", 2) end
  local fin, why = N.int(final, 0, n - 1)
  if not fin then
    error("bad argument #2 to 'callback_group' (" .. values.describe(why, "I", final) .. ")", 2)
  end
  local obj = setmetatable({lib = self, scope = scope or "call", live = true, calls = 0,
    signatures = {}}, Closure)
  local args, envs, d = {flags, fin, n}, {}, callbacks.dispatcher(self)
  for k = 1, n do
    local m = select(k, ...)
    if type(m) ~= "table" then error(fmt("bad callback #%d ({sig, fn} expected)", k), 2) end
    envs[k] = member(self, m[1], m[2], obj, k)
    obj.signatures[k] = m[1]
    args[#args + 1], args[#args + 2], args[#args + 3] = d, envs[k], sig_cstring(self, m[1])
  end
  local outb, st = call(self, B.closure_claim_group_typed, 2, unpack(args))
  if st ~= 0 then
    for _, env in ipairs(envs) do core.unref(env) end
    error("cannot claim a closure group: " .. select(2, builtins.last_error(self)), 2)
  end
  obj.ctx, obj.envs = core.get(outb, 1), envs
  return obj
end

-- Releases the closure now (notices included); false if it was released.
function Closure:release()
  if not self.live then return false end
  local _, st = call(self.lib, B.closure_release, 1, self.ctx)
  return st == 0
end

-- The context C gets, as a pointer value.
function Closure:context() return N.vptr(self.ctx) end

-- capacity, in use, stale calls, type mismatches, wrong-thread calls
function methods:closure_stats()
  local o = check(self, B.closure_stats, abi.builtins[B.closure_stats + 1].n_out)
  local r = {}
  for k = 1, abi.builtins[B.closure_stats + 1].n_out - 1 do r[k] = tonumber(core.get(o, k)) end
  return unpack(r)
end

callbacks.methods = methods
return callbacks
