/*
** runtime.c — the runtime's state, initialisation and the root.
*/
#include <string.h>

#include "internal.h"

/* The global registry's block when nccc_init is given none (uint64_t for
** alignment; mreg aligns anyway). */
static uint64_t default_block[(NCCC_GLOBAL_REGISTRY_BYTES + 7) / 8];

nccc_status nccc_init(void *block, size_t size) {
  nccc_status st;
  if (block == NULL) {
    block = default_block;
    size = sizeof default_block;
  }
  nccc_platform_lock();
  nccci_G.initialized = 0;
  memset(nccci_G.modules, 0, sizeof nccci_G.modules);
  memset(nccci_G.dispatch, 0, sizeof nccci_G.dispatch);
  st = nccc_mreg_init(&nccci_G.global, block, size, 0);
  if (st == NCCC_OK) {
    nccci_dispatch_set(NCCC_GLOBAL_MODULE, &nccci_G.global.view);
    nccci_G.initialized = 1;
  }
  nccc_platform_unlock();
  if (st != NCCC_OK) return st;
  /* A fresh runtime: outstanding closure contexts become stale, and no
  ** fault or trace setting outlives the handles it was made for. */
  nccc_closure_reset();
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
