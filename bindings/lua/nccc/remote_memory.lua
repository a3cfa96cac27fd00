-- nccc/remote_memory.lua — a device's memory for the C objects of a
-- module bound from it (docs/LUA.md, "C objects on a device"): the
-- module M_memory (docs/RPC.md, "Calling through a bound module": alloc,
-- free, read and write of device memory, and the device's byte order in
-- its constant big_endian) with the library calls C objects make (alloc,
-- free, read, write, string, peek, poke), each value in the device's
-- byte order at the device's sizes.
require("nccc.common").internal()
local values = require("nccc.values")
local N = require("nccc.numbers").N

local fmt = string.format
local remote_memory = {}
local Memory = {}
Memory.__index = Memory

-- the status of a memory module call, raised as an error when not 0
local function checked(m, fn, status, ...)
  if status ~= 0 then
    error(fmt("nccc: %s.%s failed: %s", m.name, fn, tostring(m.lib:last_error() or status)), 3)
  end
  return ...
end

function Memory:call(fn, ...)
  return checked(self, fn, self.lib:call(self.name .. "." .. fn, ...))
end

function Memory:alloc(n) return self:call("alloc", n) end
function Memory:free(a) self:call("free", a) end

-- n bytes at device address a, through a local buffer
function Memory:read(a, n)
  if n == 0 then return "" end
  local buf = self.lib:alloc(n)
  local ok, err = pcall(self.call, self, "read", a, n, buf)
  local bytes = ok and self.lib:read(buf, n)
  self.lib:free(buf)
  if not ok then error(err, 2) end
  return bytes
end

function Memory:write(a, bytes)
  if #bytes == 0 then return end
  local buf = self.lib:alloc(#bytes)
  self.lib:write(buf, bytes)
  local ok, err = pcall(self.call, self, "write", a, #bytes, buf)
  self.lib:free(buf)
  if not ok then error(err, 2) end
end

-- n bytes of text at a, or up to its NUL without n
function Memory:string(a, n)
  if n == nil then n = self:call("strlen", a) end
  return self:read(N.ptr(a), tonumber(n))
end

-- the value of code at a, of size bytes (the device's)
function Memory:peek(a, code, size)
  local bytes = self:read(a, size)
  if self.swap then bytes = bytes:reverse() end
  local s = N.unpack(code, size, bytes, 1)
  return (code == "p" and N.vptr or values.DECODE[code])(s)
end

-- writes slot s (values.ENCODE's of a value of code) at a, in size bytes
function Memory:poke(a, code, size, s)
  local bytes = N.pack(code, size, s)
  if self.swap then bytes = bytes:reverse() end
  self:write(a, bytes)
end

-- a record's bytes in the other byte order: each scalar reversed; of
-- members that share bytes (a union's, an anonymous union's in a struct)
-- the first largest, as the device's record conversion does
local function swapped(layout, bytes)
  local fields = {}
  for k, fd in ipairs(layout.fields) do fields[k] = {fd = fd, k = k} end
  table.sort(fields, function(a, b)
    if a.fd.offset ~= b.fd.offset then return a.fd.offset < b.fd.offset end
    if a.fd.size ~= b.fd.size then return a.fd.size > b.fd.size end
    return a.k < b.k
  end)
  local done = 0
  for _, f in ipairs(fields) do
    local fd = f.fd
    if fd.offset >= done then
      done = fd.offset + fd.size
      local esize = math.floor(fd.size / fd.count)
      for k = 0, fd.count - 1 do
        local at = fd.offset + k * esize
        local piece = bytes:sub(at + 1, at + esize)
        piece = fd.layout and swapped(fd.layout, piece) or piece:reverse()
        bytes = bytes:sub(1, at) .. piece .. bytes:sub(at + esize + 1)
      end
    end
  end
  return bytes
end

-- a record's bytes between the device's order and this host's (both ways)
function Memory:record_bytes(layout, bytes)
  if self.swap then return swapped(layout, bytes) end
  return bytes
end

-- open(lib, module): the memory of the device module was bound from, as
-- the module module_memory (remotes.bind_memory); an error without it
function remote_memory.open(lib, module)
  local name = module .. "_memory"
  local ok, big = pcall(lib.constant, lib, name .. ".big_endian")
  if not ok then
    error(fmt("nccc: C objects of %s: the device's memory is not bound as %s (remotes.bind_memory)",
      module, name), 4)
  end
  local host_big = N.pack("i", 4, 1) == "\0\0\0\1"
  return setmetatable({lib = lib, name = name, swap = (big ~= 0) ~= host_big,
    pointer_bytes = lib:constant(name .. ".pointer_bytes")}, Memory)
end

return remote_memory
