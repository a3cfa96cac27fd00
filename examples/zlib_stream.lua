-- zlib_stream.lua — zlib streamed from Lua 5.4 or LuaJIT through a
-- z_stream that Lua allocates, its fields read and written by name
-- (docs/LUA.md, "C objects"), on the demo's library (the wrappers of
-- idl/zlib.idl). tools/demo.sh runs it under both interpreters.
--   LUA_PATH=bindings/lua/?.lua;GENERATED/nccc/?.lua lua5.4|luajit zlib_stream.lua LIBRARY FILE
local nccc = require("nccc")
local libpath, file = arg[1], arg[2]
if not file then
  io.stderr:write("usage: lua5.4|luajit zlib_stream.lua LIBRARY FILE\n")
  os.exit(2)
end
local z = require("zlib").bind(nccc.open(libpath))
local lib, CHUNK = z.lib, 4096

-- Runs step (z.deflate or z.inflate) over input in CHUNK pieces through
-- the fields of strm, flush_last on the last piece, until the stream
-- ends; returns what step wrote.
local function stream(strm, step, flush_last, input)
  local inbuf, outbuf = lib:alloc(CHUNK), lib:alloc(CHUNK)
  local out, pos, st = {}, 0, z.Z_OK
  while st ~= z.Z_STREAM_END do
    assert(pos < #input, "the input ended before the stream")
    local piece = input:sub(pos + 1, pos + CHUNK)
    pos = pos + #piece
    lib:write(inbuf, piece)
    strm.next_in, strm.avail_in = inbuf, #piece
    local flush = pos == #input and flush_last or z.Z_NO_FLUSH
    repeat -- until the output has room to spare
      strm.next_out, strm.avail_out = outbuf, CHUNK
      st = step(strm, flush)
      assert(st == z.Z_OK or st == z.Z_STREAM_END or st == z.Z_BUF_ERROR,
             "zlib status " .. tostring(st))
      out[#out + 1] = lib:read(outbuf, CHUNK - tonumber(strm.avail_out))
    until strm.avail_out ~= 0 or st == z.Z_STREAM_END
  end
  lib:free(inbuf)
  lib:free(outbuf)
  return table.concat(out)
end

local f = assert(io.open(file, "rb"))
local input = f:read("a")
f:close()
local d = z.new("z_stream_s") -- zeroed: zlib's own allocator
assert(z.deflateInit(d, z.Z_BEST_COMPRESSION) == z.Z_OK)
local packed = stream(d, z.deflate, z.Z_FINISH, input)
print(string.format("  deflate: %d bytes in, %d out", tonumber(d.total_in), tonumber(d.total_out)))
z.deflateEnd(d)
d:free()
local i = z.new("z_stream_s")
assert(z.inflateInit(i) == z.Z_OK)
local back = stream(i, z.inflate, z.Z_NO_FLUSH, packed)
z.inflateEnd(i)
i:free()
print(string.format("  inflate: %d bytes, equal to the file: %s", #back, tostring(back == input)))
if back ~= input then os.exit(1) end
