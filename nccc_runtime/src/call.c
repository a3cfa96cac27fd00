/*
** call.c — handles, lookup and calls.
*/
#include <string.h>

#include "internal.h"

/* Resolves a handle to its dispatch entry and function index, or NULL.
** Inline so that nccc_call is one short path. The module marker and the
** module bound are one unsigned comparison: without the marker the
** subtraction wraps past every index. */
static inline const nccci_dispatch *resolve(nccc_handle handle,
                                            uint16_t *out_module,
                                            uint16_t *out_function) {
  uint32_t module_index = (handle >> NCCC_ABI_HANDLE_MODULE_SHIFT) -
                          (NCCC_ABI_HANDLE_MODULE_MARKER >>
                           NCCC_ABI_HANDLE_MODULE_SHIFT);
  uint32_t function_index = nccc_handle_function(handle);
  const nccci_dispatch *d;
  if (module_index > NCCC_GLOBAL_MODULE ||
      (handle & NCCC_ABI_HANDLE_FUNCTION_MARKER) == 0) {
    return NULL;
  }
  d = &nccci_G.dispatch[module_index];
  if (function_index >= d->count) return NULL; /* 0 for empty indices */
  *out_module = (uint16_t)module_index;
  *out_function = (uint16_t)function_index;
  return d;
}

static nccc_status bad_handle(void) {
  return nccc_fail(NCCC_ERR_BAD_HANDLE,
                   "not a handle of a present module and function", NULL);
}

nccc_status nccc_handle_decode(nccc_handle handle, uint16_t *out_module,
                               uint16_t *out_function) {
  uint16_t m, f;
  if (resolve(handle, &m, &f) == NULL) return bad_handle();
  if (out_module != NULL) *out_module = m;
  if (out_function != NULL) *out_function = f;
  return NCCC_OK;
}

nccc_status nccc_lookup(const char *name, nccc_handle *out) {
  size_t len;
  int m, index;
  if (name == NULL || out == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "lookup", NULL);
  }
  /* Before nccc_init the module table is empty, so the initialisation is
  ** checked only when no module matched: off the path of a found name. */
  m = nccci_module_index(name, '.', &len);
  if (m >= 0) {
    index = nccci_registry_find(nccci_G.modules[m]->registry, name + len + 1);
    if (index < 0) return nccc_fail(NCCC_ERR_NAME_NOT_FOUND, "no function named", name);
    *out = nccc_handle_encode((uint16_t)m, (uint16_t)index);
    return NCCC_OK;
  }
  if (!nccci_G.initialized) {
    return nccc_fail(NCCC_ERR_NOT_INITIALIZED, "lookup", name);
  }
#if NCCC_WITH_GLOBAL_REGISTRY
  nccc_platform_lock();
  index = nccci_registry_search(&nccci_G.global.view, name); /* no hash index */
  nccc_platform_unlock();
  if (index >= 0) {
    *out = nccc_handle_encode(NCCC_GLOBAL_MODULE, (uint16_t)index);
    return NCCC_OK;
  }
#endif
  return nccc_fail(NCCC_ERR_NAME_NOT_FOUND, "no function named", name);
}

nccc_status nccc_function(nccc_handle handle, nccc_fn *out_fn,
                          const nccc_fn_info **out_info,
                          const char **out_name) {
  uint16_t m, f;
  const nccci_dispatch *d = resolve(handle, &m, &f);
  if (d == NULL) return bad_handle();
  return nccc_registry_get(d->registry, f, out_fn, out_info, out_name);
}

/* The hot path: decode, bounds-check and call, with no lock and no copy.
** Entries of the global registry are never removed, and an override
** replaces one pointer, so a concurrent registration cannot make this
** read a torn entry on targets where pointer stores are atomic. */
nccc_status nccc_call(nccc_handle handle, const uint64_t *in, uint64_t *out) {
  uint16_t m, f;
  const nccci_dispatch *d = resolve(handle, &m, &f);
  if (d == NULL) return bad_handle();
  d->funcs[f](in, out);
  return NCCC_OK;
}

/* Does a buffer of n slots fit a side whose count is spec? An exact
** match first: the usual case, and right for a variable side too (n is
** then past its minimum). */
static int count_fits(uint16_t spec, size_t n) {
  if (n == (size_t)spec) return 1;
  return (spec & NCCC_SLOTS_VARIABLE) != 0 &&
         n >= (size_t)(spec & ~NCCC_SLOTS_VARIABLE);
}

nccc_status nccc_call_checked(nccc_handle handle, const uint64_t *in,
                              size_t n_in, uint64_t *out, size_t n_out) {
  uint16_t m, f;
  const nccci_dispatch *d = resolve(handle, &m, &f);
  if (d == NULL) return bad_handle();
  if (!count_fits(d->info[f].n_in, n_in) ||
      !count_fits(d->info[f].n_out, n_out)) {
    return nccc_fail(NCCC_ERR_NUM_ARGUMENTS,
                     "slot counts do not match the signature",
                     d->info[f].signature);
  }
  if ((in == NULL && n_in != 0) || (out == NULL && n_out != 0)) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "checked call", "NULL buffer");
  }
  d->funcs[f](in, out);
  return NCCC_OK;
}

#if NCCC_WITH_GLOBAL_REGISTRY
nccc_status nccc_register(const char *name, nccc_fn fn, const char *signature,
                          int override, nccc_handle *out) {
  uint16_t index;
  nccc_status st;
  if (!nccci_G.initialized) {
    return nccc_fail(NCCC_ERR_NOT_INITIALIZED, "register", name);
  }
  nccc_platform_lock();
  st = nccc_mreg_set(&nccci_G.global, name, fn, signature, override, &index);
  if (st == NCCC_OK) {
    nccci_G.dispatch[NCCC_GLOBAL_MODULE].count =
        nccc_registry_count(&nccci_G.global.view);
  }
  nccc_platform_unlock();
  if (st == NCCC_OK && out != NULL) {
    *out = nccc_handle_encode(NCCC_GLOBAL_MODULE, index);
  }
  return st;
}
#else
nccc_status nccc_register(const char *name, nccc_fn fn, const char *signature,
                          int override, nccc_handle *out) {
  (void)name, (void)fn, (void)signature, (void)override, (void)out;
  return nccc_fail(NCCC_ERR_NOT_IMPLEMENTED, "register",
                   "no global registry in this build (nccc/config.h)");
}
#endif
