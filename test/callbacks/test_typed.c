/*
** test_typed.c — typed closures and closures kept on their claiming
** thread, through the backward wrappers of module "cbt" (hand-written
** and generated): a C caller that hands a wrapper a context of another
** callback type, or calls a thread-bound closure from another thread,
** gets an error status and zeroed results, and the stats count it.
*/
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbt_lib.h"
#include "cbt_fixture.h"
#include "host.h"
#include "nccc_check.h"

#define S(p) nccc_slot_from_ptr(p)

static nccc_closure_stats stats(void) {
  nccc_closure_stats s;
  nccc_closure_get_stats(&s);
  return s;
}

static void setup(void) {
  nccc_check_init(nccc_cbt_register);
  host_reset();
  nccc_clear_error();
}

static void teardown(void) { ck_assert_int_eq(host_errors(), 0); }

static int ran;
static void proc_count(const uint64_t *args, uint64_t *results, void *data) {
  (void)args;
  (void)data;
  ran++;
  results[0] = 7;
}

/* cbt.set_logger(ctx), then cbt.log("hi"): the logger's result. */
static int32_t set_and_log(void *ctx) {
  uint64_t in[1] = {S(ctx)}, out[1] = {0x5a5a5a5au};
  nccc_check_call("cbt.set_logger", in, NULL);
  in[0] = S("hi");
  nccc_check_call("cbt.log", in, out);
  return nccc_slot_to_i32(out[0]);
}

START_TEST(test_types_are_the_generators) {
  /* the numbers the generator wrote for cbt's callback types */
  ck_assert_uint_eq(nccc_closure_type("pp:i"), 0xc421ea74u);
  ck_assert_uint_eq(nccc_closure_type("s:i"), 0xb8b26fd3u);
  ck_assert_uint_eq(nccc_closure_type(":"), 0x3f0cb86du);
  ck_assert_uint_eq(nccc_closure_type(NULL), NCCC_CLOSURE_UNTYPED);
}
END_TEST

START_TEST(test_wrong_type_refused_by_backward_wrapper) {
  /* a comparator's closure ("pp:i") handed to log_fn's wrapper ("s:i"):
  ** the wrapper must not read a string that is not there */
  uint64_t before = stats().type_mismatches;
  void *ctx = host_claim("pp:i", proc_count, NULL, NCCC_SCOPE_FOREVER, NULL);
  ran = 0;
  ck_assert_int_eq(set_and_log(ctx), 0); /* zeroed, not 7 */
  ck_assert_int_eq(ran, 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_WRONG_ARG_TYPE);
  ck_assert_str_eq(nccc_last_error(),
                   "callback type mismatch: a closure of 'pp:i' called as log_fn "
                   "'s:i'; not called");
  ck_assert_uint_eq(stats().type_mismatches, before + 1);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);

  /* the right type runs */
  ctx = host_claim("s:i", proc_count, NULL, NCCC_SCOPE_FOREVER, NULL);
  ck_assert_int_eq(set_and_log(ctx), 7);
  ck_assert_int_eq(ran, 1);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
}
END_TEST

START_TEST(test_untyped_refused_by_backward_wrapper) {
  uint64_t env = host_ref(proc_count, NULL);
  void *ctx = NULL;
  ck_assert_int_eq(nccc_closure_claim(host_dispatch, env, NCCC_SCOPE_FOREVER, &ctx),
                   NCCC_OK);
  ran = 0;
  ck_assert_int_eq(set_and_log(ctx), 0);
  ck_assert_int_eq(ran, 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_WRONG_ARG_TYPE);
  ck_assert_str_eq(nccc_last_error(),
                   "callback type mismatch: a closure of '(untyped)' called as "
                   "log_fn 's:i'; not called");
  /* C code may still call an untyped closure itself */
  {
    uint64_t in[2] = {0, 0}, out[1] = {0};
    nccc_closure_call(in, out, ctx, 0, &nccc_callback_untyped);
    ck_assert_uint_eq(out[0], 7);
  }
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
}
END_TEST

START_TEST(test_wrong_type_refused_by_thunk_bind) {
  nccc_thunk_fn fn = (nccc_thunk_fn)(uintptr_t)0x1234;
  uint64_t before = stats().type_mismatches;
  void *ctx = host_claim("pp:i", proc_count, NULL, NCCC_SCOPE_FOREVER, NULL);
  ck_assert_int_eq(nccc_thunk_bind(cbt_event_pool(), ctx, 0, &fn),
                   NCCC_ERR_WRONG_ARG_TYPE);
  ck_assert_ptr_eq((void *)(uintptr_t)fn, (void *)(uintptr_t)0x1234);
  ck_assert_str_eq(nccc_last_error(),
                   "callback type mismatch: a closure of 'pp:i' called as event_fn "
                   "':'; not called");
  ck_assert_uint_eq(stats().type_mismatches, before + 1);
  /* the forward call that would bind it is refused before C runs */
  {
    uint64_t in[1] = {S(ctx)}, out[1] = {0x5a5a5a5au};
    nccc_check_call("cbt.on_event", in, out);
    ck_assert_uint_eq(out[0], 0);
    ck_assert_int_eq(nccc_last_status(), NCCC_ERR_WRONG_ARG_TYPE);
  }
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
}
END_TEST

START_TEST(test_bad_signatures_refused) {
  void *ctx = NULL;
  const char *sigs[2] = {"ii:", NULL};
  nccc_fn targets[2] = {host_dispatch, host_dispatch};
  uint64_t envs[2] = {1, 2};
  ck_assert_int_eq(nccc_closure_claim_typed(host_dispatch, 1, NCCC_SCOPE_CALL, "i:q", &ctx),
                   NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(nccc_closure_claim_typed(host_dispatch, 1, NCCC_SCOPE_CALL, NULL, &ctx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_closure_claim_group_typed(2, targets, envs, sigs, NCCC_SCOPE_CALL,
                                                  0, &ctx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_closure_claim_group_typed(2, targets, envs, NULL, NCCC_SCOPE_CALL,
                                                  0, &ctx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_ptr_null(ctx);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

/* ---- closures kept on their claiming thread ------------------------------------ */

typedef struct {
  int32_t result;
  nccc_status status;
} on_thread;

static void *log_on_thread(void *arg) {
  on_thread *r = (on_thread *)arg;
  uint64_t in[1] = {S("hi")}, out[1] = {0x5a5a5a5au};
  nccc_clear_error();
  nccc_check_call("cbt.log", in, out);
  r->result = nccc_slot_to_i32(out[0]);
  r->status = nccc_last_status();
  return NULL;
}

static void *release_on_thread(void *ctx) {
  return (void *)(intptr_t)nccc_closure_release(ctx);
}

START_TEST(test_thread_bound_closure) {
  uint64_t env, before = stats().wrong_thread;
  void *ctx = host_claim("s:i", proc_count, NULL,
                         NCCC_SCOPE_FOREVER | NCCC_CLOSURE_NOTIFY | NCCC_CLOSURE_THREAD,
                         &env);
  on_thread r = {-1, NCCC_OK};
  pthread_t t;
  void *st;
  ran = 0;
  ck_assert_int_eq(set_and_log(ctx), 7); /* on the claiming thread: runs */
  ck_assert_int_eq(pthread_create(&t, NULL, log_on_thread, &r), 0);
  ck_assert_int_eq(pthread_join(t, NULL), 0);
  ck_assert_int_eq(r.result, 0);
  ck_assert_int_eq(r.status, NCCC_ERR_WRONG_THREAD);
  ck_assert_int_eq(ran, 1);
  ck_assert_uint_eq(stats().wrong_thread, before + 1);
  /* released on another thread: no notice is sent there, and it counts */
  ck_assert_int_eq(pthread_create(&t, NULL, release_on_thread, ctx), 0);
  ck_assert_int_eq(pthread_join(t, &st), 0);
  ck_assert_int_eq((int)(intptr_t)st, NCCC_OK);
  ck_assert_int_eq(host_notices(env), 0);
  ck_assert_uint_eq(stats().wrong_thread, before + 2);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("typed");
  nccc_check_tcase(s, "typed", setup, teardown,
                   NCCC_CHECK_TESTS(test_types_are_the_generators,
                                    test_wrong_type_refused_by_backward_wrapper,
                                    test_untyped_refused_by_backward_wrapper,
                                    test_wrong_type_refused_by_thunk_bind,
                                    test_bad_signatures_refused,
                                    test_thread_bound_closure));
  return s;
}
