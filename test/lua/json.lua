-- json.lua — a small JSON reader for the host case table (Lua 5.4 and
-- LuaJIT). Objects become tables with string keys, arrays tables marked
-- with json.ARRAY as metatable (so [] and {} stay apart); numbers go
-- through tonumber, so on Lua 5.4 "255" is an integer and "1.5" a float.
local json = {ARRAY = {}}

local function fail(s, i, what)
  local line = select(2, s:sub(1, i):gsub("\n", "")) + 1
  error(string.format("JSON: %s at line %d", what, line), 0)
end

local ESCAPES = {['"'] = '"', ["\\"] = "\\", ["/"] = "/", b = "\b", f = "\f",
  n = "\n", r = "\r", t = "\t"}

local value

local function skip(s, i)
  return s:find("[^ \t\r\n]", i) or #s + 1
end

local function str(s, i) -- s:sub(i, i) == '"'
  local out, j = {}, i + 1
  while true do
    local c = s:sub(j, j)
    if c == "" then fail(s, j, "unterminated string") end
    if c == '"' then return table.concat(out), j + 1 end
    if c == "\\" then
      local e = s:sub(j + 1, j + 1)
      if e == "u" then
        -- a code point of the Basic Multilingual Plane, as UTF-8
        local code = tonumber(s:sub(j + 2, j + 5), 16)
        if not code or (code >= 0xD800 and code <= 0xDFFF) then fail(s, j, "bad \\u escape (surrogates unsupported)") end
        if code < 0x80 then
          out[#out + 1] = string.char(code)
        elseif code < 0x800 then
          out[#out + 1] = string.char(0xC0 + math.floor(code / 64), 0x80 + code % 64)
        else
          out[#out + 1] = string.char(0xE0 + math.floor(code / 4096), 0x80 + math.floor(code / 64) % 64, 0x80 + code % 64)
        end
        j = j + 6
      elseif ESCAPES[e] then
        out[#out + 1], j = ESCAPES[e], j + 2
      else
        fail(s, j, "bad escape")
      end
    else
      out[#out + 1], j = c, j + 1
    end
  end
end

function value(s, i)
  i = skip(s, i)
  local c = s:sub(i, i)
  if c == "{" then
    local t = {}
    i = skip(s, i + 1)
    if s:sub(i, i) == "}" then return t, i + 1 end
    while true do
      if s:sub(i, i) ~= '"' then fail(s, i, "object key expected") end
      local k
      k, i = str(s, i)
      i = skip(s, i)
      if s:sub(i, i) ~= ":" then fail(s, i, "':' expected") end
      t[k], i = value(s, i + 1)
      i = skip(s, i)
      c = s:sub(i, i)
      if c == "}" then return t, i + 1 end
      if c ~= "," then fail(s, i, "',' or '}' expected") end
      i = skip(s, i + 1)
    end
  elseif c == "[" then
    local t, n = setmetatable({}, json.ARRAY), 0
    i = skip(s, i + 1)
    if s:sub(i, i) == "]" then return t, i + 1 end
    while true do
      n = n + 1
      t[n], i = value(s, i)
      i = skip(s, i)
      c = s:sub(i, i)
      if c == "]" then return t, i + 1 end
      if c ~= "," then fail(s, i, "',' or ']' expected") end
      i = i + 1
    end
  elseif c == '"' then
    return str(s, i)
  end
  for word, v in pairs({["true"] = true, ["false"] = false}) do
    if s:sub(i, i + #word - 1) == word then return v, i + #word end
  end
  if s:sub(i, i + 3) == "null" then return nil, i + 4 end
  local num = s:match("^-?%d+%.?%d*[eE]?[-+]?%d*", i)
  if not num or num == "" or not tonumber(num) then fail(s, i, "value expected") end
  return tonumber(num), i + #num
end

function json.decode(s)
  local v, i = value(s, 1)
  if skip(s, i) <= #s then fail(s, i, "trailing text") end
  return v
end

return json
