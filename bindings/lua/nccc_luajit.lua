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

local M = {kind = "luajit", source = debug.getinfo(1, "S").source}
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

-- Runs f(inb, outb) as a call under way (callbacks may come); returns
-- nothing, or the first error raised by a callback during the call.
-- Uncompiled (jit.off): LuaJIT refuses callbacks into a trace.
local function slowcall(f, inb, outb)
  depth = depth + 1
  frames[depth] = false
  f(inb, outb)
  local err = frames[depth]
  frames[depth], depth = nil, depth - 1
  if err then
    return err.n > 1 and string.format("%s (and %d more callback errors)", err.msg, err.n - 1)
      or err.msg
  end
end
jit.off(slowcall)

function M.call(fn, inb, outb)
  local f = ffi.cast(fn_t, fn)
  if f == nil then error("NULL function", 2) end
  return slowcall(f, inb, outb)
end

-- ---- specialised functions and callbacks --------------------------------
-- core.fn and core.ref with a spec (docs/LUA.md, "The primitive"): the
-- conversion code of each spec is Lua source made once and compiled by
-- LuaJIT. A call runs compiled (a trace) while no Lua callback of this
-- state is live (M.state.live == 0: no closure or packed function could
-- call back into Lua); otherwise through slowcall on fresh buffers.
M.state = {live = 0}
local state = M.state
local abi = require("nccc.abi")
-- The codes whose values are checked against a range that a Lua number
-- holds (up to 32 bits; l and L have their own checks).
local RANGE = {}
for c, info in pairs(abi.codes) do
  if type(info.max) == "number" and type(info.min) == "number" then RANGE[c] = {info.min, info.max} end
end

-- One side of a spec in the native cores' item format (docs/ABI.md,
-- "Core items"): its items (an item marked helper has the mark as its
-- code: no fast path takes it), slots and whether it ends in '*'.
local G, ITEMS, KEY = abi.grammar, abi.items, abi.items.helper_keys
local function parse(side)
  local items, slot, var, pos = {}, 0, false, 1
  while pos <= #side do
    if side:sub(pos) == G.variadic then var = true break end
    local nonnull, helper = false, false
    while true do
      local m = side:sub(pos, pos)
      if m == ITEMS.nonnull and not nonnull then nonnull = true
      elseif m == ITEMS.helper and not helper then helper = true
      else break end
      pos = pos + 1
    end
    local c = side:sub(pos, pos)
    local it = {code = c, nonnull = nonnull, slot = slot}
    if c == G.record_open then
      local close = side:find(G.record_close, pos, true)
      it.size = tonumber(side:sub(pos + 1, (close or 0) - 1))
      if not close or not it.size then error("malformed slot spec '" .. side .. "'", 3) end
      pos = close + 1
      slot = slot + math.ceil(it.size / 8)
    else
      if not abi.codes[c] then
        error("malformed slot spec '" .. side .. "'", 3)
      end
      if helper then it.code = ITEMS.helper end
      pos, slot = pos + 1, slot + 1
    end
    items[#items + 1] = it
  end
  return items, slot, var
end

-- Source that sets local v from Lua value a for item it (else helper(k, a)).
local function enc_src(it, a, v, k, helper)
  local c, fallback = it.code, string.format("%s = %s(%d, %s)", v, helper, k, a)
  local r = RANGE[c]
  if c == "?" then
    return string.format("if %s == true then %s = 1 elseif %s == false then %s = 0 else %s end",
      a, v, a, v, fallback)
  elseif r then
    return string.format("if type(%s) == 'number' and %s >= %d and %s <= %d and %s == floor(%s) then %s = %s else %s end",
      a, a, r[1], a, r[2], a, a, v, a, fallback)
  elseif c == "l" then
    return string.format("if type(%s) == 'number' and %s >= -2^63 and %s < 2^63 and %s == floor(%s) then %s = %s elseif istype(i64_t, %s) then %s = %s else %s end",
      a, a, a, a, a, v, a, a, v, a, fallback)
  elseif c == "L" then
    return string.format("if type(%s) == 'number' and %s >= 0 and %s < 2^63 and %s == floor(%s) then %s = %s elseif istype(u64_t, %s) then %s = cast(i64_t, %s) else %s end",
      a, a, a, a, a, v, a, a, v, a, fallback)
  elseif c == "f" then
    return string.format("if type(%s) == 'number' and (%s <= FLT_MAX and %s >= -FLT_MAX or %s ~= %s or %s == huge or %s == -huge) then U.d = %s %s = U.l else %s end",
      a, a, a, a, a, a, a, a, v, fallback)
  elseif c == "d" then
    return string.format("if type(%s) == 'number' then U.d = %s %s = U.l else %s end", a, a, v, fallback)
  elseif (c == "p" or c == "F" or c == "c") and not it.nonnull then
    return string.format("if %s == nil then %s = 0 else %s end", a, v, fallback)
  elseif c == "s" then
    return string.format("if type(%s) == 'string' and not find(%s, '\\0', 1, true) then %s = cast(intptr_t, cast(ccharp, %s)) else %s end",
      a, a, v, a, fallback)
  elseif c == G.record_open then
    return string.format("if type(%s) == 'string' and #%s == %d then %s = %s else %s end",
      a, a, it.size, v, a, fallback)
  end
  return fallback
end

-- Source storing v into buffer b for item it.
local function store_src(it, b, v)
  if it.code == G.record_open then
    local n = math.ceil(it.size / 8)
    return string.format("do local d = cast(charp, %s) + %d fill(d, %d) copy(d, %s, %d) end",
      b, 8 * it.slot, 8 * n, v, it.size)
  end
  return string.format("%s[%d] = %s", b, it.slot, v)
end

-- Source of the Lua value of item it (key k) in buffer b at offset base.
local function dec_src(it, b, k, base, helper)
  local s = string.format("%s[%d]", b, it.slot + base)
  local c = it.code
  if c == "?" then return s .. " ~= 0"
  elseif c == "l" then return s
  elseif c == "L" then return "cast(u64_t, " .. s .. ")"
  elseif c == "f" or c == "d" then return "s2f(" .. s .. ")"
  elseif c == "p" or c == "F" or c == "c" then return "vptr(" .. s .. ")"
  elseif c == "s" then return string.format("(%s ~= 0 and ffistring(cast(ccharp, %s)) or nil)", s, s)
  elseif c == G.record_open then
    return string.format("%s(%d, ffistring(cast(ccharp, %s) + %d, %d))", helper, k, b,
      8 * (it.slot + base), it.size)
  elseif c == ITEMS.helper then
    return string.format("%s(%d, %s)", helper, k, s)
  end
  return "tonumber(" .. s .. ")"
end

local ENV_NAMES = "ffi, floor, istype, cast, i64_t, u64_t, intptr_t, charp, ccharp, fill, copy, "
  .. "ffistring, find, huge, FLT_MAX, buf_t, state, slowcall, s2f, vptr"
local function env_values(s2f, vptr, ...)
  return {ffi, math.floor, ffi.istype, ffi.cast, i64_t, ffi.typeof("uint64_t"), ffi.typeof("intptr_t"),
    bytes_t, ffi.typeof("const char *"), ffi.fill, ffi.copy, ffi.string, string.find, math.huge,
    3.4028234663852886e38, buf_t, state, slowcall, s2f, vptr, ...}
end
M.codec = {} -- s2f, vptr: set by nccc.lua (its number rules)

local function compile(src, chunkname, env)
  local chunk = assert(loadstring(src, "=nccc " .. chunkname))
  return chunk(unpack(env, 1, table.maxn(env)))
end

-- fn(addr, ins, outs, name, slow, post[, clear, last]): the function's
-- converter and call; with clear and last (the built-ins clear_error and
-- last_error) the last error is cleared before each call and a thunk
-- pool left exhausted raises slow(pool exhausted, message); slow raises
-- a wrong count and callback errors by their helper keys too.
function M.fn(addr, ins, outs, name, slow, post, clear, last)
  local f = ffi.cast(fn_t, addr)
  if f == nil then error("NULL function", 2) end
  local guard = clear ~= nil and clear ~= 0
  local items, nin, var = parse(ins)
  local ritems, nout = parse(outs)
  local n = #items
  local L = {"local " .. ENV_NAMES .. ", f, slow, post, argcount, cberr, clearf, lastf, pool = ...",
    "local gb = buf_t(3)",
    string.format("local ib, ob, U = buf_t(%d), buf_t(%d), ffi.new('union { double d; int64_t l; }')", nin, nout),
    "return function(...)", "local n = select('#', ...)"}
  if var then
    L[#L + 1] = string.format("if n < %d then argcount(n) end", n)
  else
    L[#L + 1] = string.format("if n ~= %d then argcount(n) end", n)
  end
  local args, vals = {}, {}
  for k = 1, n do args[k], vals[k] = "a" .. k, "v" .. k end
  if n > 0 then
    L[#L + 1] = "local " .. table.concat(args, ", ") .. " = ..."
    L[#L + 1] = "local " .. table.concat(vals, ", ")
  end
  for k = 1, n do L[#L + 1] = enc_src(items[k], args[k], vals[k], k, "slow") end
  L[#L + 1] = "local live = state.live ~= 0"
  if var then
    L[#L + 1] = string.format("local i, o = buf_t(%d + n - %d), buf_t(%d)", nin, n, nout)
    L[#L + 1] = string.format("for k = %d, n do i[%d + k - %d] = slow(k, (select(k, ...))) end",
      n + 1, nin, n + 1)
  else
    L[#L + 1] = "local i, o = ib, ob"
    L[#L + 1] = string.format("if live then i, o = buf_t(%d), buf_t(%d) end", nin, nout)
  end
  for k = 1, n do L[#L + 1] = store_src(items[k], "i", vals[k]) end
  if guard then L[#L + 1] = "clearf(gb, gb)" end
  L[#L + 1] = "if live then local e = slowcall(f, i, o) if e then cberr(e) end else f(i, o) end"
  if guard then
    L[#L + 1] = string.format("lastf(gb, gb) if gb[0] == 0 and gb[1] == %d then pool(gb[2]) end",
      abi.status.ERR_POOL_EXHAUSTED)
  end
  local rs = {}
  for k, it in ipairs(ritems) do rs[k] = dec_src(it, "o", k, 0, "post") end
  if #rs > 0 then L[#L + 1] = "return " .. table.concat(rs, ", ") end
  L[#L + 1] = "end"
  local function argcount(got) slow(KEY.count, got) end
  local function cberr(e) slow(KEY.callback_errors, e) end
  local clearf, lastf
  if guard then clearf, lastf = ffi.cast(fn_t, clear), ffi.cast(fn_t, last) end
  local function pool(p)
    slow(KEY.pool_exhausted, p ~= 0 and ffi.string(ffi.cast("const char *", ffi.cast("intptr_t", p))) or "thunk pool exhausted")
  end
  return compile(table.concat(L, "\n"), name, env_values(M.codec.s2f, M.codec.vptr, f, slow, post,
    argcount, cberr, clearf, lastf, pool))
end

-- The converter of a callback spec: run(f, inp, out) calls f with the
-- arguments from inp[1..] and stores its results into out (all of them
-- converted before the first is stored).
local converters = {}
local function converter(ins, outs, conv)
  local items = parse(ins)
  local ritems = parse(outs)
  local L = {"local " .. ENV_NAMES .. ", conv = ...",
    "local U = ffi.new('union { double d; int64_t l; }')", "return function(f, inp, out)"}
  local args = {}
  for k, it in ipairs(items) do args[k] = dec_src(it, "inp", k, 1, "conv") end
  local rs, vs = {}, {}
  for k = 1, #ritems do rs[k], vs[k] = "r" .. k, "v" .. k end
  local callf = "f(" .. table.concat(args, ", ") .. ")"
  if #rs == 0 then
    L[#L + 1] = callf
  else
    L[#L + 1] = "local " .. table.concat(rs, ", ") .. " = " .. callf
    L[#L + 1] = "local " .. table.concat(vs, ", ")
    for k, it in ipairs(ritems) do L[#L + 1] = enc_src(it, rs[k], vs[k], -k, "conv") end
    for k, it in ipairs(ritems) do L[#L + 1] = store_src(it, "out", vs[k]) end
  end
  L[#L + 1] = "end"
  return compile(table.concat(L, "\n"), "callback " .. ins .. ":" .. outs,
    env_values(M.codec.s2f, M.codec.vptr, conv))
end

local function dispatch(inp, out)
  if depth == 0 then lost = lost + 1 return end
  local env = tonumber(inp[0])
  local r = refs[env]
  if r == nil then return end
  if out == nil then
    refs[env], live = nil, live - 1
    state.live = live
    if type(r) == "table" then
      if r.notice then r.notice() end
    else
      r(ffi.cast(ptr_t, inp), nil)
    end
  elseif type(r) == "table" then
    r.run(r.f, inp, out)
  else
    r(ffi.cast(ptr_t, inp), out)
  end
end

function M.dispatcher()
  callback = callback or ffi.cast(fn_t, function(inp, out)
    local ok, err = pcall(dispatch, inp, out)
    if not ok and depth > 0 then
      local e = frames[depth]
      if e then e.n = e.n + 1 else frames[depth] = {msg = tostring(err), n = 1} end
    end
  end)
  return ffi.cast(i64_t, ffi.cast("intptr_t", callback))
end

-- ref(f[, ins, outs, notice, conv]), as nccc.core's.
function M.ref(f, ins, outs, notice, conv)
  assert(type(f) == "function", "function expected")
  local r = f
  if ins ~= nil then
    r = {f = f, notice = notice, run = converter(ins, outs, conv)}
  end
  last_env, live = last_env + 1, live + 1
  refs[last_env] = r
  state.live = live
  return last_env
end

function M.unref(env)
  env = tonumber(env)
  if refs[env] then refs[env], live = nil, live - 1 end
  state.live = live
end

-- call_slots(addr, nout, ...): raw slots in, raw slots out (int64_t cdata).
function M.call_slots(addr, nout, ...)
  local n = select("#", ...)
  local inb, outb = buf_t(n), buf_t(nout)
  for k = 1, n do inb[k - 1] = (select(k, ...)) end
  local err = M.call(addr, inb, outb)
  if err then error(err, 2) end
  local r = {}
  for k = 1, nout do r[k] = outb[k - 1] end
  return unpack(r, 1, nout)
end

function M.refs() return live end
function M.lost() return lost end

return M
