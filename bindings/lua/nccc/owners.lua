-- nccc/owners.lua — what generated modules need for callbacks beyond
-- lib:callback (docs/LUA.md, "Generated modules"): the arguments a
-- callback type's value annotations describe, handed to the procedure as
-- strings, tables and writers, [bytes] arguments given as strings, and
-- closure sets — callbacks registered one by one on an owning object,
-- one closure group per owner, released when the owner is freed.
require("nccc.common").internal()
local common = require("nccc.common")
-- The conversions are loaded on first use: binding a module that has no
-- closure sets needs only its tables (test/stubgen binds with a stub).
local function N() return require("nccc.numbers").N end
local function encode_pointer(v) return require("nccc.values").ENCODE.p(v) end
local function describe(...) return require("nccc.values").describe(...) end

local fmt = string.format
local unpack = table.unpack or unpack
local owners = {}

local function pack(...) return {n = select("#", ...), ...} end

-- ---- callback argument values ------------------------------------------------

-- The elements of an array at address p (value description spec) in
-- memory: n of them, or up to a zero one.
local function read_array(memory, p, spec, n)
  local t, base = {}, N().ptr(p)
  local code = spec.code == "s" and "p" or spec.code
  -- a pointer element on a device has the device's size, whatever
  -- target's description the module chose
  local stride = code == "p" and rawget(memory, "pointer_bytes") or spec.stride
  local k = 0
  while n == nil or k < n do
    local v = memory:peek(base + k * stride, code, stride)
    if n == nil and (v == nil or v == 0 or v == false) then break end
    if spec.code == "s" and v ~= nil then v = memory:string(v) end
    t[k + 1] = v
    k = k + 1
  end
  return t
end

-- A writer of the n bytes at address p in memory that a callback fills
-- (a "fill" description): write(s[, at]) puts the string s at byte
-- offset at (from 0) at once; refused past the n bytes and once open[1]
-- is false (the callback returned).
local function filler(memory, p, n, open)
  local base = N().ptr(p)
  return function(s, at)
    at = at == nil and 0 or at
    if not open[1] then error("nccc: the buffer to fill is gone (its callback returned)", 2) end
    if type(s) ~= "string" then
      error(fmt("bad argument #1 to 'write' (string expected, got %s)", common.vtype(s)), 2)
    end
    if type(at) ~= "number" or at < 0 or at % 1 ~= 0 or at + #s > n then
      error(fmt("bad argument #2 to 'write' (%d bytes at %s do not fit in %d)", #s,
        tostring(at), n), 2)
    end
    if #s > 0 then memory:write(base + at, s) end
  end
end

local function finish(open, ok, ...)
  open[1] = false
  if not ok then error((...), 0) end
  return ...
end

-- fn with the arguments the value descriptions specs (docs/BINDING.md,
-- "Value descriptions") describe turned into strings (text and bytes)
-- and tables, and a buffer to fill into a writer function valid until
-- fn returns (NULL stays nil); fn itself when there are none. They are
-- in memory_of()'s memory (asked for at the first non-NULL one): the
-- library's, or for a module bound from a device the device's
-- (nccc/remote_memory.lua), whose addresses the device passes.
function owners.converting(memory_of, specs, fn)
  if not specs then return fn end
  return function(...)
    local args, open = {n = select("#", ...), ...}, nil
    for _, spec in ipairs(specs) do
      local p = args[spec.arg]
      if p ~= nil then
        local memory = memory_of()
        local n = spec.count.fixed or (spec.count.arg and args[spec.count.arg])
        if spec.kind == "string" then
          args[spec.arg] = memory:string(p, n)
        elseif spec.kind ~= "bytes" then
          args[spec.arg] = read_array(memory, p, spec, n)
        elseif spec.fill then
          open = open or {true}
          args[spec.arg] = filler(memory, p, n, open)
        else
          args[spec.arg] = memory:read(p, n)
        end
      end
    end
    if not open then return fn(unpack(args, 1, args.n)) end
    return finish(open, pcall(fn, unpack(args, 1, args.n)))
  end
end

-- A string's bytes in C memory that an owner keeps for C ([kept]):
-- freed by release(), when the owner is freed (common.release_kept), or
-- by the collector once nothing holds it (Lua 5.4: __gc, LuaJIT: the
-- finalizer proxy).
local Copy = {}
Copy.__index = Copy
function Copy:release()
  if self.state.closed then return end
  self.state.closed = true
  self.free(self.addr)
end
Copy.__gc = function(c) pcall(Copy.release, c) end

local function held_copy(lib, s)
  local p = lib:alloc(#s > 0 and #s or 1)
  if #s > 0 then lib:write(p, s) end
  local state = {closed = false}
  local function free(a) lib:free(a) end
  local c = setmetatable({addr = p, free = free, state = state}, Copy)
  c.proxy = N().finalizer(free, p, state)
  return c
end

-- The table of what owner keeps for C, by argument position: an owned
-- object's or a C object's (nil for any other owner).
local function kept_by(owner)
  local mt, state = getmetatable(owner), nil
  if mt == common.Owned then
    state = owner.state
  elseif mt == common.CObject or mt == common.CArray then
    state = require("nccc.cdata").state_of(owner)
  end
  if state == nil then return nil end
  state.kept = state.kept or {}
  return state.kept
end

-- The call's end: the copies for the call freed; the held copies kept
-- by their owners when it succeeded (replacing what an earlier call
-- kept there), released when it failed.
local function finish(memory, copies, held, holders, ok, ...)
  for _, p in ipairs(copies) do memory:free(p) end
  for k, c in pairs(held) do
    if ok then
      if holders[k][k] then holders[k][k]:release() end
      holders[k][k] = c
    else
      c:release()
    end
  end
  if not ok then error((...), 0) end
  return ...
end

-- call of function record e taking a Lua string for each [bytes]
-- argument its value descriptions name: copied into C memory for the
-- call, freed when it returns; an argument the library keeps
-- ([kept=OWNER]) is copied into C memory the owner holds (an owned
-- object or a C object; any other owner is refused), freed with it or
-- when a later call keeps that argument again. call itself when there
-- is none. device_memory, for a module bound from a device, gives the
-- device's memory (nccc/remote_memory.lua's, an error when it is not
-- bound): the copy for the call goes there, and a string for a kept
-- argument is refused. Each refusal names the function and argument.
function owners.bytes_in(lib, e, call, device_memory)
  local slots, kept = {}, {}
  for _, k in ipairs(e.kept or {}) do kept[k.arg] = k.owner end
  for _, spec in ipairs(e.values and e.values[1] or {}) do
    if spec.kind == "bytes" then slots[#slots + 1] = spec.arg end
  end
  if #slots == 0 then return call end
  local function bad(k, why) common.raise(fmt("bad argument #%d to '%s' (%s)", k, e.error_name, why), 4) end
  -- where each string goes, checked before anything is copied
  local function places(args)
    local memory, holders = lib, {}
    for _, k in ipairs(slots) do
      if type(args[k]) ~= "string" then
      elseif device_memory and kept[k] then
        bad(k, "the device keeps this pointer after the call: a string cannot be kept there; "
          .. "pass device memory from the memory module's alloc and write")
      elseif device_memory and memory == lib then
        local ok, m = pcall(device_memory)
        if not ok then bad(k, "a string is copied into the device's memory: " .. tostring(m)) end
        memory = m
      elseif kept[k] then
        holders[k] = kept_by(args[kept[k]]) or bad(k, fmt("a string kept by argument #%d needs "
          .. "an owned object or a C object there, got %s", kept[k], common.vtype(args[kept[k]])))
      end
    end
    return memory, holders
  end
  return function(...)
    local args = {n = select("#", ...), ...}
    local memory, holders = places(args)
    local copies, held = {}, {}
    for _, k in ipairs(slots) do
      local s = args[k]
      if holders[k] then
        held[k] = held_copy(lib, s)
        args[k] = held[k].addr
      elseif type(s) == "string" then
        local p = memory:alloc(#s > 0 and #s or 1)
        copies[#copies + 1] = p
        if #s > 0 then memory:write(p, s) end
        args[k] = p
      end
    end
    if #copies == 0 and next(held) == nil then return call(...) end
    return finish(memory, copies, held, holders, pcall(call, unpack(args, 1, args.n)))
  end
end

-- ---- closure sets -------------------------------------------------------------

-- sets(M, lib, t, helpers): the closure-set helper S a generated
-- module's binders get; t is the bound module (its destructors are
-- found there when an owned object is closed).
function owners.sets(M, lib, t, helpers)
  local S, sets = {}, {}
  for _, e in ipairs(M.closure_sets) do
    sets[e.name] = {members = e.members, groups = {}}
  end

  -- The table key of an owner: its address.
  local function key(owner, k, fname)
    local s, why = encode_pointer(owner)
    if s == nil or s == 0 then
      common.raise(fmt("bad argument #%d to '%s' (%s)", k, fname,
        s == nil and describe(why, "p", owner) or "NULL owner"), 3)
    end
    return tostring(s)
  end

  -- The owner's group of closure set name, and whether it was claimed
  -- now: claimed on first use (scope forever), one member per member of
  -- the set, each calling the procedure registered for it.
  local function group(name, owner, k, fname)
    local set, id = sets[name], key(owner, k, fname)
    local g = set.groups[id]
    if g and g.closure.live then return g, false end
    g = {procs = {}}
    local members = {}
    for m, e in ipairs(set.members) do
      local fn = function(...)
        local proc = g.procs[m]
        if proc == nil then error(fmt("closures %s: no procedure for %s", name, e.name), 0) end
        return proc(...)
      end
      members[m] = {helpers.signature(e.callback), helpers.values(e.callback, fn)}
    end
    g.closure = lib:callback_group("forever", 0, unpack(members))
    set.groups[id] = g
    return g, true
  end

  -- A procedure argument: a function, a callable, or nil (nccc.NULL) for
  -- NULL; anything else refused before the group is touched.
  local function procedure(proc, k, fname)
    local mt = getmetatable(proc)
    if proc == common.NULL then return nil end
    if proc ~= nil and type(proc) ~= "function" and not (mt and mt.__call) then
      common.raise(fmt("bad argument #%d to '%s' (function expected, got %s)", k, fname,
        common.vtype(proc)), 4)
    end
    return proc
  end

  -- call with the owner's group in its [closures] and [context] slots:
  -- spec = {name, set, owner, members = {[slot] = member}, context =
  -- slot}; the context slot is no argument of the host function. Every
  -- argument of the set is checked before the group is claimed; a group
  -- claimed by this call is marked fresh for it, so that a refusal of
  -- the call before C runs releases it (nccc/calls.lua).
  function S.closures(call, n, spec)
    local want = spec.context and n - 1 or n
    return function(...)
      local given, args, j = {n = select("#", ...), ...}, {}, 1
      if given.n ~= want then
        common.raise(fmt("'%s' expects %d argument%s, got %d", spec.name, want,
          want == 1 and "" or "s", given.n), 2)
      end
      for k = 1, n do
        if k ~= spec.context then args[k], j = given[j], j + 1 end
      end
      local procs = {}
      for k = 1, n do
        if spec.members[k] then procs[k] = procedure(args[k], k, spec.name) end
      end
      local g, fresh = group(spec.set, args[spec.owner], spec.owner, spec.name)
      g.closure.fresh = fresh
      for k, m in pairs(spec.members) do
        g.procs[m + 1] = procs[k]
        args[k] = procs[k] ~= nil and g.closure or nil
      end
      if spec.context then args[spec.context] = g.closure end
      return call(unpack(args, 1, n))
    end
  end

  -- call, then the owner's groups in the named sets released.
  function S.release(call, names)
    return function(owner, ...)
      local s = encode_pointer(owner)
      local r = pack(call(owner, ...))
      if s ~= nil then
        for _, name in ipairs(names) do
          local g = sets[name].groups[tostring(s)]
          if g then sets[name].groups[tostring(s)] = nil g.closure:release() end
        end
      end
      return unpack(r, 1, r.n)
    end
  end

  -- The free function of an owned object whose destructor frees an
  -- owner: the module's own, so that closing it releases the groups.
  function S.freeing(name)
    return function(p) return t[name](p) end
  end
  return S
end

return owners
