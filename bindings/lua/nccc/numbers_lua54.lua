-- nccc/numbers_lua54.lua — slots and numbers on Lua 5.4: a slot is an
-- integer holding its 64 bits. int64 values are integers; uint64 values
-- are integers up to math.maxinteger and nccc.u64 boxes above (never a
-- wrapped negative); pointers are integers; narrower integers and floats
-- are plain Lua numbers. nccc/numbers_luajit.lua is the same interface.
-- Checks return the slot, or nil and why ("type", "range", "integral").
local NULL = require("nccc.common").NULL
local codes = require("nccc.abi").codes

local N = {}
local mtype, toint, spack, sunpack = math.type, math.tointeger, string.pack, string.unpack
local minint, maxint, floor, concat = math.mininteger, math.maxinteger, math.floor, table.concat

-- The box of a uint64 value above math.maxinteger: box.bits is its
-- two's-complement bit pattern.
local U64 = {__name = "nccc.u64"}
U64.__index = U64
N.U64 = U64
local function box(bits) return setmetatable({bits = bits}, U64) end

-- Decimal sum of two digit strings.
local function decimal_add(a, b)
  local out, carry, i, j = {}, 0, #a, #b
  while i > 0 or j > 0 or carry > 0 do
    local d = carry + (i > 0 and a:byte(i) - 48 or 0) + (j > 0 and b:byte(j) - 48 or 0)
    out[#out + 1], carry = string.char(48 + d % 10), d >= 10 and 1 or 0
    i, j = i - 1, j - 1
  end
  return out[1] and string.reverse(concat(out)) or "0"
end
-- bits + 2^64 = (bits - minint) + 2^63; the subtraction wraps into range.
U64.__tostring = function(v) return decimal_add(tostring(v.bits - minint), "9223372036854775808") end
U64.__eq = function(a, b) return getmetatable(a) == U64 and getmetatable(b) == U64 and a.bits == b.bits end
local function ukey(v)
  if getmetatable(v) == U64 then return v.bits end
  if mtype(v) == "integer" and v >= 0 then return v end
  error("cannot compare nccc.u64 with " .. tostring(v), 3)
end
U64.__lt = function(a, b) return math.ult(ukey(a), ukey(b)) end
U64.__le = function(a, b) return not math.ult(ukey(b), ukey(a)) end

function N.int(v, lo, hi)
  if type(v) ~= "number" then return nil, "type" end
  if v < lo or v > hi then return nil, "range" end
  local i = toint(v)
  if i == nil then return nil, "integral" end
  return i
end
function N.i64(v)
  if getmetatable(v) == U64 then return nil, "range" end
  return N.int(v, minint, maxint)
end
function N.u64(v)
  if getmetatable(v) == U64 then return v.bits end
  if type(v) ~= "number" then return nil, "type" end
  if v < 0 or v >= 2 ^ 64 then return nil, "range" end
  local i = toint(v)
  if i then return i end
  if v ~= floor(v) then return nil, "integral" end
  return toint(v - 2 ^ 64) -- exact: a float this large is a multiple of 2^11
end
function N.ptr(v)
  if v == nil or v == NULL then return 0 end
  if getmetatable(v) == U64 then return v.bits end
  if mtype(v) == "integer" then return v end
  return nil, "type"
end
function N.raw(v) -- any 64 bits: an int64 or a uint64 value
  if type(v) == "number" and v < 0 then return N.i64(v) end
  return N.u64(v)
end
-- Integers to floats; floats untouched (x + 0.0 would turn -0.0 into 0.0).
function N.float(v) if mtype(v) == "integer" then return v + 0.0 end return v end
function N.vi64(s) return s end
function N.vu64(s) if s >= 0 then return s end return box(s) end
function N.vptr(s) if s == 0 then return nil end return s end
function N.f2s(x) return (sunpack("<i8", spack("<d", x))) end
function N.s2f(s) return (sunpack("<d", spack("<i8", s))) end

-- A number that goes to a packed function as a float (a float subtype).
function N.is_float(v) return mtype(v) == "float" end
-- A 64-bit integer value that is no Lua number (a uint64 box).
function N.is_boxed_int(v) return getmetatable(v) == U64 end
-- Owned objects are tables, which have __gc on Lua 5.4: nothing to add.
function N.finalizer() return nil end

-- Record fields: string.pack formats by kind, signedness and width (a
-- field of 8 bytes holds the slot's bits, read as the integer it is).
local function ffmt(code, size)
  local c = codes[code]
  if c.kind == "float" then return "=" .. code end
  if c.signed or size == 8 then return "=i" .. size end
  return "=I" .. size
end
function N.unpack(code, size, bytes, pos)
  local v = sunpack(ffmt(code, size), bytes, pos)
  if codes[code].kind == "float" then return N.f2s(v) end
  return v
end
function N.pack(code, size, s)
  if codes[code].kind == "float" then return spack(ffmt(code, size), N.s2f(s)) end
  return spack(ffmt(code, size), s)
end
N.zero = 0

-- C objects' fields (nccc/cdata.lua) go through the library's peek and
-- poke: no N.load or N.store here.

return N
