/*
** test_closure_lifecycle.c — how closures end and what is refused: stale
** contexts (also after their record is reused), an async closure spent
** by its one call, garbage contexts, nccc_init, pool exhaustion, claim
** errors, closure info and release notices, and the closure built-ins as
** a host reaches them through nccc_root.
*/
#include <stdint.h>

#include <nccc/nccc.h>

#include "closure_fixture.h"
#include "host.h"
#include "nccc_check.h"

#define FN_SLOT(f) ((uint64_t)(uintptr_t)(f))

static uint64_t stale_calls(void) {
  nccc_closure_stats s;
  nccc_closure_get_stats(&s);
  return s.stale_calls;
}

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

/* A target counting its calls in the word its env points to. */
static void count_calls(const uint64_t *in, uint64_t *out) {
  (*(int *)(uintptr_t)in[0])++;
  out[0] = in[1] + 1;
}

START_TEST(test_async_spent_through_the_call_path) {
  /* nccc_closure_call, as a backward wrapper makes it, on an async
  ** closure whose final member is its only one: the first call runs and
  ** ends the claim, the second is refused as stale and runs nothing */
  nccc_callback_type type = {0, "inc_fn", "l:l"};
  uint64_t in[2], out[1];
  int calls = 0;
  void *ctx;
  const char *sig = "l:l";
  nccc_fn target = count_calls;
  uint64_t env = (uint64_t)(uintptr_t)&calls;
  uint64_t stale = stale_calls();
  type.hash = nccc_closure_type("l:l");
  ck_assert_int_eq(nccc_closure_claim_group_typed(1, &target, &env, &sig,
                                                  NCCC_SCOPE_ASYNC, 0, &ctx),
                   NCCC_OK);
  in[1] = 41;
  out[0] = 0;
  nccc_closure_call(in, out, ctx, 0, &type);
  ck_assert_int_eq(calls, 1);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  out[0] = 0;
  nccc_closure_call(in, out, ctx, 0, &type);
  ck_assert_int_eq(calls, 1);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(stale_calls(), stale + 1);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
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

START_TEST(test_signature_of_each_member) {
  nccc_fn targets[2] = {host_dispatch, host_dispatch};
  uint64_t envs[2] = {host_ref(proc_cmp, NULL), host_ref(proc_cmp, NULL)};
  const char *sigs[2] = {"pp:i", "iiiiiiiiiiiiiiiiiiiiiiii:i"}; /* 26 bytes: kept cut */
  char buf[NCCC_CLOSURE_SIGNATURE_KEPT] = "untouched";
  void *typed, *untyped;
  ck_assert_int_eq(nccc_closure_claim_group_typed(2, targets, envs, sigs, NCCC_SCOPE_FOREVER,
                                                  0, &typed),
                   NCCC_OK);
  ck_assert_int_eq(nccc_closure_signature(typed, 0, buf, sizeof buf), NCCC_OK);
  ck_assert_str_eq(buf, "pp:i");
  ck_assert_int_eq(nccc_closure_signature(typed, 0, buf, 4), NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_int_eq(nccc_closure_signature(typed, 1, buf, sizeof buf), NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_str_eq(buf, "pp:i");
  ck_assert_int_eq(nccc_closure_signature(typed, 2, buf, sizeof buf), NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_closure_signature(typed, 0, NULL, 8), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, envs[0], NCCC_SCOPE_FOREVER, &untyped),
                   NCCC_OK);
  ck_assert_int_eq(nccc_closure_signature(untyped, 0, buf, sizeof buf), NCCC_OK);
  ck_assert_str_eq(buf, "");
  ck_assert_int_eq(nccc_closure_release(typed), NCCC_OK);
  ck_assert_int_eq(nccc_closure_release(untyped), NCCC_OK);
  ck_assert_int_eq(nccc_closure_signature(typed, 0, buf, sizeof buf), NCCC_ERR_STALE_CLOSURE);
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
  Suite *s = suite_create("closure_lifecycle");
  TCase *tc = nccc_check_tcase(s, "closure_lifecycle", closure_setup,
      closure_teardown,
      NCCC_CHECK_TESTS(test_stale_call_reported_not_run_even_after_reuse,
                       test_async_spent_after_one_call,
                       test_async_spent_through_the_call_path, test_garbage_contexts,
                       test_init_makes_contexts_stale, test_pool_exhaustion,
                       test_claim_errors, test_info_and_notices_on_release,
                       test_signature_of_each_member, test_builtins));
  tcase_set_timeout(tc, 60);
  return s;
}
