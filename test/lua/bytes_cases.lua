-- bytes_cases.lua — byte buffers and closure scopes through the generated
-- module hcb.lua (docs/LUA.md, "Callbacks" and "Generated modules"), run by
-- run.lua after the shared case table when it is given the directory
-- holding hcb.lua. Each case raises on failure.
return function(lib, nccc, hcb)
  local checks = require("checks")
  local cases, case = checks.list()
  local raises = checks.raises
  local function int(v) return tonumber(checks.dec(v)) end
  local function in_use() return int(select(2, lib:closure_stats())) end

  case("bytes: a Lua string passes as a [bytes] buffer", function()
    assert(int(hcb.byte_sum("\1\2\255", 3)) == 258)
    assert(int(hcb.byte_sum("a\0b", 3)) == 97 + 98)
    assert(int(hcb.byte_sum("", 0)) == 0)
    local p = lib:alloc(2)
    lib:write(p, "\16\32")
    assert(int(hcb.byte_sum(p, 2)) == 48) -- C memory as before
    lib:free(p)
  end)

  case("bytes: a callback fills its buffer through a writer", function()
    local source, at, sizes = "hello, bytes!", 0, {}
    local dest = lib:alloc(32)
    local n = hcb.fill_from(function(write, size)
      sizes[#sizes + 1] = int(size)
      local chunk = source:sub(at + 1, at + int(size))
      write(chunk)
      at = at + #chunk
      return #chunk
    end, dest, 32)
    assert(int(n) == #source, tostring(n))
    assert(lib:read(dest, #source) == source)
    assert(sizes[1] == 4)
    lib:free(dest)
  end)

  case("bytes: a writer refuses what does not fit, and after its callback", function()
    local dest, kept, err = lib:alloc(4), nil, nil
    hcb.fill_from(function(write, size)
      kept = write
      write("x", 3)
      err = select(2, pcall(write, "xy", 3))
      return 0
    end, dest, 4)
    assert(tostring(err):find("do not fit in 4", 1, true), tostring(err))
    raises(function() kept("z") end, "its callback returned")
    lib:free(dest)
  end)

  case("scopes: a call closure is refused where the scope is another", function()
    local before = in_use()
    local c = hcb.callback("plain_fn", function(x) return x end, "call")
    local err = raises(function() hcb.keep(c) end,
      "bad argument #1 to 'hcb.keep' (closure of scope 'forever' expected, got one of scope 'call'")
    assert(not c.live, "the refused call closure is released")
    assert(in_use() == before)
    raises(function() hcb.later(1, hcb.callback("later_fn", function() end)) end,
      "scope 'async' expected, got one of scope 'call'")
    assert(err)
  end)

  case("scopes: a function becomes a closure of the parameter's scope", function()
    local before = in_use()
    hcb.on_fire(function(x) return 10 * x end)
    assert(in_use() == before + 1) -- forever: kept
    assert(int(hcb.fire(4)) == 40)
    hcb.clear_fire()
    local got = {}
    hcb.later(5, function(v) got[#got + 1] = int(v) end)
    assert(in_use() == before + 2)
    assert(int(hcb.run_pending()) == 1 and got[1] == 5)
    assert(in_use() == before + 1) -- async: released after its call
    assert(int(hcb.fold(3, function(acc, i) return acc + i end)) == 3)
    assert(in_use() == before + 1) -- call: released by the call
  end)
  return cases
end
