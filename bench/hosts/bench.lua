-- bench.lua BINDINGS LIB N [CPATH [GEN]]: per-call times of one Lua host
-- (lua5.4 with CPATH holding nccc/core.so and hbench.so, or luajit),
-- printed as "variant ns_per_call" lines for run.sh. Each variant runs
-- N iterations three times; the best run counts.
local bindings, libpath, n, cpath, gen = arg[1], arg[2], math.floor(tonumber(arg[3])), arg[4], arg[5]
package.path = bindings .. "/?.lua;" .. package.path
if cpath and cpath ~= "" then package.cpath = cpath .. "/?.so;" .. package.cpath end
local nccc = require("nccc")
local core = nccc.core
local clock = os.clock

local lib = nccc.open(libpath)
assert(lib:call_address(lib:symbol("nccc_hbench_open"), ":i") == 0)

local function best(name, per, body)
  local t = math.huge
  for _ = 1, 3 do
    local t0 = clock()
    local r = body()
    local dt = clock() - t0
    if dt < t then t = dt end
    -- every variant computes the same sum: one that skipped its calls shows
    assert(tonumber(r) == per, name .. ": wrong result " .. tostring(r))
  end
  io.write(string.format("%s %.2f\n", name, t * 1e9 / n))
end

-- acc = add(acc, i) for i = 0 .. n-1 is n(n-1)/2; so is fold's result.
local expect = n * (n - 1) / 2

-- (a) the host's own FFI
local own_add, own_fold
if jit then
  local ffi = require("ffi")
  ffi.cdef [[
    int64_t bench_add(int64_t, int64_t);
    int64_t bench_fold(int64_t, int64_t (*)(int64_t, int64_t, void *), void *);
  ]]
  local C = ffi.load(libpath)
  own_add = function()
    local acc = ffi.cast("int64_t", 0)
    for i = 0, n - 1 do acc = C.bench_add(acc, i) end
    return acc
  end
  local cb = ffi.cast("int64_t (*)(int64_t, int64_t, void *)",
    function(acc, i) return acc + i end)
  own_fold = function() return C.bench_fold(n, cb, nil) end
else
  local hb = require("hbench")
  local add, fold = hb.add, hb.fold
  own_add = function()
    local acc = 0
    for i = 0, n - 1 do acc = add(acc, i) end
    return acc
  end
  own_fold = function() return fold(n, function(acc, i) return acc + i end) end
end
best("add.own", expect, own_add)

-- (b) the primitive by hand: fill in, call the wrapper, read out[0]
local _, addr = lib:call("nccc.function", lib:lookup("bench.add")) -- the wrapper
best("add.primitive", expect, function()
  local inb, outb, set, get, call = core.buffer(2), core.buffer(1), core.set, core.get, core.call
  local acc = 0
  for i = 0, n - 1 do
    set(inb, 0, acc)
    set(inb, 1, i)
    call(addr, inb, outb)
    acc = get(outb, 0)
  end
  return acc
end)

-- (b') the hand-written nccc call: the wrapper's address called with the
-- primitive's cheapest path, raw slots, no checks (Lua 5.4: one C call
-- taking and returning slots; LuaJIT: the wrapper cast once to its C
-- type, two buffers kept, compiled)
if jit then
  local ffi = require("ffi")
  local f = ffi.cast("void (*)(const int64_t *, int64_t *)", addr)
  local ib, ob = ffi.new("int64_t[2]"), ffi.new("int64_t[1]")
  best("add.hand", expect, function()
    local acc = 0
    for i = 0, n - 1 do
      ib[0], ib[1] = acc, i
      f(ib, ob)
      acc = ob[0]
    end
    return acc
  end)
else
  local call_slots = core.call_slots
  best("add.hand", expect, function()
    local acc = 0
    for i = 0, n - 1 do acc = call_slots(addr, 1, acc, i) end
    return acc
  end)
end

-- (b'') the generated module (nccc-stubgen --lang lua bench.idl)
if gen and gen ~= "" then
  package.path = gen .. "/?.lua;" .. package.path
  local bench = require("bench").bind(lib)
  local add = bench.add
  best("add.generated", expect, function()
    local acc = 0
    for i = 0, n - 1 do acc = add(acc, i) end
    return acc
  end)
end

-- (c) the support library by name and by handle, as generated code calls it
best("add.lib_name", expect, function()
  local acc = 0
  for i = 0, n - 1 do acc = lib:call("bench.add", acc, i) end
  return acc
end)
local h = lib:lookup("bench.add")
best("add.lib_handle", expect, function()
  local acc = 0
  for i = 0, n - 1 do acc = lib:call(h, acc, i) end
  return acc
end)

-- callbacks: the host's own mechanism, then nccc's backward wrapper and
-- this interpreter's one dispatcher (a "forever" closure made once)
best("cb.own", expect, own_fold)
local step = lib:callback("ll:l", function(acc, i) return acc + i end, "forever")
best("cb.nccc", expect, function() return lib:call("bench.fold", n, step) end)
if gen and gen ~= "" then
  local bench = require("bench").bind(lib)
  local fold = bench.fold
  local cb = bench.callback("step_fn", function(acc, i) return acc + i end, "forever")
  best("cb.generated", expect, function() return fold(n, cb) end)
  cb:release()
end
step:release()
