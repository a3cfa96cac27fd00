/*
** test_tvm_defaults.c — the TVM-compatible runtime before
** TVMInitializeRuntime, and with the runtime's own weak
** TVMSystemLibEntryPoint (this program defines none).
*/
#include <stdint.h>
#include <string.h>

#include <nccc/status.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/module.h>

#include "nccc_check.h"

static int noop(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
                int *ret_tcode, void *resource_handle) {
  (void)args; (void)type_codes; (void)num_args; (void)ret; (void)ret_tcode;
  (void)resource_handle;
  return 0;
}

/* Must run before anything initialises the runtime. */
START_TEST(everything_fails_before_initialisation) {
  TVMFunctionHandle f = (TVMFunctionHandle)(uintptr_t)0xdead;
  TVMModuleHandle m = (TVMModuleHandle)(uintptr_t)0xdead;
  TVMFuncRegistry reg = {NULL, NULL};
  TVMModule mod = {&reg};
  TVMValue ret;
  int tcode;
  TVMFunctionHandle h;
  TVMBackendPackedCFunc fn = noop;
  memcpy(&h, &fn, sizeof h);
  ck_assert_int_eq(TVMFuncGetGlobal("runtime.SystemLib", &f),
                   kTvmErrorNcccNotInitialized);
  ck_assert_uint_eq((uintptr_t)f, 0xdead);
  ck_assert_int_eq(TVMFuncRegisterGlobal("x", h, 0),
                   kTvmErrorNcccNotInitialized);
  ck_assert_int_eq(TVMFuncCall((TVMFunctionHandle)(uintptr_t)0x80028000u, NULL,
                               NULL, 0, &ret, &tcode),
                   kTvmErrorNcccNotInitialized);
  ck_assert_int_eq(TVMModCreateFromCModule(&mod, &m),
                   kTvmErrorNcccNotInitialized);
  ck_assert_uint_eq((uintptr_t)m, 0xdead);
  ck_assert_int_eq(TVMModGetFunction((TVMModuleHandle)(uintptr_t)0x8000u, "f",
                                     0, &f),
                   kTvmErrorNcccNotInitialized);
  ck_assert_int_eq(TVMModFree((TVMModuleHandle)(uintptr_t)0x8000u),
                   kTvmErrorNcccNotInitialized);
  ck_assert_ptr_nonnull(strstr(TVMGetLastError(), "TVMInitializeRuntime"));
}
END_TEST

START_TEST(weak_system_lib_entry_point) {
  TVMFunctionHandle f = NULL;
  TVMValue ret;
  int tcode = -1;
  ck_assert_int_eq(TVMInitializeRuntime(), kTvmErrorNoError);
  ck_assert_ptr_null(TVMSystemLibEntryPoint());
  ck_assert_int_eq(TVMFuncGetGlobal("runtime.SystemLib", &f), 0);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(TVMFuncCall(f, NULL, NULL, 0, &ret, &tcode), -1);
  ck_assert_int_eq(tcode, kTVMNullptr);
  ck_assert_ptr_nonnull(strstr(TVMGetLastError(), "TVMSystemLibEntryPoint"));
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("tvm_defaults");
  nccc_check_tcase(s, "defaults", NULL, NULL,
                   NCCC_CHECK_TESTS(everything_fails_before_initialisation,
                                    weak_system_lib_entry_point));
  return s;
}
