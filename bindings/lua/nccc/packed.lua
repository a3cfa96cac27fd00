-- nccc/packed.lua — packed functions over the module "tvm" (docs/PACKED.md,
-- "Dynamic calls"; docs/LUA.md, "Packed functions"): calling a global
-- packed function with Lua values and registering a Lua function as one.
require("nccc.common").internal()
local common = require("nccc.common")
local core = require("nccc.interpreter").core
local N = require("nccc.numbers").N
local builtins = require("nccc.builtins")
local callbacks = require("nccc.callbacks")
local values = require("nccc.values")
-- the methods this part gives the library object (composed in nccc.lua)
local methods = {}

local fmt, floor, huge = string.format, math.floor, math.huge
local unpack = table.unpack or unpack
local NULL = common.NULL
local packed = {}

-- TVM's type codes of packed arguments and results (the ABI's table).
local TC = require("nccc.abi").packed.type_codes
local kDLInt, kDLFloat, kTVMOpaqueHandle, kTVMNullptr, kTVMStr =
  TC.int, TC.float, TC.handle, TC.null, TC.str

-- nccc.float(x): x sent as kDLFloat even when integral (LuaJIT cannot
-- tell 2.0 from 2; on Lua 5.4 a float subtype is a float already).
local PackedFloat = {}
function packed.float(x) return setmetatable({x}, PackedFloat) end

-- The type code and slot of argument k (a string stays a string).
local function packed_arg(name, k, v)
  if v == nil or v == NULL then return kTVMNullptr, 0 end
  if type(v) == "string" then return kTVMStr, v end
  if getmetatable(v) == PackedFloat then return kDLFloat, N.f2s(v[1] + 0.0) end
  if type(v) == "number" then
    if N.is_float(v) or v ~= floor(v) or v ~= v or v == huge or v == -huge then
      return kDLFloat, N.f2s(v)
    end
    return kDLInt, N.raw(v)
  end
  if N.is_boxed_int(v) then return kDLInt, N.raw(v) end
  local s, why = values.ENCODE.p(v)
  if s == nil then
    error(fmt("bad argument #%d to packed '%s' (%s)", k + 1, tostring(name), values.describe(why, "p", v)), 3)
  end
  return kTVMOpaqueHandle, s
end

-- packed(name, ...): calls the global packed function name: integers go
-- as kDLInt, other numbers as kDLFloat, strings as kTVMStr, NULL (or nil)
-- as kTVMNullptr, pointers as handles. Returns its result (none for a
-- null result); a failure raises "packed call 'name' failed: ...".
function methods:packed(name, ...)
  local n, args = select("#", ...), {}
  for k = 1, n do
    args[#args + 1], args[#args + 2] = packed_arg(name, k, (select(k, ...)))
  end
  local strs = {}
  for k = 2, #args, 2 do
    if type(args[k]) == "string" then strs[#strs + 1] = builtins.cstring(self, args[k]) args[k] = strs[#strs] end
  end
  local ok, st, code, value = pcall(self.call, self, "tvm.call_global", name, n, unpack(args))
  builtins.free_all(self, strs)
  if not ok then error(st, 2) end
  if st ~= 0 then
    error(fmt("packed call '%s' failed: %s (status 0x%x)", tostring(name),
      select(2, builtins.last_error(self)), st), 2)
  end
  local bits = N.raw(value)
  if code == kDLInt then return N.vi64(bits)
  elseif code == kDLFloat then return N.s2f(bits)
  elseif code == kTVMNullptr then return
  elseif code == kTVMStr then return builtins.cstring_at(self, bits)
  end
  return N.vptr(bits)
end

-- register_packed(name, psig, fn[, flags]): fn becomes the global packed
-- function name (tvm.register_env with the one dispatcher), its arguments
-- and result converted by psig (integers l, floats d, strings s, handles
-- p). fn stays referenced for the life of the state: the registry gives
-- no notice when a name stops being used.
local PSLOT = {l = "l", i = "l", L = "L", I = "L", b = "l", ["?"] = "l", d = "d", f = "d",
  s = "s", p = "p", y = "p", m = "p", k = "p", t = "p", h = "p"}
local function pslot(c) return PSLOT[c] or "p" end
function methods:register_packed(name, psig, fn, flags)
  if type(fn) ~= "function" then error("bad argument #3 to 'register_packed' (function expected)", 2) end
  local ins, outs = tostring(psig):match("^([^:]*):(.?)$")
  if not ins then error(fmt("malformed packed signature '%s'", tostring(psig)), 2) end
  local sin, sout = ins:gsub(".", pslot), outs:gsub(".", pslot)
  local function conv(k, v)
    if k > 0 then return N.vu64(v) end
    if sout == "d" and type(v) == "cdata" then v = tonumber(v) end
    local s, why = values.ENCODE[sout](v)
    if s == nil then
      error(fmt("packed %s: bad result (%s)", tostring(name), values.describe(why, sout, v)), 0)
    end
    return s
  end
  local env = core.ref(fn, sin, sout, nil, conv)
  local ok, st = pcall(self.call, self, "tvm.register_env", name, callbacks.dispatcher(self), env, psig, flags or 0)
  if not ok or st ~= 0 then
    core.unref(env)
    if not ok then error(st, 2) end
    error(fmt("cannot register packed '%s': %s (status 0x%x)", tostring(name),
      select(2, builtins.last_error(self)), st), 2)
  end
  self.packed_envs = self.packed_envs or {}
  self.packed_envs[name] = env
  return true
end

packed.methods = methods
return packed
