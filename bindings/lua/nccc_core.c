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
**
** Fast paths. core.fn(addr, ins, outs, name, slow, post) makes one C
** closure per function, from a slot spec prepared once (the function's
** signature, resolved by nccc.lua when the module is bound): it checks
** the argument count, converts each argument straight into a slot buffer
** on the C stack (so a callback may call the same function again), calls
** and pushes the results. Values the C side cannot take itself (u64
** boxes, closures, records, NULL, anything wrong) go to slow(k, v),
** which returns the slot (or the record's bytes) or raises the error;
** post(k, v) makes the Lua value of out item k where C cannot (records,
** uint64 values above math.maxinteger). core.ref(f, ins, outs, notice,
** conv) is the same for callbacks: the dispatcher converts in[1..] to
** Lua values and f's results into out by the callback's spec, asking
** conv(k, v) where it cannot (k > 0: argument k from its raw slot or
** bytes; k < 0: result -k to its slot or bytes).
*/
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdatomic.h>
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
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

/* initial-exec: the module is loaded by dlopen, but one pointer fits the
** static TLS surplus, and each call then reads it without a function call */
#if defined(__GNUC__) && !defined(__APPLE__)
static _Thread_local frame *current __attribute__((tls_model("initial-exec")));
#else
static _Thread_local frame *current;
#endif
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

/* ---- specs: functions and callbacks prepared once ------------------------ */

#define SPEC "nccc.spec"
#define STACK_SLOTS 32 /* buffers up to this size live on the C stack */

typedef struct item {
  char code;          /* the signature code; '{' a record, '*' raw slots */
  char nonnull;       /* a zero slot is refused */
  uint32_t size;      /* bytes of a record */
  uint32_t slot;      /* its first slot */
} item;

typedef struct spec {
  nccc_fn fn;
  int nargs, var;     /* fixed arguments; more are raw slots ('*') */
  int nres;           /* out items */
  uint32_t nin, nout; /* slots of the fixed items */
  item *ins, *outs;
  const char *name;
} spec;

static const lua_Integer LO[128] = {['b'] = -128, ['h'] = -32768,
                                    ['i'] = -2147483647 - 1, ['e'] = -2147483647 - 1};
static const lua_Integer HI[128] = {['?'] = 1, ['b'] = 127, ['B'] = 255,
                                    ['h'] = 32767, ['H'] = 65535,
                                    ['i'] = 2147483647, ['I'] = 4294967295,
                                    ['e'] = 2147483647};

/* Parses one side of a spec ("ll", "!s{16}", ...) into items; returns
** the item count (-1: malformed), *slots the slots taken. */
static int parse_side(const char *s, item *out, int max, uint32_t *slots, int *var) {
  int n = 0;
  uint32_t slot = 0;
  *var = 0;
  while (*s) {
    item it = {0, 0, 0, 0};
    if (*s == '!') { it.nonnull = 1; s++; }
    if (*s == '*' && s[1] == '\0') { *var = 1; s++; break; }
    it.code = *s++;
    if (it.code == '{') {
      char *end;
      unsigned long size = strtoul(s, &end, 10);
      if (end == s || *end != '}' || size == 0 || size > (unsigned long)MAX_SLOTS * 8u) return -1;
      it.size = (uint32_t)size;
      s = end + 1;
    } else if (!strchr("?bBhHiIlLfdpFsce", it.code) || it.code == '\0') {
      return -1;
    }
    if (n == max) return -1;
    it.slot = slot;
    slot += it.code == '{' ? (it.size + 7u) / 8u : 1u;
    out[n++] = it;
  }
  *slots = slot;
  return n;
}

/* A spec userdata for ins/outs: items and name stored after it. */
static spec *new_spec(lua_State *L, const char *ins, const char *outs, const char *name) {
  size_t nl = strlen(name), ni = strlen(ins) + 1, no = strlen(outs) + 1;
  spec *sp = (spec *)lua_newuserdatauv(L, sizeof(spec) + (ni + no) * sizeof(item) + nl + 1, 0);
  int var_out;
  sp->ins = (item *)(sp + 1);
  sp->outs = sp->ins + ni;
  sp->name = (const char *)memcpy((char *)(sp->outs + no), name, nl + 1);
  sp->nargs = parse_side(ins, sp->ins, (int)ni, &sp->nin, &sp->var);
  sp->nres = parse_side(outs, sp->outs, (int)no, &sp->nout, &var_out);
  if (sp->nargs < 0 || sp->nres < 0 || var_out) {
    luaL_error(L, "malformed slot spec '%s:%s' for %s", ins, outs, name);
  }
  luaL_setmetatable(L, SPEC);
  return sp;
}

/* Asks the Lua helper at stack index h for slot k's value v; returns
** the slot, or copies a record's bytes into p. */
static uint64_t ask(lua_State *L, int h, int k, int v, const item *it, uint64_t *p) {
  uint64_t r = 0;
  lua_pushvalue(L, h);
  lua_pushinteger(L, k);
  lua_pushvalue(L, v);
  lua_call(L, 2, 1);
  if (it != NULL && it->code == '{') {
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

/* Lua value v -> slot(s) at p by item it; h is the helper, k its key.
** Fast paths only; everything else asks the helper. */
static void encode(lua_State *L, int v, const item *it, uint64_t *p, int h, int k) {
  int t = lua_type(L, v);
  char c = it->code;
  switch (c) {
  case '?':
    if (t == LUA_TBOOLEAN) { *p = (uint64_t)lua_toboolean(L, v); return; }
    break;
  case 'b': case 'B': case 'h': case 'H': case 'i': case 'I':
    if (lua_isinteger(L, v)) {
      lua_Integer x = lua_tointeger(L, v);
      if (x >= LO[(int)c] && x <= HI[(int)c]) { *p = (uint64_t)x; return; }
    }
    break;
  case 'l':
    if (lua_isinteger(L, v)) { *p = (uint64_t)lua_tointeger(L, v); return; }
    break;
  case 'L':
    if (lua_isinteger(L, v) && lua_tointeger(L, v) >= 0) {
      *p = (uint64_t)lua_tointeger(L, v);
      return;
    }
    break;
  case 'f': /* the double's bits; C narrows it (docs/ABI.md) */
    if (t == LUA_TNUMBER) {
      double d = (double)lua_tonumber(L, v);
      if (d != d || isinf(d) || (d <= FLT_MAX && d >= -FLT_MAX)) {
        *p = nccc_slot_from_double(d);
        return;
      }
    }
    break;
  case 'd':
    if (t == LUA_TNUMBER) { *p = nccc_slot_from_double((double)lua_tonumber(L, v)); return; }
    break;
  case 'p': case 'F':
    if (lua_isinteger(L, v) && (!it->nonnull || lua_tointeger(L, v) != 0)) {
      *p = (uint64_t)lua_tointeger(L, v);
      return;
    }
    if (t == LUA_TNIL && !it->nonnull) { *p = 0; return; }
    break;
  case 'c':
    if (t == LUA_TNIL && !it->nonnull) { *p = 0; return; }
    break;
  case 's':
    if (t == LUA_TSTRING) {
      size_t n;
      const char *s = lua_tolstring(L, v, &n);
      /* the Lua string itself, NUL-terminated and alive on the stack for
      ** the whole call: no copy */
      if (strlen(s) == n) { *p = (uint64_t)(uintptr_t)s; return; }
    }
    break;
  case '{':
    if (t == LUA_TSTRING && lua_rawlen(L, v) == it->size) {
      nccc_slots_from_bytes(p, lua_tostring(L, v), it->size);
      return;
    }
    break;
  case '*':
    if (lua_isinteger(L, v)) { *p = (uint64_t)lua_tointeger(L, v); return; }
    break;
  }
  if (c == '{') {
    ask(L, h, k, v, it, p);
  } else {
    *p = ask(L, h, k, v, it, p);
  }
}

/* Slot(s) at p -> a Lua value pushed, by item it (helper h, key k). */
static void decode(lua_State *L, const uint64_t *p, const item *it, int h, int k) {
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

/* Runs fn(in, out) as the innermost call of this thread; returns the
** number of callback errors (the first message in the registry at &f). */
static int run(lua_State *L, core_state *st, nccc_fn fn, const uint64_t *in,
               uint64_t *out, frame *f) {
  f->L = L;
  f->st = st;
  f->prev = current;
  f->errors = 0;
  current = f;
  fn(in, out);
  current = f->prev;
  return f->errors;
}

/* Pushes the message of a call's callback errors. */
static void push_errors(lua_State *L, frame *f) {
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

/* The closure core.fn makes: upvalues spec, state, slow, post. */
static int l_fast(lua_State *L) {
  const spec *sp = (const spec *)lua_touserdata(L, lua_upvalueindex(1));
  int n = lua_gettop(L), k, errors;
  uint64_t in_stack[STACK_SLOTS], out_stack[STACK_SLOTS];
  uint64_t *in = in_stack, *out = out_stack;
  uint32_t nin = sp->nin + (uint32_t)(n > sp->nargs ? n - sp->nargs : 0);
  frame f;
  if (n != sp->nargs && !(sp->var && n > sp->nargs)) {
    if (lua_isnil(L, lua_upvalueindex(3))) {
      return luaL_error(L, "'%s' expects %s%d argument%s, got %d", sp->name,
                        sp->var ? "at least " : "", sp->nargs, sp->nargs == 1 ? "" : "s", n);
    }
    lua_pushinteger(L, n); /* slow(0, n) raises the count error */
    ask(L, lua_upvalueindex(3), 0, lua_gettop(L), NULL, NULL);
  }
  if (nin > STACK_SLOTS) in = (uint64_t *)lua_newuserdatauv(L, nin * 8u, 0);
  if (sp->nout > STACK_SLOTS) out = (uint64_t *)lua_newuserdatauv(L, sp->nout * 8u, 0);
  for (k = 0; k < sp->nargs; k++) {
    encode(L, k + 1, &sp->ins[k], in + sp->ins[k].slot, lua_upvalueindex(3), k + 1);
  }
  if (n > sp->nargs) {
    static const item raw = {'*', 0, 0, 0};
    for (k = sp->nargs; k < n; k++) {
      encode(L, k + 1, &raw, in + sp->nin + (k - sp->nargs), lua_upvalueindex(3), k + 1);
    }
  }
  if (sp->nout > 0) memset(out, 0, sp->nout * 8u);
  errors = run(L, (core_state *)lua_touserdata(L, lua_upvalueindex(2)), sp->fn, in, out, &f);
  if (errors) {
    push_errors(L, &f);
    if (lua_isnil(L, lua_upvalueindex(3))) return lua_error(L);
    ask(L, lua_upvalueindex(3), -1, lua_gettop(L), NULL, NULL); /* raises */
  }
  luaL_checkstack(L, sp->nres, "too many results");
  for (k = 0; k < sp->nres; k++) {
    decode(L, out + sp->outs[k].slot, &sp->outs[k], lua_upvalueindex(4), k + 1);
  }
  return sp->nres;
}

/* fn(addr, ins, outs, name[, slow[, post]]): the closure of one function. */
static int l_fn(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1);
  const char *ins = luaL_checkstring(L, 2), *outs = luaL_checkstring(L, 3);
  const char *name = luaL_checkstring(L, 4);
  spec *sp;
  luaL_argcheck(L, a != 0, 1, "NULL function");
  lua_settop(L, 6);
  sp = new_spec(L, ins, outs, name);
  sp->fn = (nccc_fn)(uintptr_t)(uint64_t)a;
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 5);
  lua_pushvalue(L, 6);
  lua_pushcclosure(L, l_fast, 4);
  return 1;
}

/* call_slots(addr, nout, ...): the hand-written path, raw slots in and
** out (integers; no checks but that they are integers). */
static int l_call_slots(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1), nout = luaL_checkinteger(L, 2);
  int n = lua_gettop(L) - 2, k, errors;
  uint64_t in[STACK_SLOTS], out[STACK_SLOTS];
  frame f;
  luaL_argcheck(L, a != 0, 1, "NULL function");
  luaL_argcheck(L, nout >= 0 && nout <= STACK_SLOTS, 2, "slot count out of range");
  luaL_argcheck(L, n <= STACK_SLOTS, 3, "too many slots");
  for (k = 0; k < n; k++) in[k] = (uint64_t)luaL_checkinteger(L, k + 3);
  memset(out, 0, (size_t)nout * 8u);
  errors = run(L, (core_state *)lua_touserdata(L, lua_upvalueindex(1)),
               (nccc_fn)(uintptr_t)(uint64_t)a, in, out, &f);
  if (errors) {
    push_errors(L, &f);
    return lua_error(L);
  }
  for (k = 0; k < (int)nout; k++) lua_pushinteger(L, (lua_Integer)out[k]);
  return (int)nout;
}

/* Runs in protected mode: 1 = in, 2 = out or nil. A reference is a
** function f, called f(in, out) with raw views, or a converted callback
** {f, spec, notice, conv}: f gets the arguments as Lua values and its
** results go into out, both by the spec; a release notice runs notice(). */
static int dispatch_body(lua_State *L) {
  const uint64_t *in = (const uint64_t *)lua_touserdata(L, 1);
  uint64_t *out = (uint64_t *)lua_touserdata(L, 2);
  int ref = (int)(uint32_t)in[0], k, base;
  const spec *sp;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key); /* 3 */
  switch (lua_rawgeti(L, 3, ref)) {               /* 4 */
  case LUA_TFUNCTION:
    lua_pushvalue(L, 1);
    if (out != NULL) lua_pushvalue(L, 2); else lua_pushnil(L);
    lua_call(L, 2, 0);
    return 0;
  case LUA_TTABLE: break;
  default: return 0; /* released */
  }
  if (out == NULL) {
    if (lua_rawgeti(L, 4, 3) == LUA_TFUNCTION) lua_call(L, 0, 0);
    return 0;
  }
  lua_rawgeti(L, 4, 2); /* 5: spec */
  lua_rawgeti(L, 4, 4); /* 6: conv */
  sp = (const spec *)lua_touserdata(L, 5);
  lua_rawgeti(L, 4, 1); /* 7: f */
  luaL_checkstack(L, sp->nargs + sp->nres + 4, "too many arguments");
  for (k = 0; k < sp->nargs; k++) decode(L, in + 1 + sp->ins[k].slot, &sp->ins[k], 6, k + 1);
  lua_call(L, sp->nargs, sp->nres);
  base = lua_gettop(L) - sp->nres + 1;
  for (k = 0; k < sp->nres; k++) {
    uint64_t tmp[STACK_SLOTS];
    const item *it = &sp->outs[k];
    uint32_t n = it->code == '{' ? (it->size + 7u) / 8u : 1u;
    /* into a copy first: out keeps C's zeroes if a later result fails */
    if (n <= STACK_SLOTS) {
      encode(L, base + k, it, tmp, 6, -(k + 1));
      memcpy(out + it->slot, tmp, n * 8u);
    } else {
      encode(L, base + k, it, out + it->slot, 6, -(k + 1));
    }
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
  lua_pushlightuserdata(L, out);
  if (lua_pcall(L, 2, 0, 0) != LUA_OK && f->errors++ == 0) {
    luaL_tolstring(L, -1, NULL);
    lua_rawsetp(L, LUA_REGISTRYINDEX, f);
  }
  if (out == NULL) { /* a release notice: drop the reference */
    int ref = (int)(uint32_t)in[0];
    lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
    int t = lua_rawgeti(L, -1, ref);
    if (t == LUA_TFUNCTION || t == LUA_TTABLE) {
      lua_pop(L, 1);
      luaL_unref(L, -1, ref);
      f->st->live--;
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
  core_state *st = (core_state *)lua_touserdata(L, lua_upvalueindex(1));
  int ref;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  if (!lua_isnoneornil(L, 2)) {
    const char *ins = luaL_checkstring(L, 2), *outs = luaL_checkstring(L, 3);
    spec *sp;
    lua_settop(L, 5);
    lua_createtable(L, 4, 0); /* 6 */
    lua_pushvalue(L, 1);
    lua_rawseti(L, 6, 1);
    sp = new_spec(L, ins, outs, "callback");
    if (sp->var) return luaL_error(L, "a callback spec cannot end in '*'");
    lua_rawseti(L, 6, 2);
    lua_pushvalue(L, 4);
    lua_rawseti(L, 6, 3);
    lua_pushvalue(L, 5);
    lua_rawseti(L, 6, 4);
    lua_replace(L, 1);
  }
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
  if (lua_rawgeti(L, -1, ref) == LUA_TFUNCTION || lua_type(L, -1) == LUA_TTABLE) {
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
    {"lost", l_lost},       {"fn", l_fn},
    {"call_slots", l_call_slots}, {NULL, NULL}};

int luaopen_nccc_core(lua_State *L);
int luaopen_nccc_core(lua_State *L) {
  luaL_newmetatable(L, BUFFER);
  lua_pop(L, 1);
  luaL_newmetatable(L, SPEC);
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
