/*
** cbt_nccc.h — module "cbt": wrappers of cbt_lib.h and three libc
** functions, written by hand exactly as nccc-stubgen is to emit them for
** callbacks, trace and fault injection (see cbt_nccc.c).
*/
#ifndef CBT_NCCC_H
#define CBT_NCCC_H

#include <stdint.h>

#include <nccc/closure.h>
#include <nccc/module.h>

extern const nccc_module nccc_cbt_module;
nccc_status nccc_cbt_register(void);

/* Registry indices (the generator knows them; tests use the names). */
enum {
  CBT_QSORT_R, CBT_BSEARCH, CBT_THREAD_CREATE, CBT_COPY_ASYNC,
  CBT_RUN_PENDING, CBT_WATCH_ADD, CBT_WATCH_EMIT, CBT_WATCH_REMOVE,
  CBT_FAIL_WITH_CALLBACK, CBT_SET_LOGGER, CBT_LOG, CBT_ON_EVENT,
  CBT_FIRE_EVENTS, CBT_DIVIDE, CBT_ADD, CBT_SPLIT, CBT_COUNT
};

void nccc_cbt_qsort_r(const uint64_t *in, uint64_t *out);
void nccc_cbt_bsearch(const uint64_t *in, uint64_t *out);
void nccc_cbt_thread_create(const uint64_t *in, uint64_t *out);
void nccc_cbt_copy_async(const uint64_t *in, uint64_t *out);
void nccc_cbt_run_pending(const uint64_t *in, uint64_t *out);
void nccc_cbt_watch_add(const uint64_t *in, uint64_t *out);
void nccc_cbt_watch_emit(const uint64_t *in, uint64_t *out);
void nccc_cbt_watch_remove(const uint64_t *in, uint64_t *out);
void nccc_cbt_fail_with_callback(const uint64_t *in, uint64_t *out);
void nccc_cbt_set_logger(const uint64_t *in, uint64_t *out);
void nccc_cbt_log(const uint64_t *in, uint64_t *out);
void nccc_cbt_on_event(const uint64_t *in, uint64_t *out);
void nccc_cbt_fire_events(const uint64_t *in, uint64_t *out);
void nccc_cbt_divide(const uint64_t *in, uint64_t *out);
void nccc_cbt_add(const uint64_t *in, uint64_t *out);
void nccc_cbt_split(const uint64_t *in, uint64_t *out);

/* For the tests only (not generated): the thunk pools. */
const nccc_thunk_pool *cbt_cmp_pool(void);
const nccc_thunk_pool *cbt_event_pool(void);

#endif
