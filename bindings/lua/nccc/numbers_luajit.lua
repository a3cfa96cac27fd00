-- nccc/numbers_luajit.lua — slots and numbers on LuaJIT: a slot is
-- int64_t cdata. int64 values are int64_t cdata, uint64 values uint64_t
-- cdata, pointers void * cdata, as LuaJIT's ffi does; narrower integers
-- and floats are plain Lua numbers. The same interface as
-- nccc/numbers_lua54.lua: checks return the slot, or nil and why
-- ("type", "range", "integral").
local ffi = require("ffi")
local NULL = require("nccc.common").NULL
local codes = require("nccc.abi").codes

local N = {}
local floor = math.floor
local i64_t, u64_t, vptr_t = ffi.typeof("int64_t"), ffi.typeof("uint64_t"), ffi.typeof("void *")
local I64MAX = ffi.cast(u64_t, 2 ^ 63) - 1
local u = ffi.new([[union { double d; float f; int64_t l; int32_t i; uint32_t I;
  int16_t h; uint16_t H; int8_t b; uint8_t B; }]])
local function is_i64(v) return ffi.istype(i64_t, v) end
local function is_u64(v) return ffi.istype(u64_t, v) end

function N.int(v, lo, hi)
  if type(v) == "number" then
    if v < lo or v > hi then return nil, "range" end
    if v ~= floor(v) then return nil, "integral" end
    return v
  elseif is_i64(v) then
    if v < lo or v > hi then return nil, "range" end
    return tonumber(v)
  elseif is_u64(v) then -- compared as uint64: only the upper bound matters
    if v > hi then return nil, "range" end
    return tonumber(v)
  end
  return nil, "type"
end
function N.i64(v)
  if type(v) == "number" then
    if v < -2 ^ 63 or v >= 2 ^ 63 then return nil, "range" end
    if v ~= floor(v) then return nil, "integral" end
    return v
  elseif is_i64(v) then return v
  elseif is_u64(v) then
    if v > I64MAX then return nil, "range" end
    return ffi.cast(i64_t, v)
  end
  return nil, "type"
end
function N.u64(v)
  if type(v) == "number" then
    if v < 0 or v >= 2 ^ 64 then return nil, "range" end
    if v ~= floor(v) then return nil, "integral" end
    if v >= 2 ^ 63 then return ffi.cast(i64_t, ffi.cast(u64_t, v)) end
    return v
  elseif is_i64(v) then
    if v < 0 then return nil, "range" end
    return v
  elseif is_u64(v) then return ffi.cast(i64_t, v)
  end
  return nil, "type"
end
function N.ptr(v)
  if v == nil or v == NULL then return 0 end
  if type(v) == "cdata" then
    if is_i64(v) then return v end
    local ok, p = pcall(ffi.cast, "intptr_t", v)
    if ok then return ffi.cast(i64_t, p) end
  elseif type(v) == "number" and v >= 0 and v == floor(v) and v < 2 ^ 53 then
    return v
  end
  return nil, "type"
end
function N.raw(v) -- any 64 bits: an int64 or a uint64 value
  if is_u64(v) then return ffi.cast(i64_t, v) end
  if type(v) == "number" and v >= 2 ^ 63 then return N.u64(v) end
  return N.i64(v)
end
function N.float(v) return v end
function N.vi64(s) return ffi.cast(i64_t, s) end
function N.vu64(s) return ffi.cast(u64_t, ffi.cast(i64_t, s)) end
function N.vptr(s) if s == 0 then return nil end return ffi.cast(vptr_t, s) end
function N.f2s(x) u.d = x return u.l end
-- LuaJIT keeps type tags in the bits of NaNs from 0xfff9... up: such a
-- NaN read as a number would be some other value, so it comes back as
-- the canonical NaN instead (its payload is lost; docs/LUA.md).
local TAGGED = ffi.cast(i64_t, -0x7000000000000)
function N.s2f(s)
  u.l = s
  if u.l < 0 and u.l >= TAGGED then return 0 / 0 end
  return u.d
end

-- LuaJIT cannot tell 2.0 from 2: only nccc.float(x) sends a float.
function N.is_float() return false end
-- A 64-bit integer value that is no Lua number (int64_t or uint64_t cdata).
function N.is_boxed_int(v) return is_i64(v) or is_u64(v) end
-- Tables have no __gc on LuaJIT: an owned object keeps a proxy whose
-- finalizer runs free(addr) unless state.closed; it reaches only state,
-- not the object (which holds the proxy).
function N.finalizer(free, addr, state)
  return ffi.gc(ffi.new("char[1]"), function()
    if not state.closed then state.closed = true pcall(free, addr) end
  end)
end

-- Record fields: the union member of the field's kind, signedness and
-- width (8 bytes: the slot's bits).
local SIGNED_MEMBER = {[1] = "b", [2] = "h", [4] = "i", [8] = "l"}
local UNSIGNED_MEMBER = {[1] = "B", [2] = "H", [4] = "I", [8] = "l"}
local function member(code, size)
  local c = codes[code]
  if c.kind == "float" then return code end
  return (c.signed and SIGNED_MEMBER or UNSIGNED_MEMBER)[size]
end
function N.unpack(code, size, bytes, pos)
  local m = member(code, size)
  ffi.copy(u, ffi.cast("const char *", bytes) + (pos - 1), size)
  if m == "d" then return u.l end
  if m == "f" then -- widened by bits (docs/ABI.md): no NaN passes through a number
    local bits = u.I
    if floor(bits / 2 ^ 23) % 256 ~= 255 or bits % 2 ^ 23 == 0 then return N.f2s(u.f) end
    return ffi.cast(i64_t, ffi.cast(u64_t, (bits >= 2 ^ 31 and 2 ^ 63 or 0) + 2047 * 2 ^ 52
      + bits % 2 ^ 23 * 2 ^ 29))
  end
  return u[m]
end
function N.pack(code, size, s)
  local m = member(code, size)
  u.l = 0
  if m == "f" or m == "d" then u[m] = N.s2f(s) else u[m] = s end
  return ffi.string(u, size)
end
N.zero = ffi.new(u64_t, 0)

-- C objects' fields in place (nccc/cdata.lua): the value of code at
-- address slot a, read through a typed pointer as LuaJIT's ffi reads it
-- (pointers as void * cdata, NULL nil), and a value already checked by
-- values.ENCODE (v; s, its slot) written there.
local FIELD_PTR = {}
for code, t in pairs({["?"] = "bool", b = "int8_t", B = "uint8_t", h = "int16_t", H = "uint16_t",
    i = "int32_t", I = "uint32_t", e = "int32_t", l = "int64_t", L = "uint64_t",
    f = "float", d = "double", p = "int64_t"}) do
  FIELD_PTR[code] = ffi.typeof(t .. " *")
end
-- a typed pointer to a field of code at address slot a (not a pointer field)
function N.field_pointer(a, code) return ffi.cast(FIELD_PTR[code], a) end
function N.load(a, code)
  local v = ffi.cast(FIELD_PTR[code], a)[0]
  if code == "p" then return N.vptr(v) end
  return v
end
function N.store(a, code, v, s)
  if code == "p" or code == "l" or code == "L" then v = s end
  ffi.cast(FIELD_PTR[code], a)[0] = v
end

return N
