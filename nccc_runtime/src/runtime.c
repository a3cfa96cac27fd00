/*
** runtime.c — the runtime's state, initialisation and the root.
*/
#include <string.h>

#include "internal.h"

#if NCCC_WITH_GLOBAL_REGISTRY
/* The global registry's block when nccc_init is given none (uint64_t for
** alignment; mreg aligns anyway). */
static uint64_t default_block[(NCCC_GLOBAL_REGISTRY_BYTES + 7) / 8];

/* An empty global registry in block, or the default one. Lock held. */
static nccc_status global_registry_init(void *block, size_t size) {
  nccc_status st;
  if (block == NULL) {
    block = default_block;
    size = sizeof default_block;
  }
  st = nccc_mreg_init(&nccci_G.global, block, size, 0);
  if (st == NCCC_OK) nccci_dispatch_set(NCCC_GLOBAL_MODULE, &nccci_G.global.view);
  return st;
}
#else
/* Left out (nccc/config.h): the global module index stays empty. */
static nccc_status global_registry_init(void *block, size_t size) {
  (void)block, (void)size;
  return NCCC_OK;
}
#endif

nccc_status nccc_init(void *block, size_t size) {
  nccc_status st;
  nccc_platform_lock();
  nccci_G.initialized = 0;
  memset(nccci_G.modules, 0, sizeof nccci_G.modules);
  memset(nccci_G.dispatch, 0, sizeof nccci_G.dispatch);
  st = global_registry_init(block, size);
  if (st == NCCC_OK) nccci_G.initialized = 1;
  nccc_platform_unlock();
  if (st != NCCC_OK) return st;
  /* A fresh runtime: outstanding closure contexts become stale, and no
  ** fault or trace setting outlives the handles it was made for. */
#if NCCC_WITH_CLOSURES
  nccc_closure_reset();
#endif
  nccci_fault_reset();
  nccci_trace_reset();
  return nccc_module_add(&nccci_builtin_module, NULL);
}

nccc_status nccc_ensure_init(void) {
  return nccci_G.initialized ? NCCC_OK : nccc_init(NULL, 0);
}

/* The root is the built-in "builtin": a host that holds its address can
** reach every other built-in by index. */
void nccc_root(const uint64_t *in, uint64_t *out) {
  nccc_fn builtin_fn;
  if (nccc_ensure_init() != NCCC_OK) {
    out[0] = (uint64_t)nccc_last_status();
    return;
  }
  builtin_fn = nccci_builtin_module.registry->funcs[NCCC_BUILTIN_BUILTIN];
  builtin_fn(in, out);
}
