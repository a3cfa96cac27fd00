/*
** test_generated.c — what only the generated module "cbt" (cbt.idl) is
** tested for here; the scenarios shared with the hand-written wrappers
** run in test_closure.c, test_thunk.c, test_trace.c and test_fault.c.
** Signature strings with the closure code c, wrong values in a closure
** slot refused before C sees them, slot counts checked, the generated
** thunk pool accessors, and the trace records of a function that takes
** a callback.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbt/cbt_nccc.h" /* the generated header */

#include "cbt_fixture.h"
#include "cbt_lib.h"
#include "host.h"
#include "nccc_check.h"

#define S(p) nccc_slot_from_ptr(p)
#define SZ NCCC_SIG_SIZE

static void setup(void) {
  nccc_check_init(nccc_cbt_register);
  host_reset();
  lib_clear_events();
  nccc_clear_error();
  lib_calls = 0;
}

static void teardown(void) { ck_assert_int_eq(host_errors(), 0); }

static void expect_sig(const char *name, const char *sig, unsigned n_in,
                       unsigned n_out) {
  const nccc_fn_info *info = NULL;
  ck_assert_int_eq(nccc_function(nccc_check_lookup(name), NULL, &info, NULL),
                   NCCC_OK);
  ck_assert_msg(strcmp(info->signature, sig) == 0, "%s: %s, not %s", name,
                info->signature, sig);
  ck_assert_uint_eq(info->n_in, n_in);
  ck_assert_uint_eq(info->n_out, n_out);
}

START_TEST(test_signatures_have_closure_slots) {
  /* the context parameter's slot (or a thunk callback's own) is c; the
  ** callbacks sharing it and the destroy notify take no slot */
  expect_sig("cbt.qsort_r", "p" SZ SZ "c:", 4, 0);
  expect_sig("cbt.bsearch", "pp" SZ SZ "c:p", 5, 1);
  expect_sig("cbt.thread_create", "ppc:i", 3, 1);
  expect_sig("cbt.copy_async", "ic:", 2, 0);
  expect_sig("cbt.watch_add", "c:i", 1, 1);
  expect_sig("cbt.fail_with_callback", "ic:ie", 2, 2);
  expect_sig("cbt.set_logger", "c:", 1, 0);
  expect_sig("cbt.on_event", "c:i", 1, 1);
  expect_sig("cbt.divide", "ii:ie", 2, 2);
  expect_sig("cbt.add", "ll:l", 2, 1);
  expect_sig("cbt.split", "i:ii", 1, 2);
  {
    uint16_t n_in = 0, n_out = 0;
    ck_assert_int_eq(nccc_signature_counts("p" SZ SZ "c:", &n_in, &n_out), NCCC_OK);
    ck_assert_uint_eq(n_in, 4);
    ck_assert_uint_eq(n_out, 0);
    ck_assert_int_eq(nccc_signature_counts("pc:c", &n_in, &n_out),
                     NCCC_OK); /* a callback may return a context too */
  }
}
END_TEST

static void proc_cmp(const uint64_t *args, uint64_t *results, void *data) {
  int x = *(const int *)nccc_slot_to_ptr(args[0]);
  int y = *(const int *)nccc_slot_to_ptr(args[1]);
  (void)data;
  results[0] = nccc_slot_from_i32((x > y) - (x < y));
}

START_TEST(test_wrong_values_in_closure_slot_refused) {
  /* what a host might wrongly put where a context belongs: a data
  ** pointer, a function pointer, NULL (the callback is not nullable), a
  ** context with a bit flipped; each refused before qsort_r runs */
  int v[4] = {3, 1, 2, 0}, x = 0;
  void *ctx = NULL;
  uint64_t env = host_ref(proc_cmp, NULL);
  uint64_t wrong[5];
  uint64_t in[4] = {S(v), 4, sizeof(int), 0};
  nccc_handle hq = nccc_check_lookup("cbt.qsort_r");
  int i;
  ck_assert_int_eq(nccc_closure_claim_typed(host_dispatch, env, NCCC_SCOPE_FOREVER, "pp:i", &ctx),
                   NCCC_OK);
  wrong[0] = S(&x);
  wrong[1] = (uint64_t)(uintptr_t)host_dispatch;
  wrong[2] = 0;
  wrong[3] = S(ctx) ^ ((uint64_t)1 << 40);
  wrong[4] = S(ctx) + 2;
  for (i = 0; i < 5; i++) {
    nccc_clear_error();
    in[3] = wrong[i];
    ck_assert_int_eq(nccc_call_checked(hq, in, 4, NULL, 0), NCCC_OK);
    ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
    ck_assert_int_eq(v[0], 3);
  }
  ck_assert_int_eq(host_calls(env), 0);
  /* a wrong slot count is refused by the checked call itself */
  in[3] = S(ctx);
  ck_assert_int_eq(nccc_call_checked(hq, in, 3, NULL, 0), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(v[0], 3);
  /* and the right context works */
  ck_assert_int_eq(nccc_call_checked(hq, in, 4, NULL, 0), NCCC_OK);
  for (i = 0; i < 4; i++) ck_assert_int_eq(v[i], i);
  ck_assert_int_gt(host_calls(env), 0);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
}
END_TEST

START_TEST(test_wrong_value_in_thunk_slot_refused) {
  static const int table[3] = {1, 2, 3};
  int key = 2, x = 0;
  uint64_t in[5] = {S(&key), S(table), 3, sizeof(int), S(&x)};
  uint64_t out[1] = {0x5a5a5a5a5a5a5a5au};
  ck_assert_int_eq(nccc_call(nccc_check_lookup("cbt.bsearch"), in, out),
                   NCCC_OK);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
  ck_assert_uint_eq(nccc_thunk_in_use(cbt_cmp_pool()), 0);
}
END_TEST

START_TEST(test_pool_accessors) {
  const nccc_thunk_pool *cmp = nccc_cbt_cmp_fn_thunk_pool();
  const nccc_thunk_pool *ev = nccc_cbt_event_fn_thunk_pool();
  ck_assert_ptr_nonnull(cmp);
  ck_assert_str_eq(cmp->type->name, "cmp_fn");
  ck_assert_uint_eq(cmp->size, 4);
  ck_assert_str_eq(ev->type->name, "event_fn");
  ck_assert_uint_eq(ev->size, 2);
  ck_assert_ptr_ne(cmp->thunks[0], cmp->thunks[1]);
  ck_assert_uint_eq(nccc_thunk_in_use(cmp), 0);
}
END_TEST

/* A callback that calls a traced function of the same module: the trace
** holds the inner call, then the outer one (records are written when a
** call ends). */
static void proc_note(const uint64_t *args, uint64_t *results, void *data) {
  uint64_t in[2] = {nccc_slot_from_i64(20), nccc_slot_from_i64(22)}, out[1];
  (void)args;
  (void)results;
  nccc_call(nccc_check_lookup("cbt.add"), in, out);
  *(int64_t *)data = nccc_slot_to_i64(out[0]);
}

START_TEST(test_trace_of_call_with_callback) {
  nccc_handle ha = nccc_check_lookup("cbt.add"),
              hd = nccc_check_lookup("cbt.divide");
  nccc_trace_record r;
  nccc_trace_stats st;
  int64_t inner = 0;
  uint64_t env = host_ref(proc_note, &inner);
  void *ctx = NULL;
  uint64_t in[2], out[2];
  uint16_t mod = 0;
  ck_assert_int_eq(nccc_module_find("cbt", &mod), NCCC_OK);
  ck_assert_int_eq(nccc_trace_enable_module(mod, 1), NCCC_OK);
  ck_assert_int_eq(nccc_closure_claim_typed(host_dispatch, env,
                                            NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, ":", &ctx),
                   NCCC_OK);
  in[0] = 0;
  in[1] = S(ctx);
  /* fail_with_callback has no trace shim: not traced, even with its
  ** module on; add, called inside its callback, is */
  ck_assert_int_eq(
      nccc_call(nccc_check_lookup("cbt.fail_with_callback"), in, out), NCCC_OK);
  ck_assert_int_eq(inner, 42);
  ck_assert_int_eq(host_notices(env), 1);
  in[0] = nccc_slot_from_i32(9);
  in[1] = nccc_slot_from_i32(3);
  ck_assert_int_eq(nccc_call(hd, in, out), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 3);
  nccc_trace_get_stats(&st);
  ck_assert_uint_eq(st.next - st.first, 2);
  ck_assert_int_eq(nccc_trace_read(st.first, &r), NCCC_OK);
  ck_assert_uint_eq(r.handle, ha);
  ck_assert_uint_eq(r.status, NCCC_OK);
  ck_assert_int_eq(nccc_trace_read(st.first + 1, &r), NCCC_OK);
  ck_assert_uint_eq(r.handle, hd);
  nccc_trace_disable_all();
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("generated");
  nccc_check_tcase(s, "generated", setup, teardown,
                   NCCC_CHECK_TESTS(test_signatures_have_closure_slots,
                                    test_wrong_values_in_closure_slot_refused,
                                    test_wrong_value_in_thunk_slot_refused,
                                    test_pool_accessors,
                                    test_trace_of_call_with_callback));
  return s;
}
