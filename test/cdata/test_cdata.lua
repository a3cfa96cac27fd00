-- test_cdata.lua — C objects in Lua 5.4 and LuaJIT (docs/LUA.md, "C
-- objects") over the cdata fixture (cdata.idl, cdata.c) as a shared
-- library: new, fields by name through nested records, unions and
-- arrays, the object passed as a T *, borrowed views, whole-record
-- copies, and the errors (an array's bounds, a wrong type, a freed
-- object). ctest runs it as cdata_lua and cdata_luajit.
--   lua5.4|luajit test_cdata.lua BINDINGS_DIR CPATH_DIR LIBRARY.so GEN_DIR
local bindings, cpath, library, gen_dir = ...
package.path = bindings .. "/?.lua;" .. gen_dir .. "/?.lua;" .. package.path
if cpath ~= "" then package.cpath = cpath .. "/?.so;" .. package.cpath end
local nccc = require("nccc")
local cd = require("cdata").bind(nccc.open(library))

local passed, failed = 0, 0
local function check(name, fn)
  local ok, err = pcall(fn)
  if ok then passed = passed + 1 else failed = failed + 1 print("FAIL " .. name .. ": " .. tostring(err)) end
end
local function eq(got, want, what)
  if got ~= want then error(string.format("%s: got %s, want %s", what, tostring(got), tostring(want)), 2) end
end
local function refuses(word, fn)
  local ok, err = pcall(fn)
  if ok then error("no error (want '" .. word .. "')", 2) end
  if not tostring(err):find(word, 1, true) then error("error '" .. tostring(err) .. "' lacks '" .. word .. "'", 2) end
end

check("new is zeroed and sized", function()
  local ev = cd.new("cd_event")
  eq(ev:record().type, 0, "type")
  if not rawget(_G, "jit") then eq(#ev.stamps, 3, "#stamps") end -- __len: Lua 5.4 only
  eq(ev.stamps[3], 0, "stamps[3]")
  eq(ev.data.scalar.value, nil, "value")
  eq(cd.lib:read(ev:address(), cd.layout("cd_event").size), string.rep("\0", 64), "bytes")
end)

check("C fills an object passed as a pointer", function()
  local ev = cd.new("cd_event")
  eq(cd.cd_event_fill(ev, 2), 0, "fill")
  eq(ev.type, 2, "type")
  eq(ev.data.shape.corners[1].x, -3, "corners[1].x")
  eq(ev.data.shape.corners[2].y, 7, "corners[2].y")
  eq(ev.data.shape.weight, 0.5, "weight")
  eq(ev.stamps[3], 2.25, "stamps[3]")
  eq(ev.ranges[2].hi, -2, "ranges[2].hi")
  eq(cd.cd_event_fill(ev, 1), 0, "fill")
  eq(ev.data.scalar.value, "caf\195\169", "text read by its count")
  eq(tonumber(ev.data.scalar.length), 5, "length")
end)

check("fields written by name reach C", function()
  local big = cd.new("cd_big")
  big.used = 41
  eq(cd.cd_big_used(big), 41, "used")
  local ev = cd.new("cd_event")
  ev.data.shape.corners[2].x = 9
  ev.data.shape.tag = 5
  ev.stamps[1] = 1.5
  local rec = ev:record()
  eq(rec.data.shape.corners[2].x, 9, "corners[2].x")
  eq(rec.data.shape.tag, 5, "tag")
  eq(rec.stamps[1], 1.5, "stamps[1]")
  ev.data.shape.weight = 1.0
  eq(ev.data.shape.tag, 0x3F800000, "union members share memory")
  ev.data.shape.corners[1] = {x = 4, y = 5}
  eq(ev.data.shape.corners[1].y, 5, "a table packed into a record element")
  ev.ranges[1] = {lo = -1}
  eq(ev:record().ranges[1].lo, -1, "a record element written whole")
end)

check("borrowed view of C memory", function()
  local p = cd.lib:alloc(cd.layout("cd_event").size)
  local v = cd.view("cd_event", p)
  eq(cd.cd_event_fill(p, 2), 0, "fill")
  eq(v.data.shape.corners[2].y, 7, "corners[2].y")
  v.type = 12
  eq(cd.lib:peek(p, "i"), 12, "peek")
  eq(v:free(), true, "free")
  refuses("freed", function() return v.type end)
  eq(cd.lib:peek(p, "i"), 12, "the view never frees")
  local rs = cd.view("cd_event__ranges", p, 2)
  rs[2].lo = 3
  eq(rs[2].lo, 3, "ranges view")
  refuses("out of range", function() return rs[3] end)
  cd.lib:free(p)
end)

check("whole-record copies", function()
  local ev = cd.new("cd_event")
  cd.cd_event_fill(ev, 2)
  local copy = cd.new("cd_event", ev:record())
  eq(copy.ranges[2].hi, -2, "copied")
  copy:assign({type = 7})
  eq(copy.type, 7, "assigned")
  eq(copy.ranges[2].hi, 0, "left out is zero")
  copy:assign(cd.lib:read(ev:address(), 64))
  eq(copy.ranges[2].hi, -2, "from bytes")
  refuses("64 bytes expected", function() copy:assign("abc") end)
end)

check("errors, never a crash", function()
  local ev = cd.new("cd_event")
  refuses("out of range", function() return ev.stamps[4] end)
  refuses("out of range", function() ev.stamps[0] = 1 end)
  refuses("number expected", function() ev.stamps[1] = "x" end)
  refuses("no integer representation", function() ev.type = 1.5 end)
  refuses("has no field", function() return ev.nothing end)
  refuses("has no field", function() ev.nothing = 1 end)
  refuses("would not outlive", function() ev.data.scalar.value = "abc" end)
  refuses("struct or union", function() cd.new("cd_nothing") end)
  refuses("non-NULL address", function() cd.view("cd_event", nil) end)
  local big = cd.new("cd_big")
  local data = ev.data
  big.used = 5
  eq(big.used, 5, "used")
  refuses("range", function() big.used = 2 ^ 31 end)
  refuses("no integer representation", function() big.used = 1.5 end)
  refuses("integer expected, got string", function() big.used = "5" end)
  eq(big.used, 5, "a refused write leaves C memory unchanged")
  local shape = data.shape
  shape.tag = 3
  eq(shape.tag, 3, "tag")
  eq(big:free(), true, "free")
  eq(big:free(), false, "free again")
  refuses("cd_big object was freed", function() return big.used end)
  refuses("freed", function() big.used = 1 end)
  refuses("freed", function() cd.cd_big_used(big) end)
  ev:close()
  refuses("freed", function() return data.shape.tag end)
  refuses("freed", function() return shape.tag end)
  refuses("freed", function() shape.tag = 4 end)
end)

check("parser fills events from kept input", function()
  local parser, ev = cd.new("cd_parser"), cd.new("cd_event")
  local text = cd.lib:alloc(6)
  cd.lib:write(text, "ab cde")
  cd.cd_parser_set_input(parser, text, 6)
  eq(tonumber(parser.length), 6, "length")
  local words = {}
  while cd.cd_parser_next(parser, ev) == 1 do words[#words + 1] = ev.data.scalar.value end
  eq(table.concat(words, ","), "ab,cde", "words")
  eq(tonumber(parser.at), 6, "at")
  cd.lib:free(text)
end)

check("a string for a kept input, held by the parser", function()
  local parser, ev = cd.new("cd_parser"), cd.new("cd_event")
  local function words()
    local t = {}
    while cd.cd_parser_next(parser, ev) == 1 do t[#t + 1] = ev.data.scalar.value end
    return table.concat(t, ",")
  end
  cd.cd_parser_set_input(parser, "ab cde", 6)
  collectgarbage() collectgarbage() -- the copy lives with the parser, not the call
  eq(tonumber(parser.length), 6, "length")
  eq(words(), "ab,cde", "words")
  cd.cd_parser_set_input(parser, "x yz", 4) -- replaces the first copy
  collectgarbage() collectgarbage()
  eq(words(), "x,yz", "words again")
  eq(parser:free(), true, "free, with its copy")
  local plain = cd.lib:alloc(24)
  refuses("bad argument #2 to 'cdata.cd_parser_set_input' (a string kept by argument #1 "
    .. "needs an owned object or a C object there", function() cd.cd_parser_set_input(plain, "ab", 2) end)
  cd.lib:free(plain)
end)

collectgarbage() collectgarbage()
print(string.format("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
