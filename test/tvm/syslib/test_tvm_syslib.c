/*
** test_tvm_syslib.c — the system library of syslib.c, written as TVM's C
** code generator writes one, linked with the runtime: its operators
** through TVM's API (runtime.SystemLib, TVMModGetFunction, TVMFuncCall)
** and through the wrappers nccc-stubgen generates from syslib.idl. The
** operator scale_add calls the global packed function "host.scale",
** which this host registers as an nccc function.
*/
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>

#include "syslib_nccc.h"
#include "nccc_check.h"

/* host.scale: three times its argument. */
static void triple(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(3 * nccc_slot_to_i64(in[0]));
}

static void setup(void) {
  ck_assert_int_eq(TVMInitializeRuntime(), kTvmErrorNoError);
}

static void register_host_scale(void) {
  ck_assert_int_eq(nccc_packed_register("host.scale", triple, "l:l", 0),
                   NCCC_OK);
}

/* The operator name of the system library, through TVM's API. */
static TVMFunctionHandle operator(const char *name) {
  TVMFunctionHandle syslib = NULL, f = NULL;
  TVMValue ret;
  int tcode;
  ck_assert_int_eq(TVMFuncGetGlobal("runtime.SystemLib", &syslib), 0);
  ck_assert_ptr_nonnull(syslib);
  ck_assert_int_eq(TVMFuncCall(syslib, NULL, NULL, 0, &ret, &tcode), 0);
  ck_assert_int_eq(tcode, kTVMModuleHandle);
  ck_assert_int_eq(TVMModGetFunction(ret.v_handle, name, 0, &f), 0);
  return f;
}

static int call_ints(TVMFunctionHandle f, int n, int64_t a, int64_t b,
                     TVMValue *ret, int *tcode) {
  TVMValue args[2];
  int codes[2] = {kTVMArgInt, kTVMArgInt};
  args[0].v_int64 = a;
  args[1].v_int64 = b;
  return TVMFuncCall(f, args, codes, n, ret, tcode);
}

/* Runs first: the operator keeps the handle it looked up, as generated
** code does, so "host.scale" is absent only until it is first found. */
START_TEST(operator_fails_while_the_host_function_is_absent) {
  TVMValue ret;
  int tcode;
  uint64_t in[2] = {7, 5}, out[2] = {99, 99};
  ck_assert_int_eq(call_ints(operator("scale_add"), 2, 7, 5, &ret, &tcode), -1);
  ck_assert_ptr_nonnull(strstr(TVMGetLastError(), "host.scale"));
  ck_assert_int_eq(nccc_last_status(), kTvmErrorFunctionNameNotFound);
  nccc_syslib_scale_add(in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -1);
  ck_assert_uint_eq(out[1], 0);
}
END_TEST

START_TEST(operator_calls_the_host_function_through_tvm_api) {
  TVMFunctionHandle f;
  TVMValue ret;
  int tcode;
  register_host_scale();
  f = operator("scale_add");
  ck_assert_int_eq(call_ints(f, 2, 7, 5, &ret, &tcode), 0);
  ck_assert_int_eq(tcode, kTVMArgInt);
  ck_assert_int_eq(ret.v_int64, 26);
  ck_assert_int_eq(call_ints(f, 2, -1000000000000, 1, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, -2999999999999);
  /* the generated argument checks */
  ck_assert_int_eq(call_ints(f, 1, 7, 5, &ret, &tcode), -1);
  ck_assert_str_eq(TVMGetLastError(), "scale_add: num_args should be 2");
}
END_TEST

START_TEST(operator_calls_the_host_function_through_wrappers) {
  uint64_t in[2], out[2];
  register_host_scale();
  in[0] = nccc_slot_from_i64(7);
  in[1] = nccc_slot_from_i64(5);
  nccc_syslib_scale_add(in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_int_eq(nccc_slot_to_i64(out[1]), 26);
  in[0] = nccc_slot_from_i64(INT64_MIN / 3);
  in[1] = nccc_slot_from_i64(-2);
  nccc_syslib_scale_add(in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_int_eq(nccc_slot_to_i64(out[1]), (INT64_MIN / 3) * 3 - 2);
}
END_TEST

START_TEST(workspace_and_parallel_lambda) {
  TVMFunctionHandle f = operator("sum_squares");
  TVMValue ret;
  int tcode;
  uint64_t in[1], out[2];
  ck_assert_int_eq(call_ints(f, 1, 10, 0, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 285);
  ck_assert_int_eq(call_ints(f, 1, 0, 0, &ret, &tcode), -1);
  ck_assert_str_eq(TVMGetLastError(), "sum_squares: Expect 1 <= n <= 64");
  in[0] = nccc_slot_from_i64(64);
  nccc_syslib_sum_squares(in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_int_eq(nccc_slot_to_i64(out[1]), 63 * 64 * 127 / 6);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("tvm_syslib");
  nccc_check_tcase(s, "system_library", setup, NULL,
                   NCCC_CHECK_TESTS(operator_fails_while_the_host_function_is_absent,
                                    operator_calls_the_host_function_through_tvm_api,
                                    operator_calls_the_host_function_through_wrappers,
                                    workspace_and_parallel_lambda));
  return s;
}
