/*
** builtins.c — the built-in module "nccc": the registry's own operations
** and memory helpers as nccc functions, so a host that can call one
** nccc_fn can do everything else.
**
** Each built-in writes its status to out[0], its results after it, and
** touches no out slot past its signature on failure beyond out[0].
*/
#include <string.h>

#include "internal.h"

#define SLOT_STR(s) nccc_slot_from_ptr(s)
#define ARG_PTR(i) nccc_slot_to_ptr(in[i])
/* A function's address as a slot: function pointers are not void *, but
** every target nccc supports converts them through uintptr_t. */
#define SLOT_FN(f) ((uint64_t)(uintptr_t)(f))

static uint64_t status_slot(nccc_status st) { return (uint64_t)st; }

/* ---- features left out (nccc/config.h) ------------------------------------ */

#if !NCCC_WITH_TRACE || !NCCC_WITH_FAULTS || !NCCC_WITH_CLOSURES || \
    !NCCC_WITH_HOST_BUILTINS || !NCCC_WITH_GLOBAL_REGISTRY
/* Keeps its index and signature, so that hosts and their tables stay the
** same whatever the build holds, and answers that it is not there. */
static void b_left_out(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = status_slot(nccc_fail(NCCC_ERR_NOT_IMPLEMENTED, "built-in",
                                 "left out of this build (nccc/config.h)"));
}
#endif

/* ---- registry operations --------------------------------------------- */

static void b_builtin(const uint64_t *in, uint64_t *out);

static void b_version(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = NCCC_OK;
  out[1] = (NCCC_VERSION_MAJOR << 16) | (NCCC_VERSION_MINOR << 8) |
           NCCC_VERSION_PATCH;
  out[2] = SLOT_STR(NCCC_VERSION_STRING);
}

static void b_last_error(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = NCCC_OK;
  out[1] = nccc_slot_from_i32((int32_t)nccc_last_status());
  out[2] = SLOT_STR(nccc_last_error());
}

static void b_lookup(const uint64_t *in, uint64_t *out) {
  nccc_handle h;
  nccc_status st = nccc_lookup(ARG_PTR(0), &h);
  out[0] = status_slot(st);
  if (st == NCCC_OK) out[1] = h;
}

static void b_function(const uint64_t *in, uint64_t *out) {
  nccc_fn fn;
  const nccc_fn_info *info;
  const char *name;
  nccc_status st = nccc_function((nccc_handle)in[0], &fn, &info, &name);
  out[0] = status_slot(st);
  if (st != NCCC_OK) return;
  out[1] = SLOT_FN(fn);
  out[2] = SLOT_STR(name);
  out[3] = SLOT_STR(info->signature);
  out[4] = info->n_in;
  out[5] = info->n_out;
}

#if NCCC_WITH_HOST_BUILTINS
static void b_call(const uint64_t *in, uint64_t *out) {
  out[0] = status_slot(nccc_call((nccc_handle)in[0], ARG_PTR(1), ARG_PTR(2)));
}

static void b_call_checked(const uint64_t *in, uint64_t *out) {
  /* Counts wider than size_t cannot match any signature; refuse them here
  ** rather than let the cast below wrap them into range. */
  if (in[2] > (uint64_t)SIZE_MAX || in[4] > (uint64_t)SIZE_MAX) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_NUM_ARGUMENTS,
                                   "slot counts do not match the signature",
                                   NULL));
    return;
  }
  out[0] = status_slot(nccc_call_checked((nccc_handle)in[0], ARG_PTR(1),
                                         (size_t)in[2], ARG_PTR(3),
                                         (size_t)in[4]));
}
#else
#define b_call b_left_out
#define b_call_checked b_left_out
#endif

#if NCCC_WITH_GLOBAL_REGISTRY
static void b_register(const uint64_t *in, uint64_t *out) {
  nccc_handle h;
  nccc_fn fn = (nccc_fn)(uintptr_t)in[1];
  nccc_status st = nccc_register(ARG_PTR(0), fn, ARG_PTR(2), in[3] != 0, &h);
  out[0] = status_slot(st);
  if (st == NCCC_OK) out[1] = h;
}
#else
#define b_register b_left_out
#endif

/* ---- modules ----------------------------------------------------------- */

static void b_module_count(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = NCCC_OK;
  out[1] = (uint64_t)NCCC_MAX_MODULES + 1; /* the global registry last */
}

/* The module at slot in[k], or NULL after failing out[0]. */
static const nccc_module *module_arg(const uint64_t *in, int k,
                                     uint64_t *out) {
  const nccc_module *m = in[k] < NCCC_MAX_MODULES
                             ? nccc_module_at((uint16_t)in[k]) : NULL;
  if (m == NULL) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_INDEX_INVALID,
                                   "no module at that index", NULL));
  }
  return m;
}

static void b_module_info(const uint64_t *in, uint64_t *out) {
  const nccc_module *m;
  if (in[0] == NCCC_GLOBAL_MODULE && nccci_G.initialized) {
    out[0] = NCCC_OK;
    out[1] = SLOT_STR("");
#if NCCC_WITH_GLOBAL_REGISTRY
    out[2] = nccc_registry_count(&nccci_G.global.view);
#else
    out[2] = 0;
#endif
    out[3] = 0;
    out[4] = 0;
    return;
  }
  if ((m = module_arg(in, 0, out)) == NULL) return;
  out[0] = NCCC_OK;
  out[1] = SLOT_STR(m->name);
  out[2] = nccc_registry_count(m->registry);
  out[3] = m->n_types;
  out[4] = m->n_constants;
}

static void b_module_find(const uint64_t *in, uint64_t *out) {
  uint16_t index;
  nccc_status st = nccc_module_find(ARG_PTR(0), &index);
  out[0] = status_slot(st);
  if (st == NCCC_OK) out[1] = index;
}

/* Whether index is below n; if not, fails out[0] with message about
** owner (the module or type the index is into). */
static int index_in_range(uint64_t index, uint64_t n, const char *message,
                          const char *owner, uint64_t *out) {
  if (index < n) return 1;
  out[0] = status_slot(nccc_fail(NCCC_ERR_INDEX_INVALID, message, owner));
  return 0;
}

static const nccc_type_layout *type_arg(const uint64_t *in, uint64_t *out) {
  const nccc_module *m = module_arg(in, 0, out);
  if (m == NULL ||
      !index_in_range(in[1], m->n_types, "type index out of range", m->name,
                      out)) {
    return NULL;
  }
  return &m->types[in[1]];
}

static void b_module_type(const uint64_t *in, uint64_t *out) {
  const nccc_type_layout *t = type_arg(in, out);
  if (t == NULL) return;
  out[0] = NCCC_OK;
  out[1] = SLOT_STR(t->name);
  out[2] = t->size;
  out[3] = t->align;
  out[4] = t->kind;
  out[5] = t->n_fields;
}

static void b_module_field(const uint64_t *in, uint64_t *out) {
  const nccc_type_layout *t = type_arg(in, out);
  const nccc_field *f;
  if (t == NULL ||
      !index_in_range(in[2], t->n_fields, "field index out of range", t->name,
                      out)) {
    return;
  }
  f = &t->fields[in[2]];
  out[0] = NCCC_OK;
  out[1] = SLOT_STR(f->name);
  out[2] = SLOT_STR(f->type);
  out[3] = f->offset;
  out[4] = f->size;
  out[5] = f->count;
}

static void b_module_constant(const uint64_t *in, uint64_t *out) {
  const nccc_module *m = module_arg(in, 0, out);
  const nccc_constant *c;
  if (m == NULL ||
      !index_in_range(in[1], m->n_constants, "constant index out of range",
                      m->name, out)) {
    return;
  }
  c = &m->constants[in[1]];
  out[0] = NCCC_OK;
  out[1] = SLOT_STR(c->name);
  out[2] = SLOT_STR(c->type);
  out[3] = c->value;
}

/* ---- memory -------------------------------------------------------------- */

#if NCCC_WITH_HOST_BUILTINS

static void b_alloc(const uint64_t *in, uint64_t *out) {
  void *p;
  if (in[0] > (uint64_t)SIZE_MAX) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_NO_MEMORY, "alloc", "too large"));
    return;
  }
  /* alloc(0) still gives a unique, freeable pointer */
  p = nccc_platform_get()->alloc(in[0] != 0 ? (size_t)in[0] : 1);
  if (p == NULL) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_NO_MEMORY, "alloc", NULL));
    return;
  }
  out[0] = NCCC_OK;
  out[1] = nccc_slot_from_ptr(p);
}

static void b_free(const uint64_t *in, uint64_t *out) {
  void *p = ARG_PTR(0);
  if (p != NULL) nccc_platform_get()->free(p);
  out[0] = NCCC_OK;
}

/* Checks an address argument; fails out[0] for NULL. */
static int address_ok(const void *p, uint64_t *out, const char *what) {
  if (p != NULL) return 1;
  out[0] = status_slot(nccc_fail(NCCC_ERR_NULL_POINTER, what, "NULL address"));
  return 0;
}

/* The codes peek and poke take: X(CODE, C type, slot conversion suffix). */
#define MEMORY_CODES(X)                                            \
  X('?', bool, bool) X('b', int8_t, i8) X('B', uint8_t, u8)        \
  X('h', int16_t, i16) X('H', uint16_t, u16) X('i', int32_t, i32)  \
  X('I', uint32_t, u32) X('l', int64_t, i64) X('L', uint64_t, u64) \
  X('f', float, float) X('d', double, double) X('p', void *, ptr)  \
  X('s', void *, ptr) X('F', void *, ptr)

/* Loads and stores go through memcpy: addresses from hosts need not be
** aligned. */
#define LOAD_CASE(code, type, conv)    \
  case code: {                         \
    type v_;                           \
    memcpy(&v_, p, sizeof v_);         \
    *slot = nccc_slot_from_##conv(v_); \
    return 1;                          \
  }
#define STORE_CASE(code, type, conv)      \
  case code: {                            \
    type v_ = nccc_slot_to_##conv(value); \
    memcpy(p, &v_, sizeof v_);            \
    return 1;                             \
  }

static int peek(const void *p, uint64_t code, uint64_t *slot) {
  switch (code) { MEMORY_CODES(LOAD_CASE) }
  return 0;
}

static int poke(void *p, uint64_t code, uint64_t value) {
  switch (code) { MEMORY_CODES(STORE_CASE) }
  return 0;
}

static void b_peek(const uint64_t *in, uint64_t *out) {
  uint64_t value;
  if (!address_ok(ARG_PTR(0), out, "peek")) return;
  if (!peek(ARG_PTR(0), in[1], &value)) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_WRONG_ARG_TYPE, "peek",
                                   "unknown type code"));
    return;
  }
  out[0] = NCCC_OK;
  out[1] = value;
}

static void b_poke(const uint64_t *in, uint64_t *out) {
  if (!address_ok(ARG_PTR(0), out, "poke")) return;
  out[0] = poke(ARG_PTR(0), in[1], in[2])
               ? NCCC_OK
               : status_slot(nccc_fail(NCCC_ERR_WRONG_ARG_TYPE, "poke",
                                       "unknown type code"));
}

/* read/write move bytes through slots, as memcpy would lay them out, so a
** host without access to C memory (wasm, a remote client) can move
** strings and buffers. */
static void b_read(const uint64_t *in, uint64_t *out) {
  size_t n = (size_t)in[1];
  if (n != 0 && !address_ok(ARG_PTR(0), out, "read")) return;
  out[0] = NCCC_OK;
  if (n != 0) nccc_slots_from_bytes(out + 1, ARG_PTR(0), n);
}

static void b_write(const uint64_t *in, uint64_t *out) {
  size_t n = (size_t)in[1];
  if (n != 0 && !address_ok(ARG_PTR(0), out, "write")) return;
  if (n != 0) nccc_slots_to_bytes(ARG_PTR(0), in + 2, n);
  out[0] = NCCC_OK;
}

static void b_strlen(const uint64_t *in, uint64_t *out) {
  if (!address_ok(ARG_PTR(0), out, "strlen")) return;
  out[0] = NCCC_OK;
  out[1] = strlen((const char *)ARG_PTR(0));
}

#else
#define b_alloc b_left_out
#define b_free b_left_out
#define b_peek b_left_out
#define b_poke b_left_out
#define b_read b_left_out
#define b_write b_left_out
#define b_strlen b_left_out
#endif

/* ---- callbacks --------------------------------------------------------- */

#define ARG_FN(i) ((nccc_fn)(uintptr_t)in[i])

#if NCCC_WITH_CLOSURES || NCCC_WITH_TRACE || NCCC_WITH_FAULTS
/* Flags and counts wider than their C types cannot be valid; refuse them
** rather than let a cast wrap them into range. */
static int u32_arg(uint64_t v, uint64_t *out, const char *what) {
  if (v <= UINT32_MAX) return 1;
  out[0] = status_slot(nccc_fail(NCCC_ERR_INVALID_ARG, what, "out of range"));
  return 0;
}
#endif

#if NCCC_WITH_CLOSURES

/* The claimed context, or the status of a failed claim. */
static void claimed(nccc_status st, void *const *ctx, uint64_t *out) {
  out[0] = status_slot(st);
  if (st == NCCC_OK) out[1] = nccc_slot_from_ptr(*ctx);
}

static void b_closure_claim(const uint64_t *in, uint64_t *out) {
  void *ctx = NULL;
  if (!u32_arg(in[2], out, "closure claim")) return;
  claimed(nccc_closure_claim(ARG_FN(0), in[1], (unsigned)in[2], &ctx), &ctx, out);
}

static void b_closure_claim_typed(const uint64_t *in, uint64_t *out) {
  void *ctx = NULL;
  if (!u32_arg(in[2], out, "closure claim")) return;
  claimed(nccc_closure_claim_typed(ARG_FN(0), in[1], (unsigned)in[2],
                                   (const char *)ARG_PTR(3), &ctx),
          &ctx, out);
}

/* Both group claims: flags, final member, n, then n members of stride
** slots each (target, env, and for typed claims the signature). */
static void claim_group(const uint64_t *in, uint64_t *out, unsigned stride) {
  nccc_fn targets[NCCC_CLOSURE_GROUP_MAX];
  uint64_t envs[NCCC_CLOSURE_GROUP_MAX];
  const char *sigs[NCCC_CLOSURE_GROUP_MAX];
  void *ctx = NULL;
  unsigned k;
  if (!u32_arg(in[0], out, "closure claim") ||
      !u32_arg(in[1], out, "closure claim")) {
    return;
  }
  if (in[2] == 0 || in[2] > NCCC_CLOSURE_GROUP_MAX) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_INVALID_ARG, "closure claim",
                                   "group size not in 1..NCCC_CLOSURE_GROUP_MAX"));
    return;
  }
  for (k = 0; k < (unsigned)in[2]; k++) {
    targets[k] = ARG_FN(3 + stride * k);
    envs[k] = in[4 + stride * k];
    sigs[k] = stride > 2 ? (const char *)ARG_PTR(5 + stride * k) : NULL;
  }
  claimed(stride > 2 ? nccc_closure_claim_group_typed((unsigned)in[2], targets, envs, sigs,
                                                      (unsigned)in[0], (unsigned)in[1], &ctx)
                     : nccc_closure_claim_group((unsigned)in[2], targets, envs,
                                                (unsigned)in[0], (unsigned)in[1], &ctx),
          &ctx, out);
}

static void b_closure_claim_group(const uint64_t *in, uint64_t *out) {
  claim_group(in, out, 2);
}

static void b_closure_claim_group_typed(const uint64_t *in, uint64_t *out) {
  claim_group(in, out, 3);
}

static void b_closure_release(const uint64_t *in, uint64_t *out) {
  out[0] = status_slot(nccc_closure_release(ARG_PTR(0)));
}

static void b_closure_stats(const uint64_t *in, uint64_t *out) {
  nccc_closure_stats s;
  (void)in;
  nccc_closure_get_stats(&s);
  out[0] = NCCC_OK;
  out[1] = s.capacity;
  out[2] = s.in_use;
  out[3] = s.stale_calls;
  out[4] = s.type_mismatches;
  out[5] = s.wrong_thread;
}

#else
#define b_closure_claim b_left_out
#define b_closure_claim_typed b_left_out
#define b_closure_claim_group b_left_out
#define b_closure_claim_group_typed b_left_out
#define b_closure_release b_left_out
#define b_closure_stats b_left_out
#endif

/* ---- tracing ------------------------------------------------------------ */

#if NCCC_WITH_TRACE

static void b_trace_enable(const uint64_t *in, uint64_t *out) {
  if (in[0] == 0 && in[1] == 0) {
    nccc_trace_disable_all();
    out[0] = NCCC_OK;
    return;
  }
  if (!u32_arg(in[0], out, "trace enable")) return;
  out[0] = status_slot(nccc_trace_enable((nccc_handle)in[0], in[1] != 0));
}

static void b_trace_enable_module(const uint64_t *in, uint64_t *out) {
  if (in[0] >= NCCC_MAX_MODULES) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_INDEX_INVALID, "trace enable module",
                                   "no module at that index"));
    return;
  }
  out[0] = status_slot(nccc_trace_enable_module((uint16_t)in[0], in[1] != 0));
}

static void b_trace_buffer(const uint64_t *in, uint64_t *out) {
  if (in[1] > (uint64_t)SIZE_MAX) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_INVALID_ARG, "trace buffer",
                                   "size out of range"));
    return;
  }
  out[0] = status_slot(nccc_trace_set_buffer(ARG_PTR(0), (size_t)in[1]));
}

static void b_trace_stats(const uint64_t *in, uint64_t *out) {
  nccc_trace_stats s;
  (void)in;
  nccc_trace_get_stats(&s);
  out[0] = NCCC_OK;
  out[1] = s.first;
  out[2] = s.next;
  out[3] = s.capacity;
}

static void b_trace_read(const uint64_t *in, uint64_t *out) {
  nccc_trace_record r;
  nccc_status st = nccc_trace_read(in[0], &r);
  out[0] = status_slot(st);
  if (st != NCCC_OK) return;
  out[1] = r.handle;
  out[2] = r.status;
  out[3] = r.start_ns;
  out[4] = r.end_ns;
}

static void b_trace_clear(const uint64_t *in, uint64_t *out) {
  (void)in;
  nccc_trace_clear();
  out[0] = NCCC_OK;
}

#else
#define b_trace_enable b_left_out
#define b_trace_enable_module b_left_out
#define b_trace_buffer b_left_out
#define b_trace_stats b_left_out
#define b_trace_read b_left_out
#define b_trace_clear b_left_out
#endif

/* ---- fault injection ------------------------------------------------------- */

#if NCCC_WITH_FAULTS

static void b_fault_arm(const uint64_t *in, uint64_t *out) {
  if (!u32_arg(in[0], out, "fault arm") || !u32_arg(in[1], out, "fault arm")) {
    return;
  }
  if (!nccc_slot_fits_i32(in[2]) || in[3] > NCCC_FAULT_SLOTS) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_INVALID_ARG, "fault arm",
                                   "errno or slot count out of range"));
    return;
  }
  out[0] = status_slot(nccc_fault_arm((nccc_handle)in[0], (uint32_t)in[1],
                                      in + 4, (size_t)in[3],
                                      nccc_slot_to_i32(in[2])));
}

static void b_fault_disarm(const uint64_t *in, uint64_t *out) {
  if (in[0] == 0) {
    nccc_fault_disarm_all();
    out[0] = NCCC_OK;
    return;
  }
  if (!u32_arg(in[0], out, "fault disarm")) return;
  out[0] = status_slot(nccc_fault_disarm((nccc_handle)in[0]));
}

static void b_fault_query(const uint64_t *in, uint64_t *out) {
  uint32_t remaining;
  uint64_t fired;
  nccc_status st;
  if (!u32_arg(in[0], out, "fault query")) return;
  st = nccc_fault_query((nccc_handle)in[0], &remaining, &fired);
  out[0] = status_slot(st);
  if (st != NCCC_OK) return;
  out[1] = remaining;
  out[2] = fired;
}

#else
#define b_fault_arm b_left_out
#define b_fault_disarm b_left_out
#define b_fault_query b_left_out
#endif

/* Clears the thread's last error, so that a host can tell whether the
** next call recorded one: a forward wrapper that cannot bind a thunk
** (pool exhausted) has no status slot and reports only there. */
static void b_clear_error(const uint64_t *in, uint64_t *out) {
  (void)in;
  nccc_clear_error();
  out[0] = NCCC_OK;
}

/* ---- the table ------------------------------------------------------------ */

/* The names, signatures and slot counts are nccc/abi.h's, in index
** order; each built-in's function is b_<name>. */
#define BUILTIN_NAME(index, upper, name, sig, n_in, n_out, offset) #name "\0"
#define BUILTIN_FN(index, upper, name, sig, n_in, n_out, offset) b_##name,
#define BUILTIN_INFO(index, upper, name, sig, n_in, n_out, offset) \
  {sig, n_in, n_out, offset},

NCCC_NAMES_BLOB(builtin_names, NCCC_BUILTIN_COUNT,
                NCCC_ABI_BUILTINS(BUILTIN_NAME));

static const nccc_fn builtin_funcs[NCCC_BUILTIN_COUNT] = {
    NCCC_ABI_BUILTINS(BUILTIN_FN)};

static const nccc_fn_info builtin_info[NCCC_BUILTIN_COUNT] = {
    NCCC_ABI_BUILTINS(BUILTIN_INFO)};

static const nccc_registry builtin_registry = {
    (const char *)&builtin_names, builtin_funcs, builtin_info, NULL, NULL};

const nccc_module nccci_builtin_module = {"nccc", &builtin_registry, NULL, 0,
                                         0, NULL};

static void b_builtin(const uint64_t *in, uint64_t *out) {
  if (in[0] >= NCCC_BUILTIN_COUNT) {
    out[0] = status_slot(nccc_fail(NCCC_ERR_INDEX_INVALID,
                                   "no built-in with that index", NULL));
    return;
  }
  out[0] = NCCC_OK;
  out[1] = SLOT_FN(builtin_funcs[in[0]]);
  out[2] = SLOT_STR(nccc_names_get((const char *)&builtin_names,
                                   (uint16_t)in[0]));
  out[3] = SLOT_STR(builtin_info[in[0]].signature);
}
