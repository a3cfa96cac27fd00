/*
** internal.h — state and helpers shared by the runtime's own files.
** Nothing here is part of the public API; bindings and generated code
** include <nccc/nccc.h> only.
*/
#ifndef NCCC_INTERNAL_H
#define NCCC_INTERNAL_H

#include <string.h>

#include <nccc/nccc.h>
#include <nccc/visibility.h>

/* Callbacks find their closure without the lock (closure.c), and lookup
** reads its hint (nccci_module_index), where the compiler has atomic
** loads and fences; elsewhere every call locks. */
#if defined(__GNUC__) || defined(__clang__)
#define NCCC_LOCK_FREE_CALLS 1
#define NCCC_LOAD_ACQ(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define NCCC_LOAD_RLX(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define NCCC_STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define NCCC_STORE_RLX(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define NCCC_FENCE_ACQ() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define NCCC_FENCE_REL() __atomic_thread_fence(__ATOMIC_RELEASE)
#else
#define NCCC_LOCK_FREE_CALLS 0
#define NCCC_LOAD_ACQ(p) (*(p))
#define NCCC_LOAD_RLX(p) (*(p))
#define NCCC_STORE_REL(p, v) (*(p) = (v))
#define NCCC_STORE_RLX(p, v) (*(p) = (v))
#define NCCC_FENCE_ACQ() ((void)0)
#define NCCC_FENCE_REL() ((void)0)
#endif

/* The runtime's whole mutable state: zero-initialised data, no
** constructor. nccc_init fills it. */
/* What a call needs of one module index, flat, so that nccc_call reaches
** the function in two loads after the bounds checks. count is 0 for an
** empty index; the global registry's count follows each registration. */
typedef struct nccci_dispatch {
  const nccc_fn *funcs;
  const nccc_fn_info *info;
  const nccc_registry *registry;
  uint32_t count;
} nccci_dispatch;

typedef struct nccci_state {
  nccci_dispatch dispatch[NCCC_MAX_MODULES + 1]; /* the global one last */
  const nccc_module *modules[NCCC_MAX_MODULES];
  int last_module; /* the index nccci_module_index found last: tried first */
#if NCCC_WITH_GLOBAL_REGISTRY
  nccc_mreg global;
#endif
  int initialized;
} nccci_state;

NCCC_INTERNAL extern nccci_state nccci_G;

/* A blob's count, inline for the call path. */
static inline uint16_t nccci_blob_count(const char *names) {
  uint16_t n;
  memcpy(&n, names, sizeof n);
  return n;
}

/* Registries of at most this many names are scanned, their first bytes
** compared inline: cheaper than a binary search's strcmp at each step,
** and than hashing the name (bench/run_lookup.sh). */
#define NCCCI_SCAN_MAX 16

/* The index of name in reg (neither NULL), or -1, without the hash index:
** a scan of at most NCCCI_SCAN_MAX names, a search of the sorted index,
** or a scan of the blob (registry.c). */
NCCC_INTERNAL int nccci_registry_search(const nccc_registry *reg, const char *name);

/* FNV-1a 32 over a string's bytes (idl/abi.json, fnv1a_32): the hash of
** closure types and of registries' name indices. Inline for lookup. */
static inline uint32_t nccci_fnv1a(const char *s) {
  uint32_t h = NCCC_ABI_FNV1A_BASIS;
  for (; *s != '\0'; s++) h = (h ^ (uint8_t)*s) * NCCC_ABI_FNV1A_PRIME;
  return h;
}

/* The index of name in reg (neither NULL), or -1: nccc_registry_lookup
** without its argument checks and error, for nccc_lookup. Through the
** hash index when reg has one (nccc/registry.h) and more than
** NCCCI_SCAN_MAX names, inline: the probe is most of a lookup, and a call
** would save registers around it. */
static inline int nccci_registry_find(const nccc_registry *reg, const char *name) {
#if NCCC_WITH_NAME_HASH
  const uint16_t *slots = reg->hash_index;
  uint32_t mask, k;
  unsigned entry;
  if (slots == NULL || nccci_blob_count(reg->names) <= NCCCI_SCAN_MAX) {
    return nccci_registry_search(reg, name);
  }
  mask = *slots++;
  k = nccci_fnv1a(name) & mask;
  while ((entry = slots[k]) != NCCC_ABI_NAME_INDEX_EMPTY) {
    const char *candidate = reg->names + reg->info[entry - 1].name_offset;
    if (candidate[0] == name[0] && strcmp(candidate, name) == 0) {
      return (int)entry - 1;
    }
    k = (k + 1) & mask;
  }
  return -1;
#else
  return nccci_registry_search(reg, name);
#endif
}

/* The registry behind a module index (the global one included), or NULL. */
NCCC_INTERNAL const nccc_registry *nccci_state_registry(uint16_t module_index);

/* Points dispatch[index] at reg (NULL: empties it). */
NCCC_INTERNAL void nccci_dispatch_set(uint16_t index, const nccc_registry *reg);

/* 1, and its length in *out_len (may be NULL), when m is a module whose
** name starts name and is followed there by end; else 0. */
static inline int nccci_module_named(const nccc_module *m, const char *name, char end,
                                     size_t *out_len) {
  size_t k = 0;
  if (m == NULL) return 0;
  /* module names are short: a loop here is cheaper than strncmp */
  while (m->name[k] != '\0' && m->name[k] == name[k]) k++;
  if (m->name[k] != '\0' || name[k] != end) return 0;
  if (out_len != NULL) *out_len = k;
  return 1;
}

/* Index of the module whose name starts name and is followed there by
** end ('.' for a qualified function name, '\0' for a module name), its
** length in *out_len (may be NULL); or -1. The module found last is
** tried first (a program looks up many names of one module in a row),
** then the table in order. Inline: nccc_lookup's first step
** (bench/run_lookup.sh). The hint is read and written without the lock:
** any index it holds is in range, and the module there is checked. */
static inline int nccci_module_index(const char *name, char end, size_t *out_len) {
  int i = NCCC_LOAD_RLX(&nccci_G.last_module);
  if (nccci_module_named(nccci_G.modules[i], name, end, out_len)) return i;
  for (i = 0; i < NCCC_MAX_MODULES; i++) {
    if (nccci_module_named(nccci_G.modules[i], name, end, out_len)) {
      NCCC_STORE_RLX(&nccci_G.last_module, i);
      return i;
    }
  }
  return -1;
}

/* The built-in module "nccc" (builtins.c). */
NCCC_INTERNAL extern const nccc_module nccci_builtin_module;

/* Bounded string length: n when no NUL within max+1 bytes. */
NCCC_INTERNAL size_t nccci_strnlen(const char *s, size_t max);

/* ---- closures, thunks, call sites (closure.c, thunk.c, site.c, trace.c,
** fault.c); "_locked" functions expect the platform lock held ---------- */

NCCC_INTERNAL int nccci_closure_live_locked(void *ctx, unsigned member);

/* Bytes of a closure's signature kept (closure_type.c), for messages and
** nccc_closure_signature. */
#define NCCCI_CLOSURE_SIG_KEEP NCCC_CLOSURE_SIGNATURE_KEPT

/* Keeps signature (NULL: untyped) in dst, cut to fit with "..." . */
NCCC_INTERNAL void nccci_closure_sig_keep(char *dst, const char *signature);

/* Records NCCC_ERR_WRONG_ARG_TYPE for a closure of signature have called
** as type, and returns it. */
NCCC_INTERNAL nccc_status nccci_closure_type_mismatch(const char *have,
                                                      const nccc_callback_type *type);

/* The shim stack: site_state.c at the bottom (the active word, handle
** to module function), trace.c and fault.c on it, site.c on both. */

/* Takes the platform lock and finds the module and function index of a
** module function's handle, which the tables key on. On failure the lock
** is released again and the status returned: NCCC_ERR_BAD_HANDLE, or
** NCCC_ERR_INVALID_ARG for the global registry (what = the caller, for
** the message; NULL records nothing). */
NCCC_INTERNAL nccc_status nccci_site_lock(nccc_handle handle, const char *what,
                                          const nccc_module **out_module, uint32_t *out_index);

/* Sets (on) or clears one bit of nccc_site_active. */
NCCC_INTERNAL void nccci_site_flag_locked(uint32_t bit, int on);

/* A feature left out (nccc/config.h) is a table that is always empty:
** the inline stand-ins below let site.c and runtime.c stay as they are. */
#if NCCC_WITH_FAULTS
/* 1 when a fault for (module, index) fired and wrote out[]. */
NCCC_INTERNAL int nccci_fault_fire_locked(const nccc_module *module, uint32_t index,
                                          unsigned shims, uint64_t *out, size_t n_out);
NCCC_INTERNAL void nccci_fault_reset(void);
#else
static inline int nccci_fault_fire_locked(const nccc_module *module, uint32_t index,
                                          unsigned shims, uint64_t *out, size_t n_out) {
  (void)module, (void)index, (void)shims, (void)out, (void)n_out;
  return 0;
}
static inline void nccci_fault_reset(void) {}
#endif

#if NCCC_WITH_TRACE
NCCC_INTERNAL int nccci_trace_wanted_locked(const nccc_module *module, uint32_t index);
NCCC_INTERNAL void nccci_trace_put_locked(uint32_t handle, uint32_t status, uint64_t start_ns,
                                          uint64_t end_ns);
NCCC_INTERNAL void nccci_trace_reset(void);
#else
static inline int nccci_trace_wanted_locked(const nccc_module *module, uint32_t index) {
  (void)module, (void)index;
  return 0;
}
static inline void nccci_trace_put_locked(uint32_t handle, uint32_t status, uint64_t start_ns,
                                          uint64_t end_ns) {
  (void)handle, (void)status, (void)start_ns, (void)end_ns;
}
static inline void nccci_trace_reset(void) {}
#endif

/* The platform clock, 0 without a now_ns hook (platform.c). */
NCCC_INTERNAL uint64_t nccci_now_ns(void);

/* The calling thread's word: the thread_id hook's, or without one the
** address of a thread-local byte (platform.c), read inline because every
** host callback asks for it. Initial-exec keeps that one read of the
** thread pointer in a shared library too, where the default model calls
** __tls_get_addr (it takes one byte of the static TLS surplus that glibc
** keeps for libraries opened later). */
#if defined(__GNUC__) && defined(__ELF__) && NCCC_CONFIG_HOSTED
#define NCCCI_THREAD_TAG_MODEL __attribute__((tls_model("initial-exec")))
#else
#define NCCCI_THREAD_TAG_MODEL
#endif
NCCC_INTERNAL extern NCCC_THREAD_LOCAL char nccci_thread_tag NCCCI_THREAD_TAG_MODEL;
NCCC_INTERNAL extern uintptr_t (*nccci_thread_hook)(void);

static inline uintptr_t nccci_thread_id(void) {
  return nccci_thread_hook != NULL ? nccci_thread_hook()
                                   : (uintptr_t)&nccci_thread_tag;
}

#endif
