-- nccc/builtins.lua — calling a bound runtime's built-ins (docs/ABI.md)
-- with raw slots, and C memory through them: copies of Lua strings into
-- C, bytes and NUL-terminated strings out of it.
local abi = require("nccc.abi")
local core = require("nccc.interpreter").core

local fmt, ceil = string.format, math.ceil
local B = abi.builtin
local builtins = {B = B, list = abi.builtins}

-- Calls built-in b with raw slot arguments; returns the out buffer and
-- the status. A callback error during the call (a release notice cannot
-- raise one) is raised.
function builtins.call(lib, b, nout, ...)
  local n = select("#", ...)
  local inb, outb = core.buffer(n), core.buffer(nout)
  for k = 1, n do core.set(inb, k - 1, (select(k, ...))) end
  local err = core.call(lib.builtins[b], inb, outb)
  if err then error("error in callback: " .. err, 0) end
  return outb, tonumber(core.get(outb, 0))
end
local call = builtins.call

-- The runtime's last error: its status and message.
function builtins.last_error(lib)
  local outb = call(lib, B.last_error, 3)
  return tonumber(core.get(outb, 1)), builtins.cstring_at(lib, core.get(outb, 2))
end

-- The same as call, raising the runtime's last error message on failure.
function builtins.check(lib, b, nout, ...)
  local outb, st = call(lib, b, nout, ...)
  if st ~= 0 then
    local _, msg = builtins.last_error(lib)
    error(fmt("nccc: %s failed: %s (status 0x%x)", abi.builtins[b + 1].name, msg, st), 0)
  end
  return outb
end
local check = builtins.check

-- Writes bytes at address p.
function builtins.write(lib, p, bytes)
  local n = #bytes
  local inb, outb = core.buffer(2 + ceil(n / 8)), core.buffer(1)
  core.set(inb, 0, p)
  core.set(inb, 1, n)
  core.setbytes(inb, 2, bytes)
  core.call(lib.builtins[B.write], inb, outb)
  if core.get(outb, 0) ~= 0 then error("nccc: write failed", 0) end
end

-- The n bytes at address p.
function builtins.read(lib, p, n)
  if n == 0 then return "" end
  return core.getbytes(check(lib, B.read, 1 + ceil(n / 8), p, n), 1, n)
end

-- The NUL-terminated string at address s.
function builtins.cstring_at(lib, s)
  return builtins.read(lib, s, tonumber(core.get(check(lib, B.strlen, 2, s), 1)))
end

-- A C copy of Lua string s (the caller frees it); refuses embedded NULs,
-- which C would read as the end.
function builtins.cstring(lib, s)
  if s:find("\0", 1, true) then error("string contains a NUL byte", 0) end
  local p = core.get(check(lib, B.alloc, 2, #s + 1), 1)
  builtins.write(lib, p, s .. "\0")
  return p
end

-- Frees each address of list.
function builtins.free_all(lib, list)
  for _, p in ipairs(list) do call(lib, B.free, 1, p) end
end

-- Calls built-in b with a C copy of string s as its first argument.
function builtins.with_cstring(lib, s, b, nout, ...)
  local p = builtins.cstring(lib, s)
  local ok, outb, st = pcall(call, lib, b, nout, p, ...)
  call(lib, B.free, 1, p)
  if not ok then error(outb, 0) end
  return outb, st
end

return builtins
