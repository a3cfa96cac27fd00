-- nccc.lua — the nccc support library for Lua 5.4 and LuaJIT (require
-- "nccc"): bind a library's root, then look up, describe and call any
-- nccc function, converting Lua values to slots and back from its
-- signature string. docs/LUA.md is the manual.
--
-- This front holds only the public API and composes the library object
-- from its parts; the parts live under nccc/: interpreter (the primitive
-- and number rules, chosen once), numbers, signature, values, builtins,
-- library, registry, calls, owned, callbacks, packed, and binder (what
-- generated modules call).
local common = require("nccc.common")
local interpreter = require("nccc.interpreter")
local numbers = require("nccc.numbers")
local library = require("nccc.library")
local packed = require("nccc.packed")

-- The library object's methods (nccc.open, nccc.bind): the library's own
-- (loading, built-ins, memory), then each part's.
library.compose({
  require("nccc.registry").methods,  -- modules, functions, layouts, constants, lookup
  require("nccc.calls").methods,     -- fast, call, call_var, call_address
  require("nccc.owned").methods,     -- owner, owned_string, owning
  require("nccc.callbacks").methods, -- callback, callback_group, closure_stats
  packed.methods,                    -- packed, register_packed
})

return {
  open = library.open,
  bind = library.bind,
  NULL = common.NULL,
  u64 = numbers.u64,
  i64 = numbers.i64,
  double_bits = numbers.double_bits,
  bits_double = numbers.bits_double,
  float = packed.float,
  Owned = common.Owned,
  U64 = numbers.N.U64,
  core = interpreter.core,
}
