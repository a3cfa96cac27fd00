-- nccc.lua — the nccc support library for Lua 5.4 and LuaJIT.
--
-- One file for both interpreters, over the primitive of nccc.core (the
-- Lua 5.4 C module) or nccc_luajit (LuaJIT's ffi): bind a library's root,
-- find the built-ins by index, then look up, describe and call any nccc
-- function, converting Lua values to slots and back from its signature
-- string. Generated Lua modules hold only tables (names, signatures,
-- layouts, constants) and call into this. docs/LUA.md is the manual.
--
-- The file avoids the syntax of either dialect (no bitwise operators, no
-- 64-bit literals); the one part that differs, the host's numbers, is
-- chosen once below.

local core
if rawget(_G, "jit") then core = require("nccc_luajit") else core = require("nccc.core") end

local nccc = {core = core}
local unpack = table.unpack or unpack
local floor, ceil, fmt, concat = math.floor, math.ceil, string.format, table.concat

local function pack(...) return {n = select("#", ...), ...} end

-- Errors of calls are raised at the first caller outside this file, the
-- primitive's compiled converters and the generated modules (which
-- register themselves with nccc.internal), so they point at user code.
local THIS = debug.getinfo(1, "S").source
local internal = {[THIS] = true}
if core.source then internal[core.source] = true end
function nccc.internal(source) internal[source] = true end
local function raise(msg, level)
  level = (level or 1) + 1
  while true do
    local info = debug.getinfo(level, "S")
    if not info then level = 0 break end
    if not (internal[info.source] or info.what == "C" or info.source:sub(1, 6) == "=nccc ") then break end
    level = level + 1
  end
  error(msg, level)
end
nccc.raise = raise

-- nccc.NULL: an explicit NULL where nil is refused (strings).
local NULL = setmetatable({}, {__tostring = function() return "nccc.NULL" end})
nccc.NULL = NULL

-- ---- the host's numbers --------------------------------------------------
-- Lua 5.4: a slot is an integer holding its 64 bits. int64 values are
-- integers; uint64 values are integers up to math.maxinteger and nccc.u64
-- boxes above (never a wrapped negative); pointers are integers.
-- LuaJIT: a slot is int64_t cdata. int64 values are int64_t cdata, uint64
-- values uint64_t cdata, pointers void * cdata, as LuaJIT's ffi does.
-- Both: narrower integers and floats are plain Lua numbers.
-- Checks return the slot, or nil and why ("type", "range", "integral").

local N = {}
-- Field formats: signed codes, and codes whose 8-byte form is raw bits.
local SIGNED = {b = true, h = true, i = true, l = true, e = true}
local BITS = {L = true, p = true, s = true, F = true, c = true}

if core.kind == "lua" then
  local mtype, toint, spack, sunpack = math.type, math.tointeger, string.pack, string.unpack
  local minint, maxint = math.mininteger, math.maxinteger
  local U64 = {__name = "nccc.u64"}
  U64.__index = U64
  nccc.U64 = U64
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
  local function ffmt(code, size)
    if code == "f" or code == "d" then return "=" .. code end
    if SIGNED[code] or (BITS[code] and size == 8) then return "=i" .. size end
    return "=I" .. size
  end
  function N.unpack(code, size, bytes, pos)
    local v = sunpack(ffmt(code, size), bytes, pos)
    if code == "f" or code == "d" then return N.f2s(v) end
    return v
  end
  function N.pack(code, size, s)
    if code == "f" or code == "d" then return spack(ffmt(code, size), N.s2f(s)) end
    return spack(ffmt(code, size), s)
  end
  N.zero = 0
else
  local ffi = require("ffi")
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
  local SMEM = {[1] = "b", [2] = "h", [4] = "i", [8] = "l"}
  local UMEM = {[1] = "B", [2] = "H", [4] = "I", [8] = "l"}
  local function member(code, size)
    if code == "f" or code == "d" then return code end
    return (SIGNED[code] and SMEM or UMEM)[size]
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
end

-- nccc.u64(x) / nccc.i64(x): an exact 64-bit value from a decimal or 0x
-- hex string, or from an integer (for u64, its 64 bits: nccc.u64(-1) is
-- UINT64_MAX, an explicit two's-complement reading).
local DIGITS = {
  [10] = {"18446744073709551615", "9223372036854775807", "9223372036854775808"},
  [16] = {"ffffffffffffffff", "7fffffffffffffff", "8000000000000000"}}
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

function nccc.u64(x)
  local s = type(x) == "string" and parse64(x, false) or type(x) ~= "string" and N.raw(x)
  if not s then error("not a uint64: " .. tostring(x), 2) end
  return N.vu64(s)
end

function nccc.i64(x)
  local s = type(x) == "string" and parse64(x, true) or type(x) ~= "string" and N.i64(x)
  if not s then error("not an int64: " .. tostring(x), 2) end
  return N.vi64(s)
end

-- The bits of a double as a uint64 value, and back (NaN payloads kept).
function nccc.double_bits(x) return N.vu64(N.f2s(x)) end
function nccc.bits_double(v)
  local s = N.u64(v)
  if s == nil then error("not a uint64: " .. tostring(v), 2) end
  return N.s2f(s)
end

-- ---- signatures -------------------------------------------------------------

local SCALAR = "?bBhHiIlLfdpsFce"
local RANGE = {
  ["?"] = {0, 1}, e = {-2147483648, 2147483647},
  b = {-128, 127}, B = {0, 255}, h = {-32768, 32767}, H = {0, 65535},
  i = {-2147483648, 2147483647}, I = {0, 4294967295}}
local TYPE_NAME = {
  ["?"] = "bool", b = "int8", B = "uint8", h = "int16", H = "uint16", i = "int32",
  I = "uint32", l = "int64", L = "uint64", f = "float", d = "double", p = "pointer",
  s = "string", F = "function pointer", c = "closure", e = "errno", ["*"] = "slot",
  ["{"] = "struct"}
local EXPECTED = {
  ["?"] = "boolean", f = "number", d = "number", p = "pointer", F = "pointer",
  s = "string", c = "closure", ["{"] = "table or string"}

local sig_cache = {}
local function parse_sig(sig)
  local p = sig_cache[sig]
  if p then return p end
  local colon = type(sig) == "string" and sig:find(":", 1, true)
  if not colon then error(fmt("malformed signature '%s'", tostring(sig)), 0) end
  local function side(str, out)
    local items, i = {}, 1
    while i <= #str do
      local c = str:sub(i, i)
      if c == "{" then
        local close = str:find("}", i, true)
        local name, n = str:sub(i + 1, (close or 0) - 1):match("^([%a_][%w_]*):?(%d*)$")
        if not close or not name then error(fmt("malformed signature '%s'", sig), 0) end
        items[#items + 1] = {code = "{", name = name, n = tonumber(n)}
        i = close + 1
      elseif c == "*" and i == #str then
        items.var, i = true, i + 1
      elseif SCALAR:find(c, 1, true) and (out or c ~= "e") then
        items[#items + 1], i = {code = c}, i + 1
      else
        error(fmt("malformed signature '%s': unexpected '%s'", sig, c), 0)
      end
    end
    return items
  end
  p = {ins = side(sig:sub(1, colon - 1), false), outs = side(sig:sub(colon + 1), true)}
  sig_cache[sig] = p
  return p
end

-- ---- conversions -----------------------------------------------------------

if core.codec then core.codec.s2f, core.codec.vptr = N.s2f, N.vptr end

local Closure = {}
Closure.__index = Closure
nccc.Closure = Closure

-- An owned pointer ([owned(F)] result): freed by F once, by close() or
-- by the collector (__gc), whichever comes first.
local Owned = {__name = "nccc.owned"}
Owned.__index = Owned
nccc.Owned = Owned

local function vtype(v)
  local mt = getmetatable(v)
  if mt == Closure then return "closure" end
  if mt == Owned then return "owned object" end
  return type(v)
end

-- Why a value was refused, as the text inside "bad argument #k to 'f' (...)".
local function describe(why, code, v)
  if why == "type" then
    return fmt("%s expected, got %s", EXPECTED[code] or "integer", vtype(v))
  elseif why == "range" then
    return fmt("value %s out of range for %s", tostring(v), TYPE_NAME[code])
  elseif why == "integral" then
    return fmt("number %s has no integer representation", tostring(v))
  elseif why == "closed" then
    return fmt("%s object was closed", v.type or "owned")
  elseif why == "null" then
    return fmt("NULL not allowed (non-NULL %s expected)", EXPECTED[code] or "value")
  end
  return why
end

local FLT_MAX = 3.4028234663852886e38
local ENCODE = {
  ["?"] = function(v)
    if type(v) ~= "boolean" then return nil, "type" end
    return v and 1 or 0
  end,
  l = N.i64, L = N.u64,
  f = function(v)
    if type(v) ~= "number" then return nil, "type" end
    if v == v and v > -math.huge and v < math.huge and (v > FLT_MAX or v < -FLT_MAX) then
      return nil, "range"
    end
    return N.f2s(N.float(v))
  end,
  d = function(v)
    if type(v) ~= "number" then return nil, "type" end
    return N.f2s(N.float(v))
  end,
  p = function(v)
    local mt = getmetatable(v)
    if mt == Closure then return v.ctx end
    if mt == Owned then
      if v.closed then return nil, "closed" end
      return v.addr
    end
    return N.ptr(v)
  end,
  -- A closure slot takes a closure of this library (nil or NULL for a
  -- nullable callback left out), never a raw number.
  c = function(v)
    if v == nil or v == NULL then return 0 end
    if getmetatable(v) ~= Closure then return nil, "type" end
    if not v.live then return nil, "closure was released" end
    return v.ctx
  end}
ENCODE.F = ENCODE.p
-- A raw slot: any 64-bit integer value, or a pointer value (LuaJIT's are
-- cdata, an owned object or a closure its address).
ENCODE["*"] = function(v)
  local s, why = N.raw(v)
  if s == nil and why == "type" and v ~= nil then return ENCODE.p(v) end
  return s, why
end
-- Strings are copied into C by invoke; only NULL gets here.
ENCODE.s = function(v)
  if v == NULL then return 0 end
  return nil, "type"
end
for code, r in pairs(RANGE) do
  if code ~= "?" then
    local lo, hi = r[1], r[2]
    ENCODE[code] = function(v) return N.int(v, lo, hi) end
  end
end

local DECODE = {
  ["?"] = function(s) return s ~= 0 end,
  l = N.vi64, L = N.vu64, p = N.vptr, F = N.vptr, c = N.vptr, f = N.s2f, d = N.s2f}
for code in pairs(RANGE) do
  if code ~= "?" then DECODE[code] = tonumber end
end

-- Records (structs and unions) <-> byte strings, by the layout table.
local pack_record, unpack_record

local function pack_one(lib, code, size, v, sub)
  if sub then
    if type(v) == "string" then
      if #v ~= size then return nil, fmt("%d bytes expected, got %d", size, #v) end
      return v
    end
    if type(v) ~= "table" then return nil, describe("type", "{", v) end
    return pack_record(lib, sub, v)
  end
  local s, why = (code == "s" and ENCODE.p or ENCODE[code])(v)
  if s == nil then return nil, describe(why, code, v) end
  return N.pack(code, size, s)
end

function pack_record(lib, layout, t)
  for key in pairs(t) do
    if not layout.field[key] then
      return nil, fmt("%s %s has no field '%s'", layout.kind, layout.name, tostring(key))
    end
  end
  local bytes = string.rep("\0", layout.size)
  for _, fd in ipairs(layout.fields) do
    local v, piece, why = t[fd.name], nil, nil
    if v == nil then
      piece = ""
    elseif fd.count > 1 then
      local esize = floor(fd.size / fd.count)
      if type(v) == "string" and (fd.type == "b" or fd.type == "B") and #v <= fd.count then
        piece = v
      elseif type(v) ~= "table" or #v > fd.count then
        why = fmt("table of at most %d elements expected", fd.count)
      else
        local parts = {}
        for k = 1, #v do
          parts[k], why = pack_one(lib, fd.type, esize, v[k], fd.layout)
          if not parts[k] then why = fmt("[%d]: %s", k, why) break end
        end
        piece = not why and concat(parts) or nil
      end
    else
      piece, why = pack_one(lib, fd.type, fd.size, v, fd.layout)
    end
    if not piece then return nil, fmt("field '%s': %s", fd.name, why) end
    bytes = bytes:sub(1, fd.offset) .. piece .. bytes:sub(fd.offset + #piece + 1)
  end
  return bytes
end

local function unpack_one(lib, code, size, bytes, pos, sub)
  if sub then return unpack_record(lib, sub, bytes, pos - 1) end
  local s = N.unpack(code, size, bytes, pos)
  return (code == "s" and N.vptr or DECODE[code])(s)
end

function unpack_record(lib, layout, bytes, base)
  local t = {}
  base = base or 0
  for _, fd in ipairs(layout.fields) do
    local pos = base + fd.offset + 1
    if fd.count > 1 then
      local esize, a = floor(fd.size / fd.count), {}
      for k = 1, fd.count do
        a[k] = unpack_one(lib, fd.type, esize, bytes, pos + (k - 1) * esize, fd.layout)
      end
      t[fd.name] = a
    else
      t[fd.name] = unpack_one(lib, fd.type, fd.size, bytes, pos, fd.layout)
    end
  end
  return t
end

-- One value into buf at slot pos: the next position, or nil and why.
local function put(lib, item, v, buf, pos)
  local code = item.code
  if code == "{" then
    local bytes, why = pack_one(lib, "{", item.layout.size, v, item.layout)
    if not bytes then return nil, why end
    core.setbytes(buf, pos, bytes)
    return pos + item.slots
  end
  local s, why = ENCODE[code](v)
  if s == nil then return nil, describe(why, code, v) end
  core.set(buf, pos, s)
  return pos + 1
end

-- One value out of buf at slot pos, and the next position.
local function take(lib, item, buf, pos)
  local code = item.code
  if code == "{" then
    return unpack_record(lib, item.layout, core.getbytes(buf, pos, item.layout.size)),
      pos + item.slots
  end
  local s = core.get(buf, pos)
  if code == "s" then
    if s == 0 then return nil, pos + 1 end
    return lib:_cstring_at(s), pos + 1
  end
  return DECODE[code](s), pos + 1
end

-- ---- a bound library --------------------------------------------------------

local Lib = {}
Lib.__index = Lib
nccc.Lib = Lib

local BUILTINS = {
  "builtin", "version", "last_error", "lookup", "function", "call", "call_checked",
  "register", "module_count", "module_info", "module_find", "module_type",
  "module_field", "module_constant", "alloc", "free", "peek", "poke", "read",
  "write", "strlen", "closure_claim", "closure_claim_group", "closure_release",
  "closure_stats", "trace_enable", "trace_enable_module", "trace_buffer",
  "trace_stats", "trace_read", "trace_clear", "fault_arm", "fault_disarm",
  "fault_query", "clear_error"}
nccc.BUILTINS = BUILTINS
local B = {}
for k, name in ipairs(BUILTINS) do B[name] = k - 1 end

local ERR_NAME_NOT_FOUND, ERR_INDEX_INVALID, ERR_POOL = 0x100, 0x101, 0x4007
local SCOPES = {call = 1, async = 2, notified = 3, forever = 4}
local NOTIFY = 0x100
local KIND = {"struct", "union", "opaque"}

-- Calls built-in b with raw slot arguments; returns the out buffer and
-- the status. A callback error during the call (a release notice cannot
-- raise one) is raised.
local function bcall(lib, b, nout, ...)
  local n = select("#", ...)
  local inb, outb = core.buffer(n), core.buffer(nout)
  for k = 1, n do core.set(inb, k - 1, (select(k, ...))) end
  local err = core.call(lib.builtins[b], inb, outb)
  if err then error("error in callback: " .. err, 0) end
  return outb, tonumber(core.get(outb, 0))
end

-- The same, raising the runtime's last error message on failure.
local function bcheck(lib, b, nout, ...)
  local outb, st = bcall(lib, b, nout, ...)
  if st ~= 0 then
    local _, msg = lib:last_error()
    error(fmt("nccc: %s failed: %s (status 0x%x)", BUILTINS[b + 1], msg, st), 0)
  end
  return outb
end

-- Calls built-in b with a C copy of string s as its first argument.
local function with_cstring(lib, s, b, nout, ...)
  local p = lib:_cstring(s)
  local ok, outb, st = pcall(bcall, lib, b, nout, p, ...)
  lib:free(p)
  if not ok then error(outb, 0) end
  return outb, st
end

-- nccc.bind(root[, handle]): a library object for the root nccc_fn at
-- address root (a slot value); handle is what core.open returned.
function nccc.bind(root, handle)
  local lib = setmetatable({root = root, handle = handle, builtins = {}, fns = {},
    by_handle = {}, modules_by_name = {}, types = {}, consts = {}}, Lib)
  for k = 0, #BUILTINS - 1 do
    local inb, outb = core.buffer(1), core.buffer(4)
    core.set(inb, 0, k)
    core.call(root, inb, outb)
    if core.get(outb, 0) ~= 0 then error(fmt("nccc: the root has no built-in %d", k), 2) end
    lib.builtins[k] = core.get(outb, 1)
  end
  for k = 0, #BUILTINS - 1 do -- the built-ins can read their own names now
    local outb = bcheck(lib, B.builtin, 4, k)
    local name = lib:_cstring_at(core.get(outb, 2))
    if name ~= BUILTINS[k + 1] then
      error(fmt("nccc: built-in %d is '%s', expected '%s'", k, name, BUILTINS[k + 1]), 2)
    end
  end
  local outb = bcheck(lib, B.version, 3)
  lib.version = lib:_cstring_at(core.get(outb, 2))
  return lib
end

-- nccc.open(path[, root_symbol]): loads a shared library and binds its
-- root (default "nccc_root").
function nccc.open(path, root_symbol)
  local handle = core.open(path)
  return nccc.bind(core.sym(handle, root_symbol or "nccc_root"), handle)
end

-- The address of an exported symbol of the library, as a pointer value.
function Lib:symbol(name)
  return N.vptr(core.sym(self.handle, name))
end

function Lib:last_error()
  local outb = bcall(self, B.last_error, 3)
  return tonumber(core.get(outb, 1)), self:_cstring_at(core.get(outb, 2))
end

-- ---- memory ----------------------------------------------------------------

function Lib:alloc(n)
  local s, why = N.u64(n)
  if s == nil then error("bad argument #1 to 'alloc' (" .. describe(why, "L", n) .. ")", 2) end
  return N.vptr(core.get(bcheck(self, B.alloc, 2, s), 1))
end

function Lib:free(p)
  local s, why = N.ptr(p)
  if s == nil then error("bad argument #1 to 'free' (" .. describe(why, "p", p) .. ")", 2) end
  bcall(self, B.free, 1, s)
end

-- A C copy of Lua string s (the caller frees it); refuses embedded NULs,
-- which C would read as the end.
function Lib:_cstring(s)
  if s:find("\0", 1, true) then error("string contains a NUL byte", 0) end
  local p = core.get(bcheck(self, B.alloc, 2, #s + 1), 1)
  self:_write(p, s .. "\0")
  return p
end

function Lib:_write(p, bytes)
  local n = #bytes
  local inb, outb = core.buffer(2 + ceil(n / 8)), core.buffer(1)
  core.set(inb, 0, p)
  core.set(inb, 1, n)
  core.setbytes(inb, 2, bytes)
  core.call(self.builtins[B.write], inb, outb)
  if core.get(outb, 0) ~= 0 then error("nccc: write failed", 0) end
end

function Lib:_read(p, n)
  if n == 0 then return "" end
  return core.getbytes(bcheck(self, B.read, 1 + ceil(n / 8), p, n), 1, n)
end

function Lib:_cstring_at(s)
  return self:_read(s, tonumber(core.get(bcheck(self, B.strlen, 2, s), 1)))
end

local function ptr_arg(p, k, what)
  local s, why = N.ptr(p)
  if s == nil or s == 0 then
    error(fmt("bad argument #%d to '%s' (%s)", k, what,
      s == 0 and "non-NULL pointer expected" or describe(why, "p", p)), 3)
  end
  return s
end

local function count_arg(n, what)
  local k, why = N.int(n, 0, 2147483647)
  if k == nil then error(fmt("bad argument #2 to '%s' (%s)", what, describe(why, "i", n)), 3) end
  return k
end

-- The NUL-terminated string at p, or its first n bytes.
function Lib:string(p, n)
  local s = ptr_arg(p, 1, "string")
  if n == nil then return self:_cstring_at(s) end
  return self:_read(s, count_arg(n, "string"))
end

function Lib:read(p, n) return self:_read(ptr_arg(p, 1, "read"), count_arg(n, "read")) end

function Lib:write(p, bytes)
  local s = ptr_arg(p, 1, "write")
  if type(bytes) ~= "string" then
    error("bad argument #2 to 'write' (string expected, got " .. vtype(bytes) .. ")", 2)
  end
  self:_write(s, bytes)
end

function Lib:peek(p, code)
  if not DECODE[code] or code == "e" then error("bad argument #2 to 'peek' (type code expected)", 2) end
  local outb = bcheck(self, B.peek, 2, ptr_arg(p, 1, "peek"), code:byte())
  return DECODE[code](core.get(outb, 1))
end

function Lib:poke(p, code, v)
  if not ENCODE[code] or code == "e" or code == "*" then
    error("bad argument #2 to 'poke' (type code expected)", 2)
  end
  local s, why = ENCODE[code](v)
  if s == nil then error("bad argument #3 to 'poke' (" .. describe(why, code, v) .. ")", 2) end
  bcheck(self, B.poke, 1, ptr_arg(p, 1, "poke"), code:byte(), s)
end

-- ---- modules, layouts, constants ----------------------------------------------

function Lib:_module_index(name)
  local mi = self.modules_by_name[name]
  if mi then return mi end
  local outb, st = with_cstring(self, name, B.module_find, 2)
  if st ~= 0 then return nil end
  mi = tonumber(core.get(outb, 1))
  self.modules_by_name[name] = mi
  return mi
end

-- Every present module (the global registry last, named "").
function Lib:modules()
  local list = {}
  local count = tonumber(core.get(bcheck(self, B.module_count, 2), 1))
  for mi = 0, count - 1 do
    local outb, st = bcall(self, B.module_info, 5, mi)
    if st == 0 then
      list[#list + 1] = {index = mi, name = self:_cstring_at(core.get(outb, 1)),
        functions = tonumber(core.get(outb, 2)), types = tonumber(core.get(outb, 3)),
        constants = tonumber(core.get(outb, 4)), global = mi == count - 1}
    elseif st ~= ERR_INDEX_INVALID then
      bcheck(self, B.module_info, 5, mi)
    end
  end
  return list
end

local function module_arg(lib, m, what)
  local mi = m
  if type(m) == "string" then
    mi = lib:_module_index(m)
    if mi == nil and m == "" then
      local all = lib:modules()
      mi = all[#all].index
    end
  end
  if type(mi) ~= "number" then error(fmt("unknown module '%s' in %s", tostring(m), what), 3) end
  local outb, st = bcall(lib, B.module_info, 5, mi)
  if st ~= 0 then error(fmt("unknown module '%s' in %s", tostring(m), what), 3) end
  return mi, lib:_cstring_at(core.get(outb, 1)), tonumber(core.get(outb, 2)),
    tonumber(core.get(outb, 3)), tonumber(core.get(outb, 4))
end

local function handle_of(mi, k) return 2147483648 + mi * 65536 + 32768 + k end

-- The functions of a module (name or index): {name, signature, handle}.
function Lib:functions(m)
  local mi, mname, nfn = module_arg(self, m, "functions")
  local list = {}
  for k = 0, nfn - 1 do
    local h = handle_of(mi, k)
    local outb = bcheck(self, B["function"], 6, h)
    local name = self:_cstring_at(core.get(outb, 2))
    list[#list + 1] = {name = mname ~= "" and mname .. "." .. name or name,
      signature = self:_cstring_at(core.get(outb, 3)), handle = h}
  end
  return list
end

-- All layouts of module mi by name, read once.
function Lib:_types(mi)
  local types = self.types[mi]
  if types then return types end
  types = {}
  local _, mname, _, ntypes = module_arg(self, mi, "layout")
  for t = 0, ntypes - 1 do
    local o = bcheck(self, B.module_type, 6, mi, t)
    local layout = {name = self:_cstring_at(core.get(o, 1)), module = mname,
      size = tonumber(core.get(o, 2)), align = tonumber(core.get(o, 3)),
      kind = KIND[tonumber(core.get(o, 4))] or "unknown", fields = {}, field = {}}
    layout.slots = ceil(layout.size / 8)
    for k = 0, tonumber(core.get(o, 5)) - 1 do
      local f = bcheck(self, B.module_field, 6, mi, t, k)
      local fd = {name = self:_cstring_at(core.get(f, 1)), type = self:_cstring_at(core.get(f, 2)),
        offset = tonumber(core.get(f, 3)), size = tonumber(core.get(f, 4)),
        count = tonumber(core.get(f, 5))}
      layout.fields[#layout.fields + 1], layout.field[fd.name] = fd, fd
    end
    types[layout.name] = layout
  end
  for _, layout in pairs(types) do -- nested records
    for _, fd in ipairs(layout.fields) do
      local sub = fd.type:match("^{([%a_][%w_]*)")
      if sub then
        fd.layout = types[sub] or error(fmt("nccc: layout %s.%s: unknown type %s", mname, layout.name, sub), 0)
      end
    end
  end
  self.types[mi] = types
  return types
end

-- A record layout by type name: in module mi if given, else in any module.
function Lib:_find_type(mi, name)
  if mi then
    local t = self:_types(mi)[name]
    if t then return t end
  end
  for _, m in ipairs(self:modules()) do
    local t = self:_types(m.index)[name]
    if t then return t end
  end
end

local function split(qualified, what)
  local m, name = tostring(qualified):match("^(.-)%.([^.]+)$")
  if not m then error(fmt("bad %s name '%s' (MODULE.NAME expected)", what, tostring(qualified)), 3) end
  return m, name
end

-- The layout of MODULE.TYPE: {name, module, size, align, kind, slots,
-- fields = {{name, type, offset, size, count}, ...}, field = by name}.
function Lib:layout(qualified)
  local m, name = split(qualified, "type")
  local mi = module_arg(self, m, "layout")
  return self:_types(mi)[name] or error(fmt("unknown type '%s'", qualified), 2)
end

function Lib:pack(qualified, t)
  local layout = self:layout(qualified)
  local bytes, why = pack_one(self, "{", layout.size, t, layout)
  if not bytes then error(fmt("bad argument #2 to 'pack' (%s)", why), 2) end
  return bytes
end

function Lib:unpack(qualified, bytes)
  local layout = self:layout(qualified)
  if type(bytes) ~= "string" or #bytes ~= layout.size then
    error(fmt("bad argument #2 to 'unpack' (%d bytes expected)", layout.size), 2)
  end
  return unpack_record(self, layout, bytes)
end

-- Every constant of a module, by name.
function Lib:constants(m)
  local mi, _, _, _, nconst = module_arg(self, m, "constants")
  local consts = self.consts[mi]
  if consts then return consts end
  consts = {}
  for k = 0, nconst - 1 do
    local o = bcheck(self, B.module_constant, 4, mi, k)
    local code = self:_cstring_at(core.get(o, 2))
    local decode = DECODE[code] or error(fmt("nccc: constant of unknown type '%s'", code), 0)
    consts[self:_cstring_at(core.get(o, 1))] = decode(core.get(o, 3))
  end
  self.consts[mi] = consts
  return consts
end

function Lib:constant(qualified)
  local m, name = split(qualified, "constant")
  local v = self:constants(m)[name]
  if v == nil then error(fmt("unknown constant '%s'", qualified), 2) end
  return v
end

-- ---- functions and calls -------------------------------------------------------

-- Slot counts of one side; struct items get their layout.
local function count_side(lib, items, mi, label)
  local n = 0
  for _, item in ipairs(items) do
    if item.code == "{" then
      local layout = item.layout or lib:_find_type(mi, item.name)
      if not layout or layout.kind == "opaque" then
        error(fmt("nccc: %s: no layout for {%s}", label, item.name), 0)
      end
      if item.n and item.n ~= layout.slots then
        error(fmt("nccc: %s: {%s:%d} but its layout takes %d slots", label, item.name, item.n, layout.slots), 0)
      end
      item.layout, item.slots = layout, layout.slots
      n = n + layout.slots
    else
      n = n + 1
    end
  end
  return n
end

-- A callable description: address, signature, counts.
local function describe_fn(lib, label, addr, sig, mi)
  local p = parse_sig(sig)
  local f = {name = label, addr = addr, signature = sig, ins = {}, outs = {}}
  for k, item in ipairs(p.ins) do f.ins[k] = {code = item.code, name = item.name, n = item.n} end
  for k, item in ipairs(p.outs) do f.outs[k] = {code = item.code, name = item.name, n = item.n} end
  f.nin, f.nout = count_side(lib, f.ins, mi, label), count_side(lib, f.outs, mi, label)
  f.nargs, f.var_in, f.var_out = #f.ins, p.ins.var, p.outs.var
  for _, item in ipairs(f.ins) do
    if item.code == "s" then f.strings = true end
  end
  return f
end

function Lib:_fn_by_handle(h)
  local f = self.by_handle[h]
  if f then return f end
  local outb, st = bcall(self, B["function"], 6, h)
  if st ~= 0 then return nil, fmt("unknown function handle %s", tostring(h)) end
  local mi = floor(h / 65536) % 32768
  local mout, mst = bcall(self, B.module_info, 5, mi)
  local mname = mst == 0 and self:_cstring_at(core.get(mout, 1)) or ""
  local name = self:_cstring_at(core.get(outb, 2))
  local label = mname ~= "" and mname .. "." .. name or name
  f = describe_fn(self, label, core.get(outb, 1), self:_cstring_at(core.get(outb, 3)), mi)
  f.handle = h
  local VAR, n_in, n_out = 0x8000, tonumber(core.get(outb, 4)), tonumber(core.get(outb, 5))
  if (n_in >= VAR) ~= (f.var_in or false) or (n_in % VAR) ~= f.nin
    or (n_out >= VAR) ~= (f.var_out or false) or (n_out % VAR) ~= f.nout then
    error(fmt("nccc: %s: signature '%s' does not match its slot counts %d:%d",
      label, f.signature, n_in, n_out), 0)
  end
  self.by_handle[h] = f
  return f
end

-- The handle of a function, or nil and a message.
function Lib:_lookup(name)
  if type(name) ~= "string" then return nil, fmt("function name expected, got %s", vtype(name)) end
  local outb, st = with_cstring(self, name, B.lookup, 2)
  if st == ERR_NAME_NOT_FOUND then return nil, fmt("unknown function '%s'", name) end
  if st ~= 0 then return nil, fmt("lookup of '%s' failed: %s", name, select(2, self:last_error())) end
  return tonumber(core.get(outb, 1))
end

function Lib:lookup(name)
  local h, msg = self:_lookup(name)
  if not h then error(msg, 2) end
  return h
end

function Lib:_fn(key)
  local f, msg = self.fns[key], nil
  if f then return f end
  if type(key) == "string" then
    local h
    h, msg = self:_lookup(key)
    if h then f, msg = self:_fn_by_handle(h) end
  elseif type(key) == "number" then
    f, msg = self:_fn_by_handle(key)
  else
    msg = fmt("function name or handle expected, got %s", vtype(key))
  end
  if f then self.fns[key] = f end
  return f, msg
end

-- The signature string of a function (name or handle).
function Lib:signature(key)
  local f, msg = self:_fn(key)
  if not f then error(msg, 2) end
  return f.signature
end

local STAR = {code = "*"}

-- The results in outb, then extra raw slots after the fixed ones.
local function decode_all(lib, f, outb, extra)
  local n = #f.outs
  if extra == 0 then
    if n == 0 then return end
    if n == 1 then return (take(lib, f.outs[1], outb, 0)) end
  end
  local results, pos = {}, 0
  for k = 1, n do results[k], pos = take(lib, f.outs[k], outb, pos) end
  for k = 1, extra do results[n + k] = core.get(outb, f.nout + k - 1) end
  return unpack(results, 1, n + extra)
end

local function free_all(lib, temps)
  for _, p in ipairs(temps) do bcall(lib, B.free, 1, p) end
end

-- Encodes the arguments, calls, decodes the results; extra: the out
-- slots after the fixed ones of a function whose results end in '*'
-- (the caller's count: C writes them, so the buffer has them). Strings
-- go into C copies made after every other argument has been checked,
-- and freed after the results (which may point into them) have been
-- read. Always tail-called, so error level 2 is the caller of Lib:call.
local function invoke(lib, f, extra, ...)
  local nargs = select("#", ...)
  if nargs ~= f.nargs and not (f.var_in and nargs > f.nargs) then
    error(fmt("'%s' expects %s%d argument%s, got %d", f.name, f.var_in and "at least " or "",
      f.nargs, f.nargs == 1 and "" or "s", nargs), 2)
  end
  local inb = core.buffer(f.nin + nargs - f.nargs)
  local outb = core.buffer(f.nout + extra)
  local pos, strings = 0, nil
  for k = 1, nargs do
    local item, v = f.ins[k] or STAR, (select(k, ...))
    if item.code == "s" and v ~= NULL then
      if type(v) ~= "string" then
        error(fmt("bad argument #%d to '%s' (string expected, got %s)", k, f.name, vtype(v)), 2)
      elseif v:find("\0", 1, true) then
        error(fmt("bad argument #%d to '%s' (string contains a NUL byte)", k, f.name), 2)
      end
      strings = strings or {}
      strings[#strings + 1] = {pos, v}
      pos = pos + 1
    else
      local np, why = put(lib, item, v, inb, pos)
      if not np then error(fmt("bad argument #%d to '%s' (%s)", k, f.name, why), 2) end
      pos = np
    end
  end
  if not strings then
    local err = core.call(f.addr, inb, outb)
    if err then error("error in callback: " .. err, 2) end
    return decode_all(lib, f, outb, extra)
  end
  local temps = {}
  local ok, err = pcall(function()
    for k, s in ipairs(strings) do
      temps[k] = lib:_cstring(s[2])
      core.set(inb, s[1], temps[k])
    end
  end)
  if not ok then
    free_all(lib, temps)
    error(err, 2)
  end
  err = core.call(f.addr, inb, outb)
  local r = pack(pcall(decode_all, lib, f, outb, extra))
  free_all(lib, temps)
  if err then error("error in callback: " .. err, 2) end
  if not r[1] then error(r[2], 2) end
  return unpack(r, 2, r.n)
end

-- ---- specialised calls -------------------------------------------------------
-- A function's converter and call, made once from its signature (the
-- primitive's core.fn: a C closure on Lua 5.4, compiled Lua on LuaJIT).
-- The slot spec is the signature with each record's size in place of
-- its name, and "!" before an argument that must not be NULL.

local function spec_side(items, var, nonnull, codes)
  local parts = {}
  for k, item in ipairs(items) do
    parts[k] = (nonnull and nonnull[k] and "!" or "") .. (codes and codes[k] or
      (item.code == "{" and "{" .. item.layout.size .. "}" or item.code))
  end
  return concat(parts) .. (var and "*" or "")
end

-- slow(k, v): argument k's slot (a record's bytes) where the primitive's
-- own fast path did not take v, or the error, raised at the caller.
local function slow_for(lib, f, nonnull)
  return function(k, v)
    if k == 0 then
      raise(fmt("'%s' expects %s%d argument%s, got %d", f.name, f.var_in and "at least " or "",
        f.nargs, f.nargs == 1 and "" or "s", v), 2)
    elseif k == -1 then
      raise("error in callback: " .. tostring(v), 2)
    elseif k == -2 then -- the call needed a thunk and its pool was full
      v = tostring(v)
      if not v:find("pool", 1, true) then v = "thunk pool exhausted: " .. v end
      raise(fmt("'%s': %s", f.name, v), 2)
    end
    local item = f.ins[k] or STAR
    local code, why, s = item.code, nil, nil
    if nonnull and nonnull[k] and (v == nil or v == NULL or v == 0) then
      why = describe("null", code, v)
    elseif code == "{" then
      s, why = pack_one(lib, "{", item.layout.size, v, item.layout)
    elseif code == "s" then
      if v == NULL then return 0 end
      if type(v) ~= "string" then
        why = fmt("string expected, got %s", vtype(v))
      else
        why = "string contains a NUL byte"
      end
    else
      s, why = ENCODE[code](v)
      if s == nil then why = describe(why, code, v) end
    end
    if s == nil then raise(fmt("bad argument #%d to '%s' (%s)", k, f.name, why), 2) end
    return s
  end
end

-- post(k, v): the Lua value of out item k from its slot or bytes.
local function post_for(lib, f)
  return function(k, v)
    local item = f.outs[k]
    if item.code == "{" then return unpack_record(lib, item.layout, v) end
    return N.vu64(v)
  end
end

-- Built-ins whose '*' side is sized by one of their arguments
-- (docs/ABI.md): {argument, slots for its value[, out side]}. Calls
-- giving fewer slots than C would read or write are refused.
local function bytes(n) return ceil(n / 8) end
local function pairs_of(n) return 2 * n end
local function same(n) return n end
local VAR_SIZE = {
  ["nccc.read"] = {2, bytes, out = true}, ["nccc.write"] = {2, bytes},
  ["nccc.closure_claim_group"] = {3, pairs_of}, ["nccc.fault_arm"] = {4, same},
  ["tvm.call_packed"] = {2, pairs_of}, ["tvm.call_global"] = {2, pairs_of}}

-- The slots a '*' side needs for argument value v by rule, or nil when v
-- is no count (the call's own conversion reports it).
local function var_need(rule, v)
  local s = N.raw(v)
  if s == nil then return nil end
  local n = tonumber(s)
  if n < 0 then return math.huge end -- above 2^63: more than any buffer
  return rule[2](n)
end

-- The function with its '*' in side checked against the rule.
local function var_checked(f, rule, fast)
  return function(...)
    local need = var_need(rule, (select(rule[1], ...)))
    local got = select("#", ...) - f.nargs
    if need and got < need then
      raise(fmt("'%s' expects %s slot%s after its %d fixed arguments, got %d", f.name,
        tostring(need), need == 1 and "" or "s", f.nargs, got), 2)
    end
    return fast(...)
  end
end

-- The specialised callable of f; opts (generated modules): nonnull =
-- {[k] = true} for arguments that must not be NULL, outs = {[k] = code}
-- to read out item k by another code (an owned string as "p"), thunks =
-- true for a function that binds a thunk (a callback type without a
-- context): the last error is cleared before each call and a full pool
-- raises. The plain one is cached.
local function fast_of(lib, f, opts)
  if not opts and f.fast then return f.fast end
  local fast
  local nonnull = opts and opts.nonnull
  if f.var_out then -- C writes slots past the fixed ones: lib:call_var only
    fast = function()
      raise(fmt("'%s' expects a count of extra out slots (its results end in '*'): "
        .. "call it with lib:call_var(name, count, ...)", f.name), 2)
    end
  else
    local clear, last
    if opts and opts.thunks then clear, last = lib.builtins[B.clear_error], lib.builtins[B.last_error] end
    fast = core.fn(f.addr, spec_side(f.ins, f.var_in, nonnull),
      spec_side(f.outs, false, nil, opts and opts.outs), f.name, slow_for(lib, f, nonnull),
      post_for(lib, f), clear, last)
    local rule = VAR_SIZE[f.name]
    if rule and f.var_in and not rule.out then fast = var_checked(f, rule, fast) end
  end
  if not opts then f.fast = fast end
  return fast
end

-- fast(name_or_handle[, opts]): the function as a Lua function that
-- converts and calls, made once; what generated modules bind.
function Lib:fast(key, opts)
  local f, msg = self:_fn(key)
  if not f then error(msg, 2) end
  return fast_of(self, f, opts)
end

-- call(name_or_handle, ...): the function's results (return value, then
-- [out] values, then errno), converted from its signature.
function Lib:call(key, ...)
  local f, msg = self.fns[key], nil
  if not f then
    f, msg = self:_fn(key)
    if not f then error(msg, 2) end
  end
  return (f.fast or fast_of(self, f))(...)
end

-- call_var(name_or_handle, count, ...): a function whose results end in
-- '*' (nccc.read): its results, then count raw slots after the fixed
-- ones, the buffer sized by count (C writes as many as its arguments
-- say: count must cover them; the built-ins' needs are checked).
function Lib:call_var(key, count, ...)
  local f, msg = self:_fn(key)
  if not f then error(msg, 2) end
  if not f.var_out then
    error(fmt("'%s': its results do not end in '*' (use lib:call)", f.name), 2)
  end
  local n, why = N.int(count, 0, 1048576)
  if n == nil then
    error("bad argument #2 to 'call_var' (" .. describe(why, "i", count) .. ")", 2)
  end
  local rule = VAR_SIZE[f.name]
  local need = rule and rule.out and select("#", ...) >= rule[1] and var_need(rule, (select(rule[1], ...)))
  if need and n < need then
    error(fmt("'%s' expects %s extra out slot%s for its arguments, got a count of %d", f.name,
      tostring(need), need == 1 and "" or "s", n), 2)
  end
  return invoke(self, f, n, ...)
end

-- call_address(addr, sig, ...): calls the nccc_fn at addr (a pointer
-- value, e.g. from lib:symbol) as if it had signature sig.
function Lib:call_address(addr, sig, ...)
  local a, why = N.ptr(addr)
  if a == nil or a == 0 then
    error("bad argument #1 to 'call_address' (" .. (a == 0 and "NULL function" or describe(why, "p", addr)) .. ")", 2)
  end
  local key = tostring(addr) .. "|" .. sig
  self.fns_addr = self.fns_addr or {}
  local f = self.fns_addr[key]
  if not f then
    f = describe_fn(self, fmt("nccc_fn at %s", tostring(addr)), a, sig, nil)
    self.fns_addr[key] = f
  end
  return (f.fast or fast_of(self, f))(...)
end

-- ---- owned pointers -------------------------------------------------------------

local function owned_close(o)
  if o.closed then return false end
  o.closed, o.state.closed = true, true
  o.free(o.addr)
  return true
end

-- close(): frees the object now; false if it was closed already.
function Owned:close() return owned_close(self) end
Owned.__gc = function(o) if not o.state.closed then pcall(owned_close, o) end end
Owned.__tostring = function(o)
  return fmt("%s %s: %s", o.type or "owned", o.closed and "(closed)" or "", tostring(N.vptr(o.addr)))
end
-- The address (nil once closed).
function Owned:address() if self.closed then return nil end return N.vptr(self.addr) end

-- owner(free_name[, type]): a function turning a pointer result into an
-- owned object whose finalizer and close() call the function free_name
-- (a registry name) once; NULL stays nil.
function Lib:owner(free_name, tname)
  local free = self:fast(free_name)
  return function(p, ...)
    if p == nil then return nil, ... end
    local s = N.ptr(p)
    if s == 0 then return nil, ... end
    local st = {closed = false}
    local o = setmetatable({addr = s, free = free, type = tname, closed = false, state = st}, Owned)
    if core.kind == "luajit" then -- tables have no __gc on LuaJIT: a proxy's finalizer
      local ffi = require("ffi")  -- frees, reaching only st (not o, which holds the proxy)
      o.proxy = ffi.gc(ffi.new("char[1]"), function()
        if not st.closed then st.closed = true pcall(free, s) end
      end)
    end
    return o, ...
  end
end

-- owned_string(free_name): a pointer result read as a Lua string, then
-- freed by free_name at once; NULL is nil.
function Lib:owned_string(free_name)
  local free = self:fast(free_name)
  return function(p, ...)
    if p == nil then return nil, ... end
    local s = self:string(p)
    free(p)
    return s, ...
  end
end

-- owning(convs): a function applying convs[k] (from owner or
-- owned_string) to result k of a call, the other results as they are.
function Lib:owning(convs)
  return function(...)
    local r = pack(...)
    for k, conv in pairs(convs) do r[k] = (conv(r[k])) end
    return unpack(r, 1, r.n)
  end
end

-- ---- callbacks ---------------------------------------------------------------

-- The dispatcher's address, registered once per bound runtime.
function Lib:_dispatcher()
  if self.dispatch then return self.dispatch end
  local d = core.dispatcher()
  local name = core.kind == "luajit" and "luajit.dispatch" or "lua.dispatch"
  -- Only for other code and tools to see: a name taken already (another
  -- state of this process) changes nothing, closures target d anyway.
  local sig = self:_cstring("L*:*")
  local ok, _, st = pcall(with_cstring, self, name, B.register, 2, d, sig, 0)
  bcall(self, B.free, 1, sig)
  self.dispatch_status = ok and st or -1
  self.dispatch = d
  return d
end

-- One member: fn, with the dispatcher converting its arguments and
-- results by the callback's signature (the primitive's converted
-- references); the release notice marks the closure released.
local function callback_member(lib, sig, fn, obj, k)
  if type(sig) ~= "string" then error(fmt("bad callback #%d (signature string expected)", k), 3) end
  local mt = getmetatable(fn)
  if type(fn) ~= "function" and not (mt and mt.__call) then
    error(fmt("bad callback #%d (function expected, got %s)", k, vtype(fn)), 3)
  end
  if type(fn) ~= "function" then
    local callable = fn
    fn = function(...) return callable(...) end
  end
  local p = parse_sig(sig)
  if p.ins.var or p.outs.var then error("a callback signature cannot end in '*'", 3) end
  local cs = {ins = p.ins, outs = p.outs}
  count_side(lib, cs.ins, nil, "callback " .. sig)
  count_side(lib, cs.outs, nil, "callback " .. sig)
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
      if item.code == "{" then return unpack_record(lib, item.layout, v) end
      return N.vu64(v)
    end
    local item = cs.outs[-k]
    local s, why
    if item.code == "{" then
      s, why = pack_one(lib, "{", item.layout.size, v, item.layout)
    else
      s, why = ENCODE[item.code](v)
      if s == nil then why = describe(why, item.code, v) end
    end
    if s == nil then error(fmt("callback %s: bad result #%d (%s)", sig, -k, why), 0) end
    return s
  end
  return core.ref(fn, spec_side(cs.ins), spec_side(cs.outs), function() obj.live = false end, conv)
end

local function scope_flags(scope)
  local flags = SCOPES[scope or "call"]
  if not flags then error(fmt("unknown scope '%s' (call, async, notified or forever)", tostring(scope)), 3) end
  return flags + NOTIFY
end

-- callback(sig, fn[, scope]): a closure for fn, to pass in a 'c' slot.
-- sig is the callback type's signature (its slots after in[0]); scope is
-- "call" (default), "async", "notified" or "forever".
function Lib:callback(sig, fn, scope)
  local flags = scope_flags(scope)
  local obj = setmetatable({lib = self, scope = scope or "call", live = true, calls = 0,
    signature = sig}, Closure)
  local env = callback_member(self, sig, fn, obj, 1)
  local outb, st = bcall(self, B.closure_claim, 2, self:_dispatcher(), env, flags)
  if st ~= 0 then
    core.unref(env)
    error((st == ERR_POOL and "closure pool exhausted: " or "cannot claim a closure: ")
      .. select(2, self:last_error()), 2)
  end
  obj.ctx, obj.envs = core.get(outb, 1), {env}
  return obj
end

-- callback_group(scope, final, {sig, fn}, ...): callbacks of one C
-- function that share one context; member k is the k-th pair (0-based
-- for final, the member whose call ends an async group).
function Lib:callback_group(scope, final, ...)
  local flags, n = scope_flags(scope), select("#", ...)
  if n == 0 then error("callback_group needs at least one {sig, fn}", 2) end
  local fin, why = N.int(final, 0, n - 1)
  if not fin then error("bad argument #2 to 'callback_group' (" .. describe(why, "I", final) .. ")", 2) end
  local obj = setmetatable({lib = self, scope = scope or "call", live = true, calls = 0}, Closure)
  local args, envs, d = {flags, fin, n}, {}, self:_dispatcher()
  for k = 1, n do
    local m = select(k, ...)
    if type(m) ~= "table" then error(fmt("bad callback #%d ({sig, fn} expected)", k), 2) end
    envs[k] = callback_member(self, m[1], m[2], obj, k)
    args[#args + 1], args[#args + 2] = d, envs[k]
  end
  local outb, st = bcall(self, B.closure_claim_group, 2, unpack(args))
  if st ~= 0 then
    for _, env in ipairs(envs) do core.unref(env) end
    error("cannot claim a closure group: " .. select(2, self:last_error()), 2)
  end
  obj.ctx, obj.envs = core.get(outb, 1), envs
  return obj
end

-- ---- packed functions ------------------------------------------------------------
-- Over the module "tvm" (docs/PACKED.md, "Dynamic calls").

local kDLInt, kDLFloat, kTVMOpaqueHandle, kTVMNullptr, kTVMStr = 0, 2, 3, 4, 11
-- nccc.float(x): x sent as kDLFloat even when integral (LuaJIT cannot
-- tell 2.0 from 2; on Lua 5.4 a float subtype is a float already).
local PackedFloat = {}
function nccc.float(x) return setmetatable({x}, PackedFloat) end

-- packed(name, ...): calls the global packed function name: integers go
-- as kDLInt, other numbers as kDLFloat, strings as kTVMStr, NULL (or nil)
-- as kTVMNullptr, pointers as handles. Returns its result (none for a
-- null result); a failure raises "packed call 'name' failed: ...".
function Lib:packed(name, ...)
  local n, args = select("#", ...), {}
  for k = 1, n do
    local v = select(k, ...)
    local code, slot
    if v == nil or v == NULL then code, slot = kTVMNullptr, 0
    elseif type(v) == "string" then code, slot = kTVMStr, v
    elseif getmetatable(v) == PackedFloat then code, slot = kDLFloat, N.f2s(v[1] + 0.0)
    elseif type(v) == "number" and ((math.type and math.type(v) == "float") or v ~= floor(v) or v ~= v or v == math.huge or v == -math.huge
      or (math.type and math.type(v) == "float" and v == 0 and 1 / v < 0)) then
      code, slot = kDLFloat, N.f2s(v)
    elseif type(v) == "number" or getmetatable(v) == nccc.U64 or
      (core.kind == "luajit" and (type(v) == "cdata" and (tostring(require("ffi").typeof(v)):find("int64")))) then
      code, slot = kDLInt, N.raw(v)
    else
      local s, why = ENCODE.p(v)
      if s == nil then error(fmt("bad argument #%d to packed '%s' (%s)", k + 1, tostring(name), describe(why, "p", v)), 2) end
      code, slot = kTVMOpaqueHandle, s
    end
    args[#args + 1], args[#args + 2] = code, slot
  end
  local strs = {}
  for k = 2, #args, 2 do
    if type(args[k]) == "string" then strs[#strs + 1] = self:_cstring(args[k]) args[k] = strs[#strs] end
  end
  local ok, st, code, value = pcall(self.call, self, "tvm.call_global", name, n, unpack(args))
  for _, p in ipairs(strs) do self:free(p) end
  if not ok then error(st, 2) end
  if st ~= 0 then
    error(fmt("packed call '%s' failed: %s (status 0x%x)", tostring(name), select(2, self:last_error()), st), 2)
  end
  local bits = N.raw(value)
  if code == kDLInt then return N.vi64(bits)
  elseif code == kDLFloat then return N.s2f(bits)
  elseif code == kTVMNullptr then return
  elseif code == kTVMStr then return self:_cstring_at(bits)
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
function Lib:register_packed(name, psig, fn, flags)
  if type(fn) ~= "function" then error("bad argument #3 to 'register_packed' (function expected)", 2) end
  local ins, outs = tostring(psig):match("^([^:]*):(.?)$")
  if not ins then error(fmt("malformed packed signature '%s'", tostring(psig)), 2) end
  local sin, sout = ins:gsub(".", function(c) return PSLOT[c] or "p" end), outs:gsub(".", function(c) return PSLOT[c] or "p" end)
  local function conv(k, v)
    if k > 0 then return N.vu64(v) end
    local code = sout
    if (code == "d") and type(v) == "cdata" then v = tonumber(v) end
    local s, why = ENCODE[code](v)
    if s == nil then error(fmt("packed %s: bad result (%s)", tostring(name), describe(why, code, v)), 0) end
    return s
  end
  local env = core.ref(fn, sin, sout, nil, conv)
  local ok, st = pcall(self.call, self, "tvm.register_env", name, self:_dispatcher(), env, psig, flags or 0)
  if not ok or st ~= 0 then
    core.unref(env)
    if not ok then error(st, 2) end
    error(fmt("cannot register packed '%s': %s (status 0x%x)", tostring(name), select(2, self:last_error()), st), 2)
  end
  self.packed_envs = self.packed_envs or {}
  self.packed_envs[name] = env
  return true
end

-- Releases the closure now (notices included); false if it was released.
function Closure:release()
  if not self.live then return false end
  local _, st = bcall(self.lib, B.closure_release, 1, self.ctx)
  return st == 0
end

-- The context C gets, as a pointer value.
function Closure:context() return N.vptr(self.ctx) end

function Lib:closure_stats()
  local o = bcheck(self, B.closure_stats, 4)
  return tonumber(core.get(o, 1)), tonumber(core.get(o, 2)), tonumber(core.get(o, 3))
end

return nccc
