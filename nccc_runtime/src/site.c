/*
** site.c — the slow path of the trace and fault shims.
*/
#include "internal.h"

uint32_t nccc_site_active;

void nccc_site_update_locked(void) {
  uint32_t v = (nccc_fault_any_locked() ? NCCC_SITE_FAULT : 0u) |
               (nccc_trace_any_locked() ? NCCC_SITE_TRACE : 0u);
#if defined(__GNUC__) || defined(__clang__)
  __atomic_store_n(&nccc_site_active, v, __ATOMIC_RELAXED);
#else
  *(volatile uint32_t *)&nccc_site_active = v;
#endif
}

uint64_t nccc_now_ns(void) {
  uint64_t (*now)(void) = nccc_platform_get()->now_ns;
  return now != NULL ? now() : 0;
}

/* Failures are recorded only when what names the caller. */
static nccc_status site_fail(nccc_status st, const char *what,
                             const char *detail) {
  return what != NULL ? nccc_fail(st, what, detail) : st;
}

nccc_status nccc_site_of(nccc_handle handle, const char *what,
                         const nccc_module **out_module, uint32_t *out_index) {
  uint16_t mi = (uint16_t)((handle >> 16) & 0x7fffu);
  uint16_t fi = (uint16_t)(handle & 0x7fffu);
  int marked = (handle & 0x80008000u) == 0x80008000u;
  const nccc_module *m = marked ? nccc_module_at(mi) : NULL;
  if (m == NULL || fi >= nccc_registry_count(m->registry)) {
    const nccc_registry *global = nccc_state_registry(NCCC_GLOBAL_MODULE);
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

/* The handle of function index of module, or 0 when it is not added. */
static uint32_t handle_of(const nccc_module *module, uint32_t index) {
  uint16_t i;
  for (i = 0; i < NCCC_MAX_MODULES; i++) {
    if (nccc_module_at(i) == module) return nccc_handle_encode(i, (uint16_t)index);
  }
  return 0;
}

unsigned nccc_site_enter(const nccc_module *module, uint32_t index,
                         unsigned shims, uint64_t *out, size_t n_out,
                         uint64_t *start_ns) {
  uint32_t handle;
  int traced;
  nccc_state_lock();
  handle = index <= 0x7fffu ? handle_of(module, index) : 0;
  if (handle == 0) {
    nccc_state_unlock();
    return 0;
  }
  traced = (shims & NCCC_SITE_TRACE) != 0 &&
           nccc_trace_wanted_locked(module, index);
  if ((shims & NCCC_SITE_FAULT) != 0 &&
      nccc_fault_fire_locked(module, index, shims, out, n_out)) {
    if (traced) {
      uint64_t now = nccc_now_ns();
      nccc_trace_put_locked(handle, NCCC_ERR_FAULT_INJECTED, now, now);
    }
    nccc_state_unlock();
    return NCCC_SITE_FAULTED;
  }
  nccc_state_unlock();
  if (!traced) return 0;
  *start_ns = nccc_now_ns(); /* last: the clock brackets only the call */
  return NCCC_SITE_TRACING;
}

void nccc_site_leave(const nccc_module *module, uint32_t index,
                     uint64_t start_ns) {
  uint64_t end = nccc_now_ns();
  uint32_t handle;
  nccc_state_lock();
  /* the handle again (the wrapper keeps no more than the start time
  ** across its call); a module removed meanwhile is not recorded */
  handle = index <= 0x7fffu ? handle_of(module, index) : 0;
  if (handle != 0) nccc_trace_put_locked(handle, NCCC_OK, start_ns, end);
  nccc_state_unlock();
}

void nccc_site_call(const nccc_module *module, uint32_t index, unsigned shims,
                    nccc_fn body, const uint64_t *in, uint64_t *out,
                    size_t n_out) {
  uint64_t start = 0;
  unsigned state = nccc_site_enter(module, index, shims, out, n_out, &start);
  if (state == NCCC_SITE_FAULTED) return;
  body(in, out);
  if (state == NCCC_SITE_TRACING) nccc_site_leave(module, index, start);
}
