/*
** hbench_lua.c — the Lua 5.4 baseline: what a person writes without
** nccc, a C module calling bench_add and running bench_fold with a C
** callback that calls a Lua function (require "hbench").
*/
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "targets.h"

static int l_add(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1);
  lua_Integer b = luaL_checkinteger(L, 2);
  lua_pushinteger(L, (lua_Integer)bench_add((int64_t)a, (int64_t)b));
  return 1;
}

/* The callback: ctx is the lua_State with the Lua function at index 2. */
static int64_t step(int64_t acc, int64_t i, void *ctx) {
  lua_State *L = (lua_State *)ctx;
  int64_t r;
  lua_pushvalue(L, 2);
  lua_pushinteger(L, (lua_Integer)acc);
  lua_pushinteger(L, (lua_Integer)i);
  lua_call(L, 2, 1);
  r = (int64_t)luaL_checkinteger(L, -1);
  lua_pop(L, 1);
  return r;
}

/* fold(n, f): bench_fold calling f(acc, i) n times. */
static int l_fold(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_pushinteger(L, (lua_Integer)bench_fold((int64_t)n, step, L));
  return 1;
}

static const luaL_Reg functions[] = {{"add", l_add}, {"fold", l_fold}, {NULL, NULL}};

int luaopen_hbench(lua_State *L);
int luaopen_hbench(lua_State *L) {
  luaL_newlib(L, functions);
  return 1;
}
