-- checks.lua — what the Lua-only case files (lua_cases.lua,
-- generated_cases.lua, bytes_cases.lua) share: their list of cases, an
-- error check and the decimal text of an integer of either interpreter.
local checks = {}

-- A new list of cases and the function that adds one (name, fn).
function checks.list()
  local cases = {}
  return cases, function(name, fn) cases[#cases + 1] = {name = name, fn = fn} end
end

-- The error fn raises, which must hold words when given; no error fails.
function checks.raises(fn, words)
  local ok, err = pcall(fn)
  assert(not ok, "no error raised")
  err = tostring(err)
  if words and not err:find(words, 1, true) then
    error(string.format("error '%s' lacks '%s'", err, words), 2)
  end
  return err
end

-- The decimal text of an integer (a LuaJIT int64 cdata without its LL).
function checks.dec(v) return (tostring(v):gsub("U?LL$", "")) end

return checks
