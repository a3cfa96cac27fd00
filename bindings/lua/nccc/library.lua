-- nccc/library.lua — a bound library: the object nccc.open and nccc.bind
-- return (docs/LUA.md, "Loading"), its built-ins found by index and
-- checked by name, and C memory through them. Its class Lib holds these
-- methods and, composed into it by nccc.lua (library.compose), those of
-- the other parts: nccc/registry.lua, nccc/calls.lua, nccc/owned.lua,
-- nccc/callbacks.lua, nccc/packed.lua.
require("nccc.common").internal()
local abi = require("nccc.abi")
local core = require("nccc.interpreter").core
local N = require("nccc.numbers").N
local builtins = require("nccc.builtins")
local values = require("nccc.values")

local fmt = string.format
local B, call, check = builtins.B, builtins.call, builtins.check
local describe, vtype = values.describe, require("nccc.common").vtype

local Lib = {}
Lib.__index = Lib
local library = {Lib = Lib}

-- bind(root[, handle]): a library object for the root nccc_fn at
-- address root (a slot value); handle is what core.open returned.
function library.bind(root, handle)
  local lib = setmetatable({root = root, handle = handle, builtins = {}, fns = {},
    by_handle = {}, modules_by_name = {}, types = {}, consts = {}}, Lib)
  local count = #abi.builtins
  for k = 0, count - 1 do
    local inb, outb = core.buffer(1), core.buffer(4)
    core.set(inb, 0, k)
    core.call(root, inb, outb)
    if core.get(outb, 0) ~= 0 then error(fmt("nccc: the root has no built-in %d", k), 2) end
    lib.builtins[k] = core.get(outb, 1)
  end
  for k = 0, count - 1 do -- the built-ins can read their own names now
    local outb = check(lib, B.builtin, 4, k)
    local name, expected = builtins.cstring_at(lib, core.get(outb, 2)), abi.builtins[k + 1].name
    if name ~= expected then
      error(fmt("nccc: built-in %d is '%s', expected '%s'", k, name, expected), 2)
    end
  end
  local outb = check(lib, B.version, 3)
  lib.version = builtins.cstring_at(lib, core.get(outb, 2))
  return lib
end

-- compose(parts): copies each part's methods into Lib, once, so that a
-- call finds every method in the one table; a part may not redefine a
-- method another has.
function library.compose(parts)
  for _, methods in ipairs(parts) do
    for name, f in pairs(methods) do
      if Lib[name] ~= nil and Lib[name] ~= f then
        error(fmt("nccc: two parts define the method '%s'", name), 2)
      end
      Lib[name] = f
    end
  end
end

-- open(path[, root_symbol]): loads a shared library and binds its root
-- (default "nccc_root").
function library.open(path, root_symbol)
  local handle = core.open(path)
  return library.bind(core.sym(handle, root_symbol or "nccc_root"), handle)
end

-- The address of an exported symbol of the library, as a pointer value.
function Lib:symbol(name)
  return N.vptr(core.sym(self.handle, name))
end

function Lib:last_error() return builtins.last_error(self) end

-- ---- memory ----------------------------------------------------------------

function Lib:alloc(n)
  local s, why = N.u64(n)
  if s == nil then error("bad argument #1 to 'alloc' (" .. describe(why, "L", n) .. ")", 2) end
  return N.vptr(core.get(check(self, B.alloc, 2, s), 1))
end

function Lib:free(p)
  local s, why = N.ptr(p)
  if s == nil then error("bad argument #1 to 'free' (" .. describe(why, "p", p) .. ")", 2) end
  call(self, B.free, 1, s)
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
  local k, why = N.int(n, 0, abi.codes.i.max)
  if k == nil then error(fmt("bad argument #2 to '%s' (%s)", what, describe(why, "i", n)), 3) end
  return k
end

-- The NUL-terminated string at p, or its first n bytes.
function Lib:string(p, n)
  local s = ptr_arg(p, 1, "string")
  if n == nil then return builtins.cstring_at(self, s) end
  return builtins.read(self, s, count_arg(n, "string"))
end

function Lib:read(p, n) return builtins.read(self, ptr_arg(p, 1, "read"), count_arg(n, "read")) end

function Lib:write(p, bytes)
  local s = ptr_arg(p, 1, "write")
  if type(bytes) ~= "string" then
    error("bad argument #2 to 'write' (string expected, got " .. vtype(bytes) .. ")", 2)
  end
  builtins.write(self, s, bytes)
end

-- A code poke takes: a scalar code that is not out-only; peek reads
-- no strings.
local function value_code(code)
  local info = abi.codes[code]
  return info ~= nil and info.in_ok
end

function Lib:peek(p, code)
  if not value_code(code) or not values.DECODE[code] then error("bad argument #2 to 'peek' (type code expected)", 2) end
  local outb = check(self, B.peek, 2, ptr_arg(p, 1, "peek"), code:byte())
  return values.DECODE[code](core.get(outb, 1))
end

function Lib:poke(p, code, v)
  if not value_code(code) then error("bad argument #2 to 'poke' (type code expected)", 2) end
  local s, why = values.ENCODE[code](v)
  if s == nil then error("bad argument #3 to 'poke' (" .. describe(why, code, v) .. ")", 2) end
  check(self, B.poke, 1, ptr_arg(p, 1, "poke"), code:byte(), s)
end

return library
