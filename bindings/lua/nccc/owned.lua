-- nccc/owned.lua — owned results of generated modules (docs/LUA.md,
-- "Ownership"): pointers freed once by their IDL function, through
-- close() or the collector, and owned strings read and freed at once.
require("nccc.common").internal()
local Owned = require("nccc.common").Owned
local N = require("nccc.numbers").N
-- the methods this part gives the library object (composed in nccc.lua)
local methods = {}

local fmt = string.format
local unpack = table.unpack or unpack

local function close(o)
  if o.closed then return false end
  o.closed, o.state.closed = true, true
  o.free(o.addr)
  require("nccc.common").release_kept(o.state)
  return true
end

-- close(): frees the object now; false if it was closed already.
function Owned:close() return close(self) end
Owned.__gc = function(o) if not o.state.closed then pcall(close, o) end end
Owned.__tostring = function(o)
  return fmt("%s %s: %s", o.type or "owned", o.closed and "(closed)" or "", tostring(N.vptr(o.addr)))
end
-- The address (nil once closed).
function Owned:address() if self.closed then return nil end return N.vptr(self.addr) end

-- owner(free[, type]): a function turning a pointer result into an
-- owned object whose finalizer and close() call free once: a registry
-- name, or a function of the address; NULL stays nil.
function methods:owner(free_name, tname)
  local free = type(free_name) == "function" and free_name or self:fast(free_name)
  return function(p, ...)
    if p == nil then return nil, ... end
    local s = N.ptr(p)
    if s == 0 then return nil, ... end
    local state = {closed = false}
    local o = setmetatable({addr = s, free = free, type = tname, closed = false, state = state}, Owned)
    o.proxy = N.finalizer(free, s, state)
    return o, ...
  end
end

-- owned_string(free_name): a pointer result read as a Lua string, then
-- freed by free_name at once; NULL is nil.
function methods:owned_string(free_name)
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
function methods:owning(convs)
  return function(...)
    local r = {n = select("#", ...), ...}
    for k, conv in pairs(convs) do r[k] = (conv(r[k])) end
    return unpack(r, 1, r.n)
  end
end

return {methods = methods}
