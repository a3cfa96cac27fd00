-- nccc/registry.lua — what a bound runtime holds (docs/LUA.md,
-- "Registry, layouts, constants, memory"): its modules, their functions,
-- record layouts and constants, and the description of a function by
-- name, handle or address that every call is made from. Everything read
-- is cached on the library object.
require("nccc.common").internal()
local abi = require("nccc.abi")
local core = require("nccc.interpreter").core
local builtins = require("nccc.builtins")
local signature = require("nccc.signature")
local values = require("nccc.values")
-- the methods this part gives the library object (composed in nccc.lua)
local methods = {}

local fmt, floor, ceil = string.format, math.floor, math.ceil
local B, call, check, cstring_at = builtins.B, builtins.call, builtins.check, builtins.cstring_at
local vtype = require("nccc.common").vtype
local H, ST = abi.handle, abi.status
local registry = {}

-- The index of module name, or nil.
local function module_index(lib, name)
  local mi = lib.modules_by_name[name]
  if mi then return mi end
  local outb, st = builtins.with_cstring(lib, name, B.module_find, 2)
  if st ~= 0 then return nil end
  mi = tonumber(core.get(outb, 1))
  lib.modules_by_name[name] = mi
  return mi
end

-- Every present module (the global registry last, named "").
function methods:modules()
  local list = {}
  local count = tonumber(core.get(check(self, B.module_count, 2), 1))
  for mi = 0, count - 1 do
    local outb, st = call(self, B.module_info, 5, mi)
    if st == 0 then
      list[#list + 1] = {index = mi, name = cstring_at(self, core.get(outb, 1)),
        functions = tonumber(core.get(outb, 2)), types = tonumber(core.get(outb, 3)),
        constants = tonumber(core.get(outb, 4)), global = mi == count - 1}
    elseif st ~= ST.ERR_INDEX_INVALID then
      check(self, B.module_info, 5, mi)
    end
  end
  return list
end

-- Module m (a name or an index): its index, name and counts of
-- functions, types and constants; raises at the caller's caller.
local function module_arg(lib, m, what)
  local mi = m
  if type(m) == "string" then
    mi = module_index(lib, m)
    if mi == nil and m == "" then
      local all = lib:modules()
      mi = all[#all].index
    end
  end
  if type(mi) ~= "number" then error(fmt("unknown module '%s' in %s", tostring(m), what), 3) end
  local outb, st = call(lib, B.module_info, 5, mi)
  if st ~= 0 then error(fmt("unknown module '%s' in %s", tostring(m), what), 3) end
  return mi, cstring_at(lib, core.get(outb, 1)), tonumber(core.get(outb, 2)),
    tonumber(core.get(outb, 3)), tonumber(core.get(outb, 4))
end

-- The handle of function k of module mi, and the module of a handle
-- (docs/ABI.md, "Handles").
local SHIFT = 2 ^ H.module_shift
local function handle_of(mi, k) return H.module_marker + mi * SHIFT + H.function_marker + k end
local function module_of(h) return floor(h / SHIFT) % (H.index_mask + 1) end

-- The functions of a module (name or index): {name, signature, handle}.
function methods:functions(m)
  local mi, mname, nfn = module_arg(self, m, "functions")
  local list = {}
  for k = 0, nfn - 1 do
    local h = handle_of(mi, k)
    local outb = check(self, B["function"], 6, h)
    local name = cstring_at(self, core.get(outb, 2))
    list[#list + 1] = {name = mname ~= "" and mname .. "." .. name or name,
      signature = cstring_at(self, core.get(outb, 3)), handle = h}
  end
  return list
end

-- All layouts of module mi by name, read once.
local function types_of(lib, mi)
  local types = lib.types[mi]
  if types then return types end
  types = {}
  local _, mname, _, ntypes = module_arg(lib, mi, "layout")
  for t = 0, ntypes - 1 do
    local o = check(lib, B.module_type, 6, mi, t)
    local layout = {name = cstring_at(lib, core.get(o, 1)), module = mname,
      size = tonumber(core.get(o, 2)), align = tonumber(core.get(o, 3)),
      kind = abi.type_kinds[tonumber(core.get(o, 4))] or "unknown", fields = {}, field = {}}
    layout.slots = ceil(layout.size / 8)
    for k = 0, tonumber(core.get(o, 5)) - 1 do
      local f = check(lib, B.module_field, 6, mi, t, k)
      local fd = {name = cstring_at(lib, core.get(f, 1)), type = cstring_at(lib, core.get(f, 2)),
        offset = tonumber(core.get(f, 3)), size = tonumber(core.get(f, 4)),
        count = tonumber(core.get(f, 5))}
      layout.fields[#layout.fields + 1], layout.field[fd.name] = fd, fd
    end
    types[layout.name] = layout
  end
  local nested = "^" .. abi.grammar.record_open:gsub("%p", "%%%0") .. "([%a_][%w_]*)"
  for _, layout in pairs(types) do -- nested records
    for _, fd in ipairs(layout.fields) do
      local sub = fd.type:match(nested)
      if sub then
        fd.layout = types[sub] or error(fmt("nccc: layout %s.%s: unknown type %s", mname, layout.name, sub), 0)
      end
    end
  end
  lib.types[mi] = types
  return types
end

-- A record layout by type name: in module mi if given, else in any module.
local function find_type(lib, mi, name)
  if mi then
    local t = types_of(lib, mi)[name]
    if t then return t end
  end
  for _, m in ipairs(lib:modules()) do
    local t = types_of(lib, m.index)[name]
    if t then return t end
  end
end
registry.find_type = find_type

local function split(qualified, what)
  local m, name = tostring(qualified):match("^(.-)%.([^.]+)$")
  if not m then error(fmt("bad %s name '%s' (MODULE.NAME expected)", what, tostring(qualified)), 3) end
  return m, name
end

-- The layout of MODULE.TYPE: {name, module, size, align, kind, slots,
-- fields = {{name, type, offset, size, count}, ...}, field = by name}.
function methods:layout(qualified)
  local m, name = split(qualified, "type")
  local mi = module_arg(self, m, "layout")
  return types_of(self, mi)[name] or error(fmt("unknown type '%s'", qualified), 2)
end

function methods:pack(qualified, t)
  local bytes, why = values.pack_record(self:layout(qualified), t)
  if not bytes then error(fmt("bad argument #2 to 'pack' (%s)", why), 2) end
  return bytes
end

function methods:unpack(qualified, bytes)
  local layout = self:layout(qualified)
  if type(bytes) ~= "string" or #bytes ~= layout.size then
    error(fmt("bad argument #2 to 'unpack' (%d bytes expected)", layout.size), 2)
  end
  return values.unpack_record(layout, bytes)
end

-- Every constant of a module, by name.
function methods:constants(m)
  local mi, _, _, _, nconst = module_arg(self, m, "constants")
  local consts = self.consts[mi]
  if consts then return consts end
  consts = {}
  for k = 0, nconst - 1 do
    local o = check(self, B.module_constant, 4, mi, k)
    local code = cstring_at(self, core.get(o, 2))
    local decode = values.DECODE[code] or error(fmt("nccc: constant of unknown type '%s'", code), 0)
    consts[cstring_at(self, core.get(o, 1))] = decode(core.get(o, 3))
  end
  self.consts[mi] = consts
  return consts
end

function methods:constant(qualified)
  local m, name = split(qualified, "constant")
  local v = self:constants(m)[name]
  if v == nil then error(fmt("unknown constant '%s'", qualified), 2) end
  return v
end

-- ---- function descriptions ---------------------------------------------------

-- A callable description: label, address, signature, items and counts;
-- records sized by the layouts of module mi (any module without).
function registry.describe(lib, label, addr, sig, mi)
  local p = signature.parse(sig)
  local f = {name = label, addr = addr, signature = sig, ins = {}, outs = {}}
  for k, item in ipairs(p.ins) do f.ins[k] = {code = item.code, name = item.name, n = item.n} end
  for k, item in ipairs(p.outs) do f.outs[k] = {code = item.code, name = item.name, n = item.n} end
  local function find(name) return find_type(lib, mi, name) end
  f.nin = signature.count_side(f.ins, find, label)
  f.nout = signature.count_side(f.outs, find, label)
  f.nargs, f.var_in, f.var_out = #f.ins, p.ins.var, p.outs.var
  return f
end

-- The description of the function with handle h, checked against the
-- registry's slot counts; or nil and a message.
local function fn_by_handle(lib, h)
  local f = lib.by_handle[h]
  if f then return f end
  local outb, st = call(lib, B["function"], 6, h)
  if st ~= 0 then return nil, fmt("unknown function handle %s", tostring(h)) end
  local mi = module_of(h)
  local mout, mst = call(lib, B.module_info, 5, mi)
  local mname = mst == 0 and cstring_at(lib, core.get(mout, 1)) or ""
  local name = cstring_at(lib, core.get(outb, 2))
  local label = mname ~= "" and mname .. "." .. name or name
  f = registry.describe(lib, label, core.get(outb, 1), cstring_at(lib, core.get(outb, 3)), mi)
  f.handle = h
  local VAR, n_in, n_out = abi.slots_variable, tonumber(core.get(outb, 4)), tonumber(core.get(outb, 5))
  if (n_in >= VAR) ~= (f.var_in or false) or (n_in % VAR) ~= f.nin
    or (n_out >= VAR) ~= (f.var_out or false) or (n_out % VAR) ~= f.nout then
    error(fmt("nccc: %s: signature '%s' does not match its slot counts %d:%d",
      label, f.signature, n_in, n_out), 0)
  end
  lib.by_handle[h] = f
  return f
end

-- The handle of a function, or nil and a message.
local function lookup(lib, name)
  if type(name) ~= "string" then return nil, fmt("function name expected, got %s", vtype(name)) end
  local outb, st = builtins.with_cstring(lib, name, B.lookup, 2)
  if st == ST.ERR_NAME_NOT_FOUND then return nil, fmt("unknown function '%s'", name) end
  if st ~= 0 then return nil, fmt("lookup of '%s' failed: %s", name, select(2, builtins.last_error(lib))) end
  return tonumber(core.get(outb, 1))
end

function methods:lookup(name)
  local h, msg = lookup(self, name)
  if not h then error(msg, 2) end
  return h
end

-- The description of a function by name or handle, cached; or nil and
-- a message.
function registry.fn(lib, key)
  local f, msg = lib.fns[key], nil
  if f then return f end
  if type(key) == "string" then
    local h
    h, msg = lookup(lib, key)
    if h then f, msg = fn_by_handle(lib, h) end
  elseif type(key) == "number" then
    f, msg = fn_by_handle(lib, key)
  else
    msg = fmt("function name or handle expected, got %s", vtype(key))
  end
  if f then lib.fns[key] = f end
  return f, msg
end

-- The signature string of a function (name or handle).
function methods:signature(key)
  local f, msg = registry.fn(self, key)
  if not f then error(msg, 2) end
  return f.signature
end

registry.methods = methods
return registry
