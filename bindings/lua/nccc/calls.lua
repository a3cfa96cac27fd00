-- nccc/calls.lua — calling nccc functions (docs/LUA.md, "Calling"): each
-- function's converter and call made once from its signature by the
-- primitive (core.fn: a C closure on Lua 5.4, compiled Lua on LuaJIT),
-- the generic path for results that end in '*', and calls by address.
require("nccc.common").internal()
local abi = require("nccc.abi")
local common = require("nccc.common")
local core = require("nccc.interpreter").core
local N = require("nccc.numbers").N
local builtins = require("nccc.builtins")
local registry = require("nccc.registry")
local signature = require("nccc.signature")
local values = require("nccc.values")
-- the methods this part gives the library object (composed in nccc.lua)
local methods = {}

local fmt, ceil = string.format, math.ceil
local unpack = table.unpack or unpack
local NULL, raise, vtype = common.NULL, common.raise, common.vtype
local describe, ENCODE = values.describe, values.ENCODE
local spec_side = signature.spec_side
local B = builtins.B
local RECORD = abi.grammar.record_open
local STAR = {code = abi.grammar.variadic}


local function pack(...) return {n = select("#", ...), ...} end

local function count_message(f, got)
  return fmt("'%s' expects %s%d argument%s, got %d", f.name, f.var_in and "at least " or "",
    f.nargs, f.nargs == 1 and "" or "s", got)
end

-- The results in outb, then extra raw slots after the fixed ones.
local function decode_all(lib, f, outb, extra)
  local n = #f.outs
  if extra == 0 then
    if n == 0 then return end
    if n == 1 then return (values.take(lib, f.outs[1], outb, 0)) end
  end
  local results, pos = {}, 0
  for k = 1, n do results[k], pos = values.take(lib, f.outs[k], outb, pos) end
  for k = 1, extra do results[n + k] = core.get(outb, f.nout + k - 1) end
  return unpack(results, 1, n + extra)
end

-- Encodes the arguments, calls, decodes the results; extra: the out
-- slots after the fixed ones of a function whose results end in '*'
-- (the caller's count: C writes them, so the buffer has them). Strings
-- go into C copies made after every other argument has been checked,
-- and freed after the results (which may point into them) have been
-- read. Always tail-called, so error level 2 is the caller of the method.
local function invoke(lib, f, extra, ...)
  local nargs = select("#", ...)
  if nargs ~= f.nargs and not (f.var_in and nargs > f.nargs) then error(count_message(f, nargs), 2) end
  local inb = core.buffer(f.nin + nargs - f.nargs)
  local outb = core.buffer(f.nout + extra)
  local pos, strings = 0, nil
  for k = 1, nargs do
    local item, v = f.ins[k] or STAR, (select(k, ...))
    if item.code == "s" and v ~= NULL then
      if type(v) ~= "string" then
        error(fmt("bad argument #%d to '%s' (string expected, got %s)", k, f.name, vtype(v)), 2)
      elseif v:find("\0", 1, true) then
        error(fmt("bad argument #%d to '%s' (string contains a NUL byte)", k, f.name), 2)
      end
      strings = strings or {}
      strings[#strings + 1] = {pos, v}
      pos = pos + 1
    else
      local np, why = values.put(item, v, inb, pos)
      if not np then error(fmt("bad argument #%d to '%s' (%s)", k, f.name, why), 2) end
      pos = np
    end
  end
  if not strings then
    local err = core.call(f.addr, inb, outb)
    if err then error("error in callback: " .. err, 2) end
    return decode_all(lib, f, outb, extra)
  end
  local temps = {}
  local ok, err = pcall(function()
    for k, s in ipairs(strings) do
      temps[k] = builtins.cstring(lib, s[2])
      core.set(inb, s[1], temps[k])
    end
  end)
  if not ok then
    builtins.free_all(lib, temps)
    error(err, 2)
  end
  err = core.call(f.addr, inb, outb)
  local r = pack(pcall(decode_all, lib, f, outb, extra))
  builtins.free_all(lib, temps)
  if err then error("error in callback: " .. err, 2) end
  if not r[1] then error(r[2], 2) end
  return unpack(r, 2, r.n)
end

-- ---- specialised calls -------------------------------------------------------

-- slow(k, v): argument k's slot (a record's bytes) where the primitive's
-- own fast path did not take v, or the error, raised at the caller; a
-- helper key in place of k (abi.items) raises the call's other errors.
local KEY = abi.items.helper_keys
local function slow_for(f, nonnull, refuse)
  return function(k, v)
    if k == KEY.count then
      if refuse then refuse() end
      raise(count_message(f, v), 2)
    elseif k == KEY.callback_errors then
      raise("error in callback: " .. tostring(v), 2)
    elseif k == KEY.pool_exhausted then -- the call needed a thunk and its pool was full
      v = tostring(v)
      if not v:find("pool", 1, true) then v = "thunk pool exhausted: " .. v end
      raise(fmt("'%s': %s", f.name, v), 2)
    end
    local item = f.ins[k] or STAR
    local code, why, s = item.code, nil, nil
    if nonnull and nonnull[k] and (v == nil or v == NULL or v == 0) then
      why = describe("null", code, v)
    elseif code == RECORD then
      s, why = values.pack_record(item.layout, v)
    elseif code == "s" then
      if v == NULL then return 0 end
      if type(v) ~= "string" then
        why = fmt("string expected, got %s", vtype(v))
      else
        why = "string contains a NUL byte"
      end
    else
      s, why = ENCODE[code](v)
      if s == nil then why = describe(why, code, v) end
    end
    if s == nil then
      if refuse then refuse() end
      raise(fmt("bad argument #%d to '%s' (%s)", k, f.name, why), 2)
    end
    return s
  end
end

-- ---- refused calls -----------------------------------------------------------

local release_refused = common.release_refused

-- The argument positions of f's closure slots.
local function closure_positions(f)
  local at = {}
  for k, item in ipairs(f.ins) do
    local code = abi.codes[item.code]
    if code and code.kind == "closure" then at[#at + 1] = k end
  end
  return at
end

-- make(refuse) -> the callable of f; for a function with closure slots,
-- wrapped so that refuse() (called by the conversions before they raise)
-- releases the closures of the call under way (with a wrong argument
-- count, those among all its arguments). Nothing reaches C before
-- the last argument is converted, so a nested call can only begin after
-- the refusals of this one.
local function refusing(f, make)
  local at = closure_positions(f)
  if #at == 0 then return make(nil) end
  local held = {}
  local function forget(...)
    for _, k in ipairs(at) do held[k] = nil end
    return ...
  end
  local fast = make(function()
    for _, k in ipairs(at) do release_refused(held[k]) end
    forget()
  end)
  return function(...)
    local n = select("#", ...)
    if n ~= f.nargs and not (f.var_in and n > f.nargs) then
      -- a count refusal, where any argument may be a closure
      for k = 1, n do release_refused((select(k, ...))) end
    end
    for _, k in ipairs(at) do held[k] = (select(k, ...)) end
    return forget(fast(...))
  end
end

-- post(k, v): the Lua value of out item k from its slot or bytes.
local function post_for(f)
  return function(k, v)
    local item = f.outs[k]
    if item.code == RECORD then return values.unpack_record(item.layout, v) end
    return N.vu64(v)
  end
end

-- Functions whose '*' side is sized by one of their arguments: argument
-- arg (0-based) holds n and the side takes ceil(n * mul / div) slots
-- (out: the out side): the built-ins' and tvm's packed calls (a value
-- and a type code per argument), the ABI's table (docs/ABI.md). Calls
-- giving fewer slots than C would read or write are refused.
local VAR_SIZE = abi.sized

-- The slots a '*' side needs for argument value v by rule, or nil when v
-- is no count (the call's own conversion reports it).
local function var_need(rule, v)
  local s = N.raw(v)
  if s == nil then return nil end
  local n = tonumber(s)
  if n < 0 then return math.huge end -- above 2^63: more than any buffer
  return ceil(n / rule.div * rule.mul) -- in floating point: no overflow
end

-- The function with its '*' in side checked against the rule.
local function var_checked(f, rule, fast, refuse)
  return function(...)
    local need = var_need(rule, (select(rule.arg + 1, ...)))
    local got = select("#", ...) - f.nargs
    if need and got < need then
      if refuse then refuse() end
      raise(fmt("'%s' expects %s slot%s after its %d fixed arguments, got %d", f.name,
        tostring(need), need == 1 and "" or "s", f.nargs, got), 2)
    end
    return fast(...)
  end
end

-- The specialised callable of f; opts (generated modules): nonnull =
-- {[k] = true} for arguments that must not be NULL, outs = {[k] = code}
-- to read out item k by another code (an owned string as "p"), thunks =
-- true for a function that binds a thunk (a callback type without a
-- context): the last error is cleared before each call and a full pool
-- raises. The plain one is cached.
local function fast_of(lib, f, opts)
  if not opts and f.fast then return f.fast end
  local fast
  local nonnull = opts and opts.nonnull
  if f.var_out then -- C writes slots past the fixed ones: lib:call_var only
    fast = function()
      raise(fmt("'%s' expects a count of extra out slots (its results end in '*'): "
        .. "call it with lib:call_var(name, count, ...)", f.name), 2)
    end
  else
    local clear, last
    if opts and opts.thunks then clear, last = lib.builtins[B.clear_error], lib.builtins[B.last_error] end
    fast = refusing(f, function(refuse)
      local fn = core.fn(f.addr, spec_side(f.ins, f.var_in, nonnull),
        spec_side(f.outs, false, nil, opts and opts.outs), f.name, slow_for(f, nonnull, refuse),
        post_for(f), clear, last)
      local rule = VAR_SIZE[f.name]
      if rule and f.var_in and not rule.out then fn = var_checked(f, rule, fn, refuse) end
      return fn
    end)
  end
  if not opts then f.fast = fast end
  return fast
end

-- fast(name_or_handle[, opts]): the function as a Lua function that
-- converts and calls, made once; what generated modules bind.
function methods:fast(key, opts)
  local f, msg = registry.fn(self, key)
  if not f then error(msg, 2) end
  return fast_of(self, f, opts)
end

-- What C's wrapper refuses itself (abi.refusals): a call by name or
-- handle, which no generated module checks first, of a function with an
-- argument of such a kind is checked for C's refusal (docs/CALLBACKS.md,
-- "Refused calls"); the modules whose functions give a status are not.
local STATUS_MODULES = {[abi.builtins_module] = true, [abi.packed.module] = true}
local REFUSABLE, REFUSALS = {}, {}
for _, kind in ipairs(abi.refusals.kinds) do REFUSABLE[kind] = true end
for _, name in ipairs(abi.refusals.statuses) do REFUSALS[abi.status[name]] = true end

local function refusable(f)
  if STATUS_MODULES[f.name:match("^([^.]*)%.") or ""] then return false end
  for _, item in ipairs(f.ins) do
    local code = abi.codes[item.code]
    if code and REFUSABLE[code.kind] then return true end
  end
  return false
end

-- fast raising the error of a call C's wrapper refused, which shows only
-- as the runtime's last error, cleared before the call.
local function refusal_checked(lib, f, fast)
  local function check(...)
    local st, msg = builtins.last_error(lib)
    if REFUSALS[st] then raise(fmt("'%s': %s", f.name, msg), 2) end
    return ...
  end
  return function(...)
    builtins.call(lib, B.clear_error, 1)
    return check(fast(...))
  end
end

-- call(name_or_handle, ...): the function's results (return value, then
-- [out] values, then errno), converted from its signature; a call C's
-- wrapper refuses raises.
function methods:call(key, ...)
  local f, msg = self.fns[key], nil
  if not f then
    f, msg = registry.fn(self, key)
    if not f then error(msg, 2) end
  end
  if f.checked == nil then
    f.checked = refusable(f) and refusal_checked(self, f, fast_of(self, f)) or false
  end
  return (f.checked or f.fast or fast_of(self, f))(...)
end

-- call_var(name_or_handle, count, ...): a function whose results end in
-- '*' (nccc.read): its results, then count raw slots after the fixed
-- ones, the buffer sized by count (C writes as many as its arguments
-- say: count must cover them; the built-ins' needs are checked).
function methods:call_var(key, count, ...)
  local f, msg = registry.fn(self, key)
  if not f then error(msg, 2) end
  if not f.var_out then
    error(fmt("'%s': its results do not end in '*' (use lib:call)", f.name), 2)
  end
  local n, why = N.int(count, 0, 1048576)
  if n == nil then
    error("bad argument #2 to 'call_var' (" .. describe(why, "i", count) .. ")", 2)
  end
  local rule = VAR_SIZE[f.name]
  local need = rule and rule.out and select("#", ...) > rule.arg and var_need(rule, (select(rule.arg + 1, ...)))
  if need and n < need then
    error(fmt("'%s' expects %s extra out slot%s for its arguments, got a count of %d", f.name,
      tostring(need), need == 1 and "" or "s", n), 2)
  end
  return invoke(self, f, n, ...)
end

-- call_address(addr, sig, ...): calls the nccc_fn at addr (a pointer
-- value, e.g. from lib:symbol) as if it had signature sig.
function methods:call_address(addr, sig, ...)
  local a, why = N.ptr(addr)
  if a == nil or a == 0 then
    error("bad argument #1 to 'call_address' (" .. (a == 0 and "NULL function" or describe(why, "p", addr)) .. ")", 2)
  end
  local key = tostring(addr) .. "|" .. sig
  self.fns_addr = self.fns_addr or {}
  local f = self.fns_addr[key]
  if not f then
    f = registry.describe(self, fmt("nccc_fn at %s", tostring(addr)), a, sig, nil)
    self.fns_addr[key] = f
  end
  return (f.fast or fast_of(self, f))(...)
end

return {methods = methods}
