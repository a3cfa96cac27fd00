-- device_memory.lua — run.lua against a device (NCCC_REMOTE_DEVICE): the
-- library lib holds the remote-call client (idl/remotes.idl, generated
-- remotes.lua on package.path); this connects to the link, binds the
-- device's module cdata and its memory as cdata_memory, and returns a
-- library whose memory (alloc, free, read, write: the case table's
-- memory steps) is the device's, every other method lib's own.
return function(nccc, lib, link)
  local remotes = require("remotes").bind(lib)
  local status, device = remotes.connect(link, nil)
  assert(status == 0, string.format("connect %s: status 0x%x", link, status))
  assert(remotes.bind(device, "cdata", nccc.NULL) == 0, "bind cdata")
  assert(remotes.bind_memory(device, "cdata_memory") == 0, "bind cdata_memory")
  local memory = require("nccc.remote_memory").open(lib, "cdata")
  local device_lib = {
    alloc = function(_, n) return memory:alloc(n) end,
    free = function(_, a) return memory:free(a) end,
    read = function(_, a, n) return memory:read(a, n) end,
    write = function(_, a, bytes) return memory:write(a, bytes) end,
    close = function() remotes.close(device) end,
    memory = memory}
  return setmetatable(device_lib, {__index = function(_, k)
    local v = lib[k]
    if type(v) ~= "function" then return v end
    return function(_, ...) return v(lib, ...) end
  end})
end
