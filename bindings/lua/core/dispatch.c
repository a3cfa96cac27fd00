/*
** dispatch.c — nccc.core's one dispatcher, the nccc_fn C calls for every
** callback of every Lua closure, and the references it calls.
**
** core.ref(f) keeps f and gives its environment word, (state tag << 32)
** | reference. C calls the dispatcher with in[0] = that word; the
** dispatcher runs f(in, out) on the lua_State of the innermost core call
** under way on its thread, always in protected mode: a Lua error must
** never unwind through the C library that called back. The first error
** of a call (and the number of further ones) is kept for that call to
** return; the callback's out slots stay as the C side zeroed them. A
** release notice (out == NULL) runs f(in, nil) and then drops the
** reference. A callback with no core call of this state under way on its
** thread (another thread, an atexit handler) cannot run: it is counted
** (core.lost()) and left zeroed, and a lost notice leaves its reference
** in place.
**
** core.ref(f, ins, outs, notice, conv) makes a converted callback: the
** dispatcher converts in[1..] to Lua values and f's results into out by
** the callback's spec (specs.c), asking conv(k, v) where it cannot (k >
** 0: argument k from its raw slot or bytes; k < 0: result -k to its slot
** or bytes).
*/
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static atomic_ullong lost;
const char lcore_refs_key = 'r';  /* registry: the table of references */
const char lcore_convs_key = 'c'; /* registry: converted callbacks' entries */

/* Runs in protected mode: 1 = in, 2 = out or nil. A reference is a
** function f (refs[ref]), called f(in, out) with raw views, or a
** converted callback, with entry convs[ref] = {spec, notice, conv}: f
** gets the arguments as Lua values and its results go into out, both by
** the spec; a release notice runs notice(). */
static int dispatch_body(lua_State *L) {
  const uint64_t *in = (const uint64_t *)lua_touserdata(L, 1);
  uint64_t *out = (uint64_t *)lua_touserdata(L, 2);
  int ref = (int)(uint32_t)in[0], k, base;
  const lcore_spec *sp;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_refs_key);  /* 3 */
  if (lua_rawgeti(L, 3, ref) != LUA_TFUNCTION) return 0; /* 4: released */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_convs_key); /* 5 */
  if (lua_rawgeti(L, 5, ref) != LUA_TTABLE) {          /* 6 */
    lua_settop(L, 4);
    lua_pushvalue(L, 1);
    if (out != NULL) lua_pushvalue(L, 2); else lua_pushnil(L);
    lua_call(L, 2, 0);
    return 0;
  }
  if (out == NULL) {
    if (lua_rawgeti(L, 6, 2) == LUA_TFUNCTION) lua_call(L, 0, 0);
    return 0;
  }
  lua_rawgeti(L, 6, 1); /* 7: spec */
  lua_rawgeti(L, 6, 3); /* 8: conv */
  sp = (const lcore_spec *)lua_touserdata(L, 7);
  luaL_checkstack(L, sp->nargs + sp->nres + 4, "too many arguments");
  lua_pushvalue(L, 4);
  for (k = 0; k < sp->nargs; k++) lcore_decode(L, in + 1 + sp->ins[k].slot, &sp->ins[k], 8, k + 1);
  lua_call(L, sp->nargs, sp->nres);
  base = lua_gettop(L) - sp->nres + 1;
  for (k = 0; k < sp->nres; k++) {
    uint64_t tmp[LCORE_STACK_SLOTS];
    const lcore_item *it = &sp->outs[k];
    uint32_t n = it->code == NCCC_ABI_SIG_RECORD_OPEN ? (it->size + 7u) / 8u : 1u;
    /* into a copy first: out keeps C's zeroes if a later result fails */
    if (n <= LCORE_STACK_SLOTS) {
      lcore_encode(L, base + k, it, tmp, 8, -(k + 1));
      memcpy(out + it->slot, tmp, n * 8u);
    } else {
      lcore_encode(L, base + k, it, out + it->slot, 8, -(k + 1));
    }
  }
  return 0;
}

/* Drops reference ref of state st (the stack top is the refs table). */
static void drop_ref(lua_State *L, lcore_state *st, int ref) {
  luaL_unref(L, -1, ref);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_convs_key) == LUA_TTABLE) {
    lua_pushnil(L);
    lua_rawseti(L, -2, ref);
  }
  lua_pop(L, 1);
  if (ref < st->ncb) st->cb[ref] = NULL;
  st->live--;
}

/* The first error of a call is kept (by its frame), the others counted. */
static void keep_error(lua_State *L, lcore_frame *f) {
  if (f->errors++ == 0) {
    luaL_tolstring(L, -1, NULL);
    lua_rawsetp(L, LUA_REGISTRYINDEX, f);
  }
}

/* Protected: a direct callback's results that C could not convert
** alone. 1..n the results, then spec, the slots to fill, the reference. */
static int encode_results(lua_State *L) {
  int n = lua_gettop(L) - 3, k;
  const lcore_spec *sp = (const lcore_spec *)lua_touserdata(L, n + 1);
  uint64_t *tmp = (uint64_t *)lua_touserdata(L, n + 2);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_convs_key);
  lua_rawgeti(L, -1, (lua_Integer)lua_tointeger(L, n + 3));
  lua_rawgeti(L, -1, 3); /* conv */
  for (k = 0; k < sp->nres; k++) {
    lcore_encode(L, k + 1, &sp->outs[k], tmp + sp->outs[k].slot, lua_gettop(L), -(k + 1));
  }
  return 0;
}

/* A converted callback whose arguments C pushes itself: f is called
** straight in protected mode (no body function between). Returns 0 when
** the general path must run it (nothing has run yet). */
static int direct(lua_State *L, lcore_frame *f, const lcore_spec *sp, int ref,
                  const uint64_t *in, uint64_t *out) {
  uint64_t tmp[LCORE_STACK_SLOTS];
  int k, base;
  if (sp->nargs + sp->nres > 32 && !lua_checkstack(L, sp->nargs + sp->nres + 8)) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_refs_key);
  if (lua_rawgeti(L, -1, ref) != LUA_TFUNCTION) return 0; /* f */
  base = lua_gettop(L);
  for (k = 0; k < sp->nargs; k++) {
    const lcore_item *it = &sp->ins[k];
    uint64_t v = in[1 + it->slot];
    switch (it->code) {
    case '?': lua_pushboolean(L, v != 0); break;
    case 'f': case 'd': lua_pushnumber(L, (lua_Number)nccc_slot_to_double(v)); break;
    case 'p': case 'F': case 'c':
      if (v == 0) lua_pushnil(L); else lua_pushinteger(L, (lua_Integer)v);
      break;
    case 'L':
      if ((int64_t)v < 0) return 0; /* a uint64 box: the helper makes it */
      lua_pushinteger(L, (lua_Integer)v);
      break;
    default: lua_pushinteger(L, (lua_Integer)v);
    }
  }
  if (lua_pcall(L, sp->nargs, sp->nres, 0) != LUA_OK) {
    keep_error(L, f);
    return 1;
  }
  /* into a copy first: out keeps C's zeroes if a result is refused */
  for (k = 0; k < sp->nres; k++) {
    const lcore_item *it = &sp->outs[k];
    if (it->integer) { /* the common case inline */
      int ok;
      lua_Integer x = lua_tointegerx(L, base + k, &ok);
      if (ok && x >= it->lo && x <= it->hi && lua_type(L, base + k) == LUA_TNUMBER) {
        tmp[it->slot] = (uint64_t)x;
        continue;
      }
    }
    if (!lcore_encode_fast(L, base + k, it, tmp + it->slot)) break;
  }
  if (k < sp->nres) {
    lua_pushcfunction(L, encode_results);
    lua_insert(L, base);
    lua_pushlightuserdata(L, (void *)(uintptr_t)sp);
    lua_pushlightuserdata(L, tmp);
    lua_pushinteger(L, ref);
    if (lua_pcall(L, sp->nres + 3, 0, 0) != LUA_OK) {
      keep_error(L, f);
      return 1;
    }
  }
  if (sp->nout == 1) /* most callbacks: one store, not a call of memcpy */
    out[0] = tmp[0];
  else
    memcpy(out, tmp, sp->nout * 8u);
  return 1;
}

/* The one nccc_fn C calls for every callback of every Lua closure. */
static void dispatch(const uint64_t *in, uint64_t *out) {
  lcore_frame *f = lcore_current;
  lua_State *L;
  const lcore_spec *sp;
  int top, ref = (int)(uint32_t)in[0];
  if (f == NULL || (uint32_t)(in[0] >> 32) != f->st->tag ||
      !lua_checkstack(f->L, 40)) { /* room for direct()'s 32 values */
    atomic_fetch_add(&lost, 1);
    return;
  }
  L = f->L;
  top = lua_gettop(L);
  sp = out != NULL && ref < f->st->ncb ? f->st->cb[ref] : NULL;
  if (sp != NULL && sp->direct && direct(L, f, sp, ref, in, out)) {
    lua_settop(L, top);
    return;
  }
  lua_settop(L, top);
  lua_pushcfunction(L, dispatch_body);
  lua_pushlightuserdata(L, (void *)(uintptr_t)in);
  lua_pushlightuserdata(L, out);
  if (lua_pcall(L, 2, 0, 0) != LUA_OK) keep_error(L, f);
  if (out == NULL) { /* a release notice: drop the reference */
    lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_refs_key);
    if (lua_rawgeti(L, -1, ref) == LUA_TFUNCTION) {
      lua_pop(L, 1);
      drop_ref(L, f->st, ref);
    }
  }
  lua_settop(L, top);
}

static int l_dispatcher(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)(uintptr_t)dispatch);
  return 1;
}

/* ref(f[, ins, outs, notice, conv]): keeps f for the dispatcher; returns
** its environment word. With ins/outs (the callback's slot spec, after
** in[0]) the dispatcher converts; notice runs on the release notice. */
static int l_ref(lua_State *L) {
  lcore_state *st = (lcore_state *)lua_touserdata(L, lua_upvalueindex(1));
  lcore_spec *cbsp = NULL;
  int ref;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 5);
  if (!lua_isnil(L, 2)) {
    const char *ins = luaL_checkstring(L, 2), *outs = luaL_checkstring(L, 3);
    lua_createtable(L, 3, 0); /* 6: the entry */
    cbsp = lcore_new_spec(L, ins, outs, "callback");
    if (cbsp->var) return luaL_error(L, "a callback spec cannot end in '*'");
    lua_rawseti(L, 6, 1);
    lua_pushvalue(L, 4);
    lua_rawseti(L, 6, 2);
    lua_pushvalue(L, 5);
    lua_rawseti(L, 6, 3);
  }
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_refs_key);
  lua_pushvalue(L, 1);
  ref = luaL_ref(L, -2);
  if (ref >= st->ncb) { /* room for its spec pointer */
    int n = ref < 64 ? 128 : 2 * ref;
    const lcore_spec **cb = (const lcore_spec **)realloc((void *)st->cb, (size_t)n * sizeof *cb);
    if (cb == NULL) {
      luaL_unref(L, -1, ref);
      return luaL_error(L, "not enough memory");
    }
    memset((void *)(cb + st->ncb), 0, (size_t)(n - st->ncb) * sizeof *cb);
    st->cb = cb;
    st->ncb = n;
  }
  if (cbsp != NULL) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_convs_key);
    lua_pushvalue(L, 6);
    lua_rawseti(L, -2, ref);
  }
  st->cb[ref] = cbsp;
  st->live++;
  lua_pushinteger(L, (lua_Integer)(((uint64_t)st->tag << 32) | (uint32_t)ref));
  return 1;
}

/* unref(env): drops a reference whose closure was never claimed. */
static int l_unref(lua_State *L) {
  lcore_state *st = (lcore_state *)lua_touserdata(L, lua_upvalueindex(1));
  uint64_t env = (uint64_t)luaL_checkinteger(L, 1);
  int ref = (int)(uint32_t)env;
  luaL_argcheck(L, (uint32_t)(env >> 32) == st->tag, 1, "not a reference of this state");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lcore_refs_key);
  if (lua_rawgeti(L, -1, ref) == LUA_TFUNCTION) {
    lua_pop(L, 1);
    drop_ref(L, st, ref);
  }
  return 0;
}

/* refs(): live references of this state; lost(): callbacks that could
** not run, in the whole process. */
static int l_refs(lua_State *L) {
  lua_pushinteger(L, ((lcore_state *)lua_touserdata(L, lua_upvalueindex(1)))->live);
  return 1;
}

static int l_lost(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)atomic_load(&lost));
  return 1;
}

const luaL_Reg lcore_dispatch_functions[] = {
    {"dispatcher", l_dispatcher}, {"ref", l_ref}, {"unref", l_unref},
    {"refs", l_refs},             {"lost", l_lost}, {NULL, NULL}};
