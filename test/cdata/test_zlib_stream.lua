-- test_zlib_stream.lua — zlib streaming from Lua 5.4 and LuaJIT through
-- a C object (docs/LUA.md, "C objects"): 10 MiB deflated and inflated in
-- 64 KiB chunks through a z_stream made by new, its fields (next_in,
-- avail_in, next_out, avail_out, total_in, total_out) read and written
-- by name, and the bytes come back equal. ctest runs it as
-- cdata_zlib_lua and cdata_zlib_luajit (idl/zlib.idl, linked with -lz).
--   lua5.4|luajit test_zlib_stream.lua BINDINGS_DIR CPATH_DIR LIBRARY.so GEN_DIR
local bindings, cpath, library, gen_dir = ...
package.path = bindings .. "/?.lua;" .. gen_dir .. "/?.lua;" .. package.path
if cpath ~= "" then package.cpath = cpath .. "/?.so;" .. package.cpath end
local nccc = require("nccc")
local z = require("zlib").bind(nccc.open(library))
local lib = z.lib

local SIZE, CHUNK = 10 * 1024 * 1024, 64 * 1024

-- 10 MiB of words from a fixed pseudo-random sequence (compressible)
local function data()
  local words, seed = {}, 23
  local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n end
  for k = 1, 500 do
    local w = {}
    for j = 1, 2 + rnd(8) do w[j] = string.char(97 + rnd(8)) end
    words[k] = table.concat(w) .. " "
  end
  local parts, n = {}, 0
  while n < SIZE do
    local w = words[1 + rnd(500)]
    parts[#parts + 1], n = w, n + #w
  end
  return table.concat(parts):sub(1, SIZE)
end

-- feeds input in CHUNK pieces to step (deflate or inflate) through
-- strm's fields, collecting what it writes in CHUNK outputs
local function stream(strm, step, finish, input)
  local inbuf, outbuf = lib:alloc(CHUNK), lib:alloc(CHUNK)
  local out, pos, ended = {}, 0, false
  while not ended do
    local piece = input:sub(pos + 1, pos + CHUNK)
    pos = pos + #piece
    if #piece > 0 then lib:write(inbuf, piece) end
    strm.next_in, strm.avail_in = inbuf, #piece
    local flush = pos >= #input and finish or z.Z_NO_FLUSH
    while true do
      strm.next_out, strm.avail_out = outbuf, CHUNK
      local st = step(strm, flush)
      assert(st == z.Z_OK or st == z.Z_STREAM_END or st == z.Z_BUF_ERROR, "status " .. st)
      local n = CHUNK - strm.avail_out
      if n > 0 then out[#out + 1] = lib:read(outbuf, n) end
      if st == z.Z_STREAM_END then ended = true break end
      if strm.avail_out ~= 0 then break end
    end
    if pos >= #input and flush == z.Z_NO_FLUSH then break end
  end
  lib:free(inbuf) lib:free(outbuf)
  return table.concat(out)
end

local input = data()
local strm = z.new("z_stream_s")
assert(z.deflateInit(strm, z.Z_DEFAULT_COMPRESSION) == z.Z_OK)
local packed = stream(strm, z.deflate, z.Z_FINISH, input)
assert(tonumber(strm.total_in) == SIZE, "total_in")
assert(tonumber(strm.total_out) == #packed, "total_out")
assert(z.deflateEnd(strm) == z.Z_OK)
strm:free()
assert(#packed < SIZE / 2, "compressed")

strm = z.new("z_stream_s")
assert(z.inflateInit(strm) == z.Z_OK)
local back = stream(strm, z.inflate, z.Z_NO_FLUSH, packed)
assert(tonumber(strm.total_out) == SIZE, "inflated total_out")
assert(z.inflateEnd(strm) == z.Z_OK)
strm:close()
assert(back == input, "the bytes come back equal")
print(string.format("deflated %d bytes to %d and back in %d-byte chunks", SIZE, #packed, CHUNK))
