-- nccc/values.lua — Lua values to slots and back, by signature code
-- (docs/LUA.md, "Values"), and records (structs and unions) to bytes and
-- back by their registry layouts. Ranges and kinds come from nccc/abi.lua,
-- the number rules from nccc/numbers.lua.
local abi = require("nccc.abi")
local common = require("nccc.common")
local core = require("nccc.interpreter").core
local N = require("nccc.numbers").N
local builtins = require("nccc.builtins")
local TYPE_NAME = require("nccc.signature").TYPE_NAME

local fmt, floor, concat = string.format, math.floor, table.concat
local NULL, Closure, Owned, vtype = common.NULL, common.Closure, common.Owned, common.vtype
local CObject, CArray = common.CObject, common.CArray
local RECORD, RAW = abi.grammar.record_open, abi.grammar.variadic
local values = {}

-- What an argument of each kind must be, for "... expected, got ...".
local EXPECTED_OF_KIND = {bool = "boolean", float = "number", pointer = "pointer",
  ["function"] = "pointer", string = "string", closure = "closure"}
local EXPECTED = {[RECORD] = "table or string"}
for c, info in pairs(abi.codes) do EXPECTED[c] = EXPECTED_OF_KIND[info.kind] end

-- Why a value was refused, as the text inside "bad argument #k to 'f' (...)".
function values.describe(why, code, v)
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
local describe = values.describe

local FLT_MAX = 3.4028234663852886e38
-- ENCODE[code](v): the slot of Lua value v, or nil and why.
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
    if mt == CObject or mt == CArray then return mt.address(v) end
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
ENCODE[RAW] = function(v)
  local s, why = N.raw(v)
  if s == nil and why == "type" and v ~= nil then return ENCODE.p(v) end
  return s, why
end
-- Strings are copied into C by the call; only NULL gets here.
ENCODE.s = function(v)
  if v == NULL then return 0 end
  return nil, "type"
end

-- DECODE[code](s): the Lua value of slot s.
local DECODE = {
  ["?"] = function(s) return s ~= 0 end,
  l = N.vi64, L = N.vu64, p = N.vptr, F = N.vptr, c = N.vptr, f = N.s2f, d = N.s2f}

-- The integer codes narrower than 64 bits: checked against their range
-- (RANGES[code]: {lo, hi}), plain numbers back.
local RANGES = {}
for code, info in pairs(abi.codes) do
  if (info.kind == "int" or info.kind == "errno") and type(info.max) == "number" then
    local lo, hi = info.min, info.max
    RANGES[code] = {lo, hi}
    ENCODE[code] = function(v) return N.int(v, lo, hi) end
    DECODE[code] = tonumber
  end
end
values.ENCODE, values.DECODE, values.RANGES = ENCODE, DECODE, RANGES

-- Records (structs and unions) <-> byte strings, by the layout table.
local pack_record, unpack_record

-- The bytes of one field (or one element) of the given code and size;
-- sub is its layout when it is a record.
local function pack_one(code, size, v, sub)
  if sub then
    if type(v) == "string" then
      if #v ~= size then return nil, fmt("%d bytes expected, got %d", size, #v) end
      return v
    end
    if type(v) ~= "table" then return nil, describe("type", RECORD, v) end
    return pack_record(sub, v)
  end
  local s, why = (code == "s" and ENCODE.p or ENCODE[code])(v)
  if s == nil then return nil, describe(why, code, v) end
  return N.pack(code, size, s)
end

function pack_record(layout, t)
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
          parts[k], why = pack_one(fd.type, esize, v[k], fd.layout)
          if not parts[k] then why = fmt("[%d]: %s", k, why) break end
        end
        piece = not why and concat(parts) or nil
      end
    else
      piece, why = pack_one(fd.type, fd.size, v, fd.layout)
    end
    if not piece then return nil, fmt("field '%s': %s", fd.name, why) end
    bytes = bytes:sub(1, fd.offset) .. piece .. bytes:sub(fd.offset + #piece + 1)
  end
  return bytes
end

local function unpack_one(code, size, bytes, pos, sub)
  if sub then return unpack_record(sub, bytes, pos - 1) end
  local s = N.unpack(code, size, bytes, pos)
  return (code == "s" and N.vptr or DECODE[code])(s)
end

function unpack_record(layout, bytes, base)
  local t = {}
  base = base or 0
  for _, fd in ipairs(layout.fields) do
    local pos = base + fd.offset + 1
    if fd.count > 1 then
      local esize, a = floor(fd.size / fd.count), {}
      for k = 1, fd.count do
        a[k] = unpack_one(fd.type, esize, bytes, pos + (k - 1) * esize, fd.layout)
      end
      t[fd.name] = a
    else
      t[fd.name] = unpack_one(fd.type, fd.size, bytes, pos, fd.layout)
    end
  end
  return t
end

-- The bytes of record value v (a table, or bytes already) by layout, or
-- nil and why.
function values.pack_record(layout, v) return pack_one(RECORD, layout.size, v, layout) end
-- The table of a record's bytes.
function values.unpack_record(layout, bytes) return unpack_record(layout, bytes) end

-- One value into buf at slot pos: the next position, or nil and why.
function values.put(item, v, buf, pos)
  local code = item.code
  if code == RECORD then
    local bytes, why = values.pack_record(item.layout, v)
    if not bytes then return nil, why end
    core.setbytes(buf, pos, bytes)
    return pos + item.slots
  end
  local s, why = ENCODE[code](v)
  if s == nil then return nil, describe(why, code, v) end
  core.set(buf, pos, s)
  return pos + 1
end

-- One value out of buf at slot pos, and the next position (strings
-- copied out of C through lib's built-ins).
function values.take(lib, item, buf, pos)
  local code = item.code
  if code == RECORD then
    return unpack_record(item.layout, core.getbytes(buf, pos, item.layout.size)), pos + item.slots
  end
  local s = core.get(buf, pos)
  if code == "s" then
    if s == 0 then return nil, pos + 1 end
    return builtins.cstring_at(lib, s), pos + 1
  end
  return DECODE[code](s), pos + 1
end

return values
