-- run.lua — runs the host case table (test/hosts/cases.json) through the
-- Lua support library, under lua5.4 (C module) or luajit (ffi adapter).
--   lua5.4|luajit run.lua BINDINGS_DIR CPATH_DIR FIXTURE.so CASES.json [GEN_DIR]
-- Then runs the Lua-only checks of lua_cases.lua, and with GEN_DIR (where
-- nccc-stubgen wrote tour.lua and hcb.lua) those of generated_cases.lua
-- and bytes_cases.lua.
-- Prints one line per failure (and per case not run) and the closing line
-- "N passed, M failed, K not run"; exits non-zero on any failure. The
-- case format is described in the "about" field of the case file. With
-- NCCC_CASES_NEEDS set (cdata), only the table's cases whose "needs" it
-- names run, and no Lua-only checks; with NCCC_REMOTE_DEVICE, against
-- that device (below).
local bindings, cpath, fixture, cases_path, gen_dir = ...
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = bindings .. "/?.lua;" .. here .. "/?.lua;" .. package.path
if cpath and cpath ~= "" then package.cpath = cpath .. "/?.so;" .. package.cpath end

local nccc = require("nccc")
local json = require("json")
local fmt = string.format
local unpack = table.unpack or unpack

local f = assert(io.open(cases_path, "rb"))
local doc = json.decode(f:read("*a"))
f:close()

-- NCCC_REMOTE_DEVICE (a link, as remotes.connect takes it): FIXTURE is the
-- remote-call client, GEN_DIR holds remotes.lua and cdata.lua, and the
-- module cdata and the memory steps are the device's (device_memory.lua)
local device = os.getenv("NCCC_REMOTE_DEVICE")
local bind_lib = nccc.open(fixture)
local lib = bind_lib
if device then
  package.path = gen_dir .. "/?.lua;" .. package.path
  lib = require("device_memory")(nccc, bind_lib, device)
else
  assert(lib:call_address(lib:symbol(doc.fixture.open), doc.fixture.signature) == 0,
    "fixture open failed")
end
print(fmt("nccc %s host tests (%s, runtime %s)", nccc.core.kind,
  rawget(_G, "jit") and jit.version or _VERSION, lib.version))

-- Words an error message of each kind must contain.
local ERROR_WORDS = {
  count = "expects", type = "expected, got", range = "out of range",
  integral = "no integer representation", unknown = "unknown", callback = "error in callback",
  nul = "NUL byte", field = "has no field", scope = "scope", released = "released",
  closed = "closed", pool = "pool", packed = "packed", null = "NULL",
  record = "struct or union", index = "out of range", freed = "freed", size = "bytes expected",
  outlive = "would not outlive", kept = "keeps"}

-- The generated modules (tour.lua, hcb.lua, cdata.lua), bound once.
local gen = {}
if gen_dir and gen_dir ~= "" then
  package.path = gen_dir .. "/?.lua;" .. package.path
  for _, m in ipairs({"tour", "hcb", "cdata"}) do
    local ok, mod = pcall(require, m)
    if ok then gen[m] = mod.bind(bind_lib) end
  end
end

local function is_array(t) return getmetatable(t) == json.ARRAY end
local function unhex(h) return (h:gsub("%x%x", function(x) return string.char(tonumber(x, 16)) end)) end

-- The canonical decimal text of a 64-bit value of either host.
local function dec64(v)
  if type(v) == "number" then return fmt("%d", v) end
  return (tostring(v):gsub("U?LL$", ""))
end

local case -- the running case: its saved values, closures and baselines

local function resolve(spec)
  if type(spec) ~= "table" then return spec end
  if is_array(spec) then
    local t = {}
    for k = 1, #spec do t[k] = resolve(spec[k]) end
    return t
  end
  if spec.i64 then return nccc.i64(spec.i64) end
  if spec.u64 then return nccc.u64(spec.u64) end
  if spec.f64 then return nccc.bits_double(nccc.u64(spec.f64)) end
  if spec.null then return nccc.NULL end
  if spec.closure then return case.closures[spec.closure] or error("no closure " .. spec.closure) end
  if spec.procedure then return case.procedures[spec.procedure] or error("no procedure " .. spec.procedure) end
  if spec.saved then return case.saved[spec.saved] end
  if spec.constant then return lib:constant(spec.constant) end
  if spec.symbol then return lib:symbol(spec.symbol) end
  if spec.bytes then return unhex(spec.bytes) end
  if spec.struct then
    local t = {}
    for k, v in pairs(spec.struct) do t[k] = resolve(v) end
    return t
  end
  error("unknown value spec")
end

-- Does actual match spec? Returns true, or false and why.
local function match(spec, actual)
  local function no(what) return false, fmt("expected %s, got %s", what, tostring(actual)) end
  local function yes(cond, what) if cond then return true end return no(what) end
  if type(spec) == "table" and not is_array(spec) then
    if spec.any then return true end
    if spec.save then case.saved[spec.save] = actual return true end
    if spec.null then return yes(actual == nil, "NULL") end
    if spec.nonnull then return yes(actual ~= nil, "non-NULL") end
    if spec.i64 or spec.u64 then
      local want = dec64(spec.i64 and nccc.i64(spec.i64) or nccc.u64(spec.u64))
      if (type(actual) ~= "number" and type(actual) ~= "cdata" and type(actual) ~= "table") then
        return no(want)
      end
      return yes(dec64(actual) == want, want)
    end
    if spec.f64 then
      if type(actual) ~= "number" then return no("a float") end
      local got, want = dec64(nccc.double_bits(actual)), dec64(nccc.u64(spec.f64))
      return yes(got == want, fmt("bits %s (got bits %s)", spec.f64, got))
    end
    if spec.constant then
      local want = lib:constant(spec.constant)
      -- a constant past Lua's integers (SIZE_MAX on LP64) comes boxed: compare digits
      if type(want) == "table" then return yes(type(actual) == "table" and dec64(actual) == dec64(want), dec64(want)) end
      return match(want, actual)
    end
    if spec.bytes then return yes(actual == unhex(spec.bytes), "bytes " .. spec.bytes) end
    if spec.struct then
      if type(actual) ~= "table" then return no("a table") end
      for k, v in pairs(spec.struct) do
        local ok, why = match(v, actual[k])
        if not ok then return false, k .. ": " .. why end
      end
      return true
    end
    return false, "bad expectation"
  elseif type(spec) == "table" then
    if type(actual) ~= "table" then return no("a list") end
    if #actual ~= #spec then return no(#spec .. " elements") end
    for k = 1, #spec do
      local ok, why = match(spec[k], actual[k])
      if not ok then return false, fmt("[%d]: %s", k, why) end
    end
    return true
  elseif type(spec) == "number" then
    if type(actual) == "table" then return yes(dec64(actual) == fmt("%d", spec), tostring(spec)) end
    return yes((type(actual) == "number" or type(actual) == "cdata") and actual == spec, tostring(spec))
  end
  return yes(actual == spec, tostring(spec))
end

local function expect_values(spec, results)
  if #spec ~= results.n then return false, fmt("%d results expected, got %d", #spec, results.n) end
  for k = 1, #spec do
    local ok, why = match(spec[k], results[k])
    if not ok then return false, fmt("result %d: %s", k, why) end
  end
  return true
end

-- What a callback of a case does ("do" of its step).
local BEHAVIOURS = {
  sum = function() return function(...)
    local s = 0
    for k = 1, select("#", ...) do s = s + select(k, ...) end
    return s
  end end,
  double = function() return function(x) return 2 * x end end,
  collect = function(rec) return function(...)
    rec.collected[#rec.collected + 1] = setmetatable({...}, json.ARRAY)
  end end,
  error = function() return function() error("boom") end end,
  reenter = function() return function(a, b) return (gen.tour and gen.tour.add or
    function(x, y) return lib:call("tour.add", x, y) end)(a, b) end end,
  bad_result = function() return function() return "x" end end,
  divmod = function() return function(a, b)
    local q = a / b
    q = q >= 0 and math.floor(q) or math.ceil(q)
    return q, a - q * b
  end end}

local function make_callback(spec)
  local rec = {calls = 0, collected = {}}
  local make = type(spec["do"]) == "string" and BEHAVIOURS[spec["do"]]
  local body
  if make then
    body = make(rec)
  elseif type(spec["do"]) == "table" and spec["do"].arg then
    local k = spec["do"].arg
    body = function(...) return (select(k, ...)) end
  elseif type(spec["do"]) == "table" and spec["do"].call then
    -- the callback's own call, as a call step makes it; its results recorded
    local call, args = spec["do"].call, spec["do"].args or {}
    body = function()
      local m, fname = call:match("^(.-)%.([^.]+)$")
      local vals = {}
      for k = 1, #args do vals[k] = resolve(args[k]) end
      local f = gen[m] and gen[m][fname] or function(...) return lib:call(call, ...) end
      rec.collected[#rec.collected + 1] = setmetatable({f(unpack(vals, 1, #args))}, json.ARRAY)
      return spec["do"].returns
    end
  elseif type(spec["do"]) == "table" and spec["do"].release then
    -- a release inside the callback (its own closure too), then a result
    local id, result = spec["do"].release, spec["do"].returns
    body = function()
      rec.collected[#rec.collected + 1] = setmetatable({case.closures[id]:release()}, json.ARRAY)
      return result
    end
  elseif type(spec["do"]) == "table" and spec["do"].fill then
    -- writes the bytes into the buffer to fill (a writer), as many as fit
    local data = spec["do"].fill:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end)
    body = function(write, size)
      local k = math.min(#data, tonumber(size))
      write(data:sub(1, k))
      return k
    end
  elseif type(spec["do"]) == "table" and spec["do"].error_at then
    local n = spec["do"].error_at
    body = function(a, b)
      if rec.calls == n then error("boom") end
      return a + b
    end
  else
    error("unknown callback behaviour")
  end
  return rec, function(...)
    rec.calls = rec.calls + 1
    return body(...)
  end
end

-- Runs fn; checks a Lua error against step.error, or hands the results on.
local function outcome(step, ...)
  local r = {n = select("#", ...), ...}
  local ok = r[1]
  if step.error then
    if ok then return false, "error expected, call succeeded" end
    local msg = tostring(r[2])
    local words = ERROR_WORDS[step.error] or error("unknown error kind " .. step.error)
    if not msg:find(words, 1, true) then return false, fmt("error '%s' lacks '%s'", msg, words) end
    if step.message and not msg:find(step.message, 1, true) then
      return false, fmt("error '%s' lacks '%s'", msg, step.message)
    end
    return true
  end
  if not ok then return false, "error: " .. tostring(r[2]) end
  return true, {n = r.n - 1, unpack(r, 2, r.n)}
end

local STEPS = {}

function STEPS.call(step)
  local args = step.args or {}
  local vals = {}
  for k = 1, #args do vals[k] = resolve(args[k]) end
  local key = step.call
  local m, fname = key:match("^(.-)%.([^.]+)$")
  local fn
  if step.handle then -- the lookup's own error counts too
    fn = function(...) return lib:call(lib:lookup(key), ...) end
  elseif gen[m] and not step.registry then
    fn = gen[m][fname] or function() error("unknown function '" .. key .. "'") end
  else
    fn = function(...) return lib:call(key, ...) end
  end
  local ok, res = outcome(step, pcall(fn, unpack(vals, 1, #args)))
  if not ok or step.error then return ok, res end
  return expect_values(step.expect or {}, res)
end

function STEPS.constant(step)
  local ok, res = outcome(step, pcall(lib.constant, lib, step.constant))
  if not ok or step.error then return ok, res end
  return match(step.expect, res[1])
end

function STEPS.layout(step)
  local ok, res = outcome(step, pcall(lib.layout, lib, step.layout))
  if not ok or step.error then return ok, res end
  local layout, want = res[1], step.expect
  for _, key in ipairs({"size", "align", "kind"}) do
    if want[key] ~= nil and layout[key] ~= want[key] then
      return false, fmt("%s: expected %s, got %s", key, tostring(want[key]), tostring(layout[key]))
    end
  end
  for _, wf in ipairs(want.fields or {}) do
    local fd = layout.field[wf.name]
    if not fd then return false, "no field " .. wf.name end
    for key, v in pairs(wf) do
      if fd[key] ~= v then return false, fmt("field %s %s: expected %s, got %s", wf.name, key, tostring(v), tostring(fd[key])) end
    end
  end
  if want.nfields and #layout.fields ~= want.nfields then
    return false, fmt("%d fields expected, got %d", want.nfields, #layout.fields)
  end
  return true
end

function STEPS.modules(step)
  local present = {}
  for _, m in ipairs(lib:modules()) do present[m.name] = m end
  for _, name in ipairs(step.modules) do
    if not present[name] then return false, "module missing: " .. name end
  end
  return true
end

function STEPS.functions(step)
  local ok, res = outcome(step, pcall(lib.functions, lib, step.functions))
  if not ok or step.error then return ok, res end
  local list, byname = res[1], {}
  for _, fn in ipairs(list) do byname[fn.name] = fn end
  if step.count and #list ~= step.count then return false, fmt("%d functions expected, got %d", step.count, #list) end
  for name, sig in pairs(step.include or {}) do
    local fn = byname[step.functions .. "." .. name]
    if not fn then return false, "function missing: " .. name end
    if fn.signature ~= sig then return false, fmt("%s: signature %s, expected %s", name, fn.signature, sig) end
    if lib:lookup(fn.name) ~= fn.handle then return false, name .. ": handle differs from lookup" end
  end
  return true
end

function STEPS.signature(step)
  local ok, res = outcome(step, pcall(lib.signature, lib, step.signature))
  if not ok or step.error then return ok, res end
  return match(step.expect, res[1])
end

-- A member's signature: its own, or a generated module's callback type's.
local function cb_signature(spec)
  if spec.type then
    local m, name = spec.type:match("^(.-)%.([^.]+)$")
    return gen[m].signature(name)
  end
  return spec.signature
end

function STEPS.callback(step)
  local rec, fn = make_callback(step)
  local make
  if step.type then
    local m, name = step.type:match("^(.-)%.([^.]+)$")
    make = function() return gen[m].callback(name, fn, step.scope) end
  else
    make = function() return lib:callback(step.signature, fn, step.scope) end
  end
  local ok, res = outcome(step, pcall(make))
  if not ok or step.error then return ok, res end
  case.closures[step.callback], case.records[step.callback] = res[1], {rec}
  return true
end

-- A plain Lua function, for a generated module to make its closures.
function STEPS.procedure(step)
  local rec, fn = make_callback(step)
  case.procedures[step.procedure], case.records[step.procedure] = fn, {rec}
  return true
end

function STEPS.group(step)
  local members, recs = {}, {}
  for k, m in ipairs(step.members) do
    local rec, fn = make_callback(m)
    members[k], recs[k] = {cb_signature(m), fn}, rec
  end
  local ok, res = outcome(step, pcall(lib.callback_group, lib, step.scope, step.final, unpack(members)))
  if not ok or step.error then return ok, res end
  case.closures[step.group], case.records[step.group] = res[1], recs
  return true
end

function STEPS.release(step)
  local got = case.closures[step.release]:release()
  if got == step.expect then return true end
  return false, fmt("release returned %s", tostring(got))
end

function STEPS.check(step)
  local c, recs = case.closures[step.check], case.records[step.check]
  local rec = recs[(step.member or 0) + 1]
  if step.live ~= nil and (c == nil or c.live ~= step.live) then return false, "live is " .. tostring(c.live) end
  if step.calls and rec.calls ~= step.calls then return false, fmt("%d calls, expected %d", rec.calls, step.calls) end
  if step.collected then return match(step.collected, rec.collected) end
  return true
end

function STEPS.counters(step)
  local _, in_use, stale, mismatched, wrong_thread = lib:closure_stats()
  local now = {refs = nccc.core.refs(), in_use = in_use, stale = stale,
    mismatched = mismatched, wrong_thread = wrong_thread}
  for key, delta in pairs(step.counters) do
    if now[key] - case.base[key] ~= delta then
      return false, fmt("%s changed by %d, expected %d", key, now[key] - case.base[key], delta)
    end
  end
  return true
end

function STEPS.alloc(step)
  local n = step.alloc
  if type(n) == "table" then n = lib:layout(n.sizeof).size * (n.count or 1) end
  case.saved[step.save] = lib:alloc(n)
  return true
end

-- C objects: the bound generated module of MODULE.TYPE, and TYPE
local function objects(key)
  local m, name = key:match("^(.-)%.([^.]+)$")
  return gen[m] or error("no generated module " .. m), name
end

local function saved_result(step, ok, res)
  if not ok or step.error then return ok, res end
  case.saved[step.save] = res[1]
  return true
end

function STEPS.new(step)
  local mod, name = objects(step.new)
  local value = step.value ~= nil and resolve(step.value) or nil
  return saved_result(step, outcome(step, pcall(mod.new, name, value)))
end

function STEPS.view(step)
  local mod, name = objects(step.view)
  return saved_result(step, outcome(step, pcall(mod.view, name, resolve(step.at), step.count)))
end

-- a path's element in Lua: an index (from 0 in the table) from 1
local function key_of(p) return type(p) == "number" and p + 1 or p end

function STEPS.field(step)
  local path = step.path
  local ok, res = outcome(step, pcall(function()
    local o = resolve(step.field)
    for k = 1, #path - 1 do o = o[key_of(path[k])] end
    local last = key_of(path[#path])
    if step.set == nil then return o[last] end
    o[last] = resolve(step.set)
  end))
  if not ok or step.error or step.set ~= nil then return ok, res end
  return match(step.expect, res[1])
end

function STEPS.record(step)
  local ok, res = outcome(step, pcall(function() return resolve(step.record):record() end))
  if not ok or step.error then return ok, res end
  return match(step.expect, res[1])
end

function STEPS.assign(step)
  local o, v = resolve(step.assign), resolve(step.value)
  return outcome(step, pcall(function() o:assign(v) end))
end

function STEPS.read_bytes(step)
  return match(step.expect, lib:read(resolve(step.read_bytes), step.length))
end

function STEPS.write_bytes(step)
  lib:write(resolve(step.write_bytes), unhex(step.bytes))
  return true
end

function STEPS.free(step)
  lib:free(resolve(step.free))
  return true
end

function STEPS.read_string(step)
  local ok, res = outcome(step, pcall(lib.string, lib, resolve(step.read_string)))
  if not ok or step.error then return ok, res end
  return match(step.expect, res[1])
end

function STEPS.packed(step)
  local vals = {}
  for k, a in ipairs(step.args or {}) do
    vals[k] = resolve(a)
    if type(a) == "table" and a.f64 then vals[k] = nccc.float(vals[k]) end
  end
  local ok, res = outcome(step, pcall(lib.packed, lib, step.packed, unpack(vals, 1, #(step.args or {}))))
  if not ok or step.error then return ok, res end
  return expect_values(step.expect or {}, res)
end

function STEPS.register_packed(step)
  local rec, fn = make_callback(step)
  case.records[step.register_packed] = {rec}
  local ok, res = outcome(step, pcall(lib.register_packed, lib, step.register_packed, step.psig, fn))
  if not ok or step.error then return ok, res end
  return true
end

function STEPS.exhaust(step)
  local made, err = {}, nil
  local spec = step.exhaust
  for _ = 1, step.max do
    local ok, c = pcall(lib.callback, lib, spec.signature, function() return 0 end, spec.scope)
    if not ok then err = c break end
    made[#made + 1] = c
  end
  for _, c in ipairs(made) do c:release() end
  if not err then return false, fmt("no error after %d closures", step.max) end
  return outcome(step, false, err)
end

function STEPS.close(step)
  local o = resolve(step.close)
  local got = o:close()
  if got == step.expect then return true end
  return false, fmt("close returned %s", tostring(got))
end

function STEPS.forget(step)
  case.saved[step.forget] = nil
  return true
end

function STEPS.collect()
  collectgarbage()
  collectgarbage()
  return true
end

local run_step
STEPS["repeat"] = function(step)
  for k = 1, step["repeat"] do
    local ok, why = run_step(step.step)
    if not ok then return false, fmt("round %d: %s", k, why) end
  end
  return true
end

-- Checked in this order: a callback step also has a "signature".
local ORDER = {"call", "packed", "register_packed", "callback", "procedure", "group", "exhaust", "constant",
  "layout", "modules", "functions", "signature", "release", "check", "counters", "close", "forget",
  "collect", "alloc", "free", "read_string", "repeat", "new", "view", "field", "record", "assign",
  "read_bytes", "write_bytes"}

function run_step(step)
  for _, key in ipairs(ORDER) do
    if step[key] ~= nil then return STEPS[key](step) end
  end
  return false, "unknown step"
end

-- Runs one case of the table: true, or false and why.
local function run_case(c)
  local _, in_use, stale, mismatched, wrong_thread = lib:closure_stats()
  case = {saved = {}, closures = {}, procedures = {}, records = {},
    base = {refs = nccc.core.refs(), in_use = in_use, stale = stale, mismatched = mismatched,
      wrong_thread = wrong_thread}}
  for k, step in ipairs(c.steps or {c}) do
    local refused, given = device and step.remote_error, step -- replaces expect; ends the case
    if refused then step = setmetatable({error = refused}, {__index = function(_, key)
      if key ~= "expect" then return given[key] end end}) end
    local good, res, detail = pcall(run_step, step)
    if not good then return false, fmt("step %d raised: %s", k, tostring(res)) end
    if not res then return false, fmt("step %d: %s", k, tostring(detail)) end
    if refused then return true end
  end
  return true
end

local only = os.getenv("NCCC_CASES_NEEDS")
local passed, failed, not_run = 0, 0, 0
local function tally(name, ok, why)
  if ok then passed = passed + 1 else failed = failed + 1; print(fmt("FAIL %s: %s", name, tostring(why))) end
end
for _, c in ipairs(doc.cases) do
  if device and c.not_remote then
    not_run = not_run + 1
    print(fmt("NOT RUN %s: %s", c.name, c.not_remote))
  elseif only == nil or c.needs == only then
    local ok, why = run_case(c)
    if device then
      -- the case's C objects are freed before the next case: a device
      -- holds a bounded number of live blocks (NCCC_RPC_MAX_ALLOCS)
      case = nil
      collectgarbage()
      collectgarbage()
    end
    tally(c.name, ok, why)
  end
end
-- Then the checks that only make sense in Lua, and the generated module's.
local more = only and {} or require("lua_cases")(lib, nccc)
if gen.tour and not only then
  for _, c in ipairs(require("generated_cases")(lib, nccc, require("tour"))) do
    more[#more + 1] = c
  end
end
if gen.hcb and not only then
  for _, c in ipairs(require("bytes_cases")(lib, nccc, gen.hcb)) do
    more[#more + 1] = c
  end
end
for _, c in ipairs(more) do tally(c.name, pcall(c.fn)) end
if device then lib.close() end
print(fmt("%d passed, %d failed, %d not run", passed, failed, not_run))
os.exit(failed == 0 and 0 or 1)
