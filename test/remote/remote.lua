-- remote.lua — the test module on a device, from Lua: the generated
-- modules wire.lua and libc.lua bound to a library whose runtime has the
-- device's modules "wire" and "libc" bound to it over the remote-call
-- client (opened through the generated module remotes.lua, from
-- idl/remotes.idl), and every
-- call compared with the same call of the same function in a library
-- that holds the module itself; then strings for [bytes] arguments,
-- copied into the device's memory (wire.byte_sum), and refused for an
-- argument the device keeps (cdata.cd_parser_set_input); a callback's
-- arrays and strings read from the device's memory (keep.total,
-- keep.box_run).
--   lua5.4 remote.lua BINDINGS_DIR CPATH_DIR GEN_DIR LOCAL.so CLIENT.so DEVICE COMMAND...
-- LOCAL.so holds the modules wire and libc; CLIENT.so the runtime, the
-- client and module remotes. Prints one line per failure and "N passed,
-- M failed"; exits non-zero on any failure.
local bindings, cpath, gen_dir, local_path, client_path = ...
local command = {select(6, ...)}
package.path = bindings .. "/?.lua;" .. gen_dir .. "/?.lua;" .. package.path
if cpath ~= "" then package.cpath = cpath .. "/?.so;" .. package.cpath end

local nccc = require("nccc")
local fmt = string.format

local here = nccc.open(local_path)
local there = nccc.open(client_path)
local remotes = require("remotes").bind(there)

local status, device = remotes.connect("exec:" .. table.concat(command, " "), nil)
assert(status == 0, fmt("connect: status 0x%x", status))
assert(remotes.bind(device, "wire", nccc.NULL) == 0, "bind wire")
assert(remotes.bind(device, "libc", nccc.NULL) == 0, "bind libc")

local mod = {
  wire = {here = require("wire").bind(here), there = require("wire").bind(there)},
  libc = {here = require("libc").bind(here), there = require("libc").bind(there)},
}
-- The device's signature of module.name is narrower than here: long on
-- a 32-bit device or on Windows, size_t and intptr_t on a 32-bit device.
local function narrow(m, f)
  return there:signature(m .. "." .. f) ~= here:signature(m .. "." .. f)
end

-- Equal values: numbers by their bits (NaN, -0.0), tables field by field.
local function same(a, b)
  if type(a) == "number" and type(b) == "number" then
    if math.type(a) == "float" or math.type(b) == "float" then
      return nccc.double_bits(a) == nccc.double_bits(b)
    end
    return a == b
  end
  if type(a) == "table" and type(b) == "table" and getmetatable(a) == nil then
    for k, v in pairs(a) do if not same(v, b[k]) then return false end end
    for k in pairs(b) do if a[k] == nil then return false end end
    return true
  end
  return a == b
end

local function show(v)
  if type(v) ~= "table" or getmetatable(v) ~= nil then return tostring(v) end
  local parts = {}
  for k, x in pairs(v) do parts[#parts + 1] = tostring(k) .. "=" .. show(x) end
  table.sort(parts)
  return "{" .. table.concat(parts, ",") .. "}"
end

local passed, failed = 0, 0
local function fail(name, why)
  failed = failed + 1
  print(fmt("FAIL %s: %s", name, why))
end

-- {module, function, args..., wide = true when devices whose signature
--  is narrower refuse it,
--  skip = k: result k is an address (compared as present)}
local function check(c)
  local m, f = c[1], c[2]
  local args = {table.unpack(c, 3)}
  local name = fmt("%s.%s(%s)", m, f, show(args))
  local want = table.pack(pcall(mod[m].here[f], table.unpack(args)))
  local got = table.pack(pcall(mod[m].there[f], table.unpack(args)))
  if not want[1] then return fail(name, "local call failed: " .. tostring(want[2])) end
  if c.wide and narrow(m, f) then
    if got[1] then return fail(name, "a 32-bit device took a 64-bit value") end
    passed = passed + 1
    return
  end
  if not got[1] then return fail(name, tostring(got[2])) end
  if want.n ~= got.n then return fail(name, fmt("%d results, locally %d", got.n - 1, want.n - 1)) end
  for k = 2, want.n do
    local ok = (k - 1 == c.skip) and (got[k] ~= nil) == (want[k] ~= nil) or same(want[k], got[k])
    if not ok then return fail(name, fmt("result %d: %s, locally %s", k - 1, show(got[k]), show(want[k]))) end
  end
  passed = passed + 1
end

local u64 = nccc.u64
local bits = function(x) return nccc.bits_double(u64(x)) end
local text = "a string that crosses the wire"
local slab = {v = {}}
for k = 1, 64 do slab.v[k] = k * 0x0101010101 end

local cases = {
  {"wire", "echo_bool", true}, {"wire", "echo_bool", false},
  {"wire", "echo_i8", -128}, {"wire", "echo_i8", 127}, {"wire", "echo_u8", 255},
  {"wire", "echo_i16", -32768}, {"wire", "echo_u16", 65535},
  {"wire", "echo_i32", -2147483648}, {"wire", "echo_i32", 2147483647},
  {"wire", "echo_u32", 4294967295},
  {"wire", "echo_i64", math.mininteger}, {"wire", "echo_i64", math.maxinteger},
  {"wire", "echo_u64", u64("0xffffffffffffffff")}, {"wire", "echo_u64", 0},
  {"wire", "echo_float", -0.0}, {"wire", "echo_float", 3.4028234663852886e38},
  {"wire", "echo_float", math.huge}, {"wire", "echo_float", bits("0x7ff8000020000000")},
  {"wire", "echo_double", -0.0}, {"wire", "echo_double", 5e-324},
  {"wire", "echo_double", bits("0x7ff0000000000001")}, {"wire", "echo_double", -math.huge},
  {"wire", "echo_char", 65},
  {"wire", "echo_long", -2147483648}, {"wire", "echo_long", 2147483647},
  {"wire", "echo_long", math.mininteger, wide = true}, {"wire", "echo_long", 1 << 32, wide = true},
  {"wire", "echo_ulong", 4294967295}, {"wire", "echo_ulong", u64("0xffffffffffffffff"), wide = true},
  {"wire", "echo_size", 4294967295}, {"wire", "echo_size", 1 << 32, wide = true},
  {"wire", "echo_intptr", -1}, {"wire", "echo_intptr", math.maxinteger, wide = true},
  {"wire", "add", math.maxinteger - 1, 1}, {"wire", "add", -40, 82},
  {"wire", "blend", -128, 65535, -2147483648, u64("0xffffffffffffffff"), 0.5, -1e300},
  {"wire", "mixed_step", {a = -128, b = 2147483647, c = -16384}},
  {"wire", "mixed_step", {a = 5, b = -1, c = 7}},
  {"wire", "wide_step", {tag = 255, d = 1.5, u = u64("0xffffffffffffffff"), f = -2.5}, 3.0},
  {"wire", "bits_of", -1.0},
  {"wire", "slab_turn", slab},
  {"wire", "div_rem", -17, 5}, {"wire", "div_rem", 7, 0},
  {"wire", "bump_by", math.maxinteger, 1},
  {"wire", "split", {tag = 200, d = -0.25, u = 0x123456789abcdef0, f = 1000.5}},
  {"wire", "fail_with", 34}, {"wire", "fail_with", 0},
  {"wire", "length", ""}, {"wire", "length", text},
  {"wire", "compare", "abc", "abd"}, {"wire", "compare", text, text},
  {"wire", "number_name", 0}, {"wire", "number_name", 2}, {"wire", "number_name", 3},
  {"libc", "strtol", "  -2147483648xyz", 10, skip = 2},
  {"libc", "strtol", "7fffffff", 16, skip = 2},
  {"libc", "strtoull", "18446744073709551615", 10, skip = 2},
  {"libc", "strtoull", "99999999999999999999", 10, skip = 2},
  {"libc", "frexp", -1536.0}, {"libc", "modf", -2.75}, {"libc", "ldexp", 0.75, -1074},
  {"libc", "hypotf", 3.0, 4.0}, {"libc", "nextafterf", 1.0, math.huge},
  {"libc", "snprintf_int", nccc.NULL, 0, "<%d>", -2147483648},
  {"libc", "snprintf_long_long", nccc.NULL, 0, "%lld", math.mininteger},
  {"libc", "snprintf_double", nccc.NULL, 0, "%.3f", -1 / 3},
  {"libc", "snprintf_string", nccc.NULL, 0, "[%s]", "wire"},
  {"libc", "getenv", "NCCC_REMOTE_MARK"}, {"libc", "getenv", "NCCC_NO_SUCH_VARIABLE"},
  {"libc", "strlen", text},
}
for _, c in ipairs(cases) do check(c) end

-- A failure of the remote call itself raises, with its cause: a string
-- past the device's largest message is refused before it is sent
-- (locally the call has its result); the next call goes through.
local big = string.rep("x", 70000)
local ok, err = pcall(mod.libc.there.strlen, big)
err = tostring(err)
if not ok and err:find("'libc.strlen': remote call failed", 1, true)
    and err:find("NCCC_ERR_RPC_TOO_BIG", 1, true) and mod.libc.here.strlen(big) == 70000
    and mod.libc.there.strlen("after") == 5 then
  passed = passed + 1
else
  fail("libc.strlen of 70000 bytes", ok and "no error" or err)
end
for _, k in ipairs({"EDOM", "EINVAL", "ERANGE"}) do
  if mod.libc.there[k] == mod.libc.here[k] then passed = passed + 1
  else fail("libc." .. k, fmt("%s, locally %s", mod.libc.there[k], mod.libc.here[k])) end
end
-- C objects of a module bound from a device live in the device's memory,
-- through the module libc_memory, not bound here: new and view say so
-- (docs/LUA.md, "C objects on a device"; rpc_cdata_lua_* has them work).
for _, helper in ipairs({"new", "view"}) do
  local ok2, err2 = pcall(mod.libc.there[helper], "div_t", 1)
  if not ok2 and tostring(err2):find("memory is not bound as libc_memory", 1, true) then passed = passed + 1
  else fail("libc." .. helper, ok2 and "no error" or tostring(err2)) end
end

-- A string for a [bytes] argument goes to the device's memory for the
-- call (docs/LUA.md, "C objects on a device"): refused, naming the
-- function and the argument, until wire_memory is bound; then the
-- same sums as here.
local bytes = "\250\251\0\1\255"
local ok3, err3 = pcall(mod.wire.there.byte_sum, bytes, #bytes)
if not ok3 and tostring(err3):find("bad argument #1 to 'wire.byte_sum'", 1, true)
    and tostring(err3):find("wire_memory", 1, true) then passed = passed + 1
else fail("wire.byte_sum without wire_memory", ok3 and "no error" or tostring(err3)) end
assert(remotes.bind_memory(device, "wire_memory") == 0, "bind wire_memory")
check({"wire", "byte_sum", bytes, #bytes})
check({"wire", "byte_sum", "", 0})
-- and a string for an argument the device keeps is refused: its copy
-- would be freed when the call returns
assert(remotes.bind(device, "cdata", nccc.NULL) == 0, "bind cdata")
assert(remotes.bind_memory(device, "cdata_memory") == 0, "bind cdata_memory")
local cd = require("cdata").bind(there)
local parser = cd.new("cd_parser")
local ok4, err4 = pcall(cd.cd_parser_set_input, parser, "ab", 2)
if not ok4 and tostring(err4):find("bad argument #2 to 'cdata.cd_parser_set_input' (the device keeps", 1, true)
    and parser.length == 0 then passed = passed + 1
else fail("cdata.cd_parser_set_input with a string", ok4 and "no error" or tostring(err4)) end
parser:free()
-- A callback the device calls gets the arrays its value descriptions
-- describe read from the device's memory (keep_memory): int64 elements
-- in its byte order, NULL-terminated char pointers of its size.
assert(remotes.bind(device, "keep", nccc.NULL) == 0, "bind keep")
assert(remotes.bind_memory(device, "keep_memory") == 0, "bind keep_memory")
local seen
local got = require("keep").bind(there).total(function(xs, n, words)
  seen = {xs, n, words}
  return (xs[1] + xs[2] + xs[3] + xs[4]) * 10
end, 4)
if same({got, seen}, {100, {{1, 2, 3, 4}, 4, {"one", "two", "three"}}}) then passed = passed + 1
else fail("keep.total", show({got, seen})) end
-- and a string argument (code s), read from the device for the call
local k = require("keep").bind(there)
local box, visits = k.box_new(5), {}
k.box_watch(box, function(name, tags) visits[#visits + 1] = {name, tags} end, nil)
k.box_user(box)
got = k.box_run(box, "xy", 2)
if same({got, visits}, {0, {{"xy", {"value", "5", "name", "xy"}}}}) then passed = passed + 1
else fail("keep.box_run's visit", show({got, visits})) end
box:close()

-- On the Windows device, [lasterror]: kernel32's values (winerror.h's
-- ERROR_FILE_NOT_FOUND 2, ERROR_PATH_NOT_FOUND 3, ERROR_INVALID_HANDLE 6)
-- next to each result, as windows_lasterror sees them there.
if os.getenv("NCCC_REMOTE_MARK") == "windows" then
  assert(remotes.bind(device, "win32", nccc.NULL) == 0, "bind win32")
  local w = require("win32").bind(there)
  local function expect(what, want, ...)
    local got = {...}
    if same(got, want) then passed = passed + 1
    else fail(what, fmt("%s, expected %s", show(got), show(want))) end
  end
  expect("win32.GetFileAttributesA of a missing directory", {0xFFFFFFFF, 3},
         w.GetFileAttributesA("C:\\no\\such\\dir\\file.txt"))
  expect("win32.GetFileAttributesA of a missing file", {0xFFFFFFFF, 2},
         w.GetFileAttributesA("C:\\windows\\no-such-file.txt"))
  local attributes, err = w.GetFileAttributesA("C:\\windows")
  expect("win32.GetFileAttributesA of a directory", {0x10, 0}, attributes & 0x10, err)
  expect("win32.CloseHandle(NULL)", {0, 6}, w.CloseHandle(nccc.NULL))
end

remotes.close(device)
print(fmt("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
