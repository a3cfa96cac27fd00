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
struct spec;
typedef struct core_state {
  uint32_t tag;
  lua_Integer live;
  /* by reference: the spec of a converted callback (NULL for a raw one),
  ** so the dispatcher finds it without a table lookup; the spec
  ** userdata itself is kept alive by the reference's entry */
  const struct spec **cb;
  int ncb;
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
static const char convs_key = 'c'; /* registry: converted callbacks' entries */

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
  lua_Integer lo, hi; /* integer codes: the Lua integers C takes alone */
} item;

typedef struct spec {
  core_state *st;     /* of the Lua state that made it */
  int direct;         /* a callback whose values C converts alone: the
                         dispatcher calls f itself, no protected body */
  nccc_fn fn;
  nccc_fn clear, last; /* built-ins clear_error, last_error: a call that can
                          fail only there (a thunk pool running out) */
  int nargs, var;     /* fixed arguments; more are raw slots ('*') */
  int nres;           /* out items */
  uint32_t nin, nout; /* slots of the fixed items */
  item *ins, *outs;
  const char *name;
} spec;

static const lua_Integer LO[128] = {['b'] = -128, ['h'] = -32768,
                                    ['i'] = -2147483647 - 1, ['e'] = -2147483647 - 1,
                                    ['l'] = LUA_MININTEGER};
static const lua_Integer HI[128] = {['?'] = 1, ['b'] = 127, ['B'] = 255,
                                    ['h'] = 32767, ['H'] = 65535,
                                    ['i'] = 2147483647, ['I'] = 4294967295,
                                    ['e'] = 2147483647, ['l'] = LUA_MAXINTEGER,
                                    ['L'] = LUA_MAXINTEGER};

/* Integer codes whose Lua value is the slot itself (within LO..HI). */
static int int_code(char c) {
  switch (c) {
  case 'b': case 'B': case 'h': case 'H': case 'i': case 'I': case 'l': case 'L': case 'e':
    return 1;
  default: return 0;
  }
}

/* Parses one side of a spec ("ll", "!s{16}", ...) into items; returns
** the item count (-1: malformed), *slots the slots taken. */
static int parse_side(const char *s, item *out, int max, uint32_t *slots, int *var) {
  int n = 0;
  uint32_t slot = 0;
  *var = 0;
  while (*s) {
    item it = {0, 0, 0, 0, 0, 0};
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
    it.lo = LO[(int)it.code];
    it.hi = HI[(int)it.code];
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
  sp->fn = sp->clear = sp->last = NULL;
  sp->st = NULL;
  sp->direct = 0;
  sp->ins = (item *)(sp + 1);
  sp->outs = sp->ins + ni;
  sp->name = (const char *)memcpy((char *)(sp->outs + no), name, nl + 1);
  sp->nargs = parse_side(ins, sp->ins, (int)ni, &sp->nin, &sp->var);
  sp->nres = parse_side(outs, sp->outs, (int)no, &sp->nout, &var_out);
  if (sp->nargs < 0 || sp->nres < 0 || var_out) {
    luaL_error(L, "malformed slot spec '%s:%s' for %s", ins, outs, name);
  }
  /* as a callback: C pushes every argument itself and has room for the
  ** results (strings and records need the helper or may allocate) */
  sp->direct = !strchr(ins, 's') && !strchr(ins, '{') && !strchr(outs, '{') &&
               sp->nout <= STACK_SLOTS;
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

/* Lua value v -> slot(s) at p by item it, where C can convert it alone:
** 1 done, 0 the helper must (or the value is wrong). Never raises, so
** the dispatcher may use it outside protected mode. */
static int encode_fast(lua_State *L, int v, const item *it, uint64_t *p) {
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
    if (ok && x >= LO[(int)c] && x <= HI[(int)c] && lua_type(L, v) == LUA_TNUMBER) {
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
** what encode_fast cannot do goes to the helper (which may raise). */
static void encode(lua_State *L, int v, const item *it, uint64_t *p, int h, int k) {
  if (encode_fast(L, v, it, p)) return;
  if (it->code == '{') {
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

/* After a call that binds a thunk: the wrapper zeroed its outputs and
** left NCCC_ERR_POOL_EXHAUSTED as the last error only; slow(-2, message)
** raises it (or a plain error without slow). */
static void pool_check(lua_State *L, const spec *sp) {
  uint64_t g[3] = {0, 0, 0};
  sp->last(g, g);
  if (g[0] != 0 || g[1] != 0x4007u) return;
  if (g[2] != 0) lua_pushstring(L, (const char *)(uintptr_t)g[2]);
  else lua_pushliteral(L, "thunk pool exhausted");
  if (lua_isnil(L, lua_upvalueindex(2))) {
    luaL_error(L, "'%s': %s", sp->name, lua_tostring(L, -1));
  }
  ask(L, lua_upvalueindex(2), -2, lua_gettop(L), NULL, NULL); /* raises */
}

/* The closure core.fn makes: upvalues spec, slow, post. */
static int l_fast(lua_State *L) {
  const spec *sp = (const spec *)lua_touserdata(L, lua_upvalueindex(1));
  int n = lua_gettop(L), k, errors;
  uint64_t in_stack[STACK_SLOTS], out_stack[STACK_SLOTS];
  uint64_t *in = in_stack, *out = out_stack;
  uint32_t nin = sp->nin + (uint32_t)(n > sp->nargs ? n - sp->nargs : 0), j;
  frame f;
  if (n != sp->nargs && !(sp->var && n > sp->nargs)) {
    if (lua_isnil(L, lua_upvalueindex(2))) {
      return luaL_error(L, "'%s' expects %s%d argument%s, got %d", sp->name,
                        sp->var ? "at least " : "", sp->nargs, sp->nargs == 1 ? "" : "s", n);
    }
    lua_pushinteger(L, n); /* slow(0, n) raises the count error */
    ask(L, lua_upvalueindex(2), 0, lua_gettop(L), NULL, NULL);
  }
  if (nin > STACK_SLOTS) in = (uint64_t *)lua_newuserdatauv(L, nin * 8u, 0);
  if (sp->nout > STACK_SLOTS) out = (uint64_t *)lua_newuserdatauv(L, sp->nout * 8u, 0);
  for (k = 0; k < sp->nargs; k++) {
    const item *it = &sp->ins[k];
    if (!encode_fast(L, k + 1, it, in + it->slot)) {
      encode(L, k + 1, it, in + it->slot, lua_upvalueindex(2), k + 1);
    }
  }
  if (n > sp->nargs) {
    static const item raw = {'*', 0, 0, 0, 0, 0};
    for (k = sp->nargs; k < n; k++) {
      encode(L, k + 1, &raw, in + sp->nin + (k - sp->nargs), lua_upvalueindex(2), k + 1);
    }
  }
  for (j = 0; j < sp->nout; j++) out[j] = 0;
  if (sp->clear != NULL) {
    uint64_t g[3] = {0, 0, 0};
    sp->clear(g, g);
  }
  errors = run(L, sp->st, sp->fn, in, out, &f);
  if (errors) {
    push_errors(L, &f);
    if (lua_isnil(L, lua_upvalueindex(2))) return lua_error(L);
    ask(L, lua_upvalueindex(2), -1, lua_gettop(L), NULL, NULL); /* raises */
  }
  if (sp->last != NULL) pool_check(L, sp);
  /* a C function starts with LUA_MINSTACK free slots; only the userdata
  ** buffers above may have taken two */
  if (sp->nres > LUA_MINSTACK - 2) luaL_checkstack(L, sp->nres, "too many results");
  for (k = 0; k < sp->nres; k++) {
    const item *it = &sp->outs[k];
    const uint64_t *p = out + it->slot;
    switch (it->code) { /* the common ones inline */
    case 'l': case 'i': case 'I': case 'h': case 'H': case 'b': case 'B': case 'e':
      lua_pushinteger(L, (lua_Integer)*p);
      break;
    case 'd': lua_pushnumber(L, (lua_Number)nccc_slot_to_double(*p)); break;
    default: decode(L, p, it, lua_upvalueindex(3), k + 1);
    }
  }
  return sp->nres;
}

/* The closure of a function whose arguments and results are all
** integers (add, most counts and flags): no per-item switch. Arguments
** C cannot take alone, and results above math.maxinteger of a uint64,
** go to the same helpers as l_fast's. */
static int l_fast_int(lua_State *L) {
  const spec *sp = (const spec *)lua_touserdata(L, lua_upvalueindex(1));
  int k, ok, errors;
  uint64_t in[STACK_SLOTS], out[STACK_SLOTS];
  frame f;
  if (lua_gettop(L) != sp->nargs) {
    lua_pushinteger(L, lua_gettop(L)); /* slow(0, n) raises the count error */
    ask(L, lua_upvalueindex(2), 0, lua_gettop(L), NULL, NULL);
  }
  for (k = 0; k < sp->nargs; k++) {
    const item *it = &sp->ins[k];
    lua_Integer x = lua_tointegerx(L, k + 1, &ok);
    if (ok && x >= it->lo && x <= it->hi && lua_type(L, k + 1) == LUA_TNUMBER) {
      in[k] = (uint64_t)x;
    } else {
      in[k] = ask(L, lua_upvalueindex(2), k + 1, k + 1, it, NULL);
    }
  }
  for (k = 0; k < (int)sp->nout; k++) out[k] = 0;
  errors = run(L, sp->st, sp->fn, in, out, &f);
  if (errors) {
    push_errors(L, &f);
    ask(L, lua_upvalueindex(2), -1, lua_gettop(L), NULL, NULL); /* raises */
  }
  for (k = 0; k < sp->nres; k++) {
    if (sp->outs[k].code == 'L' && (int64_t)out[k] < 0) {
      decode(L, out + k, &sp->outs[k], lua_upvalueindex(3), k + 1);
    } else {
      lua_pushinteger(L, (lua_Integer)out[k]);
    }
  }
  return sp->nres;
}

/* fn(addr, ins, outs, name[, slow[, post[, clear, last]]]): the closure
** of one function; with clear and last (the addresses of the built-ins
** clear_error and last_error) it clears the last error before each call
** and raises slow(-2, message) when the call left a thunk pool exhausted. */
static int l_fn(lua_State *L) {
  lua_Integer a = luaL_checkinteger(L, 1);
  const char *ins = luaL_checkstring(L, 2), *outs = luaL_checkstring(L, 3);
  const char *name = luaL_checkstring(L, 4);
  lua_Integer clear = luaL_optinteger(L, 7, 0), last = luaL_optinteger(L, 8, 0);
  spec *sp;
  luaL_argcheck(L, a != 0, 1, "NULL function");
  luaL_argcheck(L, (clear == 0) == (last == 0), 8, "clear_error and last_error go together");
  lua_settop(L, 6);
  sp = new_spec(L, ins, outs, name);
  sp->fn = (nccc_fn)(uintptr_t)(uint64_t)a;
  sp->clear = (nccc_fn)(uintptr_t)(uint64_t)clear;
  sp->last = (nccc_fn)(uintptr_t)(uint64_t)last;
  sp->st = (core_state *)lua_touserdata(L, lua_upvalueindex(1));
  lua_pushvalue(L, 5);
  lua_pushvalue(L, 6);
  {
    int k, ints = !sp->var && sp->clear == NULL && !lua_isnil(L, 5) && !lua_isnil(L, 6) &&
                  sp->nin <= STACK_SLOTS && sp->nout <= STACK_SLOTS &&
                  (uint32_t)sp->nargs == sp->nin && (uint32_t)sp->nres == sp->nout;
    for (k = 0; ints && k < sp->nargs; k++) ints = int_code(sp->ins[k].code);
    for (k = 0; ints && k < sp->nres; k++) ints = int_code(sp->outs[k].code);
    /* the state stays alive: the registry has it */
    lua_pushcclosure(L, ints ? l_fast_int : l_fast, 3);
  }
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
** function f (refs[ref]), called f(in, out) with raw views, or a
** converted callback, with entry convs[ref] = {spec, notice, conv}: f
** gets the arguments as Lua values and its results go into out, both by
** the spec; a release notice runs notice(). */
static int dispatch_body(lua_State *L) {
  const uint64_t *in = (const uint64_t *)lua_touserdata(L, 1);
  uint64_t *out = (uint64_t *)lua_touserdata(L, 2);
  int ref = (int)(uint32_t)in[0], k, base;
  const spec *sp;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);        /* 3 */
  if (lua_rawgeti(L, 3, ref) != LUA_TFUNCTION) return 0; /* 4: released */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &convs_key);       /* 5 */
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
  sp = (const spec *)lua_touserdata(L, 7);
  luaL_checkstack(L, sp->nargs + sp->nres + 4, "too many arguments");
  lua_pushvalue(L, 4);
  for (k = 0; k < sp->nargs; k++) decode(L, in + 1 + sp->ins[k].slot, &sp->ins[k], 8, k + 1);
  lua_call(L, sp->nargs, sp->nres);
  base = lua_gettop(L) - sp->nres + 1;
  for (k = 0; k < sp->nres; k++) {
    uint64_t tmp[STACK_SLOTS];
    const item *it = &sp->outs[k];
    uint32_t n = it->code == '{' ? (it->size + 7u) / 8u : 1u;
    /* into a copy first: out keeps C's zeroes if a later result fails */
    if (n <= STACK_SLOTS) {
      encode(L, base + k, it, tmp, 8, -(k + 1));
      memcpy(out + it->slot, tmp, n * 8u);
    } else {
      encode(L, base + k, it, out + it->slot, 8, -(k + 1));
    }
  }
  return 0;
}

/* Drops reference ref of state st (the stack top is the refs table). */
static void drop_ref(lua_State *L, core_state *st, int ref) {
  luaL_unref(L, -1, ref);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &convs_key) == LUA_TTABLE) {
    lua_pushnil(L);
    lua_rawseti(L, -2, ref);
  }
  lua_pop(L, 1);
  if (ref < st->ncb) st->cb[ref] = NULL;
  st->live--;
}

/* The first error of a call is kept (by its frame), the others counted. */
static void keep_error(lua_State *L, frame *f) {
  if (f->errors++ == 0) {
    luaL_tolstring(L, -1, NULL);
    lua_rawsetp(L, LUA_REGISTRYINDEX, f);
  }
}

/* Protected: a direct callback's results that C could not convert
** alone. 1..n the results, then spec, the slots to fill, the reference. */
static int encode_results(lua_State *L) {
  int n = lua_gettop(L) - 3, k;
  const spec *sp = (const spec *)lua_touserdata(L, n + 1);
  uint64_t *tmp = (uint64_t *)lua_touserdata(L, n + 2);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &convs_key);
  lua_rawgeti(L, -1, (lua_Integer)lua_tointeger(L, n + 3));
  lua_rawgeti(L, -1, 3); /* conv */
  for (k = 0; k < sp->nres; k++) {
    encode(L, k + 1, &sp->outs[k], tmp + sp->outs[k].slot, lua_gettop(L), -(k + 1));
  }
  return 0;
}

/* A converted callback whose arguments C pushes itself: f is called
** straight in protected mode (no body function between). Returns 0 when
** the general path must run it (nothing has run yet). */
static int direct(lua_State *L, frame *f, const spec *sp, int ref, const uint64_t *in,
                  uint64_t *out) {
  uint64_t tmp[STACK_SLOTS];
  int k, base;
  if (sp->nargs + sp->nres > 32 && !lua_checkstack(L, sp->nargs + sp->nres + 8)) return 0;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
  if (lua_rawgeti(L, -1, ref) != LUA_TFUNCTION) return 0; /* f */
  base = lua_gettop(L);
  for (k = 0; k < sp->nargs; k++) {
    const item *it = &sp->ins[k];
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
    const item *it = &sp->outs[k];
    if (int_code(it->code)) { /* the common case inline */
      int ok;
      lua_Integer x = lua_tointegerx(L, base + k, &ok);
      if (ok && x >= it->lo && x <= it->hi && lua_type(L, base + k) == LUA_TNUMBER) {
        tmp[it->slot] = (uint64_t)x;
        continue;
      }
    }
    if (!encode_fast(L, base + k, it, tmp + it->slot)) break;
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
  memcpy(out, tmp, sp->nout * 8u);
  return 1;
}

/* The one nccc_fn C calls for every callback of every Lua closure. */
static void dispatch(const uint64_t *in, uint64_t *out) {
  frame *f = current;
  lua_State *L;
  const spec *sp;
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
    lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
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
  core_state *st = (core_state *)lua_touserdata(L, lua_upvalueindex(1));
  spec *cbsp = NULL;
  int ref;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 5);
  if (!lua_isnil(L, 2)) {
    const char *ins = luaL_checkstring(L, 2), *outs = luaL_checkstring(L, 3);
    lua_createtable(L, 3, 0); /* 6: the entry */
    cbsp = new_spec(L, ins, outs, "callback");
    if (cbsp->var) return luaL_error(L, "a callback spec cannot end in '*'");
    lua_rawseti(L, 6, 1);
    lua_pushvalue(L, 4);
    lua_rawseti(L, 6, 2);
    lua_pushvalue(L, 5);
    lua_rawseti(L, 6, 3);
  }
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
  lua_pushvalue(L, 1);
  ref = luaL_ref(L, -2);
  if (ref >= st->ncb) { /* room for its spec pointer */
    int n = ref < 64 ? 128 : 2 * ref;
    const spec **cb = (const spec **)realloc((void *)st->cb, (size_t)n * sizeof *cb);
    if (cb == NULL) {
      luaL_unref(L, -1, ref);
      return luaL_error(L, "not enough memory");
    }
    memset((void *)(cb + st->ncb), 0, (size_t)(n - st->ncb) * sizeof *cb);
    st->cb = cb;
    st->ncb = n;
  }
  if (cbsp != NULL) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &convs_key);
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
  core_state *st = (core_state *)lua_touserdata(L, lua_upvalueindex(1));
  uint64_t env = (uint64_t)luaL_checkinteger(L, 1);
  int ref = (int)(uint32_t)env;
  luaL_argcheck(L, (uint32_t)(env >> 32) == st->tag, 1, "not a reference of this state");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &refs_key);
  if (lua_rawgeti(L, -1, ref) == LUA_TFUNCTION) {
    lua_pop(L, 1);
    drop_ref(L, st, ref);
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

/* The state record goes with its Lua state. */
static int state_gc(lua_State *L) {
  core_state *st = (core_state *)lua_touserdata(L, 1);
  free((void *)st->cb);
  st->cb = NULL;
  st->ncb = 0;
  return 0;
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
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &convs_key);
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
  luaL_setfuncs(L, core_functions, 1);
  lua_pushliteral(L, "lua");
  lua_setfield(L, -2, "kind");
  return 1;
}
