/*
** test_thunk.c — thunk pools for callbacks without a context: bsearch's
** comparator (a pool of 4) and an atexit-like event handler (a pool of
** 2), through the generated-style wrappers of module "cbt".
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbt_lib.h"
#include "cbt_fixture.h"
#include "host.h"
#include "nccc_check.h"

#define S(p) nccc_slot_from_ptr(p)
#define SENTINEL 0x5a5a5a5a5a5a5a5au

static void setup(void) {
  nccc_check_init(nccc_cbt_register);
  host_reset();
  lib_clear_events();
  nccc_clear_error();
}

static void teardown(void) { ck_assert_int_eq(host_errors(), 0); }

static void proc_cmp(const uint64_t *args, uint64_t *results, void *data) {
  int x = *(const int *)nccc_slot_to_ptr(args[0]);
  int y = *(const int *)nccc_slot_to_ptr(args[1]);
  if (data != NULL) ++*(int *)data;
  results[0] = nccc_slot_from_i32((x > y) - (x < y));
}

static const int table[10] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19};

/* bsearch through cbt.bsearch; returns the found pointer (slot). */
static uint64_t search(int key, void *ctx) {
  uint64_t in[5] = {S(&key), S(table), 10, sizeof(int), S(ctx)};
  uint64_t out[1] = {SENTINEL};
  nccc_check_call("cbt.bsearch", in, out);
  return out[0];
}

START_TEST(test_bsearch_call_scope) {
  int calls = 0;
  uint64_t env;
  void *ctx =
      host_claim("pp:i", proc_cmp, &calls, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, &env);
  ck_assert_uint_eq(search(13, ctx), S(&table[6]));
  ck_assert_int_gt(calls, 0);
  ck_assert_int_eq(host_notices(env), 1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_uint_eq(nccc_thunk_in_use(cbt_cmp_pool()), 0); /* thunk free again */
  ctx = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_CALL, NULL);
  ck_assert_uint_eq(search(4, ctx), 0); /* not found: NULL */
  ck_assert_uint_eq(nccc_thunk_in_use(cbt_cmp_pool()), 0);
}
END_TEST

START_TEST(test_pool_exhausted_then_reused) {
  void *keep[4], *extra;
  nccc_thunk_fn fn[4], again;
  uint64_t extra_env;
  int i;
  /* four FOREVER closures keep all four thunks bound */
  for (i = 0; i < 4; i++) {
    keep[i] = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL);
    ck_assert_uint_eq(search(2 * i + 1, keep[i]), S(&table[i]));
    ck_assert_int_eq(nccc_thunk_bind(cbt_cmp_pool(), keep[i], 0, &fn[i]), NCCC_OK);
    for (int j = 0; j < i; j++) ck_assert_ptr_ne((void *)(uintptr_t)fn[i],
                                                 (void *)(uintptr_t)fn[j]);
  }
  ck_assert_uint_eq(nccc_thunk_in_use(cbt_cmp_pool()), 4);
  /* a fifth closure: a clear error, and the comparator is never called;
  ** the refused call releases its CALL closure, as a call that ran does */
  extra = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_CALL, &extra_env);
  ck_assert_uint_eq(search(9, extra), 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_POOL_EXHAUSTED);
  ck_assert_str_eq(nccc_last_error(), "thunk pool exhausted: cmp_fn");
  ck_assert_int_eq(host_calls(extra_env), 0);
  ck_assert_int_eq(nccc_closure_check(extra), NCCC_ERR_STALE_CLOSURE);
  /* releasing one frees its thunk, which the next closure gets */
  ck_assert_int_eq(nccc_closure_release(keep[2]), NCCC_OK);
  ck_assert_uint_eq(nccc_thunk_in_use(cbt_cmp_pool()), 3);
  extra = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_CALL, &extra_env);
  ck_assert_int_eq(nccc_thunk_bind(cbt_cmp_pool(), extra, 0, &again), NCCC_OK);
  ck_assert_ptr_eq((void *)(uintptr_t)again, (void *)(uintptr_t)fn[2]);
  ck_assert_uint_eq(search(9, extra), S(&table[4]));
  ck_assert_int_gt(host_calls(extra_env), 0);
  ck_assert_int_eq(nccc_closure_check(extra), NCCC_ERR_STALE_CLOSURE); /* call scope */
  for (i = 0; i < 4; i++) {
    if (i != 2) ck_assert_int_eq(nccc_closure_release(keep[i]), NCCC_OK);
  }
  ck_assert_uint_eq(nccc_thunk_in_use(cbt_cmp_pool()), 0);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

START_TEST(test_longest_unused_thunk_first) {
  nccc_thunk_fn a, b, c;
  void *c1 = host_claim(":", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL);
  void *c2, *c3;
  ck_assert_int_eq(nccc_thunk_bind(cbt_event_pool(), c1, 0, &a), NCCC_OK);
  ck_assert_int_eq(nccc_closure_release(c1), NCCC_OK);
  /* the pool's other, never used thunk goes before the one just freed */
  c2 = host_claim(":", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL);
  ck_assert_int_eq(nccc_thunk_bind(cbt_event_pool(), c2, 0, &b), NCCC_OK);
  ck_assert_ptr_ne((void *)(uintptr_t)a, (void *)(uintptr_t)b);
  ck_assert_int_eq(nccc_closure_release(c2), NCCC_OK);
  c3 = host_claim(":", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL);
  ck_assert_int_eq(nccc_thunk_bind(cbt_event_pool(), c3, 0, &c), NCCC_OK);
  ck_assert_ptr_eq((void *)(uintptr_t)c, (void *)(uintptr_t)a);
  /* binding the same closure again gives the same thunk */
  ck_assert_int_eq(nccc_thunk_bind(cbt_event_pool(), c3, 0, &b), NCCC_OK);
  ck_assert_ptr_eq((void *)(uintptr_t)b, (void *)(uintptr_t)a);
  ck_assert_uint_eq(nccc_thunk_in_use(cbt_event_pool()), 1);
  ck_assert_int_eq(nccc_closure_release(c3), NCCC_OK);
}
END_TEST

static int fired;
static void proc_event(const uint64_t *args, uint64_t *results, void *data) {
  (void)args;
  (void)results;
  fired += (int)(intptr_t)data;
}

START_TEST(test_event_thunks_forever_and_stale) {
  uint64_t e1, e2, in[1], out[1];
  void *c1 =
      host_claim(":", proc_event, (void *)(intptr_t)1, NCCC_SCOPE_FOREVER, &e1);
  void *c2 =
      host_claim(":", proc_event, (void *)(intptr_t)100, NCCC_SCOPE_FOREVER, &e2);
  void *c3 =
      host_claim(":", proc_event, (void *)(intptr_t)10000, NCCC_SCOPE_FOREVER, NULL);
  nccc_closure_stats st;
  fired = 0;
  in[0] = S(c1);
  nccc_check_call("cbt.on_event", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  in[0] = S(c2);
  nccc_check_call("cbt.on_event", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  /* a pool of two: the third handler is refused before the library */
  out[0] = SENTINEL;
  in[0] = S(c3);
  nccc_check_call("cbt.on_event", in, out);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_POOL_EXHAUSTED);
  nccc_check_call("cbt.fire_events", NULL, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 2);
  ck_assert_int_eq(fired, 101);
  nccc_check_call("cbt.fire_events", NULL, out);
  ck_assert_int_eq(fired, 202);
  /* released while the library keeps the thunk: reported, not run */
  ck_assert_int_eq(nccc_closure_release(c2), NCCC_OK);
  nccc_clear_error();
  nccc_check_call("cbt.fire_events", NULL, out);
  ck_assert_int_eq(fired, 203);
  ck_assert_int_eq(host_calls(e2), 2);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
  ck_assert_str_eq(nccc_last_error(), "callback through a stale thunk: event_fn");
  nccc_closure_get_stats(&st);
  ck_assert_uint_eq(st.stale_calls, 1);
  ck_assert_int_eq(nccc_closure_release(c1), NCCC_OK);
  ck_assert_int_eq(nccc_closure_release(c3), NCCC_OK);
}
END_TEST

START_TEST(test_bind_errors) {
  nccc_thunk_fn fn = (nccc_thunk_fn)(uintptr_t)0x1234;
  void *ctx = host_claim("pp:i", proc_cmp, NULL, NCCC_SCOPE_FOREVER, NULL);
  nccc_cb_frame f;
  ck_assert_int_eq(nccc_thunk_bind(NULL, ctx, 0, &fn), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_thunk_bind(cbt_cmp_pool(), ctx, 0, NULL), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_thunk_bind(cbt_cmp_pool(), ctx, 1, &fn), NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  ck_assert_int_eq(nccc_thunk_bind(cbt_cmp_pool(), ctx, 0, &fn), NCCC_ERR_STALE_CLOSURE);
  ck_assert_ptr_eq((void *)(uintptr_t)fn, (void *)(uintptr_t)0x1234);
  /* entering an unbound or out-of-range thunk is reported, not a crash */
  ck_assert_int_eq(nccc_thunk_enter(cbt_event_pool(), 0, &f), 0);
  ck_assert_int_eq(nccc_thunk_enter(cbt_event_pool(), 7, &f), 0);
  ck_assert_int_eq(nccc_thunk_enter(NULL, 0, &f), 0);
  ck_assert_uint_eq(nccc_thunk_in_use(NULL), 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("thunk");
  nccc_check_tcase(s, "thunk", setup, teardown,
                   NCCC_CHECK_TESTS(test_bsearch_call_scope,
                                    test_pool_exhausted_then_reused,
                                    test_longest_unused_thunk_first,
                                    test_event_thunks_forever_and_stale,
                                    test_bind_errors));
  return s;
}
