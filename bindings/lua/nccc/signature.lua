-- nccc/signature.lua — signature strings (docs/ABI.md): parsed once
-- into items by the codes and grammar of nccc/abi.lua, sized by the
-- registry's layouts, and turned into the primitive's slot specs.
local abi = require("nccc.abi")

local fmt, concat = string.format, table.concat
local G, codes = abi.grammar, abi.codes
local signature = {}

-- Type names for messages: the ABI's, and the two non-code items.
local TYPE_NAME = {[G.variadic] = "slot", [G.record_open] = "struct"}
for c, info in pairs(codes) do TYPE_NAME[c] = info.name end
signature.TYPE_NAME = TYPE_NAME

local function escape(c) return (c:gsub("%p", "%%%0")) end
-- A record item: "{name}" or "{name:slots}".
local RECORD = "^([%a_][%w_]*)" .. escape(G.record_count) .. "?(%d*)$"

local cache = {}

-- One side of sig: {code, name, n} items, items.var when it ends in '*'.
local function side(sig, str, ok_field)
  local items, i = {}, 1
  while i <= #str do
    local c = str:sub(i, i)
    if c == G.record_open then
      local close = str:find(G.record_close, i, true)
      local name, n = str:sub(i + 1, (close or 0) - 1):match(RECORD)
      if not close or not name then error(fmt("malformed signature '%s'", sig), 0) end
      items[#items + 1] = {code = G.record_open, name = name, n = tonumber(n)}
      i = close + 1
    elseif c == G.variadic and i == #str then
      items.var, i = true, i + 1
    elseif codes[c] and codes[c][ok_field] then
      items[#items + 1], i = {code = c}, i + 1
    else
      error(fmt("malformed signature '%s': unexpected '%s'", sig, c), 0)
    end
  end
  return items
end

-- The parsed signature {ins, outs}, cached (callers copy the items).
function signature.parse(sig)
  local p = cache[sig]
  if p then return p end
  local sep = type(sig) == "string" and sig:find(G.separator, 1, true)
  if not sep then error(fmt("malformed signature '%s'", tostring(sig)), 0) end
  p = {ins = side(sig, sig:sub(1, sep - 1), "in_ok"), outs = side(sig, sig:sub(sep + 1), "out_ok")}
  cache[sig] = p
  return p
end

-- Slot counts of one side; record items get their layout from
-- find_type(name) and their slot count.
function signature.count_side(items, find_type, label)
  local n = 0
  for _, item in ipairs(items) do
    if item.code == G.record_open then
      local layout = item.layout or find_type(item.name)
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

-- The primitive's slot spec of one side, in the native cores' item format
-- (docs/ABI.md, "Core items"): the signature with each record's size in
-- place of its name, the nonnull mark before an item that must not be
-- NULL (nonnull[k]), codes[k] in place of item k's code where given.
local NONNULL = abi.items.nonnull
function signature.spec_side(items, var, nonnull, codes_instead)
  local parts = {}
  for k, item in ipairs(items) do
    parts[k] = (nonnull and nonnull[k] and NONNULL or "") .. (codes_instead and codes_instead[k] or
      (item.code == G.record_open and G.record_open .. item.layout.size .. G.record_close or item.code))
  end
  return concat(parts) .. (var and G.variadic or "")
end

return signature
