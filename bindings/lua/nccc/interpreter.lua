-- nccc/interpreter.lua — the one place that asks which interpreter runs:
-- the primitive (nccc.core, the Lua 5.4 C module, or nccc_luajit over
-- LuaJIT's ffi) and the matching rules for numbers (nccc/numbers_*.lua).
-- Every other file is the same on both.
local luajit = rawget(_G, "jit") ~= nil
local core = require(luajit and "nccc_luajit" or "nccc.core")
local numbers = require(luajit and "nccc.numbers_luajit" or "nccc.numbers_lua54")
if core.source then require("nccc.common").internal(core.source) end
-- LuaJIT's compiled converters read floats and pointers by these rules.
if core.codec then core.codec.s2f, core.codec.vptr = numbers.s2f, numbers.vptr end
return {core = core, numbers = numbers}
