/*
** site_state.c — what the trace and fault tables share below the call
** sites: the word wrappers test (nccc_site_active) and the module
** function a handle names. trace.c and fault.c each own one bit of the
** word; site.c reads both tables and neither table calls back up.
*/
#include "internal.h"

#if NCCC_WITH_SITES

uint32_t nccc_site_active;

void nccci_site_flag_locked(uint32_t bit, int on) {
#if defined(__GNUC__) || defined(__clang__)
  uint32_t v = __atomic_load_n(&nccc_site_active, __ATOMIC_RELAXED);
  v = on ? (v | bit) : (v & ~bit);
  __atomic_store_n(&nccc_site_active, v, __ATOMIC_RELAXED);
#else
  volatile uint32_t *word = (volatile uint32_t *)&nccc_site_active;
  *word = on ? (*word | bit) : (*word & ~bit);
#endif
}

/* Failures are recorded only when what names the caller. */
static nccc_status site_fail(nccc_status st, const char *what,
                             const char *detail) {
  return what != NULL ? nccc_fail(st, what, detail) : st;
}

static nccc_status site_of_locked(nccc_handle handle, const char *what,
                                  const nccc_module **out_module,
                                  uint32_t *out_index) {
  uint16_t mi = (uint16_t)nccc_handle_module(handle);
  uint16_t fi = (uint16_t)nccc_handle_function(handle);
  int marked = nccc_handle_marked(handle);
  const nccc_module *m = marked ? nccc_module_at(mi) : NULL;
  if (m == NULL || fi >= nccc_registry_count(m->registry)) {
    const nccc_registry *global = nccci_state_registry(NCCC_GLOBAL_MODULE);
    if (marked && mi == NCCC_GLOBAL_MODULE && global != NULL &&
        fi < nccc_registry_count(global)) {
      return site_fail(NCCC_ERR_INVALID_ARG, what,
                       "a global-registry function has no shims");
    }
    return site_fail(NCCC_ERR_BAD_HANDLE, what,
                     "not a handle of a present module and function");
  }
  *out_module = m;
  *out_index = fi;
  return NCCC_OK;
}

nccc_status nccci_site_lock(nccc_handle handle, const char *what,
                            const nccc_module **out_module,
                            uint32_t *out_index) {
  nccc_status st;
  nccc_platform_lock();
  st = site_of_locked(handle, what, out_module, out_index);
  if (st != NCCC_OK) nccc_platform_unlock();
  return st;
}

#endif /* NCCC_WITH_SITES */
