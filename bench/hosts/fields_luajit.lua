-- bench/hosts/fields_luajit.lua — reading and writing an int field of a
-- C object from LuaJIT (docs/LUA.md, "C objects": big.used of cdata's
-- struct cd_big) against the same field of LuaJIT's own ffi cdata, and
-- of the experiment below.
-- A benchmark, not a test (docs/BENCHMARKS.md, "C objects").
--   luajit bench/hosts/fields_luajit.lua [--instructions] [BUILD_DIR]
-- (default BUILD_DIR build/plain; cmake --build BUILD_DIR --target
-- nccc_cdata_host). Default: ns per access, the best of 5 runs of
-- 2,000,000, with the JIT compiler off (the interpreter path the goal
-- names) and on. --instructions: instructions per access with the JIT
-- compiler off, under callgrind (valgrind): a process making 200,000
-- accesses less one making none.
local args = {...}
local count = args[1] == "--instructions"
if count or args[1] == "--one" then table.remove(args, 1) end
local one_variant, one_n
if arg[1] == "--one" then one_variant, one_n = args[1], tonumber(args[2]); args = {args[3]} end
local build = args[1] or "build/plain"
local root = (arg[0]:match("^(.*)/bench/hosts/[^/]*$") or ".")
package.path = root .. "/bindings/lua/?.lua;" .. build .. "/test/cdata/nccc/nccc_cdata_host/?.lua;" .. package.path
local ffi = require("ffi")
local nccc = require("nccc")
local cd = require("cdata").bind(nccc.open(build .. "/test/cdata/libnccc_cdata_host.so"))
ffi.cdef("struct cd_big { char before[24]; int used; char after[40]; };")

-- The experiment of docs/BENCHMARKS.md ("C objects"): the C object as
-- an ffi cdata of a struct declared from the layout table (its scalar
-- fields at their offsets, padding between, the layout's size) with an
-- ffi.metatype for the methods, pointing at the C object's memory.
local C_TYPES = {b = "int8_t", B = "uint8_t", h = "int16_t", H = "uint16_t", i = "int32_t", I = "uint32_t",
  l = "int64_t", L = "uint64_t", f = "float", d = "double"}
local function metatype_object(object, name)
  local layout, at, decl = cd.layout(name), 0, {}
  for _, fd in ipairs(layout.fields) do
    decl[#decl + 1] = string.format("char pad%d[%d]; %s %s;", #decl, fd.offset - at, C_TYPES[fd.type], fd.name)
    at = fd.offset + fd.size
  end
  local struct = "struct nccc_bench_" .. name
  ffi.cdef(string.format("%s { %s char tail[%d]; };", struct, table.concat(decl, " "), layout.size - at))
  assert(ffi.sizeof(struct) == layout.size)
  ffi.metatype(struct, {__index = {free = function(o) return object:free() end}})
  return ffi.cast(struct .. " *", object:address())
end

local N, N_CG = 2000000, 200000
local big, c = cd.new("cd_big"), ffi.new("struct cd_big")
local m = metatype_object(big, "cd_big")
local variants = {
  {"nccc read", function(n) local s = 0 for _ = 1, n do s = s + big.used end return s end},
  {"ffi read", function(n) local s = 0 for _ = 1, n do s = s + c.used end return s end},
  {"metatype read", function(n) local s = 0 for _ = 1, n do s = s + m.used end return s end},
  {"nccc write", function(n) for k = 1, n do big.used = k end end},
  {"ffi write", function(n) for k = 1, n do c.used = k end end},
  {"metatype write", function(n) for k = 1, n do m.used = k end end},
}

if one_variant then  -- a callgrind child: one variant, n accesses
  jit.off()
  for _, v in ipairs(variants) do if v[1] == one_variant then v[2](one_n) end end
  return
end

local function best(fn)
  local t = math.huge
  for _ = 1, 5 do
    local t0 = os.clock()
    fn(N)
    t = math.min(t, os.clock() - t0)
  end
  return t / N * 1e9
end

local function instructions(name, n)
  local tmp = os.tmpname()
  local cmd = string.format("valgrind --tool=callgrind --callgrind-out-file=%s luajit %q --one %q %d %q >/dev/null 2>&1",
    tmp, arg[0], name, n, build)
  assert(os.execute(cmd) == 0, "callgrind failed: " .. cmd)
  local total
  for line in io.lines(tmp) do total = total or tonumber(line:match("^summary: (%d+)")) end
  os.remove(tmp)
  return total
end

local modes = count and {"off"} or {"off", "on"}
for _, mode in ipairs(modes) do
  jit[mode]()
  local res, unit = {}, count and "instructions" or "ns"
  for _, v in ipairs(variants) do
    if count then
      res[v[1]] = (instructions(v[1], N_CG) - instructions(v[1], 0)) / N_CG
    else
      res[v[1]] = best(v[2])
    end
    print(string.format("jit %-3s %-14s %8.1f %s", mode, v[1], res[v[1]], unit))
  end
  for _, op in ipairs({"read", "write"}) do
    print(string.format("jit %-3s %-5s nccc / ffi: %.2fx (metatype / ffi: %.2fx)", mode, op,
      res["nccc " .. op] / res["ffi " .. op], res["metatype " .. op] / res["ffi " .. op]))
  end
end
