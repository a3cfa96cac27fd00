"""The Lua emitter: M.lua, a module for the Lua support library
bindings/lua (Lua 5.4 and LuaJIT alike, docs/LUA.md "Generated modules").

    local tour = require("tour").bind(nccc.open(path))
    tour.add(40, 2)   --> 42

The file is data only: the module's binding records
(stubgen/model/binding.py, docs/BINDING.md) as one Lua table, written by
the shared literal writer (stubgen/literal.py), handed to
bindings/lua/nccc/binder.lua, whose bind interprets them: it looks every
function up once, checks its signature and makes each function's call
once (lib:fast: a C closure on Lua 5.4, compiled Lua on LuaJIT) with
the conversions its record asks for.
"""

from stubgen.host import HostModule
from stubgen.literal import LiteralSyntax, write_literal
from stubgen.model.binding import data_records
from stubgen.source import Source


def lua_string(text):
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"')


# Lua's reserved words: a table key that is one (a C field named "in" or
# "end") is written ["in"] = ...
LUA_KEYWORDS = frozenset("""and break do else elseif end false for function
goto if in local nil not or repeat return then true until while""".split())


def lua_key(name):
    if name in LUA_KEYWORDS:
        return "[%s] = " % lua_string(name)
    return "%s = " % name


LUA = LiteralSyntax(string=lua_string, true="true", false="false",
                    list=("{", "}"), dict=("{", "}"), key=lua_key)


def emit(module, idl_name):
    host = HostModule(module, idl_name)
    src = Source()
    src.line(host.title("--", host.name + ".lua", "Lua", lua_string))
    src.lines("""
        -- Data only: the module's binding records (docs/BINDING.md); bind,
        -- the conversions and calls are the support library's
        -- (bindings/lua/nccc/binder.lua; docs/LUA.md, "Generated modules"):
        --   local m = require("%s").bind(nccc.open(path))
        """ % host.name)
    write_literal(src, data_records(module), LUA,
                  before='return require("nccc.binder").module(', after=")")
    return {host.name + ".lua": str(src)}
