/*
** test_packed_defaults.c — the bridge before TVMInitializeRuntime has
** ever run (a program of its own: nothing here may initialise it).
*/
#include <stdint.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/crt/error_codes.h>

#include "nccc_check.h"

static void nop(const uint64_t *in, uint64_t *out) {
  (void)in;
  (void)out;
}

START_TEST(everything_fails_cleanly) {
  TVMFunctionHandle f = (TVMFunctionHandle)(uintptr_t)1;
  uint64_t in[1] = {3}, out[2] = {7, 7}, pairs[2] = {kDLInt, 1}, value = 9;
  int code = 5;
  ck_assert_uint_eq(nccc_packed_available(), nccc_packed_capacity());
  ck_assert_int_eq(nccc_packed_register("x", nop, "l:", 0),
                   (nccc_status)kTvmErrorNcccNotInitialized);
  ck_assert_uint_eq(nccc_packed_available(), nccc_packed_capacity());
  ck_assert_int_eq(nccc_packed_find("x", NCCC_PACKED_GLOBAL, NULL, &f),
                   kTvmErrorNcccNotInitialized);
  ck_assert_ptr_eq(f, (TVMFunctionHandle)(uintptr_t)1);
  ck_assert_int_eq(nccc_packed_find("x", NCCC_PACKED_SYSTEM_LIB, NULL, &f),
                   kTvmErrorNcccNotInitialized);
  nccc_packed_forward("x", NCCC_PACKED_GLOBAL, "l:l", in, out);
  ck_assert_uint_eq(out[0], kTvmErrorNcccNotInitialized);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_int_eq(nccc_packed_call_dynamic(f, 1, pairs, &code, &value),
                   kTvmErrorNcccNotInitialized);
  ck_assert_int_eq(code, 5);
  ck_assert_uint_eq(value, 9);
  ck_assert_int_eq(nccc_packed_call(f, "l:", in, &value),
                   kTvmErrorNcccNotInitialized);
  /* the module "tvm" needs the nccc runtime */
  ck_assert_int_eq(nccc_tvm_module_add(NULL), NCCC_ERR_NOT_INITIALIZED);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("packed_defaults");
  nccc_check_tcase(s, "defaults", NULL, NULL,
                   NCCC_CHECK_TESTS(everything_fails_cleanly));
  return s;
}
