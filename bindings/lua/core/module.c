/*
** module.c — require "nccc.core": the Lua 5.4 primitive of nccc (docs/LUA.md,
** "The primitive"). Only what Lua cannot do itself: load a library and
** find a symbol, call an nccc_fn with two slot buffers, make and access
** slot buffers (calls.c), functions and callbacks prepared once
** (specs.c), and the one dispatcher that C calls for every callback
** (dispatch.c). Everything else is the support library bindings/lua/nccc,
** the same files on Lua 5.4 and LuaJIT.
**
** Every function of the module has the Lua state's record (its tag and
** live references) as its one upvalue.
*/
#include <stdatomic.h>
#include <stdlib.h>

#include "core.h"

static atomic_uint next_tag;
static const char state_key = 's'; /* registry: the lcore_state */

/* The state record goes with its Lua state. */
static int state_gc(lua_State *L) {
  lcore_state *st = (lcore_state *)lua_touserdata(L, 1);
  free((void *)st->cb);
  st->cb = NULL;
  st->ncb = 0;
  return 0;
}

int luaopen_nccc_core(lua_State *L) {
  static const luaL_Reg *const parts[] = {lcore_calls_functions, lcore_specs_functions,
                                          lcore_dispatch_functions};
  size_t k;
  luaL_newmetatable(L, LCORE_BUFFER);
  lua_pop(L, 1);
  luaL_newmetatable(L, LCORE_SPEC);
  lua_pop(L, 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_refs_key) != LUA_TTABLE) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lcore_refs_key);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lcore_convs_key);
  }
  lua_pop(L, 1);
  lua_newtable(L);
  /* One state record per Lua state, kept when the module is loaded again. */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key) != LUA_TUSERDATA) {
    lcore_state *st;
    lua_pop(L, 1);
    st = (lcore_state *)lua_newuserdatauv(L, sizeof *st, 0);
    st->tag = atomic_fetch_add(&next_tag, 1) + 1;
    st->live = 0;
    st->cb = NULL;
    st->ncb = 0;
    if (luaL_newmetatable(L, "nccc.state")) {
      lua_pushcfunction(L, state_gc);
      lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &state_key);
  }
  for (k = 0; k < sizeof parts / sizeof parts[0]; k++) { /* the table, the state: */
    lua_pushvalue(L, -2);
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, parts[k], 1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_pushliteral(L, "lua");
  lua_setfield(L, -2, "kind");
  return 1;
}
