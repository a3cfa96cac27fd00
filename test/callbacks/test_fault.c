/*
** test_fault.c — fault injection: the next N calls answer with the armed
** result and errno without reaching the library, then calls go through
** again; out parameters, wrappers without the shim, the table's limits,
** and the fault built-ins.
*/
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbt_lib.h"
#include "cbt_fixture.h"
#include "host.h"
#include "nccc_check.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5au

static int divide(int a, int b, int *err) {
  uint64_t in[2] = {nccc_slot_from_i32(a), nccc_slot_from_i32(b)};
  uint64_t out[2] = {SENTINEL, SENTINEL};
  ck_assert_int_eq(nccc_call(nccc_check_lookup("cbt.divide"), in, out),
                   NCCC_OK);
  *err = nccc_slot_to_i32(out[1]);
  return nccc_slot_to_i32(out[0]);
}

static void setup(void) {
  nccc_check_init(nccc_cbt_register);
  lib_calls = 0;
}

START_TEST(test_next_n_calls_fail) {
  nccc_handle hd = nccc_check_lookup("cbt.divide");
  uint64_t result[1] = {nccc_slot_from_i32(-1)}, fired = 99;
  uint32_t remaining = 99;
  int err;
  ck_assert_uint_eq(nccc_site_active, 0);
  ck_assert_int_eq(divide(10, 2, &err), 5);
  ck_assert_int_eq(err, 0);
  ck_assert_int_eq(lib_calls, 1);

  ck_assert_int_eq(nccc_fault_arm(hd, 2, result, 1, ENOSPC), NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, NCCC_SITE_FAULT);
  ck_assert_int_eq(nccc_fault_query(hd, &remaining, &fired), NCCC_OK);
  ck_assert_uint_eq(remaining, 2);
  ck_assert_uint_eq(fired, 0);
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(divide(10, 2, &err), -1);
    ck_assert_int_eq(err, ENOSPC);
  }
  ck_assert_int_eq(lib_calls, 1); /* the library was not called */
  ck_assert_uint_eq(nccc_site_active, 0);
  ck_assert_int_eq(nccc_fault_query(hd, &remaining, &fired), NCCC_OK);
  ck_assert_uint_eq(remaining, 0);
  ck_assert_uint_eq(fired, 2);
  /* then normal calls resume, errno included */
  ck_assert_int_eq(divide(10, 2, &err), 5);
  ck_assert_int_eq(err, 0);
  ck_assert_int_eq(divide(1, 0, &err), 0);
  ck_assert_int_eq(err, EDOM);
  ck_assert_int_eq(lib_calls, 3);
}
END_TEST

START_TEST(test_always_and_disarm) {
  nccc_handle hd = nccc_check_lookup("cbt.divide");
  uint64_t fired;
  uint32_t remaining;
  int err;
  ck_assert_int_eq(nccc_fault_arm(hd, NCCC_FAULT_ALWAYS, NULL, 0, EAGAIN), NCCC_OK);
  for (int i = 0; i < 5; i++) {
    ck_assert_int_eq(divide(9, 3, &err), 0); /* no result slot given: zero */
    ck_assert_int_eq(err, EAGAIN);
  }
  ck_assert_int_eq(nccc_fault_query(hd, &remaining, &fired), NCCC_OK);
  ck_assert_uint_eq(remaining, NCCC_FAULT_ALWAYS);
  ck_assert_uint_eq(fired, 5);
  ck_assert_int_eq(nccc_fault_disarm(hd), NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, 0);
  ck_assert_int_eq(divide(9, 3, &err), 3);
  ck_assert_int_eq(nccc_fault_query(hd, &remaining, &fired), NCCC_OK);
  ck_assert_uint_eq(remaining, 0);
  ck_assert_uint_eq(fired, 0);
  ck_assert_int_eq(nccc_fault_disarm(hd), NCCC_OK); /* nothing armed: fine */
  /* re-arming replaces the fault */
  {
    uint64_t a[1] = {7}, b[1] = {nccc_slot_from_i32(-8)};
    ck_assert_int_eq(nccc_fault_arm(hd, 5, a, 1, 1), NCCC_OK);
    ck_assert_int_eq(nccc_fault_arm(hd, 1, b, 1, 2), NCCC_OK);
    ck_assert_int_eq(divide(9, 3, &err), -8);
    ck_assert_int_eq(err, 2);
    ck_assert_int_eq(divide(9, 3, &err), 3);
  }
  ck_assert_int_eq(lib_calls, 2);
}
END_TEST

START_TEST(test_out_parameters) {
  nccc_handle hs = nccc_check_lookup("cbt.split");
  uint64_t in[1] = {nccc_slot_from_i32(0x30004)}, out[2];
  uint64_t both[2] = {nccc_slot_from_i32(-1), nccc_slot_from_i32(-2)};
  uint64_t one[1] = {nccc_slot_from_i32(77)};
  ck_assert_int_eq(nccc_fault_arm(hs, 1, both, 2, EINVAL), NCCC_OK);
  out[0] = out[1] = SENTINEL;
  ck_assert_int_eq(nccc_call(hs, in, out), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -1);
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), -2); /* no errno slot: err unused */
  /* fewer slots than values: the rest are zeroed */
  ck_assert_int_eq(nccc_fault_arm(hs, 1, one, 1, 0), NCCC_OK);
  out[0] = out[1] = SENTINEL;
  ck_assert_int_eq(nccc_call(hs, in, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 77);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_int_eq(lib_calls, 0);
  ck_assert_int_eq(nccc_call(hs, in, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 4);
  ck_assert_uint_eq(out[1], 3);
  ck_assert_int_eq(lib_calls, 1);
}
END_TEST

START_TEST(test_wrapper_without_fault_shim) {
  /* cbt.add has [trace] only: arming is accepted but never fires */
  nccc_handle ha = nccc_check_lookup("cbt.add");
  uint64_t r[1] = {0}, in[2] = {40, 2}, out[1], fired = 9;
  ck_assert_int_eq(nccc_fault_arm(ha, 3, r, 1, EIO), NCCC_OK);
  ck_assert_int_eq(nccc_call(ha, in, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_int_eq(nccc_fault_query(ha, NULL, &fired), NCCC_OK);
  ck_assert_uint_eq(fired, 0);
  nccc_fault_disarm_all();
  ck_assert_uint_eq(nccc_site_active, 0);
}
END_TEST

START_TEST(test_arm_errors_and_table) {
  nccc_handle hd = nccc_check_lookup("cbt.divide"), g;
  uint64_t slots[NCCC_FAULT_SLOTS + 1] = {0};
  uint32_t remaining = 5;
  int err;
  ck_assert_int_eq(nccc_fault_arm(hd, 0, slots, 1, 0), NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_fault_arm(hd, 1, slots, NCCC_FAULT_SLOTS + 1, 0),
                   NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_fault_arm(hd, 1, NULL, 1, 0), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_fault_arm(0x12345678u, 1, slots, 1, 0), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_fault_disarm(0), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_fault_query(0, &remaining, NULL), NCCC_ERR_BAD_HANDLE);
  ck_assert_uint_eq(remaining, 5);
  ck_assert_int_eq(nccc_register("plain", (nccc_fn)(uintptr_t)setup, ":", 0, &g), NCCC_OK);
  ck_assert_int_eq(nccc_fault_arm(g, 1, slots, 1, 0), NCCC_ERR_INVALID_ARG);
  ck_assert_str_eq(nccc_last_error(), "fault arm: a global-registry function has no shims");
  ck_assert_uint_eq(nccc_site_active, 0);
  /* NCCC_FAULT_MAX armed functions (the built-ins lend their handles) */
  for (int i = 0; i < NCCC_FAULT_MAX; i++) {
    ck_assert_int_eq(nccc_fault_arm(nccc_handle_encode(0, (uint16_t)i), 1, slots, 1, 0),
                     NCCC_OK);
  }
  ck_assert_int_eq(nccc_fault_arm(hd, 1, slots, 1, 0), NCCC_ERR_POOL_EXHAUSTED);
  ck_assert_int_eq(nccc_fault_disarm(nccc_handle_encode(0, 3)), NCCC_OK);
  slots[0] = nccc_slot_from_i32(-5);
  ck_assert_int_eq(nccc_fault_arm(hd, 1, slots, 1, ERANGE), NCCC_OK);
  ck_assert_int_eq(divide(4, 2, &err), -5);
  ck_assert_int_eq(err, ERANGE);
  /* a spent entry makes room for another function */
  ck_assert_int_eq(nccc_fault_arm(nccc_handle_encode(0, 3), 1, slots, 1, 0), NCCC_OK);
  nccc_fault_disarm_all();
  ck_assert_uint_eq(nccc_site_active, 0);
}
END_TEST

START_TEST(test_init_disarms) {
  nccc_handle hd = nccc_check_lookup("cbt.divide");
  uint64_t r[1] = {1};
  int err;
  ck_assert_int_eq(nccc_fault_arm(hd, NCCC_FAULT_ALWAYS, r, 1, 1), NCCC_OK);
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, 0);
  ck_assert_int_eq(nccc_cbt_register(), NCCC_OK);
  ck_assert_int_eq(divide(8, 2, &err), 4);
}
END_TEST

static void proc_never(const uint64_t *args, uint64_t *results, void *data) {
  (void)args;
  (void)results;
  ++*(int *)data;
}

START_TEST(test_faulted_call_still_releases_call_closure) {
  /* the library (and so the callback) is skipped; the CALL-scoped
  ** closure the host passed is released all the same */
  nccc_handle hf = nccc_check_lookup("cbt.fail_with_callback");
  uint64_t r[1] = {nccc_slot_from_i32(-7)}, in[2], out[2];
  uint64_t env;
  int ran = 0;
  void *ctx;
  nccc_closure_stats st;
  host_reset();
  env = host_ref(proc_never, &ran);
  ck_assert_int_eq(nccc_closure_claim_typed(host_dispatch, env,
                                            NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, ":", &ctx),
                   NCCC_OK);
  ck_assert_int_eq(nccc_fault_arm(hf, 1, r, 1, EPERM), NCCC_OK);
  in[0] = 0;
  in[1] = nccc_slot_from_ptr(ctx);
  ck_assert_int_eq(nccc_call(hf, in, out), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -7);
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), EPERM);
  ck_assert_int_eq(ran, 0);
  ck_assert_int_eq(lib_calls, 0);
  ck_assert_int_eq(host_notices(env), 1);
  nccc_closure_get_stats(&st);
  ck_assert_uint_eq(st.in_use, 0);
  ck_assert_int_eq(host_errors(), 0);
}
END_TEST

START_TEST(test_builtins) {
  nccc_handle hd = nccc_check_lookup("cbt.divide");
  uint64_t in[6] = {hd, 2, nccc_slot_from_i32(EACCES), 1, nccc_slot_from_i32(-13), 0};
  uint64_t out[3] = {SENTINEL, SENTINEL, SENTINEL};
  int err;
  nccc_check_builtin(NCCC_BUILTIN_FAULT_ARM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_int_eq(divide(1, 1, &err), -13);
  ck_assert_int_eq(err, EACCES);
  nccc_check_builtin(NCCC_BUILTIN_FAULT_QUERY)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_eq(out[1], 1);
  ck_assert_uint_eq(out[2], 1);
  in[0] = 0; /* disarm all */
  nccc_check_builtin(NCCC_BUILTIN_FAULT_DISARM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_int_eq(divide(1, 1, &err), 1);
  /* refused arguments */
  in[0] = hd;
  in[3] = NCCC_FAULT_SLOTS + 1;
  nccc_check_builtin(NCCC_BUILTIN_FAULT_ARM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
  in[3] = 1;
  in[2] = 0x100000000u; /* not an int */
  nccc_check_builtin(NCCC_BUILTIN_FAULT_ARM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
  in[2] = 0;
  in[1] = 0;
  nccc_check_builtin(NCCC_BUILTIN_FAULT_ARM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
  in[0] = 12345;
  nccc_check_builtin(NCCC_BUILTIN_FAULT_DISARM)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_BAD_HANDLE);
  nccc_check_builtin(NCCC_BUILTIN_FAULT_QUERY)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_BAD_HANDLE);
  ck_assert_uint_eq(nccc_site_active, 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("fault");
  nccc_check_tcase(s, "fault", setup, NULL,
      NCCC_CHECK_TESTS(test_next_n_calls_fail, test_always_and_disarm,
                       test_out_parameters, test_wrapper_without_fault_shim,
                       test_arm_errors_and_table, test_init_disarms,
                       test_faulted_call_still_releases_call_closure,
                       test_builtins));
  return s;
}
