/*
** trace.c — which functions are traced, and the ring of records.
*/
#include "internal.h"

#if NCCC_WITH_TRACE

#define STATIC_RECORDS (NCCC_TRACE_RECORDS > 0 ? NCCC_TRACE_RECORDS : 1)

typedef struct traced_fn {
  const nccc_module *module; /* NULL: entry unused */
  uint32_t index;
} traced_fn;

static nccc_trace_record static_ring[STATIC_RECORDS];

/* Zero means: the static ring (ring NULL until first use). */
static struct {
  traced_fn fns[NCCC_TRACE_MAX_FUNCTIONS];
  const nccc_module *modules[NCCC_MAX_MODULES];
  unsigned n_fns, n_modules;
  nccc_trace_record *ring; /* NULL: static_ring */
  uint32_t capacity;       /* valid when ring != NULL */
  uint64_t next;           /* number of the next record */
} T;

static nccc_trace_record *ring(uint32_t *capacity) {
  if (T.ring == NULL) {
    *capacity = NCCC_TRACE_RECORDS;
    return static_ring;
  }
  *capacity = T.capacity;
  return T.ring;
}

static int any_traced_locked(void) {
  uint32_t cap;
  (void)ring(&cap);
  return cap > 0 && (T.n_fns > 0 || T.n_modules > 0);
}

/* Sets the TRACE bit of nccc_site_active from the tables. */
static void publish_locked(void) {
  nccci_site_flag_locked(NCCC_SITE_TRACE, any_traced_locked());
}

/* ---- the ring -------------------------------------------------------------- */

/* Starts an empty ring of capacity records at records (NULL: the static
** ring). */
static void use_ring(nccc_trace_record *records, uint32_t capacity) {
  nccc_platform_lock();
  T.ring = records;
  T.capacity = capacity;
  T.next = 0;
  publish_locked();
  nccc_platform_unlock();
}

nccc_status nccc_trace_set_buffer(void *block, size_t size) {
  uintptr_t start;
  size_t skip, n;
  if (block == NULL) {
    use_ring(NULL, 0);
    return NCCC_OK;
  }
  start = ((uintptr_t)block + 7u) & ~(uintptr_t)7u;
  skip = (size_t)(start - (uintptr_t)block);
  n = size > skip ? (size - skip) / sizeof(nccc_trace_record) : 0;
  if (n == 0) {
    return nccc_fail(NCCC_ERR_BUFFER_TOO_SMALL, "trace buffer",
                     "no room for one record");
  }
  if (n > UINT32_MAX) n = UINT32_MAX;
  use_ring((nccc_trace_record *)start, (uint32_t)n);
  return NCCC_OK;
}

void nccci_trace_put_locked(uint32_t handle, uint32_t status, uint64_t start_ns,
                            uint64_t end_ns) {
  uint32_t cap;
  nccc_trace_record *r = ring(&cap);
  if (cap == 0) return;
  r += T.next % cap;
  r->handle = handle;
  r->status = status;
  r->start_ns = start_ns;
  r->end_ns = end_ns;
  T.next++;
}

void nccc_trace_get_stats(nccc_trace_stats *out) {
  uint32_t cap;
  if (out == NULL) return;
  nccc_platform_lock();
  (void)ring(&cap);
  out->next = T.next;
  out->first = T.next > cap ? T.next - cap : 0;
  out->capacity = cap;
  nccc_platform_unlock();
}

nccc_status nccc_trace_read(uint64_t seq, nccc_trace_record *out) {
  uint32_t cap;
  nccc_trace_record *r;
  if (out == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "trace read", NULL);
  nccc_platform_lock();
  r = ring(&cap);
  if (seq >= T.next || T.next - seq > cap) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_INDEX_INVALID, "trace read",
                     seq >= T.next ? "not written yet" : "overwritten");
  }
  *out = r[seq % cap];
  nccc_platform_unlock();
  return NCCC_OK;
}

void nccc_trace_clear(void) {
  nccc_platform_lock();
  T.next = 0;
  nccc_platform_unlock();
}

/* ---- what is traced ------------------------------------------------------- */

int nccci_trace_wanted_locked(const nccc_module *module, uint32_t index) {
  unsigned i;
  for (i = 0; i < NCCC_MAX_MODULES; i++) {
    if (T.modules[i] == module) return 1;
  }
  for (i = 0; i < NCCC_TRACE_MAX_FUNCTIONS; i++) {
    if (T.fns[i].module == module && T.fns[i].index == index) return 1;
  }
  return 0;
}

nccc_status nccc_trace_enable(nccc_handle handle, int on) {
  const nccc_module *m;
  uint32_t index;
  unsigned i, hit = NCCC_TRACE_MAX_FUNCTIONS, empty = NCCC_TRACE_MAX_FUNCTIONS;
  nccc_status st;
  st = nccci_site_lock(handle, "trace enable", &m, &index);
  if (st != NCCC_OK) return st;
  for (i = 0; i < NCCC_TRACE_MAX_FUNCTIONS; i++) {
    if (T.fns[i].module == m && T.fns[i].index == index) hit = i;
    if (T.fns[i].module == NULL && empty == NCCC_TRACE_MAX_FUNCTIONS) empty = i;
  }
  if (on && hit == NCCC_TRACE_MAX_FUNCTIONS) {
    if (empty == NCCC_TRACE_MAX_FUNCTIONS) {
      nccc_platform_unlock();
      return nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "trace enable",
                       "NCCC_TRACE_MAX_FUNCTIONS functions traced already");
    }
    T.fns[empty].module = m;
    T.fns[empty].index = index;
    T.n_fns++;
  } else if (!on && hit != NCCC_TRACE_MAX_FUNCTIONS) {
    T.fns[hit].module = NULL;
    T.n_fns--;
  }
  publish_locked();
  nccc_platform_unlock();
  return NCCC_OK;
}

nccc_status nccc_trace_enable_module(uint16_t module_index, int on) {
  const nccc_module *m;
  unsigned i, hit = NCCC_MAX_MODULES, empty = NCCC_MAX_MODULES;
  nccc_platform_lock();
  m = nccc_module_at(module_index);
  if (m == NULL) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_INDEX_INVALID, "trace enable module",
                     "no module at that index");
  }
  for (i = 0; i < NCCC_MAX_MODULES; i++) {
    if (T.modules[i] == m) hit = i;
    if (T.modules[i] == NULL && empty == NCCC_MAX_MODULES) empty = i;
  }
  /* NCCC_MAX_MODULES entries hold every present module: empty is found */
  if (on && hit == NCCC_MAX_MODULES && empty < NCCC_MAX_MODULES) {
    T.modules[empty] = m;
    T.n_modules++;
  } else if (!on && hit != NCCC_MAX_MODULES) {
    T.modules[hit] = NULL;
    T.n_modules--;
  }
  publish_locked();
  nccc_platform_unlock();
  return NCCC_OK;
}

void nccc_trace_disable_all(void) {
  nccc_platform_lock();
  memset(T.fns, 0, sizeof T.fns);
  memset(T.modules, 0, sizeof T.modules);
  T.n_fns = T.n_modules = 0;
  publish_locked();
  nccc_platform_unlock();
}

int nccc_trace_enabled(nccc_handle handle) {
  const nccc_module *m;
  uint32_t index;
  int on;
  if (nccci_site_lock(handle, NULL, &m, &index) != NCCC_OK) return 0;
  on = nccci_trace_wanted_locked(m, index);
  nccc_platform_unlock();
  return on;
}

void nccci_trace_reset(void) {
  nccc_trace_disable_all();
  use_ring(NULL, 0);
}

#endif /* NCCC_WITH_TRACE */
