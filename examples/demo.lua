-- demo.lua — zlib and SQLite from Lua 5.4 through nccc: the library
-- nccc_add_bindings(... SHARED) built (examples/CMakeLists.txt) holds the
-- runtime and the wrappers
-- generated from idl/zlib.idl and idl/sqlite3.idl; everything below goes
-- through the Lua modules zlib.lua and sqlite3.lua that nccc-stubgen
-- generates from the same IDL files, over bindings/lua/nccc.lua.
--
--   lua5.4 demo.lua LIBRARY FILE
--
-- LUA_PATH must reach bindings/lua/?.lua and the generated zlib.lua and
-- sqlite3.lua, LUA_CPATH the nccc/core.so built for the demo (tools/demo.sh
-- sets both). Exits 1 on any mismatch.

local nccc = require("nccc")

local libpath, file = arg[1], arg[2]
if not libpath or not file then
  io.stderr:write("usage: lua5.4 demo.lua LIBRARY FILE\n")
  os.exit(2)
end

local failures = 0
local function check(ok, what)
  if not ok then
    failures = failures + 1
    print("  MISMATCH: " .. what)
  end
  return ok
end

local lib = nccc.open(libpath)
-- The generated modules: bind registers the module (nccc_zlib_open,
-- nccc_sqlite3_open), then looks each function up once here, and the
-- constants by name.
local zlib = require("zlib").bind(lib)
local sqlite3 = require("sqlite3").bind(lib)
print(string.format("nccc runtime %s, zlib %s, SQLite %s", lib.version,
  zlib.zlibVersion(), sqlite3.sqlite3_libversion()))

-- ---- zlib: compress a real file and back ------------------------------------

local function c_copy(bytes) -- bytes in C memory (the caller frees them)
  local p = lib:alloc(#bytes)
  lib:write(p, bytes)
  return p
end

local function crc32(p, n)
  return zlib.crc32(zlib.crc32(0, nil, 0), p, n)
end

print()
print("== zlib: " .. file)
local f = assert(io.open(file, "rb"))
local text = f:read("a")
f:close()
local Z_OK = zlib.Z_OK

local src = c_copy(text)
local bound = zlib.compressBound(#text)
local packed = lib:alloc(bound)
local rc, packed_len = zlib.compress2(packed, bound, src, #text, zlib.Z_BEST_COMPRESSION)
check(rc == Z_OK, "compress2 returned " .. rc)
local back = lib:alloc(#text)
local rc2, back_len = zlib.uncompress(back, #text, packed, packed_len)
check(rc2 == Z_OK, "uncompress returned " .. rc2)

local crc_in, crc_out = crc32(src, #text), crc32(back, back_len)
print(string.format("  original    %6d bytes  crc32 %08x", #text, crc_in))
print(string.format("  compressed  %6d bytes  (%.1f%% of the original)", packed_len,
  100 * packed_len / #text))
print(string.format("  round trip  %6d bytes  crc32 %08x", back_len, crc_out))
check(back_len == #text, "round trip has " .. back_len .. " bytes")
check(crc_in == crc_out, "crc32 differs")
check(lib:read(back, back_len) == text, "round trip bytes differ")
print("  " .. (crc_in == crc_out and back_len == #text and "match" or "MISMATCH"))
lib:free(src)
lib:free(packed)
lib:free(back)

-- ---- SQLite: a table, rows, a row callback and a SQL function in Lua ---------

print()
print("== SQLite (:memory:)")
local SQLITE_OK = sqlite3.SQLITE_OK
-- db is an owned object ([out, owned(sqlite3_close)] in the IDL): close()
-- closes it, at most once.
local rc3, db = sqlite3.sqlite3_open(":memory:")
if rc3 ~= SQLITE_OK then error("sqlite3_open failed: " .. rc3) end

-- row: a Lua function made into a closure of the IDL's callback type exec_fn
-- ("call" scope: released when sqlite3_exec returns).
local function exec(sql, row)
  local cb = row and sqlite3.callback("exec_fn", row) or nil
  local r, msg = sqlite3.sqlite3_exec(db, sql, cb)
  if r ~= SQLITE_OK then
    check(false, string.format("%s: %s", sql, msg or sqlite3.sqlite3_errmsg(db)))
  end
end

local planets = {
  {"Mercury", 2439.7, 0}, {"Venus", 6051.8, 0}, {"Earth", 6371.0, 1},
  {"Mars", 3389.5, 2}, {"Jupiter", 69911.0, 95}}
exec("CREATE TABLE planets (name TEXT, radius_km REAL, moons INTEGER)")
local rcp, stmt = sqlite3.sqlite3_prepare_v2(db, "INSERT INTO planets VALUES (?, ?, ?)", -1)
check(rcp == SQLITE_OK, "prepare failed")
for _, p in ipairs(planets) do
  local name = c_copy(p[1])
  -- -1: SQLITE_TRANSIENT, SQLite copies the text
  sqlite3.sqlite3_bind_text(stmt, 1, name, #p[1], -1)
  sqlite3.sqlite3_bind_double(stmt, 2, p[2])
  sqlite3.sqlite3_bind_int64(stmt, 3, p[3])
  check(sqlite3.sqlite3_step(stmt) == sqlite3.SQLITE_DONE, "insert " .. p[1])
  sqlite3.sqlite3_reset(stmt)
  lib:free(name)
end
check(stmt:close(), "sqlite3_finalize did not run") -- stmt is owned too
print(string.format("  inserted %d rows with a prepared statement", #planets))

-- Row callback: one Lua table per row. The IDL's [length=ncols] makes
-- each char ** a Lua table of ncols pointers (nil for NULL).
local function collector(rows)
  return function(ncols, values, names)
    local row = {}
    for k = 1, ncols do
      local v = values[k]
      row[lib:string(names[k])] = v and lib:string(v) or "NULL"
    end
    rows[#rows + 1] = row
    return 0
  end
end

local rows = {}
exec("SELECT name, radius_km, moons FROM planets ORDER BY radius_km", collector(rows))
print("  sqlite3_exec, a Lua row callback:")
for _, r in ipairs(rows) do
  print(string.format("    %-8s %9s km  %3s moons", r.name, r.radius_km, r.moons))
end
check(#rows == #planets, "the callback saw " .. #rows .. " rows")

-- A scalar SQL function in Lua, of the IDL's callback type sql_func_fn:
-- sphere_area(r) = 4 pi r^2. Its closure is "notified": SQLite calls the
-- destroy notify when the connection closes.
local area_calls = 0
local area = sqlite3.callback("sql_func_fn", function(ctx, argc, argv)
  area_calls = area_calls + 1
  local r = sqlite3.sqlite3_value_double(argv[1])
  sqlite3.sqlite3_result_double(ctx, 4 * math.pi * r * r)
  check(argc == 1, "sphere_area got " .. argc .. " arguments")
end, "notified")
local rcf = sqlite3.sqlite3_create_function_v2(db, "sphere_area", 1,
  sqlite3.SQLITE_UTF8 + sqlite3.SQLITE_DETERMINISTIC, area, nil, nil)
check(rcf == SQLITE_OK, "sqlite3_create_function_v2 returned " .. rcf)

local areas = {}
exec("SELECT name, sphere_area(radius_km) AS area FROM planets ORDER BY area DESC",
  collector(areas))
print("  sphere_area(radius_km), a SQL function written in Lua:")
local radius = {}
for _, p in ipairs(planets) do radius[p[1]] = p[2] end
for _, r in ipairs(areas) do
  local want = 4 * math.pi * radius[r.name] ^ 2
  local got = tonumber(r.area)
  print(string.format("    %-8s %14.0f km2", r.name, got))
  check(math.abs(got - want) <= 1e-12 * want, r.name .. ": area " .. r.area)
end
check(#areas == #planets and area_calls == #planets,
  string.format("%d rows, %d calls of sphere_area", #areas, area_calls))

check(db:close(), "sqlite3_close did not run")
print(string.format("  closed; sphere_area ran %d times, its closure %s", area_calls,
  area.live and "is STILL HELD" or "was released by the destroy notify"))
check(not area.live, "the destroy notify did not release the closure")

print()
if failures > 0 then
  print(string.format("demo.lua: %d mismatches", failures))
  os.exit(1)
end
print("demo.lua: all results match")
