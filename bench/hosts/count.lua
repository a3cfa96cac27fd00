-- count.lua BINDINGS LIB CPATH GEN VARIANT N: one untimed run of the
-- generated bench module (GEN, nccc-stubgen --lang lua bench.idl) bound
-- to LIB: N calls of add or mix6, or N callbacks of one fold with a
-- "forever" closure of step_fn (VARIANT add, mix6 or callback), for
-- bench/hosts/callgrind.sh; lua5.4 with CPATH holding nccc/core.so, or
-- luajit with CPATH "-". Fails unless the result is the one they compute.
local bindings, libpath, cpath, gen, variant, n = arg[1], arg[2], arg[3], arg[4], arg[5], math.floor(tonumber(arg[6]))
package.path = gen .. "/?.lua;" .. bindings .. "/?.lua;" .. package.path
if cpath ~= "-" then package.cpath = cpath .. "/?.so;" .. package.cpath end
local lib = require("nccc").open(libpath)
assert(lib:call_address(lib:symbol("nccc_hbench_open"), ":i") == 0)
local bench = require("bench").bind(lib)

local r
if variant == "add" then
  local add, acc = bench.add, 0
  for i = 0, n - 1 do acc = add(acc, i) end
  r = acc
elseif variant == "mix6" then
  local mix6, acc = bench.mix6, 0
  for i = 0, n - 1 do acc = acc + mix6(i, 0.0, 0, 0.0, 0, 0.0) end
  r = acc
elseif variant == "callback" then
  local cb = bench.callback("step_fn", function(acc, i) return acc + i end, "forever")
  r = bench.fold(n, cb)
  cb:release()
else
  error("variant: add, mix6 or callback, not " .. tostring(variant))
end
assert(tonumber(r) == n * (n - 1) / 2, variant .. ": wrong result " .. tostring(r))
