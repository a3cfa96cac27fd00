/*
** core.h — the internal header of the Lua 5.4 primitive nccc.core
** (docs/LUA.md, "The primitive"): its types and what its three parts
** share. calls.c: slot buffers, loading libraries, calls under way;
** specs.c: functions and callbacks prepared once from slot specs, and
** the fast paths that convert by them; dispatch.c: the one dispatcher C
** calls for every callback, and the references it calls. module.c opens
** the module. Only luaopen_nccc_core is exported.
**
** A slot is a Lua integer holding the slot's 64 bits (two's complement).
*/
#ifndef NCCC_LUA_CORE_H
#define NCCC_LUA_CORE_H

#include <stddef.h>
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include <nccc/abi.h>
#include <nccc/slot.h>

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

#define LCORE_BUFFER "nccc.slots"
#define LCORE_SPEC "nccc.spec"
#define LCORE_MAX_SLOTS ((lua_Integer)1 << 24) /* 128 MiB: no call needs more */
#define LCORE_STACK_SLOTS 32 /* buffers up to this size live on the C stack */

/* A slot buffer: full userdata, indexed from 0 and bounds-checked. */
typedef struct lcore_slots {
  size_t n;
  uint64_t s[];
} lcore_slots;

/* Per Lua state: its tag (the high half of its environment words) and
** the number of live references. */
struct lcore_spec;
typedef struct lcore_state {
  uint32_t tag;
  lua_Integer live;
  /* by reference: the spec of a converted callback (NULL for a raw one),
  ** so the dispatcher finds it without a table lookup; the spec
  ** userdata itself is kept alive by the reference's entry */
  const struct lcore_spec **cb;
  int ncb;
} lcore_state;

/* One call under way; the innermost one of a thread is current. */
typedef struct lcore_frame {
  lua_State *L;
  lcore_state *st;
  struct lcore_frame *prev;
  int errors;
} lcore_frame;

/* One item of a slot spec. */
typedef struct lcore_item {
  char code;          /* the signature code; '{' a record, '*' raw slots */
  char nonnull;       /* a zero slot is refused */
  char integer;       /* an integer code: its Lua value is the slot itself */
  uint32_t size;      /* bytes of a record */
  uint32_t slot;      /* its first slot */
  lua_Integer lo, hi; /* integer codes: the Lua integers C takes alone */
} lcore_item;

/* A function or callback prepared once (userdata, items stored after). */
typedef struct lcore_spec {
  lcore_state *st;    /* of the Lua state that made it */
  int direct;         /* a callback whose values C converts alone: the
                         dispatcher calls f itself, no protected body */
  nccc_fn fn;
  nccc_fn clear, last; /* built-ins clear_error, last_error: a call that can
                          fail only there (a thunk pool running out) */
  int nargs, var;     /* fixed arguments; more are raw slots ('*') */
  int nres;           /* out items */
  uint32_t nin, nout; /* slots of the fixed items */
  lcore_item *ins, *outs;
  const char *name;
} lcore_spec;

/* The innermost call under way on this thread (calls.c). initial-exec:
** the module is loaded by dlopen, but one pointer fits the static TLS
** surplus, and each call then reads it without a function call. */
#if defined(__GNUC__) && !defined(__APPLE__)
extern _Thread_local lcore_frame *lcore_current __attribute__((tls_model("initial-exec")));
#else
extern _Thread_local lcore_frame *lcore_current;
#endif

/* Registry keys: the table of references, converted callbacks' entries. */
extern const char lcore_refs_key, lcore_convs_key;

/* Runs fn(in, out) as the innermost call of this thread; returns the
** number of callback errors (the first message in the registry at f). */
static inline int lcore_run(lua_State *L, lcore_state *st, nccc_fn fn, const uint64_t *in,
                            uint64_t *out, lcore_frame *f) {
  f->L = L;
  f->st = st;
  f->prev = lcore_current;
  f->errors = 0;
  lcore_current = f;
  fn(in, out);
  lcore_current = f->prev;
  return f->errors;
}

/* calls.c: pushes the message of a call's callback errors. */
void lcore_push_errors(lua_State *L, lcore_frame *f);

/* specs.c: a spec userdata pushed for ins/outs (raises if malformed);
** the helper calls and conversions by item. */
lcore_spec *lcore_new_spec(lua_State *L, const char *ins, const char *outs, const char *name);
uint64_t lcore_ask(lua_State *L, int h, int k, int v, const lcore_item *it, uint64_t *p);
int lcore_encode_fast(lua_State *L, int v, const lcore_item *it, uint64_t *p);
void lcore_encode(lua_State *L, int v, const lcore_item *it, uint64_t *p, int h, int k);
void lcore_decode(lua_State *L, const uint64_t *p, const lcore_item *it, int h, int k);

/* Each part's functions of the module, registered with the state as
** their one upvalue. */
extern const luaL_Reg lcore_calls_functions[], lcore_specs_functions[],
    lcore_dispatch_functions[];

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

int luaopen_nccc_core(lua_State *L);

#endif
