-- The LuaRocks rock nccc for Lua 5.4 (docs/PACKAGING.md): the support
-- library (nccc.lua, nccc/*.lua), LuaJIT's primitive (nccc_luajit.lua)
-- and the C module nccc.core. Built from a checkout, in this directory:
--   luarocks --lua-version 5.4 make nccc-0.1.0-1.rockspec
-- (nccc.core includes <nccc/abi.h> and <nccc/slot.h> from
-- ../../nccc_runtime/include). The version is a copy of the one in
-- CMakeLists.txt (tools/version.py).
rockspec_format = "3.0"
package = "nccc"
version = "0.1.0-1"
source = {
   url = "file://../..",   -- luarocks make builds the checkout it runs in
}
description = {
   summary = "nccc for Lua: generated, typed, checked calls into C through one primitive",
   license = "MIT",
}
dependencies = {
   "lua >= 5.4, < 5.5",
}
build = {
   type = "builtin",
   modules = {
      nccc = "nccc.lua",
      nccc_luajit = "nccc_luajit.lua",
      ["nccc.abi"] = "nccc/abi.lua",
      ["nccc.binder"] = "nccc/binder.lua",
      ["nccc.builtins"] = "nccc/builtins.lua",
      ["nccc.callbacks"] = "nccc/callbacks.lua",
      ["nccc.cdata"] = "nccc/cdata.lua",
      ["nccc.calls"] = "nccc/calls.lua",
      ["nccc.common"] = "nccc/common.lua",
      ["nccc.interpreter"] = "nccc/interpreter.lua",
      ["nccc.library"] = "nccc/library.lua",
      ["nccc.numbers"] = "nccc/numbers.lua",
      ["nccc.numbers_lua54"] = "nccc/numbers_lua54.lua",
      ["nccc.numbers_luajit"] = "nccc/numbers_luajit.lua",
      ["nccc.owned"] = "nccc/owned.lua",
      ["nccc.owners"] = "nccc/owners.lua",
      ["nccc.packed"] = "nccc/packed.lua",
      ["nccc.registry"] = "nccc/registry.lua",
      ["nccc.remote_memory"] = "nccc/remote_memory.lua",
      ["nccc.signature"] = "nccc/signature.lua",
      ["nccc.values"] = "nccc/values.lua",
      ["nccc.core"] = {
         sources = { "core/module.c", "core/calls.c", "core/specs.c", "core/dispatch.c" },
         incdirs = { "../../nccc_runtime/include" },
         libraries = { "dl" },
      },
   },
}
