-- generated_cases.lua — checks of the module tour.lua that nccc-stubgen
-- generates from idl/examples/tour.idl (docs/LUA.md, "Generated
-- modules"), run by run.lua when it is given the directory holding it.
-- Each case raises on failure.
return function(lib, nccc, gen)
  local checks = require("checks")
  local cases, case = checks.list()
  local raises, dec = checks.raises, checks.dec
  local tour = gen.bind(lib)

  case("generated: a function per IDL function", function()
    local n = 0
    for _, e in ipairs(gen.functions) do
      assert(type(tour[e.name]) == "function", e.name)
      n = n + 1
    end
    assert(n == #lib:functions("tour"), "count differs from the registry")
    assert(tour.name_of_color and tour.color_name == nil, "renamed by its registry name")
  end)

  case("generated: add", function()
    assert(tour.add(40, 2) == 42)
    assert(dec(tour.add(-50, 8)) == "-42")
  end)

  case("generated: echo_i64 edges", function()
    for _, s in ipairs({"-9223372036854775808", "9223372036854775807", "-1", "0"}) do
      local got = tour.echo_i64(nccc.i64(s))
      assert(dec(got) == s, s .. " came back as " .. dec(got))
    end
    raises(function() tour.echo_i64(nccc.u64("9223372036854775808")) end, "out of range")
  end)

  case("generated: echo_u64 max", function()
    assert(dec(tour.echo_u64(nccc.u64("0xffffffffffffffff"))) == "18446744073709551615")
  end)

  case("generated: strings both ways", function()
    local v, rest = tour.parse_int("42abc")
    assert(v == 42 and rest == "abc")
    assert(tour.name_of_color(tour.GREEN) == "green")
    assert(dec(tour.text_length("hello")) == "5")
  end)

  case("generated: [out] and [inout] values", function()
    local q, r = tour.divmod(17, 5)
    assert(q == 3 and r == 2)
    assert(tour.bump(40, 2) == 42)
  end)

  case("generated: errno last", function()
    local q, err = tour.checked_div(1, 0)
    assert(q == 0 and err == lib:constant("hcb.EDOM"))
  end)

  case("generated: constants and enumerators", function()
    assert(tour.LIMIT == 100 and tour.RED == 0 and tour.GREEN == 5 and tour.BLUE == 6)
    assert(tour.FLAG_AB == 3 and tour.LETTER == 65)
    assert(dec(tour.ALL_ONES) == "18446744073709551615")
  end)

  case("generated: structs and layouts", function()
    local m = tour.midpoint({x = 2, y = 4}, {x = 4, y = 8})
    assert(m.x == 3 and m.y == 6)
    assert(tour.layout("point").size == 8)
    assert(tour.unpack("point", tour.pack("point", {x = 7, y = -1})).y == -1)
    assert(tour.lib == lib)
  end)

  case("generated: misuse is the support library's error", function()
    raises(function() tour.add(1) end, "'tour.add' expects 2 arguments, got 1")
    raises(function() tour.echo_u8(-1) end, "out of range")
    raises(function() tour.callback("nope", print) end, "unknown callback type 'tour.nope'")
  end)

  case("generated: bind refuses a signature the library does not have", function()
    local entry
    for _, e in ipairs(gen.functions) do
      if e.name == "add" then entry = e end
    end
    assert(entry and #entry.signatures == 1, "add has one signature")
    entry.signatures[1] = "ll:d"
    local ok, err = pcall(gen.bind, lib)
    entry.signatures[1] = "ll:l"
    assert(not ok and tostring(err):find("tour.add has signature 'll:l'", 1, true), tostring(err))
  end)

  return cases
end
