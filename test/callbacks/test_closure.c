/*
** test_closure.c — closures in use through the generated-style wrappers
** of module "cbt": every scope (call, async, notified, forever), groups
** sharing one context, reentrancy, threads, and errno across callbacks.
** Their lifecycle (stale contexts, the pool, claim errors, built-ins) is
** in test_closure_lifecycle.c.
*/
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbt_lib.h"
#include "closure_fixture.h"
#include "host.h"
#include "nccc_check.h"

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

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("closure");
  TCase *tc = nccc_check_tcase(s, "closure", closure_setup, closure_teardown,
      NCCC_CHECK_TESTS(test_qsort_r_call_scope, test_call_scope_without_notices,
                       test_stale_context_refused_before_c,
                       test_reentrancy_new_closure_inside,
                       test_reentrancy_same_closure,
                       test_group_progress_and_ready, test_two_groups_at_once,
                       test_pthread_create_async,
                       test_threads_claim_call_release,
                       test_notified_released_by_destroy_notify,
                       test_forever_never_released,
                       test_errno_survives_callback));
  tcase_set_timeout(tc, 60);
  return s;
}
