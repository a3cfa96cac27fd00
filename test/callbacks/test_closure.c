/*
** test_closure.c — closures through the generated-style wrappers of
** module "cbt": every scope, groups sharing one context, reentrancy,
** threads, stale contexts (also after their record is reused), pool
** exhaustion, release notices, errno across callbacks, and the closure
** built-ins as a host reaches them through nccc_root.
*/
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbt_lib.h"
#include "cbt_fixture.h"
#include "host.h"
#include "nccc_check.h"

#define S(p) nccc_slot_from_ptr(p)
#define FN_SLOT(f) ((uint64_t)(uintptr_t)(f))
#define SENTINEL 0x5a5a5a5a5a5a5a5au

static uint64_t stale_calls(void) {
  nccc_closure_stats s;
  nccc_closure_get_stats(&s);
  return s.stale_calls;
}

static void setup(void) {
  nccc_check_init(nccc_cbt_register);
  host_reset();
  nccc_clear_error();
  lib_calls = 0;
}

static void teardown(void) { ck_assert_int_eq(host_errors(), 0); }

/* ---- host procedures ------------------------------------------------------ */

static int cmp_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* comparator: args a b -> int; data counts its calls */
static void proc_cmp(const uint64_t *args, uint64_t *results, void *data) {
  if (data != NULL) ++*(int *)data;
  results[0] = nccc_slot_from_i32(
      cmp_ints(nccc_slot_to_ptr(args[0]), nccc_slot_to_ptr(args[1])));
}

static void fill_shuffled(int *v, int n, unsigned seed) {
  int i;
  for (i = 0; i < n; i++) v[i] = i;
  for (i = n - 1; i > 0; i--) {
    int j, t;
    seed = seed * 1103515245u + 12345u;
    j = (int)((seed >> 8) % (unsigned)(i + 1));
    t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

static void assert_sorted(const int *v, int n) {
  int i;
  for (i = 0; i < n; i++) ck_assert_int_eq(v[i], i);
}

/* qsort_r through cbt.qsort_r with closure ctx. */
static void sort_with(int *v, int n, void *ctx) {
  uint64_t in[4] = {S(v), (uint64_t)n, sizeof(int), S(ctx)};
  nccc_check_call("cbt.qsort_r", in, NULL);
}

/* ---- call scope ------------------------------------------------------------- */

START_TEST(test_qsort_r_call_scope) {
  int v[100], calls = 0;
  uint64_t env;
  void *ctx;
  fill_shuffled(v, 100, 7);
  ctx =
      host_claim("pp:i", proc_cmp, &calls, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, &env);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 1);
  sort_with(v, 100, ctx);
  assert_sorted(v, 100);
  ck_assert_int_gt(calls, 99);
  ck_assert_int_eq(host_calls(env), calls);
  /* released when the call returned, with one notice */
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(host_notices(env), 1);
  ck_assert_uint_eq(host_notice_ctx(env), S(ctx));
  ck_assert_uint_eq(host_notice_member(env), 0);
  ck_assert_int_eq(host_alive(env), 0);
}
END_TEST

START_TEST(test_call_scope_without_notices) {
  int v[10];
  uint64_t env;
  void *ctx = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_CALL, &env);
  fill_shuffled(v, 10, 3);
  sort_with(v, 10, ctx);
  assert_sorted(v, 10);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(host_notices(env), 0);
  ck_assert_int_eq(host_alive(env), 1); /* the host drops it itself */
}
END_TEST

START_TEST(test_stale_context_refused_before_c) {
  int v[4] = {3, 2, 1, 0};
  void *ctx = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_CALL, NULL);
  uint64_t in[2] = {2, S(ctx)};
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  sort_with(v, 4, ctx); /* refused: C never sees the stale context */
  ck_assert_int_eq(v[0], 3);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
  nccc_check_call("cbt.copy_async", in, NULL);
  ck_assert_int_eq(lib_calls, 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
}
END_TEST

/* ---- reentrancy -------------------------------------------------------------- */

/* Outer comparator: on every call it sorts a small array through
** cbt.qsort_r again, with a closure of its own (claimed inside), and
** checks it before answering. */
static int nested_sorts;
static void proc_cmp_nesting(const uint64_t *args, uint64_t *results,
                             void *data) {
  int inner[8];
  void *ctx =
      host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, NULL);
  (void)data;
  fill_shuffled(inner, 8, (unsigned)nested_sorts + 1u);
  sort_with(inner, 8, ctx);
  assert_sorted(inner, 8);
  nested_sorts++;
  proc_cmp(args, results, NULL);
}

START_TEST(test_reentrancy_new_closure_inside) {
  int v[30];
  void *ctx = host_claim("pp:i", proc_cmp_nesting, NULL,
                         NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, NULL);
  nested_sorts = 0;
  fill_shuffled(v, 30, 11);
  sort_with(v, 30, ctx);
  assert_sorted(v, 30);
  ck_assert_int_gt(nested_sorts, 29);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(host_live(), 0); /* every closure, nested ones too, noticed */
}
END_TEST

/* The same FOREVER closure re-entered: the comparator sorts with its own
** closure while an outer sort through it is running. */
static void *shared_ctx;
static int depth, max_depth;
static void proc_cmp_same(const uint64_t *args, uint64_t *results, void *data) {
  (void)data;
  depth++;
  if (depth > max_depth) max_depth = depth;
  if (depth == 1) {
    int inner[5];
    fill_shuffled(inner, 5, 5);
    sort_with(inner, 5, shared_ctx);
    assert_sorted(inner, 5);
  }
  proc_cmp(args, results, NULL);
  depth--;
}

START_TEST(test_reentrancy_same_closure) {
  int v[12];
  uint64_t env;
  shared_ctx = host_claim("pp:i", proc_cmp_same, NULL, NCCC_SCOPE_FOREVER, &env);
  depth = max_depth = 0;
  fill_shuffled(v, 12, 9);
  sort_with(v, 12, shared_ctx);
  assert_sorted(v, 12);
  ck_assert_int_eq(max_depth, 2);
  ck_assert_int_eq(nccc_closure_check(shared_ctx), NCCC_OK); /* forever */
  ck_assert_int_eq(nccc_closure_release(shared_ctx), NCCC_OK);
}
END_TEST

/* ---- two callbacks sharing one context (async group) ------------------------ */

static int progress_log[16], n_progress, ready_result, ready_after;
static void proc_progress(const uint64_t *args, uint64_t *results, void *data) {
  (void)results;
  (void)data;
  progress_log[n_progress++] =
      nccc_slot_to_i32(args[0]) * 100 + nccc_slot_to_i32(args[1]);
}
static void proc_ready(const uint64_t *args, uint64_t *results, void *data) {
  (void)results;
  (void)data;
  ready_result = nccc_slot_to_i32(args[0]);
  ready_after = n_progress;
}

/* The members of copy_async's group: progress_fn, ready_fn. */
static const char *const copy_async_sigs[2] = {"ii:", "i:"};

START_TEST(test_group_progress_and_ready) {
  uint64_t envs[2] = {host_ref(proc_progress, NULL), host_ref(proc_ready, NULL)};
  nccc_fn targets[2] = {host_dispatch, host_dispatch};
  void *ctx;
  uint64_t in[2], out[1];
  ck_assert_int_eq(nccc_closure_claim_group_typed(2, targets, envs, copy_async_sigs,
                                                  NCCC_SCOPE_ASYNC | NCCC_CLOSURE_NOTIFY,
                                                  1, &ctx),
                   NCCC_OK);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 2);
  n_progress = ready_result = ready_after = 0;
  in[0] = 3;
  in[1] = S(ctx);
  nccc_check_call("cbt.copy_async", in, NULL);
  /* the forward call returned: an async group lives on */
  ck_assert_uint_eq(nccc_check_closures_in_use(), 2);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_OK);
  ck_assert_int_eq(n_progress, 0);
  nccc_check_call("cbt.run_pending", NULL, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 1);
  ck_assert_int_eq(n_progress, 3);
  ck_assert_int_eq(progress_log[0], 103);
  ck_assert_int_eq(progress_log[1], 203);
  ck_assert_int_eq(progress_log[2], 303);
  ck_assert_int_eq(ready_result, 30);
  ck_assert_int_eq(ready_after, 3);
  /* the final member's call ended the group: both members noticed */
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(host_notices(envs[0]), 1);
  ck_assert_int_eq(host_notices(envs[1]), 1);
  ck_assert_uint_eq(host_notice_member(envs[0]), 0);
  ck_assert_uint_eq(host_notice_member(envs[1]), 1);
  ck_assert_uint_eq(host_notice_ctx(envs[1]), S(ctx));
}
END_TEST

START_TEST(test_two_groups_at_once) {
  nccc_fn targets[2] = {host_dispatch, host_dispatch};
  uint64_t e1[2] = {host_ref(proc_progress, NULL), host_ref(proc_ready, NULL)};
  uint64_t e2[2] = {host_ref(proc_progress, NULL), host_ref(proc_ready, NULL)};
  void *c1, *c2;
  uint64_t in[2], out[1];
  ck_assert_int_eq(
      nccc_closure_claim_group_typed(2, targets, e1, copy_async_sigs, NCCC_SCOPE_ASYNC, 1, &c1),
      NCCC_OK);
  ck_assert_int_eq(
      nccc_closure_claim_group_typed(2, targets, e2, copy_async_sigs, NCCC_SCOPE_ASYNC, 1, &c2),
      NCCC_OK);
  ck_assert_ptr_ne(c1, c2);
  n_progress = 0;
  in[0] = 2;
  in[1] = S(c1);
  nccc_check_call("cbt.copy_async", in, NULL);
  in[0] = 4;
  in[1] = S(c2);
  nccc_check_call("cbt.copy_async", in, NULL);
  nccc_check_call("cbt.run_pending", NULL, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 2);
  ck_assert_int_eq(n_progress, 6);
  ck_assert_int_eq(host_calls(e1[0]), 2);
  ck_assert_int_eq(host_calls(e1[1]), 1);
  ck_assert_int_eq(host_calls(e2[0]), 4);
  ck_assert_int_eq(host_calls(e2[1]), 1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

/* ---- async on another thread ------------------------------------------------ */

static pthread_t main_thread;
static int ran_elsewhere;
static void proc_thread(const uint64_t *args, uint64_t *results, void *data) {
  (void)args;
  ran_elsewhere = !pthread_equal(pthread_self(), main_thread);
  results[0] = S((char *)data + 42);
}

START_TEST(test_pthread_create_async) {
  static char base[64];
  pthread_t t;
  void *ret = NULL;
  uint64_t env, in[3], out[1] = {SENTINEL};
  void *ctx;
  host_install_lock();
  main_thread = pthread_self();
  ran_elsewhere = 0;
  ctx = host_claim(":p", proc_thread, base, NCCC_SCOPE_ASYNC | NCCC_CLOSURE_NOTIFY,
                   &env);
  in[0] = S(&t);
  in[1] = 0;
  in[2] = S(ctx);
  nccc_check_call("cbt.thread_create", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_int_eq(pthread_join(t, &ret), 0);
  ck_assert_ptr_eq(ret, base + 42);
  ck_assert_int_eq(ran_elsewhere, 1);
  ck_assert_int_eq(host_calls(env), 1);
  ck_assert_int_eq(host_notices(env), 1); /* released after its one call */
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(host_lock_errors(), 0);
  host_remove_lock();
}
END_TEST

/* Many threads claiming, calling back and releasing at once, under the
** platform lock. */
static void *sorter(void *arg) {
  int i, v[16];
  for (i = 0; i < 300; i++) {
    void *ctx = NULL;
    uint64_t env = host_ref(proc_cmp, NULL);
    if (nccc_closure_claim_typed(host_dispatch, env, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY,
                                 "pp:i", &ctx) != NCCC_OK) {
      return arg; /* failure: non-NULL */
    }
    fill_shuffled(v, 16, (unsigned)i);
    {
      uint64_t in[4] = {S(v), 16, sizeof(int), S(ctx)};
      nccc_handle h;
      if (nccc_lookup("cbt.qsort_r", &h) != NCCC_OK) return arg;
      nccc_call(h, in, NULL);
    }
    for (int k = 0; k < 16; k++) {
      if (v[k] != k) return arg;
    }
    if (host_alive(env)) return arg; /* the notice came */
  }
  return NULL;
}

START_TEST(test_threads_claim_call_release) {
  pthread_t t[4];
  int i;
  static int marker;
  host_install_lock();
  for (i = 0; i < 4; i++) ck_assert_int_eq(pthread_create(&t[i], NULL, sorter, &marker), 0);
  for (i = 0; i < 4; i++) {
    void *r = &marker;
    ck_assert_int_eq(pthread_join(t[i], &r), 0);
    ck_assert_ptr_null(r);
  }
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(host_live(), 0);
  ck_assert_int_eq(host_lock_errors(), 0);
  host_remove_lock();
}
END_TEST

/* ---- notified -------------------------------------------------------------- */

static void proc_watch(const uint64_t *args, uint64_t *results, void *data) {
  results[0] = nccc_slot_from_i32(nccc_slot_to_i32(args[0]) * (int)(intptr_t)data);
}

START_TEST(test_notified_released_by_destroy_notify) {
  uint64_t env, in[1], out[1];
  void *ctx = host_claim("i:i", proc_watch, (void *)(intptr_t)2,
                    NCCC_SCOPE_NOTIFIED | NCCC_CLOSURE_NOTIFY, &env);
  int id;
  in[0] = S(ctx);
  nccc_check_call("cbt.watch_add", in, out);
  id = nccc_slot_to_i32(out[0]);
  ck_assert_int_gt(id, 0);
  ck_assert_uint_eq(nccc_check_closures_in_use(),
                    1); /* lives on after the forward call */
  for (int e = 1; e <= 3; e++) {
    in[0] = (uint64_t)e;
    nccc_check_call("cbt.watch_emit", in, out);
    ck_assert_int_eq(nccc_slot_to_i32(out[0]), 2 * e);
  }
  ck_assert_int_eq(host_calls(env), 3);
  ck_assert_int_eq(host_notices(env), 0);
  in[0] = (uint64_t)id;
  nccc_check_call("cbt.watch_remove", in,
                  NULL); /* the library calls the destroy notify */
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(host_notices(env), 1);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
}
END_TEST

/* ---- stale contexts ------------------------------------------------------------ */

START_TEST(test_stale_call_reported_not_run_even_after_reuse) {
  uint64_t env, in[1], out[1];
  void *ctx =
      host_claim("i:i", proc_watch, (void *)(intptr_t)5, NCCC_SCOPE_NOTIFIED, &env);
  static void *fill[NCCC_MAX_CLOSURES];
  static uint64_t fill_env[NCCC_MAX_CLOSURES];
  int id, i;
  in[0] = S(ctx);
  nccc_check_call("cbt.watch_add", in, out);
  id = nccc_slot_to_i32(out[0]);
  in[0] = 1;
  nccc_check_call("cbt.watch_emit", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 5);

  /* released while the library still holds the context */
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  nccc_clear_error();
  in[0] = 7;
  out[0] = SENTINEL;
  nccc_check_call("cbt.watch_emit", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0); /* zeroed result, not 35 */
  ck_assert_int_eq(host_calls(env), 1);
  ck_assert_uint_eq(stale_calls(), 1);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);

  /* every record claimed again: the old one certainly reused */
  for (i = 0; i < NCCC_MAX_CLOSURES; i++) {
    fill[i] = host_claim("i:i", proc_watch, (void *)(intptr_t)1000, NCCC_SCOPE_FOREVER,
                    &fill_env[i]);
    ck_assert_ptr_ne(fill[i], ctx);
  }
  ck_assert_uint_eq(nccc_check_closures_in_use(), NCCC_MAX_CLOSURES);
  in[0] = 7;
  nccc_check_call("cbt.watch_emit", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_uint_eq(stale_calls(), 2);
  for (i = 0; i < NCCC_MAX_CLOSURES; i++) ck_assert_int_eq(host_calls(fill_env[i]), 0);

  /* a late destroy notify is reported and releases nothing */
  in[0] = (uint64_t)id;
  nccc_check_call("cbt.watch_remove", in, NULL);
  ck_assert_uint_eq(stale_calls(), 3);
  ck_assert_uint_eq(nccc_check_closures_in_use(), NCCC_MAX_CLOSURES);
  for (i = 0; i < NCCC_MAX_CLOSURES; i++) {
    ck_assert_int_eq(nccc_closure_check(fill[i]), NCCC_OK);
    ck_assert_int_eq(nccc_closure_release(fill[i]), NCCC_OK);
  }
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

START_TEST(test_async_spent_after_one_call) {
  /* the final member of an async group may not run twice */
  nccc_fn targets[1] = {host_dispatch};
  uint64_t envs[1] = {host_ref(proc_ready, NULL)};
  void *ctx;
  nccc_cb_frame f1, f2;
  ck_assert_int_eq(nccc_closure_claim_group(1, targets, envs, NCCC_SCOPE_ASYNC, 0, &ctx),
                   NCCC_OK);
  ck_assert_int_eq(nccc_closure_enter(ctx, 0, &nccc_callback_untyped, &f1), 1);
  ck_assert_uint_eq(f1.last, 1);
  ck_assert_uint_eq(f1.env, envs[0]);
  /* while its one call runs: spent, a second call is stale */
  ck_assert_int_eq(nccc_closure_enter(ctx, 0, &nccc_callback_untyped, &f2), 0);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
  /* an explicit release now is accepted and deferred to the call's end */
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 1);
  nccc_closure_leave(&f1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_ERR_STALE_CLOSURE);
}
END_TEST

/* The type of cbt's comparators: nccc_closure_type("pp:i"). */
static const nccc_callback_type cmp_type = {0xc421ea74u, "cmp_r_fn", "pp:i"};

START_TEST(test_garbage_contexts) {
  int x;
  nccc_cb_frame f;
  void *ctx = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL);
  uintptr_t t = (uintptr_t)ctx;
  ck_assert_int_eq(nccc_closure_check(NULL), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(nccc_closure_check(&x), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(nccc_closure_enter(&x, 0, &cmp_type, &f), 0);
  ck_assert_int_eq(nccc_closure_release((void *)(t + 2)), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(nccc_closure_release((void *)(t ^ ((uintptr_t)1 << 20))),
                   NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(nccc_closure_enter(ctx, 1, &cmp_type, &f), 0); /* no member 1 */
  ck_assert_int_eq(nccc_closure_enter(ctx, 0, &cmp_type, &f), 1);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_ERR_STALE_CLOSURE);
  ck_assert_str_eq(nccc_last_error(), "closure release: not a live closure");
}
END_TEST

START_TEST(test_init_makes_contexts_stale) {
  void *ctx = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 1);
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
  /* and the next claim of that record is a different context */
  ck_assert_ptr_ne(host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL), ctx);
}
END_TEST

/* ---- forever ---------------------------------------------------------------- */

static char last_msg[32];
static void proc_log(const uint64_t *args, uint64_t *results, void *data) {
  (void)data;
  strncpy(last_msg, nccc_slot_to_ptr(args[0]), sizeof last_msg - 1);
  results[0] = nccc_slot_from_i32((int)strlen(last_msg));
}

START_TEST(test_forever_never_released) {
  uint64_t env, in[1], out[1];
  void *ctx = host_claim("s:i", proc_log, NULL,
                         NCCC_SCOPE_FOREVER | NCCC_CLOSURE_NOTIFY, &env);
  in[0] = S(ctx);
  nccc_check_call("cbt.set_logger", in, NULL);
  for (int i = 0; i < 50; i++) {
    in[0] = S(i % 2 ? "odd" : "even!");
    nccc_check_call("cbt.log", in, out);
    ck_assert_int_eq(nccc_slot_to_i32(out[0]), i % 2 ? 3 : 5);
  }
  ck_assert_str_eq(last_msg, "odd");
  ck_assert_int_eq(host_calls(env), 50);
  /* the library lets go (NULL logger); the closure still lives */
  in[0] = 0;
  nccc_check_call("cbt.set_logger", in, NULL);
  in[0] = S("x");
  nccc_check_call("cbt.log", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 1);
  ck_assert_int_eq(host_notices(env), 0);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  ck_assert_int_eq(host_notices(env), 1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

/* ---- pool ------------------------------------------------------------------- */

START_TEST(test_pool_exhaustion) {
  static void *ctx[NCCC_MAX_CLOSURES];
  void *extra = (void *)&extra, *first;
  nccc_fn targets[2] = {host_dispatch, host_dispatch};
  uint64_t envs[2] = {1, 2};
  int i;
  for (i = 0; i < NCCC_MAX_CLOSURES; i++) {
    ck_assert_int_eq(nccc_closure_claim(host_dispatch, (uint64_t)i, NCCC_SCOPE_FOREVER,
                                        &ctx[i]),
                     NCCC_OK);
  }
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, 0, NCCC_SCOPE_FOREVER, &extra),
                   NCCC_ERR_POOL_EXHAUSTED);
  ck_assert_ptr_eq(extra, (void *)&extra); /* untouched */
  ck_assert_str_eq(nccc_last_error(),
                   "closure claim: all NCCC_MAX_CLOSURES records in use");
  /* one free record is not enough for a group of two: nothing taken */
  ck_assert_int_eq(nccc_closure_release(ctx[5]), NCCC_OK);
  ck_assert_int_eq(nccc_closure_claim_group(2, targets, envs, NCCC_SCOPE_CALL, 0, &extra),
                   NCCC_ERR_POOL_EXHAUSTED);
  ck_assert_uint_eq(nccc_check_closures_in_use(), NCCC_MAX_CLOSURES - 1);
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, 99, NCCC_SCOPE_FOREVER, &first),
                   NCCC_OK);
  ck_assert_ptr_ne(first, ctx[5]); /* same record, new context */
  ck_assert_int_eq(nccc_closure_check(ctx[5]), NCCC_ERR_STALE_CLOSURE);
  ctx[5] = first;
  for (i = 0; i < NCCC_MAX_CLOSURES; i++) {
    ck_assert_int_eq(nccc_closure_release(ctx[i]), NCCC_OK);
  }
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

START_TEST(test_claim_errors) {
  void *ctx = (void *)&ctx;
  nccc_fn targets[NCCC_CLOSURE_GROUP_MAX + 1];
  uint64_t envs[NCCC_CLOSURE_GROUP_MAX + 1] = {0};
  for (int i = 0; i <= NCCC_CLOSURE_GROUP_MAX; i++) targets[i] = host_dispatch;
  ck_assert_int_eq(nccc_closure_claim(NULL, 0, NCCC_SCOPE_CALL, &ctx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, 0, NCCC_SCOPE_CALL, NULL),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, 0, 0, &ctx), NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, 0, 5, &ctx), NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, 0, NCCC_SCOPE_CALL | 0x400, &ctx),
                   NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_closure_claim_group(0, targets, envs, NCCC_SCOPE_CALL, 0, &ctx),
                   NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_closure_claim_group(NCCC_CLOSURE_GROUP_MAX + 1, targets, envs,
                                            NCCC_SCOPE_CALL, 0, &ctx),
                   NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_closure_claim_group(2, targets, envs, NCCC_SCOPE_ASYNC, 2, &ctx),
                   NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_closure_claim_group(2, NULL, envs, NCCC_SCOPE_CALL, 0, &ctx),
                   NCCC_ERR_NULL_POINTER);
  targets[1] = NULL;
  ck_assert_int_eq(nccc_closure_claim_group(2, targets, envs, NCCC_SCOPE_CALL, 0, &ctx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_ptr_eq(ctx, (void *)&ctx);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  /* a full group works, and other scopes ignore final_member */
  targets[1] = host_dispatch;
  ck_assert_int_eq(nccc_closure_claim_group(NCCC_CLOSURE_GROUP_MAX, targets, envs,
                                            NCCC_SCOPE_FOREVER, 99, &ctx),
                   NCCC_OK);
  ck_assert_uint_eq(nccc_check_closures_in_use(), NCCC_CLOSURE_GROUP_MAX);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
}
END_TEST

START_TEST(test_info_and_notices_on_release) {
  nccc_fn targets[3] = {host_dispatch, host_dispatch, host_dispatch};
  uint64_t envs[3] = {host_ref(proc_cmp, NULL), host_ref(proc_cmp, NULL),
                      host_ref(proc_cmp, NULL)};
  void *ctx;
  nccc_fn fn = NULL;
  uint64_t env = 0;
  unsigned flags = 0;
  ck_assert_int_eq(nccc_closure_claim_group(3, targets, envs,
                                            NCCC_SCOPE_NOTIFIED | NCCC_CLOSURE_NOTIFY,
                                            0, &ctx),
                   NCCC_OK);
  ck_assert_int_eq(nccc_closure_info(ctx, 2, &fn, &env, &flags), NCCC_OK);
  ck_assert_ptr_eq((void *)(uintptr_t)fn, (void *)(uintptr_t)host_dispatch);
  ck_assert_uint_eq(env, envs[2]);
  ck_assert_uint_eq(flags, NCCC_SCOPE_NOTIFIED | NCCC_CLOSURE_NOTIFY);
  ck_assert_int_eq(nccc_closure_info(ctx, 3, &fn, &env, &flags), NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_closure_info(ctx, 1, NULL, NULL, NULL), NCCC_OK);
  /* an explicit release notices every member, in member order */
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  for (int k = 0; k < 3; k++) {
    ck_assert_int_eq(host_notices(envs[k]), 1);
    ck_assert_uint_eq(host_notice_member(envs[k]), (uint64_t)k);
  }
  ck_assert_int_eq(nccc_closure_info(ctx, 0, &fn, &env, &flags), NCCC_ERR_STALE_CLOSURE);
}
END_TEST

/* ---- errno ------------------------------------------------------------------- */

static void proc_clobber_errno(const uint64_t *args, uint64_t *results, void *data) {
  (void)args;
  (void)results;
  *(int *)data = errno; /* what the library left */
  errno = EBADF;        /* host code using errno for its own business */
}

START_TEST(test_errno_survives_callback) {
  int seen = -1;
  uint64_t in[2], out[2];
  void *ctx = host_claim(":", proc_clobber_errno, &seen,
                         NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, NULL);
  in[0] = (uint64_t)ERANGE;
  in[1] = S(ctx);
  nccc_check_call("cbt.fail_with_callback", in, out);
  ck_assert_int_eq(seen, ERANGE);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -1);
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), ERANGE); /* not EBADF */
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);

  /* a library that leaves errno 0 reports 0, whatever the callback did */
  ctx = host_claim(":", proc_clobber_errno, &seen, NCCC_SCOPE_CALL, NULL);
  in[0] = 0;
  in[1] = S(ctx);
  nccc_check_call("cbt.fail_with_callback", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), 0);
}
END_TEST

/* ---- the built-ins ------------------------------------------------------------ */

START_TEST(test_builtins) {
  uint64_t out[6] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  uint64_t env = host_ref(proc_cmp, NULL);
  uint64_t in[4] = {FN_SLOT(host_dispatch), env, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY,
                    S("pp:i")};
  int v[20];
  void *ctx;
  nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM_TYPED)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ctx = nccc_slot_to_ptr(out[1]);
  fill_shuffled(v, 20, 1);
  sort_with(v, 20, ctx);
  assert_sorted(v, 20);
  ck_assert_int_eq(host_notices(env), 1);

  nccc_check_builtin(NCCC_BUILTIN_CLOSURE_STATS)(NULL, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_eq(out[1], NCCC_MAX_CLOSURES);
  ck_assert_uint_eq(out[2], 0);
  ck_assert_uint_eq(out[3], 0);
  ck_assert_uint_eq(out[4], 0);
  ck_assert_uint_eq(out[5], 0);

  /* a group: flags, final, n, then (target, env, signature) triples */
  {
    uint64_t e0 = host_ref(proc_progress, NULL), e1 = host_ref(proc_ready, NULL);
    uint64_t gin[9] = {NCCC_SCOPE_ASYNC | NCCC_CLOSURE_NOTIFY, 1, 2,
                       FN_SLOT(host_dispatch), e0, S("ii:"),
                       FN_SLOT(host_dispatch), e1, S("i:")};
    uint64_t cin[2], rin[1];
    nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM_GROUP_TYPED)(gin, out);
    ck_assert_uint_eq(out[0], NCCC_OK);
    n_progress = 0;
    cin[0] = 2;
    cin[1] = out[1];
    nccc_check_call("cbt.copy_async", cin, NULL);
    nccc_check_call("cbt.run_pending", NULL, rin);
    ck_assert_int_eq(n_progress, 2);
    ck_assert_int_eq(ready_result, 20);
    ck_assert_int_eq(host_notices(e0), 1);
    ck_assert_int_eq(host_notices(e1), 1);
    gin[2] = NCCC_CLOSURE_GROUP_MAX + 1;
    nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM_GROUP_TYPED)(gin, out);
    ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
    gin[2] = 2;
    gin[1] = 2; /* final member out of range */
    nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM_GROUP_TYPED)(gin, out);
    ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
    gin[1] = 1;
    gin[8] = S("i:x"); /* a malformed signature */
    nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM_GROUP_TYPED)(gin, out);
    ck_assert_uint_eq(out[0], NCCC_ERR_BAD_SIGNATURE);
    /* the untyped group claim (built-in 22) still claims; no generated
    ** wrapper calls its members */
    gin[0] = NCCC_SCOPE_FOREVER;
    gin[5] = FN_SLOT(host_dispatch);
    gin[6] = e1;
    nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM_GROUP)(gin, out);
    ck_assert_uint_eq(out[0], NCCC_OK);
    ck_assert_int_eq(nccc_closure_release(nccc_slot_to_ptr(out[1])), NCCC_OK);
  }

  /* release: a live one, then the same again */
  in[2] = NCCC_SCOPE_FOREVER;
  nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  {
    uint64_t rin[1] = {out[1]};
    nccc_check_builtin(NCCC_BUILTIN_CLOSURE_RELEASE)(rin, out);
    ck_assert_uint_eq(out[0], NCCC_OK);
    nccc_check_builtin(NCCC_BUILTIN_CLOSURE_RELEASE)(rin, out);
    ck_assert_uint_eq(out[0], NCCC_ERR_STALE_CLOSURE);
  }
  /* flags that do not fit are refused, not truncated into a scope */
  in[2] = ((uint64_t)1 << 32) | NCCC_SCOPE_CALL;
  nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
  in[2] = 9;
  nccc_check_builtin(NCCC_BUILTIN_CLOSURE_CLAIM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
  nccc_check_builtin(NCCC_BUILTIN_CLOSURE_STATS)(NULL, out);
  ck_assert_uint_eq(out[2], 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("closure");
  TCase *tc = nccc_check_tcase(s, "closure", setup, teardown,
      NCCC_CHECK_TESTS(test_qsort_r_call_scope, test_call_scope_without_notices,
                       test_stale_context_refused_before_c,
                       test_reentrancy_new_closure_inside,
                       test_reentrancy_same_closure,
                       test_group_progress_and_ready, test_two_groups_at_once,
                       test_pthread_create_async,
                       test_threads_claim_call_release,
                       test_notified_released_by_destroy_notify,
                       test_stale_call_reported_not_run_even_after_reuse,
                       test_async_spent_after_one_call, test_garbage_contexts,
                       test_init_makes_contexts_stale,
                       test_forever_never_released, test_pool_exhaustion,
                       test_claim_errors, test_info_and_notices_on_release,
                       test_errno_survives_callback, test_builtins));
  tcase_set_timeout(tc, 60);
  return s;
}
