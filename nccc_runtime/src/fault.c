/*
** fault.c — the table of armed faults.
**
** An entry stays after its count runs out (remaining 0) so that a query
** can still report how often it fired; such spent entries are reused
** only when no empty one is left.
*/
#include "internal.h"

#if NCCC_WITH_FAULTS

typedef struct fault {
  const nccc_module *module; /* NULL: entry empty */
  uint32_t index;
  uint32_t remaining;        /* 0: spent; NCCC_FAULT_ALWAYS: never runs out */
  uint64_t fired;
  uint64_t slots[NCCC_FAULT_SLOTS];
  uint32_t n_slots;
  int32_t err;
} fault;

static struct {
  fault f[NCCC_FAULT_MAX];
  unsigned armed; /* entries with remaining > 0 */
} F;

/* Sets the FAULT bit of nccc_site_active from the table. */
static void publish_locked(void) {
  nccci_site_flag_locked(NCCC_SITE_FAULT, F.armed > 0);
}

static fault *find(const nccc_module *m, uint32_t index) {
  unsigned i;
  for (i = 0; i < NCCC_FAULT_MAX; i++) {
    if (F.f[i].module == m && F.f[i].index == index) return &F.f[i];
  }
  return NULL;
}

nccc_status nccc_fault_arm(nccc_handle handle, uint32_t count,
                           const uint64_t *slots, size_t n_slots, int32_t err) {
  const nccc_module *m;
  uint32_t index;
  fault *f;
  unsigned i;
  nccc_status st;
  if (count == 0) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "fault arm", "count 0");
  }
  if (n_slots > NCCC_FAULT_SLOTS) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "fault arm",
                     "more result slots than NCCC_FAULT_SLOTS");
  }
  if (slots == NULL && n_slots > 0) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "fault arm", "slots");
  }
  st = nccci_site_lock(handle, "fault arm", &m, &index);
  if (st != NCCC_OK) return st;
  f = find(m, index);
  for (i = 0; f == NULL && i < NCCC_FAULT_MAX; i++) {
    if (F.f[i].module == NULL) f = &F.f[i];
  }
  for (i = 0; f == NULL && i < NCCC_FAULT_MAX; i++) {
    if (F.f[i].remaining == 0) f = &F.f[i];
  }
  if (f == NULL) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "fault arm",
                     "NCCC_FAULT_MAX functions armed already");
  }
  if (f->module != NULL && f->remaining != 0) F.armed--;
  memset(f, 0, sizeof *f);
  f->module = m;
  f->index = index;
  f->remaining = count;
  f->n_slots = (uint32_t)n_slots;
  if (n_slots > 0) memcpy(f->slots, slots, n_slots * sizeof slots[0]);
  f->err = err;
  F.armed++;
  publish_locked();
  nccc_platform_unlock();
  return NCCC_OK;
}

nccc_status nccc_fault_disarm(nccc_handle handle) {
  const nccc_module *m;
  uint32_t index;
  fault *f;
  nccc_status st;
  st = nccci_site_lock(handle, "fault disarm", &m, &index);
  if (st != NCCC_OK) return st;
  if ((f = find(m, index)) != NULL) {
    if (f->remaining != 0) F.armed--;
    memset(f, 0, sizeof *f);
    publish_locked();
  }
  nccc_platform_unlock();
  return NCCC_OK;
}

void nccc_fault_disarm_all(void) {
  nccc_platform_lock();
  memset(&F, 0, sizeof F);
  publish_locked();
  nccc_platform_unlock();
}

void nccci_fault_reset(void) { nccc_fault_disarm_all(); }

nccc_status nccc_fault_query(nccc_handle handle, uint32_t *out_remaining,
                             uint64_t *out_fired) {
  const nccc_module *m;
  uint32_t index;
  const fault *f;
  nccc_status st;
  st = nccci_site_lock(handle, "fault query", &m, &index);
  if (st != NCCC_OK) return st;
  f = find(m, index);
  if (out_remaining != NULL) *out_remaining = f != NULL ? f->remaining : 0;
  if (out_fired != NULL) *out_fired = f != NULL ? f->fired : 0;
  nccc_platform_unlock();
  return NCCC_OK;
}

int nccci_fault_fire_locked(const nccc_module *module, uint32_t index,
                            unsigned shims, uint64_t *out, size_t n_out) {
  fault *f = find(module, index);
  size_t n_values = n_out, k;
  if (f == NULL || f->remaining == 0) return 0;
  if (f->remaining != NCCC_FAULT_ALWAYS && --f->remaining == 0) {
    F.armed--;
    publish_locked();
  }
  f->fired++;
  if ((shims & NCCC_SITE_ERRNO) != 0 && n_out > 0) {
    n_values = n_out - 1;
    out[n_values] = nccc_slot_from_i32(f->err);
  }
  for (k = 0; k < n_values; k++) out[k] = k < f->n_slots ? f->slots[k] : 0;
  return 1;
}

#endif /* NCCC_WITH_FAULTS */
