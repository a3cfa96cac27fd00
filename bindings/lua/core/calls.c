/*
** calls.c — nccc.core's slot buffers, libraries and plain calls.
**
** Buffers are full userdata, indexed from 0 and bounds-checked; inside a
** callback the dispatcher hands over in and out as light userdata, which
** get/set/getbytes/setbytes accept unchecked (the support library sizes
** them from the callback's signature). A call runs as the innermost
** call under way on its thread (lcore_current), so that the dispatcher
** finds the lua_State to run callbacks on; the first error a callback
** raised during it (and the number of further ones) is returned once the
** C function has returned.
*/
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <string.h>

#include "core.h"

#if defined(__GNUC__) && !defined(__APPLE__)
_Thread_local lcore_frame *lcore_current __attribute__((tls_model("initial-exec")));
#else
_Thread_local lcore_frame *lcore_current;
#endif

/* ---- buffers --------------------------------------------------------- */

/* The slots of argument arg from index i on, for n slots. */
static uint64_t *slots_at(lua_State *L, int arg, lua_Integer i, lua_Integer n) {
  lcore_slots *b;
  luaL_argcheck(L, i >= 0, arg + 1, "slot index out of range");
  if (lua_islightuserdata(L, arg)) return (uint64_t *)lua_touserdata(L, arg) + i;
  b = (lcore_slots *)luaL_checkudata(L, arg, LCORE_BUFFER);
  luaL_argcheck(L, n >= 0 && (lua_Unsigned)(i + n) <= b->n, arg + 1,
                "slot index out of range");
  return b->s + i;
}

static int l_buffer(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 1);
  lcore_slots *b;
  luaL_argcheck(L, n >= 0 && n <= LCORE_MAX_SLOTS, 1, "slot count out of range");
  b = (lcore_slots *)lua_newuserdatauv(L, offsetof(lcore_slots, s) + (size_t)n * 8u, 0);
  b->n = (size_t)n;
  if (n > 0) memset(b->s, 0, (size_t)n * 8u);
  luaL_setmetatable(L, LCORE_BUFFER);
  return 1;
}

static int l_get(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)*slots_at(L, 1, luaL_checkinteger(L, 2), 1));
  return 1;
}

static int l_set(lua_State *L) {
  uint64_t *p = slots_at(L, 1, luaL_checkinteger(L, 2), 1);
  *p = (uint64_t)luaL_checkinteger(L, 3);
  return 0;
}

/* getbytes(buf, i, n): n bytes from slot i on, as a string. */
static int l_getbytes(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 3);
  uint64_t *p;
  luaL_argcheck(L, n >= 0 && n <= LCORE_MAX_SLOTS * 8, 3, "byte count out of range");
  p = slots_at(L, 1, luaL_checkinteger(L, 2), (n + 7) / 8);
  lua_pushlstring(L, (const char *)p, (size_t)n);
  return 1;
}

/* setbytes(buf, i, s): s into the slots from i on, the rest of the last
** slot zeroed (every bit of a slot is defined). */
static int l_setbytes(lua_State *L) {
  size_t n;
  const char *s = luaL_checklstring(L, 3, &n);
  uint64_t *p;
  luaL_argcheck(L, n <= (size_t)LCORE_MAX_SLOTS * 8u, 3, "string too long");
  p = slots_at(L, 1, luaL_checkinteger(L, 2), (lua_Integer)((n + 7) / 8));
  nccc_slots_from_bytes(p, s, n);
  return 0;
}

/* A buffer argument for core.call: nil is NULL. */
static uint64_t *buffer_arg(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return NULL;
  if (lua_islightuserdata(L, arg)) return (uint64_t *)lua_touserdata(L, arg);
  return ((lcore_slots *)luaL_checkudata(L, arg, LCORE_BUFFER))->s;
}

/* ---- libraries --------------------------------------------------------- */

/* open([path]): the library, loaded for good (C may keep pointers into
** it); no path: the program itself. */
static int l_open(lua_State *L) {
  const char *path = luaL_optstring(L, 1, NULL);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    return luaL_error(L, "cannot load %s: %s", path ? path : "the program",
                      dlerror());
  }
  lua_pushlightuserdata(L, h);
  return 1;
}

/* sym(lib, name): the symbol's address as a slot. */
static int l_sym(lua_State *L) {
  const char *name = luaL_checkstring(L, 2);
  void *p;
  luaL_checktype(L, 1, LUA_TLIGHTUSERDATA);
  dlerror();
  p = dlsym(lua_touserdata(L, 1), name);
  if (p == NULL) return luaL_error(L, "symbol '%s' not found", name);
  lua_pushinteger(L, (lua_Integer)(uintptr_t)p);
  return 1;
}

/* ---- calls ---------------------------------------------------------------- */

void lcore_push_errors(lua_State *L, lcore_frame *f) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, f);
  if (lua_type(L, -1) != LUA_TSTRING) { /* the message itself could not be kept */
    lua_pop(L, 1);
    lua_pushliteral(L, "a callback failed");
  }
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, f);
  if (f->errors > 1) {
    lua_pushfstring(L, "%s (and %d more callback errors)", lua_tostring(L, -1),
                    f->errors - 1);
  }
}

/* call(fn, in, out): calls the nccc_fn at address fn. Returns nothing, or
** the first error raised by a callback during the call. */
static int l_call(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1);
  const uint64_t *in;
  uint64_t *out;
  lcore_frame f;
  luaL_argcheck(L, a != 0, 1, "NULL function");
  in = buffer_arg(L, 2);
  out = buffer_arg(L, 3);
  if (lcore_run(L, (lcore_state *)lua_touserdata(L, lua_upvalueindex(1)),
                (nccc_fn)(uintptr_t)(uint64_t)a, in, out, &f) == 0) {
    return 0;
  }
  lcore_push_errors(L, &f);
  return 1;
}

/* call_slots(addr, nout, ...): the hand-written path, raw slots in and
** out (integers; no checks but that they are integers). */
static int l_call_slots(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1), nout = luaL_checkinteger(L, 2);
  int n = lua_gettop(L) - 2, k;
  uint64_t in[LCORE_STACK_SLOTS], out[LCORE_STACK_SLOTS];
  lcore_frame f;
  luaL_argcheck(L, a != 0, 1, "NULL function");
  luaL_argcheck(L, nout >= 0 && nout <= LCORE_STACK_SLOTS, 2, "slot count out of range");
  luaL_argcheck(L, n <= LCORE_STACK_SLOTS, 3, "too many slots");
  for (k = 0; k < n; k++) in[k] = (uint64_t)luaL_checkinteger(L, k + 3);
  memset(out, 0, (size_t)nout * 8u);
  if (lcore_run(L, (lcore_state *)lua_touserdata(L, lua_upvalueindex(1)),
                (nccc_fn)(uintptr_t)(uint64_t)a, in, out, &f)) {
    lcore_push_errors(L, &f);
    return lua_error(L);
  }
  for (k = 0; k < (int)nout; k++) lua_pushinteger(L, (lua_Integer)out[k]);
  return (int)nout;
}

const luaL_Reg lcore_calls_functions[] = {
    {"open", l_open},         {"sym", l_sym},
    {"buffer", l_buffer},     {"get", l_get},
    {"set", l_set},           {"getbytes", l_getbytes},
    {"setbytes", l_setbytes}, {"call", l_call},
    {"call_slots", l_call_slots}, {NULL, NULL}};
