/*
** specs.c — nccc.core's functions and callbacks prepared once, and the
** fast paths that convert by them.
**
** core.fn(addr, ins, outs, name, slow, post) makes one C closure per
** function, from a slot spec prepared once (the function's signature,
** resolved by the support library when the module is bound): it checks
** the argument count, converts each argument straight into a slot buffer
** on the C stack (so a callback may call the same function again), calls
** and pushes the results. Values the C side cannot take itself (u64
** boxes, closures, records, NULL, anything wrong, items marked helper)
** go to slow(k, v), which returns the slot (or the record's bytes) or
** raises the error; with a helper key in place of k (nccc/abi.h) slow
** raises the call's other errors. post(k, v) makes the Lua value of out
** item k where C cannot (records, uint64 values above math.maxinteger,
** items marked helper). The dispatcher (dispatch.c)
** converts callbacks by the same specs and conversions.
**
** The item format (docs/ABI.md, "Core items"), the codes, their kinds
** and widths come from nccc/abi.h.
*/
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* The Lua integers a code's slot takes without the helper: integers of
** up to 32 bits their range, 64-bit ones what a Lua integer holds. */
#define LO_SIGNED(b) ((b) == 8 ? LUA_MININTEGER : -(lua_Integer)((uint64_t)1 << ((8 * (b) - 1) % 63)))
#define HI_SIGNED(b) ((b) == 8 ? LUA_MAXINTEGER : (lua_Integer)(((uint64_t)1 << ((8 * (b) - 1) % 63)) - 1))
#define HI_UNSIGNED(b) ((b) == 8 ? LUA_MAXINTEGER : (lua_Integer)(((uint64_t)1 << ((8 * (b)) % 63)) - 1))
#define LO_INT(b, s) ((s) ? LO_SIGNED(b) : 0)
#define HI_INT(b, s) ((s) ? HI_SIGNED(b) : HI_UNSIGNED(b))
#define LO_ERRNO LO_INT
#define HI_ERRNO HI_INT
#define LO_BOOL(b, s) 0
#define HI_BOOL(b, s) 1
#define LO_OTHER(b, s) 0
#define LO_FLOAT LO_OTHER
#define LO_POINTER LO_OTHER
#define LO_STRING LO_OTHER
#define LO_FUNCTION LO_OTHER
#define LO_CLOSURE LO_OTHER
#define HI_FLOAT LO_OTHER
#define HI_POINTER LO_OTHER
#define HI_STRING LO_OTHER
#define HI_FUNCTION LO_OTHER
#define HI_CLOSURE LO_OTHER
#define INTEGER_INT 1
#define INTEGER_ERRNO 1
#define INTEGER_BOOL 0
#define INTEGER_FLOAT 0
#define INTEGER_POINTER 0
#define INTEGER_STRING 0
#define INTEGER_FUNCTION 0
#define INTEGER_CLOSURE 0

#define LO_ENTRY(c, name, kind, bytes, sgn, in_ok, out_ok) [(unsigned char)(c)] = LO_##kind(bytes, sgn),
#define HI_ENTRY(c, name, kind, bytes, sgn, in_ok, out_ok) [(unsigned char)(c)] = HI_##kind(bytes, sgn),
#define INTEGER_ENTRY(c, name, kind, bytes, sgn, in_ok, out_ok) [(unsigned char)(c)] = INTEGER_##kind,
static const lua_Integer LO[128] = {NCCC_ABI_CODES(LO_ENTRY)};
static const lua_Integer HI[128] = {NCCC_ABI_CODES(HI_ENTRY)};
static const char INTEGER[128] = {NCCC_ABI_CODES(INTEGER_ENTRY)};

/* Parses one side of a spec in the native cores' item format (docs/ABI.md,
** "Core items": "ll", "!s{16}", "~p" ...) into items; returns the item
** count (-1: malformed), *slots the slots taken. */
static int parse_side(const char *s, lcore_item *out, int max, uint32_t *slots, int *var) {
  int n = 0;
  uint32_t slot = 0;
  *var = 0;
  while (*s) {
    lcore_item it = {0, 0, 0, 0, 0, 0, 0};
    int helper = 0;
    if (*s == NCCC_ABI_SIG_VARIADIC && s[1] == '\0') { *var = 1; s++; break; }
    for (;; s++) {
      if (*s == NCCC_ABI_ITEM_NONNULL && !it.nonnull) it.nonnull = 1;
      else if (*s == NCCC_ABI_ITEM_HELPER && !helper) helper = 1;
      else break;
    }
    it.code = *s++;
    if (it.code == NCCC_ABI_SIG_RECORD_OPEN) {
      char *end;
      unsigned long size = strtoul(s, &end, 10);
      if (end == s || *end != NCCC_ABI_SIG_RECORD_CLOSE || size == 0 ||
          size > (unsigned long)LCORE_MAX_SLOTS * 8u) {
        return -1;
      }
      it.size = (uint32_t)size;
      s = end + 1;
    } else if (it.code == '\0' || !strchr(NCCC_ABI_OUT_CODES, it.code)) {
      return -1;
    }
    if (n == max) return -1;
    it.slot = slot;
    it.lo = LO[(unsigned char)it.code & 127];
    it.hi = HI[(unsigned char)it.code & 127];
    it.integer = INTEGER[(unsigned char)it.code & 127];
    /* a helper item keeps the mark as its code: no fast path takes it */
    if (helper && it.code != NCCC_ABI_SIG_RECORD_OPEN) {
      it.code = NCCC_ABI_ITEM_HELPER;
      it.integer = 0;
    }
    slot += it.code == NCCC_ABI_SIG_RECORD_OPEN ? (it.size + 7u) / 8u : 1u;
    out[n++] = it;
  }
  *slots = slot;
  return n;
}

lcore_spec *lcore_new_spec(lua_State *L, const char *ins, const char *outs, const char *name) {
  size_t nl = strlen(name), ni = strlen(ins) + 1, no = strlen(outs) + 1;
  lcore_spec *sp = (lcore_spec *)lua_newuserdatauv(
      L, sizeof(lcore_spec) + (ni + no) * sizeof(lcore_item) + nl + 1, 0);
  int var_out;
  sp->fn = sp->clear = sp->last = NULL;
  sp->st = NULL;
  sp->direct = 0;
  sp->ins = (lcore_item *)(sp + 1);
  sp->outs = sp->ins + ni;
  sp->name = (const char *)memcpy((char *)(sp->outs + no), name, nl + 1);
  sp->nargs = parse_side(ins, sp->ins, (int)ni, &sp->nin, &sp->var);
  sp->nres = parse_side(outs, sp->outs, (int)no, &sp->nout, &var_out);
  if (sp->nargs < 0 || sp->nres < 0 || var_out) {
    luaL_error(L, "malformed slot spec '%s:%s' for %s", ins, outs, name);
  }
  /* as a callback: C pushes every argument itself and has room for the
  ** results (strings and records need the helper or may allocate) */
  sp->direct = !strchr(ins, 's') && !strchr(ins, NCCC_ABI_SIG_RECORD_OPEN) &&
               !strchr(outs, NCCC_ABI_SIG_RECORD_OPEN) && !strchr(ins, NCCC_ABI_ITEM_HELPER) &&
               !strchr(outs, NCCC_ABI_ITEM_HELPER) && sp->nout <= LCORE_STACK_SLOTS;
  luaL_setmetatable(L, LCORE_SPEC);
  return sp;
}

/* Asks the Lua helper at stack index h for slot k's value v; returns
** the slot, or copies a record's bytes into p. */
uint64_t lcore_ask(lua_State *L, int h, int k, int v, const lcore_item *it, uint64_t *p) {
  uint64_t r = 0;
  lua_pushvalue(L, h);
  lua_pushinteger(L, k);
  lua_pushvalue(L, v);
  lua_call(L, 2, 1);
  if (it != NULL && it->code == NCCC_ABI_SIG_RECORD_OPEN) {
    size_t n;
    const char *b = lua_tolstring(L, -1, &n);
    if (b == NULL || n != it->size) luaL_error(L, "nccc: record of %d bytes expected", (int)it->size);
    nccc_slots_from_bytes(p, b, n);
  } else {
    int ok;
    r = (uint64_t)lua_tointegerx(L, -1, &ok);
    if (!ok) luaL_error(L, "nccc: the slot helper returned no integer");
  }
  lua_pop(L, 1);
  return r;
}

/* Lua value v -> slot(s) at p by item it, where C can convert it alone:
** 1 done, 0 the helper must (or the value is wrong). Never raises, so
** the dispatcher may use it outside protected mode. */
int lcore_encode_fast(lua_State *L, int v, const lcore_item *it, uint64_t *p) {
  char c = it->code;
  int ok;
  lua_Integer x;
  switch (c) {
  case 'l': case '*': /* an integral float as well: the helper would take it */
    x = lua_tointegerx(L, v, &ok);
    if (ok && lua_type(L, v) == LUA_TNUMBER) { *p = (uint64_t)x; return 1; }
    return 0;
  case 'b': case 'B': case 'h': case 'H': case 'i': case 'I': case 'e':
    x = lua_tointegerx(L, v, &ok);
    if (ok && x >= it->lo && x <= it->hi && lua_type(L, v) == LUA_TNUMBER) {
      *p = (uint64_t)x;
      return 1;
    }
    return 0;
  case 'L':
    x = lua_tointegerx(L, v, &ok);
    if (ok && x >= 0 && lua_type(L, v) == LUA_TNUMBER) { *p = (uint64_t)x; return 1; }
    return 0;
  case '?':
    if (lua_type(L, v) == LUA_TBOOLEAN) { *p = (uint64_t)lua_toboolean(L, v); return 1; }
    return 0;
  case 'f': /* the double's bits; C narrows it (docs/ABI.md) */
  case 'd': {
    double d = (double)lua_tonumberx(L, v, &ok);
    if (!ok || lua_type(L, v) != LUA_TNUMBER) return 0;
    if (c == 'f' && !(d != d || isinf(d) || (d <= FLT_MAX && d >= -FLT_MAX))) return 0;
    *p = nccc_slot_from_double(d);
    return 1;
  }
  case 'p': case 'F':
    if (lua_isinteger(L, v)) {
      x = lua_tointeger(L, v);
      if (it->nonnull && x == 0) return 0;
      *p = (uint64_t)x;
      return 1;
    }
    if (!it->nonnull && lua_isnil(L, v)) { *p = 0; return 1; }
    return 0;
  case 'c':
    if (!it->nonnull && lua_isnil(L, v)) { *p = 0; return 1; }
    return 0;
  case 's':
    if (lua_type(L, v) == LUA_TSTRING) {
      size_t n;
      const char *str = lua_tolstring(L, v, &n);
      /* the Lua string itself, NUL-terminated and alive on the stack for
      ** the whole call: no copy */
      if (strlen(str) == n) { *p = (uint64_t)(uintptr_t)str; return 1; }
    }
    return 0;
  case '{':
    if (lua_type(L, v) == LUA_TSTRING && lua_rawlen(L, v) == it->size) {
      nccc_slots_from_bytes(p, lua_tostring(L, v), it->size);
      return 1;
    }
    return 0;
  }
  return 0;
}

/* Lua value v -> slot(s) at p by item it; h is the helper, k its key:
** what lcore_encode_fast cannot do goes to the helper (which may raise). */
void lcore_encode(lua_State *L, int v, const lcore_item *it, uint64_t *p, int h, int k) {
  if (lcore_encode_fast(L, v, it, p)) return;
  if (it->code == NCCC_ABI_SIG_RECORD_OPEN) {
    lcore_ask(L, h, k, v, it, p);
  } else {
    *p = lcore_ask(L, h, k, v, it, p);
  }
}

/* Slot(s) at p -> a Lua value pushed, by item it (helper h, key k). */
void lcore_decode(lua_State *L, const uint64_t *p, const lcore_item *it, int h, int k) {
  switch (it->code) {
  case '?': lua_pushboolean(L, *p != 0); return;
  case 'f': case 'd': lua_pushnumber(L, (lua_Number)nccc_slot_to_double(*p)); return;
  case 'p': case 'F': case 'c':
    if (*p == 0) lua_pushnil(L); else lua_pushinteger(L, (lua_Integer)*p);
    return;
  case 's':
    if (*p == 0) lua_pushnil(L); else lua_pushstring(L, (const char *)(uintptr_t)*p);
    return;
  case 'L':
    if ((int64_t)*p >= 0) { lua_pushinteger(L, (lua_Integer)*p); return; }
    /* the helper makes a uint64 above math.maxinteger */
    /* fall through */
  case NCCC_ABI_ITEM_HELPER:
    lua_pushvalue(L, h);
    lua_pushinteger(L, k);
    lua_pushinteger(L, (lua_Integer)*p);
    lua_call(L, 2, 1);
    return;
  case '{':
    lua_pushvalue(L, h);
    lua_pushinteger(L, k);
    lua_pushlstring(L, (const char *)p, it->size);
    lua_call(L, 2, 1);
    return;
  default: lua_pushinteger(L, (lua_Integer)*p); return;
  }
}

/* After a call that binds a thunk: the wrapper zeroed its outputs and
** left NCCC_ERR_POOL_EXHAUSTED as the last error only; slow(pool
** exhausted, message) raises it (or a plain error without slow). */
static void pool_check(lua_State *L, const lcore_spec *sp) {
  uint64_t g[3] = {0, 0, 0};
  sp->last(g, g);
  if (g[0] != NCCC_OK || g[1] != NCCC_ERR_POOL_EXHAUSTED) return;
  if (g[2] != 0) lua_pushstring(L, (const char *)(uintptr_t)g[2]);
  else lua_pushliteral(L, "thunk pool exhausted");
  if (lua_isnil(L, lua_upvalueindex(2))) {
    luaL_error(L, "'%s': %s", sp->name, lua_tostring(L, -1));
  }
  lcore_ask(L, lua_upvalueindex(2), NCCC_HELPER_POOL_EXHAUSTED, lua_gettop(L), NULL, NULL); /* raises */
}

/* The closure core.fn makes: upvalues spec, slow, post. */
static int l_fast(lua_State *L) {
  const lcore_spec *sp = (const lcore_spec *)lua_touserdata(L, lua_upvalueindex(1));
  int n = lua_gettop(L), k, errors;
  uint64_t in_stack[LCORE_STACK_SLOTS], out_stack[LCORE_STACK_SLOTS];
  uint64_t *in = in_stack, *out = out_stack;
  uint32_t nin = sp->nin + (uint32_t)(n > sp->nargs ? n - sp->nargs : 0), j;
  lcore_frame f;
  if (n != sp->nargs && !(sp->var && n > sp->nargs)) {
    if (lua_isnil(L, lua_upvalueindex(2))) {
      return luaL_error(L, "'%s' expects %s%d argument%s, got %d", sp->name,
                        sp->var ? "at least " : "", sp->nargs, sp->nargs == 1 ? "" : "s", n);
    }
    lua_pushinteger(L, n); /* slow(count, n) raises the count error */
    lcore_ask(L, lua_upvalueindex(2), NCCC_HELPER_COUNT, lua_gettop(L), NULL, NULL);
  }
  if (nin > LCORE_STACK_SLOTS) in = (uint64_t *)lua_newuserdatauv(L, nin * 8u, 0);
  if (sp->nout > LCORE_STACK_SLOTS) out = (uint64_t *)lua_newuserdatauv(L, sp->nout * 8u, 0);
  for (k = 0; k < sp->nargs; k++) {
    const lcore_item *it = &sp->ins[k];
    if (!lcore_encode_fast(L, k + 1, it, in + it->slot)) {
      lcore_encode(L, k + 1, it, in + it->slot, lua_upvalueindex(2), k + 1);
    }
  }
  if (n > sp->nargs) {
    static const lcore_item raw = {NCCC_ABI_SIG_VARIADIC, 0, 0, 0, 0, 0, 0};
    for (k = sp->nargs; k < n; k++) {
      lcore_encode(L, k + 1, &raw, in + sp->nin + (k - sp->nargs), lua_upvalueindex(2), k + 1);
    }
  }
  for (j = 0; j < sp->nout; j++) out[j] = 0;
  if (sp->clear != NULL) {
    uint64_t g[3] = {0, 0, 0};
    sp->clear(g, g);
  }
  errors = lcore_run(L, sp->st, sp->fn, in, out, &f);
  if (errors) {
    lcore_push_errors(L, &f);
    if (lua_isnil(L, lua_upvalueindex(2))) return lua_error(L);
    lcore_ask(L, lua_upvalueindex(2), NCCC_HELPER_CALLBACK_ERRORS, lua_gettop(L), NULL, NULL); /* raises */
  }
  if (sp->last != NULL) pool_check(L, sp);
  /* a C function starts with LUA_MINSTACK free slots; only the userdata
  ** buffers above may have taken two */
  if (sp->nres > LUA_MINSTACK - 2) luaL_checkstack(L, sp->nres, "too many results");
  for (k = 0; k < sp->nres; k++) {
    const lcore_item *it = &sp->outs[k];
    const uint64_t *p = out + it->slot;
    switch (it->code) { /* the common ones inline */
    case 'l': case 'i': case 'I': case 'h': case 'H': case 'b': case 'B': case 'e':
      lua_pushinteger(L, (lua_Integer)*p);
      break;
    case 'd': lua_pushnumber(L, (lua_Number)nccc_slot_to_double(*p)); break;
    default: lcore_decode(L, p, it, lua_upvalueindex(3), k + 1);
    }
  }
  return sp->nres;
}

/* The closure of a function whose arguments and results are all
** integers (add, most counts and flags): no per-item switch. Arguments
** C cannot take alone, and results above math.maxinteger of a uint64,
** go to the same helpers as l_fast's. */
static int l_fast_int(lua_State *L) {
  const lcore_spec *sp = (const lcore_spec *)lua_touserdata(L, lua_upvalueindex(1));
  int k, ok, errors;
  uint64_t in[LCORE_STACK_SLOTS], out[LCORE_STACK_SLOTS];
  lcore_frame f;
  if (lua_gettop(L) != sp->nargs) {
    lua_pushinteger(L, lua_gettop(L)); /* slow(count, n) raises the count error */
    lcore_ask(L, lua_upvalueindex(2), NCCC_HELPER_COUNT, lua_gettop(L), NULL, NULL);
  }
  for (k = 0; k < sp->nargs; k++) {
    const lcore_item *it = &sp->ins[k];
    lua_Integer x = lua_tointegerx(L, k + 1, &ok);
    if (ok && x >= it->lo && x <= it->hi && lua_type(L, k + 1) == LUA_TNUMBER) {
      in[k] = (uint64_t)x;
    } else {
      in[k] = lcore_ask(L, lua_upvalueindex(2), k + 1, k + 1, it, NULL);
    }
  }
  /* the first slot apart: a loop from 0 becomes a call of memset, which
  ** costs a one-result function 21 instructions (bench/hosts) */
  out[0] = 0;
  for (k = 1; k < (int)sp->nout; k++) out[k] = 0;
  errors = lcore_run(L, sp->st, sp->fn, in, out, &f);
  if (errors) {
    lcore_push_errors(L, &f);
    lcore_ask(L, lua_upvalueindex(2), NCCC_HELPER_CALLBACK_ERRORS, lua_gettop(L), NULL, NULL); /* raises */
  }
  for (k = 0; k < sp->nres; k++) {
    if (sp->outs[k].code == 'L' && (int64_t)out[k] < 0) {
      lcore_decode(L, out + k, &sp->outs[k], lua_upvalueindex(3), k + 1);
    } else {
      lua_pushinteger(L, (lua_Integer)out[k]);
    }
  }
  return sp->nres;
}

/* fn(addr, ins, outs, name[, slow[, post[, clear, last]]]): the closure
** of one function; with clear and last (the addresses of the built-ins
** clear_error and last_error) it clears the last error before each call
** and raises slow(pool exhausted, message) when the call left a thunk
** pool exhausted. */
static int l_fn(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1);
  const char *ins = luaL_checkstring(L, 2), *outs = luaL_checkstring(L, 3);
  const char *name = luaL_checkstring(L, 4);
  lua_Integer clear = luaL_optinteger(L, 7, 0), last = luaL_optinteger(L, 8, 0);
  lcore_spec *sp;
  luaL_argcheck(L, a != 0, 1, "NULL function");
  luaL_argcheck(L, (clear == 0) == (last == 0), 8, "clear_error and last_error go together");
  lua_settop(L, 6);
  sp = lcore_new_spec(L, ins, outs, name);
  sp->fn = (nccc_fn)(uintptr_t)(uint64_t)a;
  sp->clear = (nccc_fn)(uintptr_t)(uint64_t)clear;
  sp->last = (nccc_fn)(uintptr_t)(uint64_t)last;
  sp->st = (lcore_state *)lua_touserdata(L, lua_upvalueindex(1));
  lua_pushvalue(L, 5);
  lua_pushvalue(L, 6);
  {
    int k, ints = !sp->var && sp->clear == NULL && !lua_isnil(L, 5) && !lua_isnil(L, 6) &&
                  sp->nin <= LCORE_STACK_SLOTS && sp->nout <= LCORE_STACK_SLOTS &&
                  (uint32_t)sp->nargs == sp->nin && (uint32_t)sp->nres == sp->nout;
    for (k = 0; ints && k < sp->nargs; k++) ints = sp->ins[k].integer;
    for (k = 0; ints && k < sp->nres; k++) ints = sp->outs[k].integer;
    /* the state stays alive: the registry has it */
    lua_pushcclosure(L, ints ? l_fast_int : l_fast, 3);
  }
  return 1;
}

const luaL_Reg lcore_specs_functions[] = {{"fn", l_fn}, {NULL, NULL}};
