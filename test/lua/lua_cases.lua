-- lua_cases.lua — checks that only make sense in Lua, run by run.lua after
-- the shared case table: the primitive's contract, the number rules of
-- each interpreter, error positions, coroutines, threads, collection of
-- released callbacks. Each case raises on failure.
return function(lib, nccc)
  local core = nccc.core
  local luajit = core.kind == "luajit"
  local checks = require("checks")
  local cases, case = checks.list()
  local raises, dec = checks.raises, checks.dec

  case("buffers are bounds-checked", function()
    local b = core.buffer(2)
    raises(function() core.get(b, 2) end, "out of range")
    raises(function() core.set(b, -1, 0) end, "out of range")
    raises(function() core.getbytes(b, 1, 9) end, "out of range")
    raises(function() core.setbytes(b, 0, string.rep("x", 17)) end, "out of range")
  end)

  case("bytes into slots, the last one zero-padded", function()
    local b = core.buffer(2)
    core.set(b, 1, -1)
    core.setbytes(b, 0, "abcdefghi")
    assert(core.getbytes(b, 0, 9) == "abcdefghi")
    assert(core.getbytes(b, 1, 8) == "i" .. string.rep("\0", 7))
  end)

  case("references counted", function()
    local before = core.refs()
    local env = core.ref(function() end)
    assert(core.refs() == before + 1)
    core.unref(env)
    core.unref(env)
    assert(core.refs() == before)
  end)

  case("uint64 rule", function()
    local big = lib:call("tour.echo_u64", nccc.u64(-1))
    assert(dec(big) == "18446744073709551615")
    local small = lib:call("tour.echo_u64", 7)
    assert(small == 7)
    if luajit then
      assert(type(big) == "cdata" and type(small) == "cdata")
    else
      assert(getmetatable(big) == nccc.U64, "above maxinteger: a box")
      assert(math.type(small) == "integer", "up to maxinteger: an integer")
      assert(big == nccc.u64("0xffffffffffffffff"))
      assert(nccc.u64(2 ^ 63) < big and small < big and not (big < small))
    end
    raises(function() nccc.u64("18446744073709551616") end, "not a uint64")
    raises(function() nccc.i64("-9223372036854775809") end, "not an int64")
    raises(function() nccc.u64(1.5) end, "not a uint64")
    assert(dec(nccc.i64("-0x8000000000000000")) == "-9223372036854775808")
  end)

  -- The fields of docs/LUA.md's table "The module nccc" and the methods
  -- it lists: the front and the library object show nothing else.
  case("only the documented API is visible", function()
    local front = assert(package.searchpath("nccc", package.path))
    local f = assert(io.open(front:gsub("[^/]*$", "") .. "../../docs/LUA.md", "rb"))
    local doc = f:read("*a")
    f:close()
    local section = assert(doc:match("\n## The module `nccc`\n(.-)\n## "))
    local function sorted(set)
      local list = {}
      for name in pairs(set) do
        if name:sub(1, 2) ~= "__" then list[#list + 1] = name end -- metamethods
      end
      table.sort(list)
      return table.concat(list, " ")
    end
    local function listed(text, pattern)
      local set = {}
      for name in text:gmatch(pattern) do set[name] = true end
      return set
    end
    local fields = listed(section, "`nccc%.([%w_]+)")
    if luajit then fields.U64 = nil end
    assert(sorted(nccc) == sorted(fields), sorted(nccc))
    local methods = assert(section:match("A library object has exactly these methods.-:(.-)%. A closure"))
    assert(sorted(getmetatable(lib).__index) == sorted(listed(methods, "`([%w_]+)`")),
      sorted(getmetatable(lib).__index))
  end)

  case("int64 values", function()
    local v = lib:call("tour.echo_i64", -5)
    if luajit then assert(type(v) == "cdata" and v == -5) else assert(math.type(v) == "integer" and v == -5) end
  end)

  case("double bits", function()
    local x = nccc.bits_double(nccc.u64("0x7ff0000000000001"))
    assert(x ~= x, "a NaN")
    assert(dec(nccc.double_bits(lib:call("tour.echo_double", x))) == dec(nccc.u64("0x7ff0000000000001")))
  end)

  case("NaN bits from memory", function()
    local p = lib:alloc(8)
    lib:poke(p, "L", nccc.u64("0xffff000000000001"))
    local x = lib:peek(p, "d")
    assert(type(x) == "number" and x ~= x, "not a NaN number")
    -- LuaJIT cannot hold this NaN (its type tags live there): canonical.
    if not luajit then assert(dec(nccc.double_bits(x)) == "18446462598732840961") end
    lib:poke(p, "L", nccc.u64("0xfff4000000000001"))
    assert(dec(nccc.double_bits(lib:peek(p, "d"))) == "18443366373989023745")
    lib:poke(p, "I", 4294967295) -- float NaN 0xffffffff: widened by bits
    x = lib:peek(p, "f")
    assert(type(x) == "number" and x ~= x, "not a NaN number")
    lib:free(p)
    local rec = lib:unpack("tour.number", string.rep("\255", 8))
    assert(type(rec.d) == "number" and rec.d ~= rec.d)
  end)

  case("errors point at the caller", function()
    local err = raises(function() lib:call("tour.add", 1) end, "expects 2 arguments")
    assert(err:find("lua_cases.lua:%d+:"), err)
    err = raises(function() lib:call("tour.nope") end, "unknown function")
    assert(err:find("lua_cases.lua:%d+:"), err)
    err = raises(function() lib:callback("i:i", 5) end, "function expected")
    assert(err:find("lua_cases.lua:%d+:"), err)
  end)

  case("memory helpers", function()
    local p = lib:alloc(16)
    lib:poke(p, "d", nccc.bits_double(nccc.u64("0x8000000000000000")))
    assert(dec(nccc.double_bits(lib:peek(p, "d"))) == "9223372036854775808")
    lib:poke(p, "B", 255)
    assert(lib:peek(p, "B") == 255 and lib:peek(p, "b") == -1)
    raises(function() lib:poke(p, "B", 256) end, "out of range")
    lib:write(p, "hi\0")
    assert(lib:string(p) == "hi" and lib:read(p, 2) == "hi")
    lib:free(p)
    raises(function() lib:string(nil) end, "non-NULL pointer expected")
    raises(function() lib:call_address(nil, ":") end, "call_address")
  end)

  -- nccc.read is "pL:i*": C writes ceil(n/8) slots after the status, so
  -- the out buffer is sized by the caller's count, never by the fixed part.
  case("'*' out slots sized by the caller's count", function()
    local p = lib:alloc(24)
    lib:write(p, "abcdefgh12345678ABCDEFGH")
    raises(function() lib:call("nccc.read", p, 24) end, "lib:call_var")
    local r = {lib:call_var("nccc.read", 3, p, 17)}
    assert(#r == 4 and r[1] == 0, "status and three slots")
    local b = core.buffer(3)
    for k = 1, 3 do core.set(b, k - 1, r[k + 1]) end
    assert(core.getbytes(b, 0, 17) == "abcdefgh12345678A")
    raises(function() lib:call_var("nccc.read", 2, p, 17) end, "expects 3 extra out slots")
    raises(function() lib:call_var("nccc.read", -1, p, 1) end, "out of range")
    raises(function() lib:call_var("tour.add", 1, 1, 2) end, "do not end in '*'")
    local h = lib:lookup("nccc.read")
    assert(select(2, lib:call_var(h, 1, p, 3)) ~= nil, "by handle")
    lib:free(p)
  end)

  case("'*' in slots checked against the built-in's count", function()
    local p = lib:alloc(16)
    raises(function() lib:call("nccc.write", p, 9, 0) end, "expects 2 slots after its 2 fixed arguments, got 1")
    raises(function() lib:call("tvm.call_global", "hcb.scale", 2, 0, 5) end, "expects 4 slots")
    assert(lib:call("nccc.write", p, 9, 0, 0) == 0)
    assert(lib:read(p, 9) == string.rep("\0", 9))
    lib:free(p)
  end)

  case("an [out, owned] pointer is an owned object", function()
    local hcb = require("hcb").bind(lib)
    local live = hcb.obj_live()
    local st, o = hcb.obj_make(5)
    assert(st == 0 and getmetatable(o) == nccc.Owned, tostring(o))
    assert(hcb.obj_value(o) == 5 and hcb.obj_live() == live + 1)
    assert(o:close() and hcb.obj_live() == live)
    raises(function() hcb.obj_value(o) end, "closed")
  end)

  case("a full thunk pool raises only where a thunk is bound", function()
    local hcb = require("hcb").bind(lib)
    local k = {}
    for i = 1, 3 do k[i] = hcb.callback("plain_fn", function(x) return i * x end, "forever") end
    assert(hcb.keep(k[1]) == 1 and hcb.keep(k[2]) == 2)
    local err = raises(function() hcb.keep(k[3]) end, "'hcb.keep': thunk pool exhausted: plain_fn")
    assert(err:find("lua_cases.lua:%d+:"), err)
    raises(function() hcb.apply_plain(k[3], 1) end, "thunk pool exhausted")
    -- the error stays the runtime's last one; functions without thunks ignore it
    assert(hcb.run_kept(10) == 30)
    raises(function() lib:call("hcb.keep", k[3]) end, "'hcb.keep': thunk pool exhausted: plain_fn")
    assert(hcb.drop_kept() == 2)
    assert(k[1]:release() and k[2]:release())
    assert(hcb.apply_plain(k[3], 7) == 21)
    assert(k[3]:release())
  end)

  case("pack and unpack", function()
    local bytes = lib:pack("tour.point", {x = 1, y = -2})
    assert(#bytes == 8)
    local t = lib:unpack("tour.point", bytes)
    assert(t.x == 1 and t.y == -2)
    local n = lib:unpack("tour.number", lib:pack("tour.number", {bytes = {1, 2, 3, 4, 5, 6, 7, 8}}))
    assert(#n.bytes == 8 and n.bytes[8] == 8)
    raises(function() lib:pack("tour.point", {x = 1.5}) end, "field 'x'")
    raises(function() lib:layout("point") end, "MODULE.NAME expected")
  end)

  case("the dispatcher is registered", function()
    lib:callback("i:i", function(x) return x end, "forever"):release()
    local found
    for _, fn in ipairs(lib:functions("")) do
      if fn.name == core.kind .. ".dispatch" then found = fn end
    end
    assert(found and found.signature == "L*:*", "not registered")
  end)

  case("released closures are collected", function()
    local weak = setmetatable({}, {__mode = "v"})
    -- in a function of its own: no dead register of this one keeps fn
    local function use()
      local fn = function(a, i) return a + i end
      weak[1] = fn
      assert(lib:call("hcb.fold", 3, lib:callback("ii:i", fn)) == 3)
    end
    local refs = core.refs()
    use()
    -- LuaJIT's traces may hold a function they called as a constant
    if luajit then jit.flush() end
    collectgarbage()
    collectgarbage()
    assert(weak[1] == nil, string.format("the callback is still referenced (references %d -> %d)",
      refs, core.refs()))
  end)

  case("callbacks inside a coroutine", function()
    local co = coroutine.wrap(function()
      return lib:call("hcb.fold", 4, lib:callback("ii:i", function(a, i) return a + i end))
    end)
    assert(co() == 6)
  end)

  case("a callback cannot yield", function()
    local co = coroutine.wrap(function()
      return pcall(lib.call, lib, "hcb.fold", 2, lib:callback("ii:i", function() coroutine.yield() end))
    end)
    local ok, err = co()
    assert(not ok and tostring(err):find("error in callback", 1, true), tostring(err))
  end)

  case("nested callback errors", function()
    local refs = core.refs()
    local inner = function() error("deep") end
    local outer = function(a, i) return lib:call("hcb.fold", 1, lib:callback("ii:i", inner)) end
    local err = raises(function() lib:call("hcb.fold", 1, lib:callback("ii:i", outer)) end, "deep")
    assert(select(2, err:gsub("error in callback", "")) == 2, err)
    assert(core.refs() == refs)
  end)

  return cases
end
