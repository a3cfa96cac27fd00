-- nccc_luajit.lua — the LuaJIT primitive of nccc, through LuaJIT's ffi:
-- the contract of the Lua 5.4 C module nccc.core (docs/LUA.md), with
-- slots as int64_t cdata (numbers accepted when set) and buffers as
-- int64_t[n], indexed from 0.
--
-- The dispatcher is the one place where LuaJIT makes machine code: one
-- ffi.cast callback, made on first use and kept for the life of the
-- state (the documented exception to "no code made at run time"; there
-- is no other way into Lua from C without a C module). Every closure of
-- this state targets it. Callbacks must come on the thread of the call
-- that led to them; nccc.call runs uncompiled (jit.off) because LuaJIT
-- refuses callbacks into a trace.
local ffi = require("ffi")

ffi.cdef("typedef void (*nccc_luajit_fn)(const int64_t *in, int64_t *out);")
local fn_t, buf_t = ffi.typeof("nccc_luajit_fn"), ffi.typeof("int64_t[?]")
local i64_t, ptr_t, bytes_t = ffi.typeof("int64_t"), ffi.typeof("int64_t *"), ffi.typeof("char *")

local M = {kind = "luajit"}
local declared, frames, refs = {}, {}, {}
local depth, live, last_env, lost, callback = 0, 0, 0, 0, nil

function M.open(path)
  if path == nil then return ffi.C end
  local ok, lib = pcall(ffi.load, path)
  if not ok then error("cannot load " .. path .. ": " .. tostring(lib), 2) end
  return lib
end

-- Every symbol we take is an nccc_fn, so one declaration shape fits all.
function M.sym(lib, name)
  if type(name) ~= "string" or not name:match("^[%a_][%w_]*$") then
    error("bad symbol name " .. tostring(name), 2)
  end
  if not declared[name] then
    pcall(ffi.cdef, "void " .. name .. "(const int64_t *, int64_t *);")
    declared[name] = true
  end
  local ok, f = pcall(function() return lib[name] end)
  if not ok then error("symbol '" .. name .. "' not found", 2) end
  return ffi.cast(i64_t, ffi.cast("intptr_t", ffi.cast("void *", f)))
end

-- Buffers are bounds-checked; the pointers a callback gets are not.
local function at(b, i, n)
  if not ffi.istype(ptr_t, b) and (i < 0 or i + n > ffi.sizeof(b) / 8) then
    error("slot index out of range", 3)
  end
  return ffi.cast(bytes_t, b) + 8 * i
end

function M.buffer(n) return buf_t(n) end
function M.get(b, i) at(b, i, 1) return b[i] end
function M.set(b, i, v) at(b, i, 1) b[i] = v end
function M.getbytes(b, i, n) return ffi.string(at(b, i, math.ceil(n / 8)), n) end
function M.setbytes(b, i, s)
  local n = math.ceil(#s / 8)
  local p = at(b, i, n)
  if n > 0 then b[i + n - 1] = 0 end
  ffi.copy(p, s, #s)
end

-- Returns nothing, or the first error raised by a callback during the call.
function M.call(fn, inb, outb)
  local f = ffi.cast(fn_t, fn)
  if f == nil then error("NULL function", 2) end
  depth = depth + 1
  frames[depth] = false
  local ok, bad = pcall(f, inb, outb)
  local err = frames[depth]
  frames[depth], depth = nil, depth - 1
  if not ok then error(bad, 2) end
  if err then
    return err.n > 1 and string.format("%s (and %d more callback errors)", err.msg, err.n - 1)
      or err.msg
  end
end
jit.off(M.call)

local function dispatch(inp, out)
  if depth == 0 then lost = lost + 1 return end
  local env = tonumber(inp[0])
  local f = refs[env]
  if f == nil then return end
  local ok, err = pcall(f, ffi.cast(ptr_t, inp), out ~= nil and out or nil)
  if not ok then
    local e = frames[depth]
    if e then e.n = e.n + 1 else frames[depth] = {msg = tostring(err), n = 1} end
  end
  if out == nil then refs[env], live = nil, live - 1 end
end

function M.dispatcher()
  callback = callback or ffi.cast(fn_t, function(inp, out) pcall(dispatch, inp, out) end)
  return ffi.cast(i64_t, ffi.cast("intptr_t", callback))
end

function M.ref(f)
  assert(type(f) == "function", "function expected")
  last_env, live = last_env + 1, live + 1
  refs[last_env] = f
  return last_env
end

function M.unref(env)
  env = tonumber(env)
  if refs[env] then refs[env], live = nil, live - 1 end
end

function M.refs() return live end
function M.lost() return lost end

return M
