/*
** test_packed_forward.c — the wrappers nccc-stubgen generates for the
** packed declarations of pk.idl, calling the packed functions of
** fixture.c: values and type codes of every type, results that do not
** fit, status propagation, globals, module functions, the system library
** and re-initialisation.
*/
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>

#include "fixture.h"
#include "pk_nccc.h"
#include "nccc_check.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aull

static uint64_t out[3];

/* Calls wrapper fn with the given in slots; out[] is preset to a
** sentinel, so that a slot written without need shows. */
#define CALL(fn, ...)                                        \
  do {                                                       \
    const uint64_t in_[] = {__VA_ARGS__};                    \
    out[0] = out[1] = out[2] = SENTINEL;                     \
    fn(in_, out);                                            \
  } while (0)
#define CALL0(fn)                                            \
  do {                                                       \
    out[0] = out[1] = out[2] = SENTINEL;                     \
    fn(NULL, out);                                           \
  } while (0)

#define STATUS() ((int)nccc_slot_to_i32(out[0]))
#define P(x) nccc_slot_from_ptr(x)
#define I(x) nccc_slot_from_i64(x)

/* The status slot is an int32 slot: sign-extended. */
static void assert_status(int want) {
  ck_assert_int_eq(STATUS(), want);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(want));
}

/* ---- values and type codes ---------------------------------------------------- */

START_TEST(ints_go_as_kDLInt_and_come_back) {
  CALL(nccc_pk_add, I(40), I(2));
  assert_status(0);
  ck_assert_uint_eq(out[1], 42);
  ck_assert_uint_eq(out[2], SENTINEL);
  ck_assert_int_eq(fx.calls, 1);
  ck_assert_int_eq(fx.num_args, 2);
  ck_assert_int_eq(fx.codes[0], kDLInt);
  ck_assert_int_eq(fx.codes[1], kDLInt);
  ck_assert_ptr_null(fx.resource);
  CALL(nccc_pk_add, I(-5), I(2));
  assert_status(0);
  ck_assert_uint_eq(out[1], I(-3));
  CALL(nccc_pk_add, I(INT64_MAX), I(0));
  ck_assert_uint_eq(out[1], I(INT64_MAX));
}
END_TEST

START_TEST(floats_go_as_kDLFloat) {
  CALL(nccc_pk_scale, nccc_slot_from_double(1.5), nccc_slot_from_float(4.0f));
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kDLFloat);
  ck_assert_int_eq(fx.codes[1], kDLFloat);
  ck_assert(fx.args[0].v_float64 == 1.5);
  ck_assert(fx.args[1].v_float64 == 4.0);
  ck_assert(nccc_slot_to_double(out[1]) == 6.0);
  /* a float argument is widened exactly */
  CALL(nccc_pk_scale, nccc_slot_from_double(1.0),
       nccc_slot_from_float(0.1f));
  ck_assert(fx.args[1].v_float64 == (double)0.1f);
}
END_TEST

START_TEST(strings_go_as_kTVMStr_and_null_as_kTVMNullptr) {
  CALL(nccc_pk_greet, P("tvm"));
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMStr);
  ck_assert_str_eq(nccc_slot_to_ptr(out[1]), "hello, tvm");
  CALL(nccc_pk_greet, 0);
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMNullptr);
  ck_assert_str_eq(nccc_slot_to_ptr(out[1]), "hello, nobody");
}
END_TEST

START_TEST(handles_bytes_and_tensors) {
  int x = 0;
  DLTensor t;
  memset(&t, 0, sizeof t);
  t.ndim = 3;
  CALL(nccc_pk_same, P(&x));
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMOpaqueHandle);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[1]), &x);
  CALL(nccc_pk_same, 0);
  assert_status(0); /* a null result is a valid void * */
  ck_assert_int_eq(fx.codes[0], kTVMNullptr);
  ck_assert_uint_eq(out[1], 0);

  CALL(nccc_pk_bytes_len, P(&fx_bytes));
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMBytes);
  ck_assert_uint_eq(out[1], 7);
  CALL0(nccc_pk_bytes);
  assert_status(0);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[1]), &fx_bytes);

  CALL(nccc_pk_ndim, P(&t));
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMDLTensorHandle);
  ck_assert_uint_eq(out[1], 3);
  CALL(nccc_pk_ndim_typedef, P(&t));
  ck_assert_int_eq(fx.codes[0], kTVMDLTensorHandle);
  ck_assert_uint_eq(out[1], 3);
}
END_TEST

START_TEST(bools_go_as_kTVMArgBool) {
  CALL(nccc_pk_negate, 1);
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMArgBool);
  ck_assert_int_eq(fx.args[0].v_int64, 1);
  ck_assert_uint_eq(out[1], 0);
  CALL(nccc_pk_negate, 0);
  ck_assert_uint_eq(out[1], 1);
  /* an int result is a bool when non-zero, as in TVM */
  CALL(nccc_pk_echo_bool, I(7));
  assert_status(0);
  ck_assert_uint_eq(out[1], 1);
}
END_TEST

START_TEST(handle_kinds_have_their_codes) {
  DLTensor t;
  void *mod = (void *)(uintptr_t)0x8001;
  void *fn = (void *)(uintptr_t)0x80028003u;
  CALL(nccc_pk_echo_module, P(mod));
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMModuleHandle);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[1]), mod);
  CALL(nccc_pk_echo_module, 0);
  ck_assert_int_eq(fx.codes[0], kTVMNullptr);
  ck_assert_uint_eq(out[1], 0);
  CALL(nccc_pk_echo_function, P(fn));
  ck_assert_int_eq(fx.codes[0], kTVMPackedFuncHandle);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[1]), fn);
  CALL(nccc_pk_echo_tensor, P(&t));
  ck_assert_int_eq(fx.codes[0], kTVMDLTensorHandle);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[1]), &t);
  CALL(nccc_pk_echo_bytes, P(&fx_bytes));
  ck_assert_int_eq(fx.codes[0], kTVMBytes);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[1]), &fx_bytes);
  CALL(nccc_pk_echo_str, P("abc"));
  assert_status(0);
  ck_assert_int_eq(fx.codes[0], kTVMStr);
  ck_assert_str_eq(nccc_slot_to_ptr(out[1]), "abc");
}
END_TEST

START_TEST(narrow_and_unsigned_integers) {
  CALL(nccc_pk_echo_i8, I(-128));
  assert_status(0);
  ck_assert_uint_eq(out[1], I(-128));
  CALL(nccc_pk_echo_u8, I(255));
  assert_status(0);
  ck_assert_uint_eq(out[1], 255);
  CALL(nccc_pk_echo_i16, nccc_slot_from_u16(32767));
  assert_status(0);
  ck_assert_uint_eq(out[1], 32767);
  /* uint64 travels as the bits of v_int64, both ways */
  CALL(nccc_pk_echo_u64, UINT64_MAX);
  assert_status(0);
  ck_assert_int_eq(fx.args[0].v_int64, -1);
  ck_assert_uint_eq(out[1], UINT64_MAX);
  CALL(nccc_pk_echo_long, I(LONG_MIN));
  assert_status(0);
  ck_assert_uint_eq(out[1], I(LONG_MIN));
  CALL(nccc_pk_echo_char, I('A'));
  ck_assert_uint_eq(out[1], 'A');
  CALL(nccc_pk_echo_color, I(5));
  ck_assert_int_eq(fx.codes[0], kDLInt);
  ck_assert_uint_eq(out[1], 5);
  CALL(nccc_pk_echo_int_as_double, I(-7));
  assert_status(0); /* an int result is accepted for a double, as in TVM */
  ck_assert(nccc_slot_to_double(out[1]) == -7.0);
}
END_TEST

START_TEST(results_that_do_not_fit_are_refused) {
  static const int64_t bad_i8[] = {128, -129, 300, INT64_MIN};
  static const int64_t bad_u8[] = {-1, 256, INT64_MAX};
  size_t i;
  for (i = 0; i < sizeof bad_i8 / sizeof bad_i8[0]; i++) {
    CALL(nccc_pk_echo_i8, I(bad_i8[i]));
    assert_status(kTvmErrorFunctionCallInvalidArg);
    ck_assert_uint_eq(out[1], 0);
    ck_assert_str_eq(TVMGetLastError(),
                     "t.echo: result: value out of range for int8");
  }
  for (i = 0; i < sizeof bad_u8 / sizeof bad_u8[0]; i++) {
    CALL(nccc_pk_echo_u8, I(bad_u8[i]));
    assert_status(kTvmErrorFunctionCallInvalidArg);
    ck_assert_uint_eq(out[1], 0);
  }
  CALL(nccc_pk_echo_i16, nccc_slot_from_u16(32768));
  assert_status(kTvmErrorFunctionCallInvalidArg);
  CALL(nccc_pk_echo_f, nccc_slot_from_double(1e300));
  assert_status(kTvmErrorFunctionCallInvalidArg);
  ck_assert_str_eq(TVMGetLastError(),
                   "t.echo: result: value out of range for float");
}
END_TEST

START_TEST(floats_that_fit) {
  CALL(nccc_pk_echo_f, nccc_slot_from_double(1.5));
  assert_status(0);
  ck_assert_uint_eq(out[1], nccc_slot_from_float(1.5f));
  CALL(nccc_pk_echo_f, nccc_slot_from_double(-INFINITY));
  assert_status(0);
  ck_assert(isinf(nccc_slot_to_float(out[1])) &&
            nccc_slot_to_float(out[1]) < 0);
  CALL(nccc_pk_echo_f, nccc_slot_from_double(NAN));
  assert_status(0);
  ck_assert(isnan(nccc_slot_to_float(out[1])));
}
END_TEST

START_TEST(wrong_result_type_codes_are_refused) {
  CALL(nccc_pk_echo_str_as_int, P("x"));
  assert_status(kTvmErrorFunctionCallWrongArgType);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_WRONG_ARG_TYPE);
  ck_assert_str_eq(TVMGetLastError(),
                   "t.echo: result: expected int32, got str");
  CALL(nccc_pk_echo_str_as_handle, P("x"));
  assert_status(kTvmErrorFunctionCallWrongArgType);
  ck_assert_str_eq(TVMGetLastError(),
                   "t.echo: result: expected handle, got str");
  /* a float is no int */
  CALL(nccc_pk_scale, nccc_slot_from_double(1.0), nccc_slot_from_float(1.0f));
  assert_status(0);
}
END_TEST

/* ---- status ------------------------------------------------------------------ */

START_TEST(errors_of_the_packed_function_come_back) {
  CALL(nccc_pk_fail, I(kTvmErrorFunctionCallInvalidArg));
  assert_status(kTvmErrorFunctionCallInvalidArg);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_str_eq(TVMGetLastError(), "t.fail: asked");
  CALL(nccc_pk_fail, I(-5));
  assert_status(-5);
  /* "t.add" checks its arguments itself */
  CALL(nccc_pk_add_one, I(1));
  assert_status(kTvmErrorFunctionCallNumArguments);
  ck_assert_int_eq(fx.num_args, 1);
  CALL(nccc_pk_add_str, P("1"), I(2));
  assert_status(kTvmErrorFunctionCallWrongArgType);
  ck_assert_int_eq(fx.codes[0], kTVMStr);
}
END_TEST

START_TEST(void_result_writes_only_the_status) {
  CALL0(nccc_pk_nothing);
  assert_status(0);
  ck_assert_int_eq(fx.calls, 1);
  ck_assert_int_eq(fx.num_args, 0);
  ck_assert_uint_eq(out[1], SENTINEL);
}
END_TEST

START_TEST(absent_function_is_not_found) {
  CALL0(nccc_pk_absent);
  assert_status(kTvmErrorFunctionNameNotFound);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_str_eq(TVMGetLastError(),
                   "packed function not registered: t.absent");
  ck_assert_int_eq(fx.calls, 0);
}
END_TEST

/* ---- where functions are found -------------------------------------------------- */

START_TEST(globals_get_a_null_resource_handle) {
  fx.resource = (void *)&fx;
  CALL0(nccc_pk_resource);
  assert_status(0);
  ck_assert_int_eq(fx.calls, 1);
  ck_assert_ptr_null(fx.resource);
}
END_TEST

START_TEST(module_functions_by_handle) {
  void *mod;
  CALL0(nccc_pk_system_lib);
  assert_status(0);
  mod = nccc_slot_to_ptr(out[1]);
  ck_assert_ptr_nonnull(mod);
  CALL(nccc_pk_square_in, P(mod), I(7));
  assert_status(0);
  ck_assert_uint_eq(out[1], 49);
  /* a module function gets its module's registry, as in TVM */
  CALL(nccc_pk_resource_in, P(mod));
  assert_status(0);
  ck_assert_ptr_eq(fx.resource, (void *)fx_system_lib.registry);
  /* a handle that names no module */
  CALL(nccc_pk_square_in, P((void *)(uintptr_t)0x8001), I(7));
  assert_status(-1);
  CALL(nccc_pk_square_in, 0, I(7));
  assert_status(-1);
  ck_assert_uint_eq(out[1], 0);
}
END_TEST

START_TEST(system_library_functions) {
  CALL(nccc_pk_square_sys, I(-9));
  assert_status(0);
  ck_assert_uint_eq(out[1], 81);
  ck_assert_int_eq(fx.codes[0], kDLInt);
}
END_TEST

START_TEST(builtin_module_get_function) {
  TVMValue arg, ret;
  int code = kDLInt, ret_code;
  void *mod, *f;
  CALL0(nccc_pk_system_lib);
  mod = nccc_slot_to_ptr(out[1]);
  CALL(nccc_pk_get_function, P(mod), P("sq"), 0);
  assert_status(0);
  f = nccc_slot_to_ptr(out[1]);
  ck_assert_ptr_nonnull(f);
  arg.v_int64 = 12;
  ck_assert_int_eq(TVMFuncCall(f, &arg, &code, 1, &ret, &ret_code), 0);
  ck_assert_int_eq(ret.v_int64, 144);
  /* absent: the built-in returns null, a valid function handle */
  CALL(nccc_pk_get_function, P(mod), P("nope"), 0);
  assert_status(0);
  ck_assert_uint_eq(out[1], 0);
}
END_TEST

START_TEST(names_are_looked_up_at_every_call) {
  CALL(nccc_pk_add, I(1), I(2));
  assert_status(0);
  TVMInitializeRuntime();
  CALL(nccc_pk_add, I(1), I(2));
  assert_status(kTvmErrorFunctionNameNotFound);
  fx_setup();
  CALL(nccc_pk_add, I(1), I(2));
  assert_status(0);
  ck_assert_uint_eq(out[1], 3);
}
END_TEST

/* ---- through the nccc registry ----------------------------------------------- */

START_TEST(wrappers_are_in_the_registry) {
  nccc_handle h;
  const nccc_fn_info *info;
  uint64_t in[2] = {I(20), I(22)}, o[2];
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_pk_register(), NCCC_OK);
  ck_assert_int_eq(nccc_lookup("pk.add", &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_str_eq(info->signature, "ll:il");
  ck_assert_int_eq(info->n_in, 2);
  ck_assert_int_eq(info->n_out, 2);
  ck_assert_int_eq(nccc_call_checked(h, in, 2, o, 2), NCCC_OK);
  ck_assert_uint_eq(o[0], 0);
  ck_assert_uint_eq(o[1], 42);
  ck_assert_int_eq(nccc_call_checked(h, in, 1, o, 2), NCCC_ERR_NUM_ARGUMENTS);

  ck_assert_int_eq(nccc_lookup("pk.square_in", &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_str_eq(info->signature, "pl:il");
  ck_assert_int_eq(nccc_lookup("pk.nothing", &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_str_eq(info->signature, ":i");
  ck_assert_int_eq(nccc_lookup("pk.get_function", &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_str_eq(info->signature, "psi:ip");
}
END_TEST

START_TEST(generated_wrappers_registered_back) {
  nccc_handle h;
  TVMFunctionHandle f;
  TVMValue a[2], r;
  int c[2] = {kDLInt, kDLInt}, rc;
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_pk_register(), NCCC_OK);
  /* C -> adapter -> nccc wrapper pk.add -> "t.add" */
  ck_assert_int_eq(nccc_lookup("pk.add", &h), NCCC_OK);
  ck_assert_int_eq(
      nccc_packed_register_handle("again.add", h, NULL, NCCC_PACKED_STATUS),
      NCCC_OK);
  ck_assert_int_eq(TVMFuncGetGlobal("again.add", &f), 0);
  a[0].v_int64 = 40;
  a[1].v_int64 = 2;
  ck_assert_int_eq(TVMFuncCall(f, a, c, 2, &r, &rc), 0);
  ck_assert_int_eq(rc, kDLInt);
  ck_assert_int_eq(r.v_int64, 42);
  ck_assert_int_eq(fx.calls, 1);
  c[1] = kDLFloat;
  ck_assert_int_eq(TVMFuncCall(f, a, c, 2, &r, &rc),
                   kTvmErrorFunctionCallWrongArgType);
  ck_assert_int_eq(fx.calls, 1);
  /* an error of the innermost function comes back through both bridges */
  ck_assert_int_eq(nccc_lookup("pk.fail", &h), NCCC_OK);
  ck_assert_int_eq(
      nccc_packed_register_handle("again.fail", h, "i:i", NCCC_PACKED_STATUS),
      NCCC_OK);
  ck_assert_int_eq(TVMFuncGetGlobal("again.fail", &f), 0);
  a[0].v_int64 = kTvmErrorFunctionCallNotImplemented;
  ck_assert_int_eq(TVMFuncCall(f, a, c, 1, &r, &rc),
                   kTvmErrorFunctionCallNotImplemented);
  ck_assert_str_eq(TVMGetLastError(), "t.fail: asked");
  ck_assert_int_eq(fx.calls, 2);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("packed_forward");
  nccc_check_tcase(s, "values", fx_setup, NULL,
      NCCC_CHECK_TESTS(ints_go_as_kDLInt_and_come_back, floats_go_as_kDLFloat,
                       strings_go_as_kTVMStr_and_null_as_kTVMNullptr,
                       handles_bytes_and_tensors, bools_go_as_kTVMArgBool,
                       handle_kinds_have_their_codes,
                       narrow_and_unsigned_integers,
                       results_that_do_not_fit_are_refused, floats_that_fit,
                       wrong_result_type_codes_are_refused));
  nccc_check_tcase(s, "status", fx_setup, NULL,
                   NCCC_CHECK_TESTS(errors_of_the_packed_function_come_back,
                                    void_result_writes_only_the_status,
                                    absent_function_is_not_found));
  nccc_check_tcase(s, "lookup", fx_setup, NULL,
                   NCCC_CHECK_TESTS(globals_get_a_null_resource_handle,
                                    module_functions_by_handle,
                                    system_library_functions,
                                    builtin_module_get_function,
                                    names_are_looked_up_at_every_call,
                                    wrappers_are_in_the_registry,
                                    generated_wrappers_registered_back));
  return s;
}
