/*
** nccc_core.c — the Lua 5.4 primitive of nccc: require "nccc.core".
**
** Only what Lua cannot do itself: load a library and find a symbol, call
** an nccc_fn with two slot buffers, make and access slot buffers, and the
** one dispatcher that C calls for every callback. Everything else
** (signatures, conversions, the registry, closures) is nccc.lua, the same
** file on Lua 5.4 and LuaJIT; docs/LUA.md states the contract.
**
** A slot is a Lua integer holding the slot's 64 bits (two's complement).
** Buffers are full userdata, indexed from 0 and bounds-checked; inside a
** callback the dispatcher hands over in and out as light userdata, which
** get/set/getbytes/setbytes accept unchecked (nccc.lua sizes them from the
** callback's signature).
**
** Callbacks. core.ref(f) keeps f and gives its environment word,
** (state tag << 32) | reference. C calls the dispatcher with in[0] = that
** word; the dispatcher runs f(in, out) on the lua_State of the innermost
** core.call under way on its thread, always in protected mode: a Lua error
** must never unwind through the C library that called back. The first
** error of a call (and the number of further ones) is kept and returned
** by core.call when the C function has returned; the callback's out slots
** stay as the C side zeroed them. A release notice (out == NULL) runs
** f(in, nil) and then drops the reference. A callback with no core.call
** of this state under way on its thread (another thread, an atexit
** handler) cannot run: it is counted (core.lost()) and left zeroed, and a
** lost notice leaves its reference in place.
*/
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include <nccc/slot.h>

#define BUFFER "nccc.slots"
#define MAX_SLOTS ((lua_Integer)1 << 24) /* 128 MiB: no call needs more */

typedef struct slots {
  size_t n;
  uint64_t s[];
} slots;

/* Per Lua state: its tag (the high half of its environment words) and
** the number of live references. */
typedef struct core_state {
  uint32_t tag;
  lua_Integer live;
} core_state;

/* One core.call under way; the innermost one of a thread is current. */
typedef struct frame {
  lua_State *L;
  core_state *st;
  struct frame *prev;
  int errors;
} frame;

static _Thread_local frame *current;
static atomic_uint next_tag;
static atomic_ullong lost;
static const char refs_key = 'r';  /* registry: the table of references */
static const char state_key = 's'; /* registry: the core_state */

/* ---- buffers --------------------------------------------------------- */

/* The slots of argument arg from index i on, for n slots. */
static uint64_t *slots_at(lua_State *L, int arg, lua_Integer i, lua_Integer n) {
  slots *b;
  luaL_argcheck(L, i >= 0, arg + 1, "slot index out of range");
  if (lua_islightuserdata(L, arg)) return (uint64_t *)lua_touserdata(L, arg) + i;
  b = (slots *)luaL_checkudata(L, arg, BUFFER);
  luaL_argcheck(L, n >= 0 && (lua_Unsigned)(i + n) <= b->n, arg + 1,
                "slot index out of range");
  return b->s + i;
}

static int l_buffer(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 1);
  slots *b;
  luaL_argcheck(L, n >= 0 && n <= MAX_SLOTS, 1, "slot count out of range");
  b = (slots *)lua_newuserdatauv(L, offsetof(slots, s) + (size_t)n * 8u, 0);
  b->n = (size_t)n;
  if (n > 0) memset(b->s, 0, (size_t)n * 8u);
  luaL_setmetatable(L, BUFFER);
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
  luaL_argcheck(L, n >= 0 && n <= MAX_SLOTS * 8, 3, "byte count out of range");
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
  luaL_argcheck(L, n <= (size_t)MAX_SLOTS * 8u, 3, "string too long");
  p = slots_at(L, 1, luaL_checkinteger(L, 2), (lua_Integer)((n + 7) / 8));
  nccc_slots_from_bytes(p, s, n);
  return 0;
}

/* A buffer argument for core.call: nil is NULL. */
static uint64_t *buffer_arg(lua_State *L, int arg) {
  if (lua_isnoneornil(L, arg)) return NULL;
  if (lua_islightuserdata(L, arg)) return (uint64_t *)lua_touserdata(L, arg);
  return ((slots *)luaL_checkudata(L, arg, BUFFER))->s;
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

/* ---- calls and the dispatcher ------------------------------------------- */

/* call(fn, in, out): calls the nccc_fn at address fn. Returns nothing, or
** the first error raised by a callback during the call. */
static int l_call(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1);
  nccc_fn fn = (nccc_fn)(uintptr_t)(uint64_t)a;
  frame f;
  luaL_argcheck(L, a != 0, 1, "NULL function");
  f.L = L;
  f.st = (core_state *)lua_touserdata(L, lua_upvalueindex(1));
  f.prev = current;
  f.errors = 0;
  {
    const uint64_t *in = buffer_arg(L, 2);
    uint64_t *out = buffer_arg(L, 3);
    current = &f;
    fn(in, out);
    current = f.prev;
  }
  if (f.errors == 0) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &f);
  if (lua_type(L, -1) != LUA_TSTRING) { /* the message itself could not be kept */
    lua_pop(L, 1);
    lua_pushliteral(L, "a callback failed");
  }
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &f);
  if (f.errors > 1) {
    lua_pushfstring(L, "%s (and %d more callback errors)", lua_tostring(L, -1),
                    f.errors - 1);
  }
  return 1;
}

/* Runs in protected mode: 1 = in, 2 = out or nil, 3 = the frame. */
static int dispatch_body(lua_State *L) {
  const uint64_t *in = (const uint64_t *)lua_touserdata(L, 1);
  frame *f = (frame *)lua_touserdata(L, 3);
  int ref = (int)(uint32_t)in[0];
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key); /* 4 */
  if (lua_rawgeti(L, 4, ref) != LUA_TFUNCTION) return 0; /* released */
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  if (lua_pcall(L, 2, 0, 0) != LUA_OK && f->errors++ == 0) {
    luaL_tolstring(L, -1, NULL);
    lua_rawsetp(L, LUA_REGISTRYINDEX, f);
  }
  if (lua_isnil(L, 2)) { /* a release notice: drop the reference */
    luaL_unref(L, 4, ref);
    f->st->live--;
  }
  return 0;
}

/* The one nccc_fn C calls for every callback of every Lua closure. */
static void dispatch(const uint64_t *in, uint64_t *out) {
  frame *f = current;
  lua_State *L;
  int top;
  if (f == NULL || (uint32_t)(in[0] >> 32) != f->st->tag ||
      !lua_checkstack(f->L, 8)) {
    atomic_fetch_add(&lost, 1);
    return;
  }
  L = f->L;
  top = lua_gettop(L);
  lua_pushcfunction(L, dispatch_body);
  lua_pushlightuserdata(L, (void *)(uintptr_t)in);
  if (out != NULL) {
    lua_pushlightuserdata(L, out);
  } else {
    lua_pushnil(L);
  }
  lua_pushlightuserdata(L, f);
  if (lua_pcall(L, 3, 0, 0) != LUA_OK) atomic_fetch_add(&lost, 1);
  lua_settop(L, top);
}

static int l_dispatcher(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)(uintptr_t)dispatch);
  return 1;
}

/* ref(f): keeps f for the dispatcher; returns its environment word. */
static int l_ref(lua_State *L) {
  core_state *st = (core_state *)lua_touserdata(L, lua_upvalueindex(1));
  int ref;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
  lua_insert(L, 1);
  ref = luaL_ref(L, 1);
  st->live++;
  lua_pushinteger(L, (lua_Integer)(((uint64_t)st->tag << 32) | (uint32_t)ref));
  return 1;
}

/* unref(env): drops a reference whose closure was never claimed. */
static int l_unref(lua_State *L) {
  core_state *st = (core_state *)lua_touserdata(L, lua_upvalueindex(1));
  uint64_t env = (uint64_t)luaL_checkinteger(L, 1);
  int ref = (int)(uint32_t)env;
  luaL_argcheck(L, (uint32_t)(env >> 32) == st->tag, 1, "not a reference of this state");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
  if (lua_rawgeti(L, -1, ref) == LUA_TFUNCTION) {
    luaL_unref(L, -2, ref);
    st->live--;
  }
  return 0;
}

/* refs(): live references of this state; lost(): callbacks that could
** not run, in the whole process. */
static int l_refs(lua_State *L) {
  lua_pushinteger(L, ((core_state *)lua_touserdata(L, lua_upvalueindex(1)))->live);
  return 1;
}

static int l_lost(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)atomic_load(&lost));
  return 1;
}

static const luaL_Reg core_functions[] = {
    {"open", l_open},       {"sym", l_sym},
    {"buffer", l_buffer},   {"get", l_get},
    {"set", l_set},         {"getbytes", l_getbytes},
    {"setbytes", l_setbytes}, {"call", l_call},
    {"dispatcher", l_dispatcher}, {"ref", l_ref},
    {"unref", l_unref},     {"refs", l_refs},
    {"lost", l_lost},       {NULL, NULL}};

int luaopen_nccc_core(lua_State *L);
int luaopen_nccc_core(lua_State *L) {
  luaL_newmetatable(L, BUFFER);
  lua_pop(L, 1);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key) != LUA_TTABLE) {
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &refs_key);
  }
  lua_pop(L, 1);
  luaL_newlibtable(L, core_functions);
  /* One state record per Lua state, kept when the module is loaded again. */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &state_key) != LUA_TUSERDATA) {
    core_state *st;
    lua_pop(L, 1);
    st = (core_state *)lua_newuserdatauv(L, sizeof *st, 0);
    st->tag = atomic_fetch_add(&next_tag, 1) + 1;
    st->live = 0;
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &state_key);
  }
  luaL_setfuncs(L, core_functions, 1);
  lua_pushliteral(L, "lua");
  lua_setfield(L, -2, "kind");
  return 1;
}
