/*
** site.c — the slow path of the trace and fault shims: the top of the
** shim stack, above trace.c and fault.c (which sit on site_state.c).
*/
#include "internal.h"

#if NCCC_WITH_SITES

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
  nccc_platform_lock();
  handle = index <= NCCC_ABI_HANDLE_INDEX_MASK ? handle_of(module, index) : 0;
  if (handle == 0) {
    nccc_platform_unlock();
    return 0;
  }
  traced = (shims & NCCC_SITE_TRACE) != 0 &&
           nccci_trace_wanted_locked(module, index);
  if ((shims & NCCC_SITE_FAULT) != 0 &&
      nccci_fault_fire_locked(module, index, shims, out, n_out)) {
    if (traced) {
      uint64_t now = nccci_now_ns();
      nccci_trace_put_locked(handle, NCCC_ERR_FAULT_INJECTED, now, now);
    }
    nccc_platform_unlock();
    return NCCC_SITE_FAULTED;
  }
  nccc_platform_unlock();
  if (!traced) return 0;
  *start_ns = nccci_now_ns(); /* last: the clock brackets only the call */
  return NCCC_SITE_TRACING;
}

void nccc_site_leave(const nccc_module *module, uint32_t index,
                     uint64_t start_ns) {
  uint64_t end = nccci_now_ns();
  uint32_t handle;
  nccc_platform_lock();
  /* the handle again (the wrapper keeps no more than the start time
  ** across its call); a module removed meanwhile is not recorded */
  handle = index <= NCCC_ABI_HANDLE_INDEX_MASK ? handle_of(module, index) : 0;
  if (handle != 0) nccci_trace_put_locked(handle, NCCC_OK, start_ns, end);
  nccc_platform_unlock();
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

#endif /* NCCC_WITH_SITES */
