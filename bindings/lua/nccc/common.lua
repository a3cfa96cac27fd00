-- nccc/common.lua — what every part of the Lua support library shares:
-- the NULL value, the metatables of closures and owned objects (so that
-- conversions recognise them), and errors raised at the user's line.
local common = {}

-- nccc.NULL: an explicit NULL where nil is refused (strings).
common.NULL = setmetatable({}, {__tostring = function() return "nccc.NULL" end})

-- A closure of lib:callback (nccc/callbacks.lua gives it its methods).
common.Closure = {}
common.Closure.__index = common.Closure

-- A call refused before C runs ends the closures C's wrapper would have
-- ended (docs/CALLBACKS.md, "Refused calls"): the "call"-scope closures
-- among its arguments, and a group a generated module claimed for this
-- call (fresh, nccc/owners.lua). Closures of other scopes stay.
function common.release_refused(c)
  if getmetatable(c) == common.Closure and c.live and (c.scope == "call" or c.fresh) then
    c:release()
  end
end

-- An owned pointer ([owned(F)] result): freed by F once, by close() or
-- by the collector (__gc), whichever comes first (nccc/calls.lua).
common.Owned = {__name = "nccc.owned"}
common.Owned.__index = common.Owned
-- C objects and their array views (nccc/cdata.lua); address(v) gives the
-- slot of one passed as a pointer, or nil and why not
common.CObject = {__name = "nccc.cobject"}
common.CArray = {__name = "nccc.carray"}

-- Releases what an owner keeps for C when it is freed: state.kept, the
-- [kept] strings copied into C memory (nccc/owners.lua).
function common.release_kept(state)
  for slot, copy in pairs(state.kept or {}) do
    state.kept[slot] = nil
    copy:release()
  end
end

-- Errors of calls are raised at the first caller outside the library:
-- its own files, the primitive's compiled converters and the generated
-- modules (registered by nccc/binder.lua), so they point at user code.
local internal = {}

-- Marks the file of the caller (or the given chunk source) as internal.
function common.internal(source)
  internal[source or debug.getinfo(2, "S").source] = true
end
common.internal()

function common.raise(msg, level)
  level = (level or 1) + 1
  while true do
    local info = debug.getinfo(level, "S")
    if not info then level = 0 break end
    if not (internal[info.source] or info.what == "C" or info.source:sub(1, 6) == "=nccc ") then break end
    level = level + 1
  end
  error(msg, level)
end

-- The type of v as error messages name it.
function common.vtype(v)
  local mt = getmetatable(v)
  if mt == common.Closure then return "closure" end
  if mt == common.Owned then return "owned object" end
  return type(v)
end

return common
