-- nccc/cdata.lua — C objects (docs/LUA.md, "C objects"): records in C
-- memory with their fields read and written by name, made from a
-- module's layout records (docs/BINDING.md, "A layout") and the
-- library's layout table (sizes and offsets from the C compiler). Every
-- access is a peek or poke at the field's offset (LuaJIT: its ffi in
-- place; Lua 5.4: the library's built-ins; a module bound from a device:
-- the device's memory, nccc/remote_memory.lua), its value checked as
-- poke checks it; nested
-- records and arrays are views sharing the state of the object they
-- came from, so freeing it stops them all.
require("nccc.common").internal()
local values = require("nccc.values")
local N = require("nccc.numbers").N

local fmt = string.format
local cdata = {}
-- LuaJIT reads and writes fields in place through its ffi; Lua 5.4
-- through the library's peek and poke
local load, store, field_pointer = N.load, N.store, N.field_pointer

-- the hidden keys of a C object or array view: strings no C name can
-- be (a field name never reaches them), read by the VM without the hash
-- of a table key
local ADDR, CLASS, STATE, FIELD, ROOT, PTRS, RANGES_OF = "(addr)", "(class)", "(state)", "(field)", "(root)",
  "(pointers)", "(ranges)"
local Object, Array = require("nccc.common").CObject, require("nccc.common").CArray

local function what(o) return o[CLASS].what end

local function live(o)
  local st = o[STATE]
  if st.closed then error(fmt("%s object was freed", st.name), 3) end
  return o[ADDR]
end

-- state: {owned, name, closed, pointer_caches: the weak set of every
-- PTRS table of the object and its views, emptied by free}
local function new_state(owned, name)
  return {owned = owned, name = name, closed = false, pointer_caches = setmetatable({}, {__mode = "k"})}
end

local function view(class, addr, state)
  return setmetatable({[ADDR] = addr, [CLASS] = class, [STATE] = state, [PTRS] = false,
    [RANGES_OF] = class.ranges}, Object)
end

local function element_size(fd) return math.floor(fd.size / fd.count) end

-- the value of field fd at address a (fd.count 1)
local function get(o, class, fd, a)
  if fd.layout then return view(class.module_classes[fd.layout.name], a, o[STATE]) end
  local pointer = fd.type == "s" or fd.type == "F" or fd.type == "c"
  local code = pointer and "p" or fd.type
  local v
  if class.remote then
    v = class.lib:peek(a, code, element_size(fd))
  elseif load then
    v = load(a, code)
  else
    v = class.lib:peek(a, code)
  end
  local text = class.texts[fd.name]
  if text and v ~= nil then
    local n = text.count.field and o[text.count.field] or text.count.fixed
    return class.lib:string(v, n)
  end
  return v
end

local function put(o, class, fd, a, v, name)
  if fd.layout then
    local bytes, why = values.pack_record(fd.layout, v)
    if bytes == nil then error(fmt("field '%s' of %s (%s)", name, what(o), values.describe(why, "{", v)), 3) end
    if class.remote then bytes = class.lib:record_bytes(fd.layout, bytes) end
    return class.lib:write(a, bytes)
  end
  local code = (fd.type == "s" or fd.type == "F" or fd.type == "c") and "p" or fd.type
  if code == "p" and type(v) == "string" then
    error(fmt("field '%s' of %s (pointer expected, got string: its memory would not outlive the assignment)",
      name, what(o)), 3)
  end
  local s, why = values.ENCODE[code](v)
  if s == nil then error(fmt("field '%s' of %s (%s)", name, what(o), values.describe(why, code, v)), 3) end
  if class.remote then
    class.lib:poke(a, code, element_size(fd), s)
  elseif store then
    store(a, code, v, s)
  else
    class.lib:poke(a, code, v)
  end
end

local function array(o, fd, a)
  return setmetatable({[ADDR] = a, [CLASS] = o[CLASS], [STATE] = o[STATE], [FIELD] = fd}, Array)
end

local methods = {}
local POINTER_CODES = {p = true, s = true, F = true, c = true}

-- free(): frees the memory of an object made by new (a view only stops
-- being usable); true the first time, false after.
function methods.free(o)
  local st = o[STATE]
  if st.closed then return false end
  st.closed = true
  if st.freed then st.freed.closed = true end
  -- the typed pointers of the object and its views go: their next
  -- access takes the slow path, which raises
  for ptrs in pairs(st.pointer_caches) do
    for k in pairs(ptrs) do ptrs[k] = nil end
  end
  if st.owned then st.lib:free(o[ADDR]) end
  require("nccc.common").release_kept(st)
  return true
end
methods.close = methods.free
-- The object's address (a pointer value).
function methods.address(o) return N.vptr(live(o)) end
-- A copy of the whole record as a table (lib:unpack's).
function methods.record(o)
  local class = o[CLASS]
  local bytes = class.lib:read(live(o), class.layout.size)
  if class.remote then bytes = class.lib:record_bytes(class.layout, bytes) end
  return values.unpack_record(class.layout, bytes)
end
-- Copies a whole record in: a table (fields left out are zero) or a
-- string of the layout's size.
function methods.assign(o, v)
  local class = o[CLASS]
  local a = live(o)
  local bytes, why = v, nil
  if type(v) ~= "string" then bytes, why = values.pack_record(class.layout, v) end
  if bytes == nil or #bytes ~= class.layout.size then
    error(fmt("bad argument #1 to 'assign' (%s)", bytes and fmt("%d bytes expected, got %d", class.layout.size, #bytes)
      or values.describe(why, "{", v)), 2)
  end
  if class.remote and type(v) ~= "string" then bytes = class.lib:record_bytes(class.layout, bytes) end
  class.lib:write(a, bytes)
end

-- LuaJIT: a plain scalar field through a typed pointer made on its first
-- access and kept in the object's PTRS table (created then, and entered
-- in the state's pointer_caches so that free empties it)
local function scalar_pointer(o, class, k, code)
  local st = o[STATE]
  if st.closed then error(fmt("%s object was freed", st.name), 3) end
  local ptrs = o[PTRS]
  if not ptrs then
    ptrs = {}
    rawset(o, PTRS, ptrs)
    st.pointer_caches[ptrs] = true
  end
  local p = field_pointer(o[ADDR] + class.layout.field[k].offset, code)
  ptrs[k] = p
  return p
end

local function index(o, k)
  local class = o[CLASS]
  local code = class.scalars[k]
  if code then return scalar_pointer(o, class, k, code)[0] end
  local fd = class.layout.field[k]
  if fd == nil then
    if methods[k] then return methods[k] end
    error(fmt("%s has no field '%s'", what(o), tostring(k)), 2)
  end
  local a = live(o) + fd.offset
  if fd.count > 1 then return array(o, fd, a) end
  return get(o, class, fd, a)
end

-- The fast paths: a kept typed pointer, and for a write a plain number
-- that an integer field's range holds (the rest as poke checks it)
Object.__index = function(o, k)
  local ptrs = o[PTRS]
  local p = ptrs and ptrs[k]
  if p then return p[0] end
  return index(o, k)
end

local function newindex(o, k, v)
  local class = o[CLASS]
  local code = class.scalars[k]
  if code then
    local s, why = values.ENCODE[code](v)
    if s == nil then error(fmt("field '%s' of %s (%s)", k, what(o), values.describe(why, code, v)), 2) end
    scalar_pointer(o, class, k, code)[0] = (code == "l" or code == "L") and s or v
    return
  end
  local fd = class.layout.field[k]
  if fd == nil then error(fmt("%s has no field '%s'", what(o), tostring(k)), 2) end
  if fd.count > 1 then error(fmt("field '%s' of %s is an array: write its elements", k, what(o)), 2) end
  put(o, class, fd, live(o) + fd.offset, v, k)
end

Object.__newindex = function(o, k, v)
  local ptrs = o[PTRS]
  local p = ptrs and ptrs[k]
  if p and type(v) == "number" then
    local range = o[RANGES_OF][k]
    if range and v >= range[1] and v <= range[2] and v % 1 == 0 then
      p[0] = v
      return
    end
  end
  return newindex(o, k, v)
end

Object.__gc = function(o)
  if rawget(o, ROOT) and not o[STATE].closed then pcall(methods.free, o) end
end

Object.__tostring = function(o)
  local st = o[STATE]
  if st.closed then return fmt("freed %s", what(o)) end
  return fmt("%s %s: %s", st.owned and "C object" or "view of", what(o), tostring(N.vptr(o[ADDR])))
end

-- The slot of a C object passed as a pointer (values.lua's "p"), or why not.
function cdata.address(v)
  local mt = getmetatable(v)
  if mt ~= Object and mt ~= Array then return nil end
  if v[STATE].closed then return nil, fmt("%s object was freed", v[STATE].name) end
  return v[ADDR]
end

Object.address, Array.address = cdata.address, cdata.address

local function index_of(t, k)
  local fd = t[FIELD]
  if type(k) ~= "number" or k ~= math.floor(k) or k < 1 or k > fd.count then
    error(fmt("index %s out of range 1..%d of field '%s' of %s", tostring(k), fd.count, fd.name, what(t)), 3)
  end
  return live(t) + (k - 1) * element_size(fd)
end

Array.__index = function(t, k)
  local fd = t[FIELD]
  local a = index_of(t, k)
  local size = element_size(fd)
  return get(t, t[CLASS], {layout = fd.layout, type = fd.type, name = fd.name, size = size, count = 1}, a)
end
Array.__newindex = function(t, k, v)
  local fd = t[FIELD]
  put(t, t[CLASS], {layout = fd.layout, type = fd.type, size = element_size(fd), count = 1}, index_of(t, k), v,
    fd.name)
end
Array.__len = function(t) return t[FIELD].count end

-- classes(lib, module, layout_records[, memory]): {name: class} of a
-- module's structs and unions; with memory (nccc/remote_memory.lua's, of
-- a module bound from a device), in the device's memory.
function cdata.classes(lib, module, records, memory)
  local classes = {}
  for _, rec in ipairs(records) do
    if rec.kind == "struct" or rec.kind == "union" then
      local texts, scalars, ranges = {}, {}, {}
      for _, t in ipairs(rec.texts or {}) do texts[t.field] = t end
      local layout = lib:layout(module .. "." .. rec.name)
      for _, fd in ipairs(field_pointer and not memory and layout.fields or {}) do
        if fd.count == 1 and not fd.layout and not texts[fd.name] and not POINTER_CODES[fd.type] then
          scalars[fd.name], ranges[fd.name] = fd.type, values.RANGES[fd.type]
        end
      end
      classes[rec.name] = {lib = memory or lib, layout = layout, what = module .. "." .. rec.name,
        texts = texts, scalars = scalars, ranges = ranges, module_classes = classes, remote = memory ~= nil}
    end
  end
  return classes
end

local function class_arg(classes, name, fn, module)
  local class = type(name) == "string" and classes[name]
  if not class then
    error(fmt("bad argument #1 to '%s' (a struct or union of %s expected, got %s)", fn, module, tostring(name)), 3)
  end
  return class
end

-- new(classes, name[, value]): a zeroed object of the layout's size in
-- C memory (lib:alloc), freed by free()/close() or its finalizer.
function cdata.new(classes, module, name, value)
  local class = class_arg(classes, name, "new", module)
  local lib, size = class.lib, class.layout.size
  local a = N.ptr(lib:alloc(size))
  lib:write(a, string.rep("\0", size))
  local state = new_state(true, name)
  state.lib = lib
  local o = view(class, a, state)
  rawset(o, ROOT, true)
  -- views hold the state, the state the object: the memory lives while
  -- any of them does (LuaJIT: the proxy, Lua 5.4: the object's __gc).
  -- The proxy's finalizer sees a flag of its own, not the state: a
  -- LuaJIT finalizer that reaches its proxy keeps it for good
  state.root = o
  state.freed = {closed = false}
  state.proxy = N.finalizer(function(s) lib:free(s) end, a, state.freed)
  if value ~= nil then methods.assign(o, value) end
  return o
end

-- view(classes, name, p[, count]): a borrowed view of the record (or of
-- count records) at the non-NULL address p; it never frees.
function cdata.view(classes, module, name, p, count)
  local class = class_arg(classes, name, "view", module)
  local a = cdata.address(p)
  if a == nil then a = N.ptr(p) end
  if a == nil or a == 0 then
    error(fmt("bad argument #2 to 'view' (non-NULL address expected, got %s)", tostring(p)), 2)
  end
  local state = new_state(false, name)
  if count == nil then return view(class, a, state) end
  local fd = {name = name, count = count, size = count * class.layout.size, layout = class.layout}
  return setmetatable({[ADDR] = a, [CLASS] = class, [STATE] = state, [FIELD] = fd}, Array)
end

-- The state an object shares with its views (what it keeps for C is
-- there: nccc/owners.lua).
function cdata.state_of(o) return rawget(o, STATE) end

return cdata