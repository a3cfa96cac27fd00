-- nccc/numbers.lua — the interpreter's number rules (nccc/numbers_lua54.lua
-- or nccc/numbers_luajit.lua, chosen once by nccc/interpreter.lua) and,
-- on top of them, the public constructors of exact 64-bit values.
local N = require("nccc.interpreter").numbers

local numbers = {N = N}

-- The limits of 64-bit digit strings: unsigned, signed max, signed min.
local DIGITS = {
  [10] = {"18446744073709551615", "9223372036854775807", "9223372036854775808"},
  [16] = {"ffffffffffffffff", "7fffffffffffffff", "8000000000000000"}}

-- The slot of a decimal or 0x hex string, or nil.
local function parse64(s, signed)
  local neg, body = s:match("^%s*(%-?)(%w+)%s*$")
  if not body or (neg == "-" and not signed) then return nil end
  local base, digits = 10, body
  if body:match("^0[xX]") then base, digits = 16, body:sub(3):lower() end
  digits = digits:gsub("^0+(.)", "%1")
  if digits == "" or not digits:match(base == 16 and "^%x+$" or "^%d+$") then return nil end
  local limits = DIGITS[base]
  local limit = not signed and limits[1] or (neg == "-" and limits[3] or limits[2])
  if #digits > #limit or (#digits == #limit and digits > limit) then return nil end
  local acc = N.zero -- 64-bit arithmetic that wraps: the bits come out right
  for k = 1, #digits do acc = acc * base + tonumber(digits:sub(k, k), 16) end
  if neg == "-" then acc = N.zero - acc end
  return acc
end

-- nccc.u64(x) / nccc.i64(x): an exact 64-bit value from a decimal or 0x
-- hex string, or from an integer (for u64, its 64 bits: nccc.u64(-1) is
-- UINT64_MAX, an explicit two's-complement reading).
function numbers.u64(x)
  local s = type(x) == "string" and parse64(x, false) or type(x) ~= "string" and N.raw(x)
  if not s then error("not a uint64: " .. tostring(x), 2) end
  return N.vu64(s)
end

function numbers.i64(x)
  local s = type(x) == "string" and parse64(x, true) or type(x) ~= "string" and N.i64(x)
  if not s then error("not an int64: " .. tostring(x), 2) end
  return N.vi64(s)
end

-- The bits of a double as a uint64 value, and back (NaN payloads kept).
function numbers.double_bits(x) return N.vu64(N.f2s(x)) end
function numbers.bits_double(v)
  local s = N.u64(v)
  if s == nil then error("not a uint64: " .. tostring(v), 2) end
  return N.s2f(s)
end

return numbers
