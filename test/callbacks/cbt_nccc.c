/*
** cbt_nccc.c — module "cbt" written by hand, as nccc-stubgen emits it
** for test/callbacks/cbt.idl (the generated wrappers differ only in
** names: nccc_cbt_cmp_r_fn_back for nccc_cbt_cmp_r_back, c4 for arg, ...).
** The tests run against both; keeping this one shows that the runtime's
** protocol is what a person would write, not an artefact of the
** generator.
**
** Slot rule for callbacks: the closure context takes the in slot of the
** context parameter (callbacks sharing it and a destroy notify take
** none); a callback without a context takes the slot of the callback.
** (Its signatures say "p" for those slots; the generated ones say "c".)
*/
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <nccc/nccc.h>
#include <nccc/shim_callback.h>
#include <nccc/shim_errno.h>
#include <nccc/shim_fault.h>
#include <nccc/shim_trace.h>

#include "cbt_lib.h"
#include "cbt_nccc.h"

/* The callback types the wrappers call closures of: hash =
** nccc_closure_type(signature), as the generator computes it. */
static const nccc_callback_type nccc_cbt_cmp_r_type = {0xc421ea74u, "cmp_r_fn", "pp:i"};
static const nccc_callback_type nccc_cbt_start_type = {0x5e05d5a7u, "start_fn", ":p"};
static const nccc_callback_type nccc_cbt_progress_type = {0xd1f09897u, "progress_fn", "ii:"};
static const nccc_callback_type nccc_cbt_ready_type = {0x9538fedau, "ready_fn", "i:"};
static const nccc_callback_type nccc_cbt_watch_type = {0x9bb8f3c9u, "watch_fn", "i:i"};
static const nccc_callback_type nccc_cbt_note_type = {0x3f0cb86du, "note_fn", ":"};
static const nccc_callback_type nccc_cbt_log_type = {0xb8b26fd3u, "log_fn", "s:i"};
static const nccc_callback_type nccc_cbt_cmp_type = {0xc421ea74u, "cmp_fn", "pp:i"};
static const nccc_callback_type nccc_cbt_event_type = {0x3f0cb86du, "event_fn", ":"};

/* ---- backward wrappers: C calls the host; in[0] = env, in[1..] = the
** callback's arguments, out[0] = its result (docs/CALLBACKS.md) */

/* cmp_r_fn: in a b; out return */
static int nccc_cbt_cmp_r_back(const void *a, const void *b, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[3], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0, &nccc_cbt_cmp_r_type)) {
    in[1] = nccc_slot_from_ptr(a);
    in[2] = nccc_slot_from_ptr(b);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_i32(out[0]);
}

/* start_fn: in; out return */
static void *nccc_cbt_start_back(void *ctx) {
  nccc_cb_frame f;
  uint64_t in[1], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0, &nccc_cbt_start_type)) {
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_ptr(out[0]);
}

/* progress_fn (member 0 of its context): in done total; out */
static void nccc_cbt_progress_back(int done, int total, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[3], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0, &nccc_cbt_progress_type)) {
    in[1] = nccc_slot_from_i32(done);
    in[2] = nccc_slot_from_i32(total);
    nccc_cb_call(&f, in, out);
  }
}

/* ready_fn (member 1 of its context): in result; out */
static void nccc_cbt_ready_back(int result, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[2], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 1, &nccc_cbt_ready_type)) {
    in[1] = nccc_slot_from_i32(result);
    nccc_cb_call(&f, in, out);
  }
}

/* watch_fn: in event; out return */
static int nccc_cbt_watch_back(int event, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[2], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0, &nccc_cbt_watch_type)) {
    in[1] = nccc_slot_from_i32(event);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_i32(out[0]);
}

/* note_fn: in; out */
static void nccc_cbt_note_back(void *ctx) {
  nccc_cb_frame f;
  uint64_t in[1], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0, &nccc_cbt_note_type)) {
    nccc_cb_call(&f, in, out);
  }
}

/* log_fn: in msg; out return */
static int nccc_cbt_log_back(const char *msg, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[2], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0, &nccc_cbt_log_type)) {
    in[1] = nccc_slot_from_ptr(msg);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_i32(out[0]);
}

/* ---- thunk pools: callbacks without a context */

/* cmp_fn [thunks=4]: in a b; out return */
typedef int (*nccc_cbt_cmp_fn)(const void *, const void *);
static int nccc_cbt_cmp_thunk_body(unsigned i, const void *a, const void *b);
#define NCCC_CBT_CMP_THUNK(i) \
  NCCC_THUNK_DEFINE(nccc_cbt_cmp, i, int, (const void *a, const void *b), (i, a, b))
NCCC_CBT_CMP_THUNK(0)
NCCC_CBT_CMP_THUNK(1)
NCCC_CBT_CMP_THUNK(2)
NCCC_CBT_CMP_THUNK(3)
static const nccc_thunk_fn nccc_cbt_cmp_thunks[4] = {
    NCCC_THUNK_ENTRY(nccc_cbt_cmp, 0), NCCC_THUNK_ENTRY(nccc_cbt_cmp, 1),
    NCCC_THUNK_ENTRY(nccc_cbt_cmp, 2), NCCC_THUNK_ENTRY(nccc_cbt_cmp, 3)};
NCCC_THUNK_POOL(nccc_cbt_cmp_pool, &nccc_cbt_cmp_type, 4, nccc_cbt_cmp_thunks);
static int nccc_cbt_cmp_thunk_body(unsigned i, const void *a, const void *b) {
  nccc_cb_frame f;
  uint64_t in[3], out[1] = {0};
  if (nccc_cb_begin_thunk(&f, &nccc_cbt_cmp_pool, i)) {
    in[1] = nccc_slot_from_ptr(a);
    in[2] = nccc_slot_from_ptr(b);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_i32(out[0]);
}

/* event_fn [thunks=2]: in; out */
typedef void (*nccc_cbt_event_fn)(void);
static void nccc_cbt_event_thunk_body(unsigned i);
#define NCCC_CBT_EVENT_THUNK(i) \
  NCCC_THUNK_DEFINE_VOID(nccc_cbt_event, i, (void), (i))
NCCC_CBT_EVENT_THUNK(0)
NCCC_CBT_EVENT_THUNK(1)
static const nccc_thunk_fn nccc_cbt_event_thunks[2] = {
    NCCC_THUNK_ENTRY(nccc_cbt_event, 0), NCCC_THUNK_ENTRY(nccc_cbt_event, 1)};
NCCC_THUNK_POOL(nccc_cbt_event_pool, &nccc_cbt_event_type, 2, nccc_cbt_event_thunks);
static void nccc_cbt_event_thunk_body(unsigned i) {
  nccc_cb_frame f;
  uint64_t in[1], out[1] = {0};
  if (nccc_cb_begin_thunk(&f, &nccc_cbt_event_pool, i)) {
    nccc_cb_call(&f, in, out);
  }
}

/* ---- forward wrappers */

/* qsort_r: in base n size arg(compar); out */
void nccc_cbt_qsort_r(const uint64_t *in, uint64_t *out) {
  void *arg = nccc_slot_to_ptr(in[3]);
  NCCC_CB_REQUIRE(arg, out, 0);
  qsort_r(nccc_slot_to_ptr(in[0]), (size_t)in[1], (size_t)in[2],
          nccc_cbt_cmp_r_back, arg);
  NCCC_CB_END_CALL(arg);
}

/* bsearch: in key base n size compar; out return */
void nccc_cbt_bsearch(const uint64_t *in, uint64_t *out) {
  void *compar_ctx = nccc_slot_to_ptr(in[4]);
  nccc_cbt_cmp_fn compar;
  NCCC_CB_THUNK_END(&nccc_cbt_cmp_pool, compar_ctx, 0, nccc_cbt_cmp_fn, compar,
                    out, 1, NCCC_CB_END_CALL(compar_ctx));
  out[0] = nccc_slot_from_ptr(bsearch(nccc_slot_to_ptr(in[0]),
                                      nccc_slot_to_ptr(in[1]), (size_t)in[2],
                                      (size_t)in[3], compar));
  NCCC_CB_END_CALL(compar_ctx);
}

/* pthread_create: in t attr arg(start); out return */
void nccc_cbt_thread_create(const uint64_t *in, uint64_t *out) {
  void *arg = nccc_slot_to_ptr(in[2]);
  NCCC_CB_REQUIRE(arg, out, 1);
  out[0] = nccc_slot_from_i32(pthread_create(
      (pthread_t *)nccc_slot_to_ptr(in[0]),
      (const pthread_attr_t *)nccc_slot_to_ptr(in[1]), nccc_cbt_start_back,
      arg));
  NCCC_CB_END_CALL(arg);
}

/* copy_async: in steps data(progress, ready); out */
void nccc_cbt_copy_async(const uint64_t *in, uint64_t *out) {
  void *data = nccc_slot_to_ptr(in[1]);
  NCCC_CB_REQUIRE(data, out, 0);
  lib_copy_async(nccc_slot_to_i32(in[0]), nccc_cbt_progress_back,
                 nccc_cbt_ready_back, data);
  NCCC_CB_END_CALL(data);
}

/* run_pending: in; out return */
void nccc_cbt_run_pending(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = nccc_slot_from_i32(lib_run_pending());
}

/* watch_add: in data(fn, destroy); out return */
void nccc_cbt_watch_add(const uint64_t *in, uint64_t *out) {
  void *data = nccc_slot_to_ptr(in[0]);
  NCCC_CB_REQUIRE(data, out, 1);
  out[0] = nccc_slot_from_i32(
      lib_watch_add(nccc_cbt_watch_back, data, NCCC_CB_DESTROY));
  NCCC_CB_END_CALL(data);
}

/* watch_emit: in event; out return */
void nccc_cbt_watch_emit(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32(lib_watch_emit(nccc_slot_to_i32(in[0])));
}

/* watch_remove: in id; out */
void nccc_cbt_watch_remove(const uint64_t *in, uint64_t *out) {
  (void)out;
  lib_watch_remove(nccc_slot_to_i32(in[0]));
}

/* fail_with_callback: in err data(cb); out return errno [errno, fault] */
static void nccc_cbt_fail_with_callback_body(const uint64_t *in, uint64_t *out) {
  int r;
  void *data = nccc_slot_to_ptr(in[1]);
  NCCC_CB_REQUIRE(data, out, 2);
  NCCC_ERRNO_CLEAR();
  r = lib_fail_with_callback(nccc_slot_to_i32(in[0]), nccc_cbt_note_back, data);
  out[1] = NCCC_ERRNO_SLOT();
  out[0] = nccc_slot_from_i32(r);
}
void nccc_cbt_fail_with_callback(const uint64_t *in, uint64_t *out) {
  NCCC_FAULT_WRAP(&nccc_cbt_module, CBT_FAIL_WITH_CALLBACK,
                  nccc_cbt_fail_with_callback_body, in, out, 2, 1);
  NCCC_CB_END_CALL(nccc_slot_to_ptr(in[1])); /* faulted or not */
}

/* set_logger: in data(log); out */
void nccc_cbt_set_logger(const uint64_t *in, uint64_t *out) {
  void *data = nccc_slot_to_ptr(in[0]);
  NCCC_CB_REQUIRE_OR_NULL(data, out, 0);
  lib_set_logger(NCCC_CB_FN(data, nccc_cbt_log_back), data);
  NCCC_CB_END_CALL(data);
}

/* log: in msg; out return */
void nccc_cbt_log(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32(lib_log((const char *)nccc_slot_to_ptr(in[0])));
}

/* on_event: in fn; out return */
void nccc_cbt_on_event(const uint64_t *in, uint64_t *out) {
  void *fn_ctx = nccc_slot_to_ptr(in[0]);
  nccc_cbt_event_fn fn;
  NCCC_CB_THUNK_END(&nccc_cbt_event_pool, fn_ctx, 0, nccc_cbt_event_fn, fn, out, 1,
                    NCCC_CB_END_CALL(fn_ctx));
  out[0] = nccc_slot_from_i32(lib_on_event(fn));
  NCCC_CB_END_CALL(fn_ctx);
}

/* fire_events: in; out return */
void nccc_cbt_fire_events(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = nccc_slot_from_i32(lib_fire_events());
}

/* divide: in a b; out return errno [errno, trace, fault] */
static void nccc_cbt_divide_body(const uint64_t *in, uint64_t *out) {
  int r;
  NCCC_ERRNO_CLEAR();
  r = lib_divide(nccc_slot_to_i32(in[0]), nccc_slot_to_i32(in[1]));
  out[1] = NCCC_ERRNO_SLOT();
  out[0] = nccc_slot_from_i32(r);
}
void nccc_cbt_divide(const uint64_t *in, uint64_t *out) {
  NCCC_SITE_WRAP(&nccc_cbt_module, CBT_DIVIDE,
                 NCCC_SITE_TRACE | NCCC_SITE_FAULT | NCCC_SITE_ERRNO,
                 nccc_cbt_divide_body, in, out, 2);
}

/* add: in a b; out return [trace] */
static void nccc_cbt_add_body(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64((int64_t)lib_add(
      (long long)nccc_slot_to_i64(in[0]), (long long)nccc_slot_to_i64(in[1])));
}
void nccc_cbt_add(const uint64_t *in, uint64_t *out) {
  NCCC_TRACE_WRAP(&nccc_cbt_module, CBT_ADD, nccc_cbt_add_body, in, out);
}

/* split: in v; out return hi [fault] */
static void nccc_cbt_split_body(const uint64_t *in, uint64_t *out) {
  int r, hi;
  r = lib_split(nccc_slot_to_i32(in[0]), &hi);
  out[0] = nccc_slot_from_i32(r);
  out[1] = nccc_slot_from_i32(hi);
}
void nccc_cbt_split(const uint64_t *in, uint64_t *out) {
  NCCC_FAULT_WRAP(&nccc_cbt_module, CBT_SPLIT, nccc_cbt_split_body, in, out, 2, 0);
}

/* ---- the const registry */
NCCC_NAMES_BLOB(nccc_cbt_names, 16,
  "qsort_r\0"
  "bsearch\0"
  "thread_create\0"
  "copy_async\0"
  "run_pending\0"
  "watch_add\0"
  "watch_emit\0"
  "watch_remove\0"
  "fail_with_callback\0"
  "set_logger\0"
  "log\0"
  "on_event\0"
  "fire_events\0"
  "divide\0"
  "add\0"
  "split\0");

static const nccc_fn nccc_cbt_funcs[] = {
  nccc_cbt_qsort_r,
  nccc_cbt_bsearch,
  nccc_cbt_thread_create,
  nccc_cbt_copy_async,
  nccc_cbt_run_pending,
  nccc_cbt_watch_add,
  nccc_cbt_watch_emit,
  nccc_cbt_watch_remove,
  nccc_cbt_fail_with_callback,
  nccc_cbt_set_logger,
  nccc_cbt_log,
  nccc_cbt_on_event,
  nccc_cbt_fire_events,
  nccc_cbt_divide,
  nccc_cbt_add,
  nccc_cbt_split,
};

/* signature, in slots, out slots, offset of the name in the names blob */
static const nccc_fn_info nccc_cbt_info[] = {
  {"p" NCCC_SIG_SIZE NCCC_SIG_SIZE "p:", 4, 0, 2}, /* qsort_r */
  {"pp" NCCC_SIG_SIZE NCCC_SIG_SIZE "p:p", 5, 1, 10}, /* bsearch */
  {"ppp:i", 3, 1, 18}, /* thread_create */
  {"ip:", 2, 0, 32}, /* copy_async */
  {":i", 0, 1, 43}, /* run_pending */
  {"p:i", 1, 1, 55}, /* watch_add */
  {"i:i", 1, 1, 65}, /* watch_emit */
  {"i:", 1, 0, 76}, /* watch_remove */
  {"ip:ie", 2, 2, 89}, /* fail_with_callback */
  {"p:", 1, 0, 108}, /* set_logger */
  {"s:i", 1, 1, 119}, /* log */
  {"p:i", 1, 1, 123}, /* on_event */
  {":i", 0, 1, 132}, /* fire_events */
  {"ii:ie", 2, 2, 144}, /* divide */
  {"ll:l", 2, 1, 151}, /* add */
  {"i:ii", 1, 2, 155}, /* split */
};

/* Indices in strcmp order of the names (binary search). */
static const uint16_t nccc_cbt_sorted[] = {14, 1, 3, 13, 8, 12, 10, 11, 0, 4, 9, 15, 2, 5, 6, 7};

static const nccc_registry nccc_cbt_registry = {
  (const char *)&nccc_cbt_names, nccc_cbt_funcs, nccc_cbt_info, nccc_cbt_sorted, NULL
};

/* ---- the module */
const nccc_module nccc_cbt_module = {
  "cbt", &nccc_cbt_registry,
  NULL, 0,
  0, NULL
};

nccc_status nccc_cbt_register(void) {
  return nccc_module_add(&nccc_cbt_module, NULL);
}

/* Not generated: the tests look at the pools. */
const nccc_thunk_pool *cbt_cmp_pool(void) { return &nccc_cbt_cmp_pool; }
const nccc_thunk_pool *cbt_event_pool(void) { return &nccc_cbt_event_pool; }
