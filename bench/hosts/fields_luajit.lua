-- bench/hosts/fields_luajit.lua — reading and writing an int field of a
-- C object from LuaJIT (docs/LUA.md, "C objects": big.used of cdata's
-- struct cd_big) against the same field of LuaJIT's own ffi cdata, with
-- the JIT compiler off (the interpreter path the goal names) and on.
-- A benchmark, not a test (docs/BENCHMARKS.md, "C objects").
--   luajit bench/hosts/fields_luajit.lua [BUILD_DIR]   (default build/plain;
--   cmake --build BUILD_DIR --target nccc_cdata_host)
local build = arg[1] or "build/plain"
local root = (arg[0]:match("^(.*)/bench/hosts/[^/]*$") or ".")
package.path = root .. "/bindings/lua/?.lua;" .. build .. "/test/cdata/nccc/nccc_cdata_host/?.lua;" .. package.path
local ffi = require("ffi")
local nccc = require("nccc")
local cd = require("cdata").bind(nccc.open(build .. "/test/cdata/libnccc_cdata_host.so"))
ffi.cdef("struct cd_big { char before[24]; int used; char after[40]; };")

local N = 2000000
local function best(fn)
  local t = math.huge
  for _ = 1, 5 do
    local t0 = os.clock()
    fn(N)
    t = math.min(t, os.clock() - t0)
  end
  return t / N * 1e9
end

local big, c = cd.new("cd_big"), ffi.new("struct cd_big")
local variants = {
  {"nccc read", function(n) local s = 0 for _ = 1, n do s = s + big.used end return s end},
  {"ffi read", function(n) local s = 0 for _ = 1, n do s = s + c.used end return s end},
  {"nccc write", function(n) for k = 1, n do big.used = k end end},
  {"ffi write", function(n) for k = 1, n do c.used = k end end},
}
for _, mode in ipairs({"off", "on"}) do
  jit[mode]()
  local res = {}
  for _, v in ipairs(variants) do
    res[v[1]] = best(v[2])
    print(string.format("jit %-3s %-10s %8.1f ns", mode, v[1], res[v[1]]))
  end
  for _, op in ipairs({"read", "write"}) do
    print(string.format("jit %-3s %-5s nccc / ffi: %.2fx", mode, op, res["nccc " .. op] / res["ffi " .. op]))
  end
end
