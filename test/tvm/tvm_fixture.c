/*
** tvm_fixture.c — the recording packed functions, their modules and the
** call helpers of tvm_fixture.h.
*/
#include <string.h>

#include <nccc/status.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/func_registry.h>

#include "tvm_fixture.h"
#include "nccc_check.h"

/* ---- packed functions that record how they were called -------------------- */

int calls;
void *last_resource;
int last_num_args;

int add(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
        int *ret_tcode, void *resource_handle) {
  calls++;
  last_resource = resource_handle;
  last_num_args = num_args;
  if (num_args != 2 || type_codes[0] != kTVMArgInt ||
      type_codes[1] != kTVMArgInt) {
    TVMAPISetLastError("add: expects two ints");
    return kTvmErrorFunctionCallWrongArgType;
  }
  ret[0].v_int64 = args[0].v_int64 + args[1].v_int64;
  ret_tcode[0] = kTVMArgInt;
  return 0;
}

int mul(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
        int *ret_tcode, void *resource_handle) {
  (void)type_codes;
  (void)num_args;
  calls++;
  last_resource = resource_handle;
  ret[0].v_int64 = args[0].v_int64 * args[1].v_int64;
  ret_tcode[0] = kTVMArgInt;
  return 0;
}

int seven(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
          int *ret_tcode, void *resource_handle) {
  (void)args; (void)type_codes; (void)ret; (void)ret_tcode;
  calls++;
  last_resource = resource_handle;
  last_num_args = num_args;
  return 7;
}

TVMFunctionHandle as_handle(TVMBackendPackedCFunc f) {
  TVMFunctionHandle h;
  memcpy(&h, &f, sizeof h);
  return h;
}

/* ---- modules ---------------------------------------------------------------- */

BLOB(names_a, 2, "add\0mul\0");
static const TVMBackendPackedCFunc funcs_a[] = {add, mul};
static const TVMFuncRegistry reg_a = {(const char *)&names_a, funcs_a};
const TVMModule mod_a = {&reg_a};

BLOB(names_b, 1, "seven\0");
static const TVMBackendPackedCFunc funcs_b[] = {seven};
static const TVMFuncRegistry reg_b = {(const char *)&names_b, funcs_b};
const TVMModule mod_b = {&reg_b};

/* ---- helpers ---------------------------------------------------------------- */

int call2(TVMFunctionHandle f, int64_t a, int64_t b, TVMValue *ret,
          int *tcode) {
  TVMValue args[2];
  int codes[2] = {kTVMArgInt, kTVMArgInt};
  args[0].v_int64 = a;
  args[1].v_int64 = b;
  ret->v_int64 = -12345;
  *tcode = -1;
  return TVMFuncCall(f, args, codes, 2, ret, tcode);
}

TVMFunctionHandle global(const char *name) {
  TVMFunctionHandle h = (TVMFunctionHandle)(uintptr_t)0xdead;
  ck_assert_int_eq(TVMFuncGetGlobal(name, &h), 0);
  return h;
}

void setup(void) {
  ck_assert_int_eq(TVMInitializeRuntime(), kTvmErrorNoError);
  calls = 0;
  last_resource = (void *)&calls;
  last_num_args = -1;
  nccc_clear_error();
}

