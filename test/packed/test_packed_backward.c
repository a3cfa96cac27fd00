/*
** test_packed_backward.c — nccc functions registered as global packed
** functions and called from C with TVMFuncGetGlobal + TVMFuncCall: right
** and wrong type codes and counts (the nccc function must not run on a
** mismatch), every code both ways, status-first functions, functions
** named by nccc handle, overrides, pool exhaustion, re-initialisation.
*/
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/func_registry.h>

#include "crt_config.h"
#include "tvm_internal.h"
#include "nccc_check.h"

/* ---- nccc functions ------------------------------------------------------------ */

static int calls;
static uint64_t seen[32];
static size_t record_n; /* slots record_all copies */

static void sum3(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = nccc_slot_from_i64((int64_t)nccc_slot_to_i32(in[0]) +
                              nccc_slot_to_i32(in[1]) +
                              nccc_slot_to_i32(in[2]));
}

/* Records its record_n in slots. */
static void record_all(const uint64_t *in, uint64_t *out) {
  calls++;
  memcpy(seen, in, record_n * sizeof in[0]);
  out[0] = 0;
}

static void echo(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = in[0];
}

static void plus1(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = in[0] + 1;
}

static void plus2(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = in[0] + 2;
}

static void nop(const uint64_t *in, uint64_t *out) {
  (void)in;
  (void)out;
  calls++;
}

/* Status first: doubles a non-negative int64, fails on a negative one
** (with its own message when the argument is -2). */
static void twice(const uint64_t *in, uint64_t *out) {
  int64_t x = nccc_slot_to_i64(in[0]);
  calls++;
  if (x < 0) {
    if (x == -2) nccc_fail(NCCC_ERR_INVALID_ARG, "twice", "negative");
    out[0] = nccc_slot_from_i32(NCCC_ERR_INVALID_ARG);
    return;
  }
  out[0] = 0;
  out[1] = nccc_slot_from_i64(2 * x);
}

/* A host's one dispatcher: in[0] = env picks the procedure (1 adds its
** two arguments, 2 negates its one), the arguments follow. */
static uint64_t last_env;
static void dispatcher(const uint64_t *in, uint64_t *out) {
  calls++;
  last_env = in[0];
  if (in[0] == 1) {
    out[0] = nccc_slot_from_i64(nccc_slot_to_i64(in[1]) +
                                nccc_slot_to_i64(in[2]));
  } else {
    out[0] = nccc_slot_from_double(-nccc_slot_to_double(in[1]));
  }
}

/* A packed function written in C, for the foreign override. */
static int c_func(TVMValue *args, int *codes, int n, TVMValue *ret,
                  int *ret_code, void *resource) {
  (void)args;
  (void)codes;
  (void)n;
  (void)resource;
  ret->v_int64 = 7;
  *ret_code = kDLInt;
  return 0;
}

/* ---- helpers -------------------------------------------------------------------- */

static TVMValue args[20], ret;
static int codes[20], ret_code;

/* TVMFuncGetGlobal + TVMFuncCall with args/codes. */
static int call(const char *name, int n) {
  TVMFunctionHandle f = NULL;
  ck_assert_int_eq(TVMFuncGetGlobal(name, &f), 0);
  ck_assert_msg(f != NULL, "%s is not registered", name);
  ret.v_int64 = 0x5a5a;
  ret_code = 0x5a5a;
  return TVMFuncCall(f, args, codes, n, &ret, &ret_code);
}

static void set_int(int i, int64_t v) {
  args[i].v_int64 = v;
  codes[i] = kDLInt;
}

static void setup(void) {
  TVMInitializeRuntime();
  nccc_clear_error();
  calls = 0;
  memset(seen, 0, sizeof seen);
  memset(args, 0, sizeof args);
}

#define CAP ((unsigned)NCCC_PACKED_MAX_ADAPTERS)

/* ---- calls -------------------------------------------------------------------- */

START_TEST(register_and_call) {
  ck_assert_int_eq(nccc_packed_register("b.sum3", sum3, "iii:l", 0), NCCC_OK);
  ck_assert_uint_eq(nccc_packed_available(), CAP - 1);
  set_int(0, 1);
  set_int(1, 20);
  set_int(2, -300);
  ck_assert_int_eq(call("b.sum3", 3), 0);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(ret_code, kDLInt);
  ck_assert_int_eq(ret.v_int64, -279);
}
END_TEST

START_TEST(wrong_counts_are_refused_before_the_call) {
  ck_assert_int_eq(nccc_packed_register("b.sum3", sum3, "iii:l", 0), NCCC_OK);
  set_int(0, 1);
  set_int(1, 2);
  set_int(2, 3);
  set_int(3, 4);
  ck_assert_int_eq(call("b.sum3", 2), kTvmErrorFunctionCallNumArguments);
  ck_assert_str_eq(TVMGetLastError(), "b.sum3: expects 3 arguments, got 2");
  ck_assert_int_eq(call("b.sum3", 4), kTvmErrorFunctionCallNumArguments);
  ck_assert_int_eq(call("b.sum3", 0), kTvmErrorFunctionCallNumArguments);
  ck_assert_int_eq(calls, 0);
  ck_assert_int_eq(ret_code, kTVMNullptr); /* TVMFuncCall's preset */
}
END_TEST

START_TEST(wrong_type_codes_are_refused_before_the_call) {
  static const int wrong[] = {kDLFloat, kTVMOpaqueHandle, kTVMNullptr,
                              kTVMStr, kTVMBytes, kTVMDataType, kDLDevice,
                              kTVMModuleHandle, kTVMPackedFuncHandle,
                              kTVMDLTensorHandle, 99, -1};
  size_t k;
  int i;
  ck_assert_int_eq(nccc_packed_register("b.sum3", sum3, "iii:l", 0), NCCC_OK);
  for (i = 0; i < 3; i++) {
    for (k = 0; k < sizeof wrong / sizeof wrong[0]; k++) {
      set_int(0, 1);
      set_int(1, 2);
      set_int(2, 3);
      codes[i] = wrong[k];
      ck_assert_int_eq(call("b.sum3", 3), kTvmErrorFunctionCallWrongArgType);
    }
  }
  ck_assert_int_eq(calls, 0);
  set_int(0, 1);
  set_int(2, 3);
  args[1].v_str = "2";
  codes[1] = kTVMStr;
  ck_assert_int_eq(call("b.sum3", 3), kTvmErrorFunctionCallWrongArgType);
  ck_assert_str_eq(TVMGetLastError(), "b.sum3: args[1]: expected int32, got str");
  codes[1] = 99;
  ck_assert_int_eq(call("b.sum3", 3), kTvmErrorFunctionCallWrongArgType);
  ck_assert_str_eq(TVMGetLastError(),
                   "b.sum3: args[1]: expected int32, got type code 99");
  ck_assert_int_eq(calls, 0);
}
END_TEST

START_TEST(values_that_do_not_fit_are_refused_before_the_call) {
  ck_assert_int_eq(nccc_packed_register("b.sum3", sum3, "iii:l", 0), NCCC_OK);
  set_int(0, 1);
  set_int(1, 2);
  set_int(2, (int64_t)1 << 40);
  ck_assert_int_eq(call("b.sum3", 3), kTvmErrorFunctionCallInvalidArg);
  ck_assert_str_eq(TVMGetLastError(),
                   "b.sum3: args[2]: value out of range for int32");
  set_int(2, (int64_t)INT32_MIN - 1);
  ck_assert_int_eq(call("b.sum3", 3), kTvmErrorFunctionCallInvalidArg);
  /* kDLUInt: v_int64 holds an unsigned value */
  args[2].v_int64 = (int64_t)0xffffffffu;
  codes[2] = kDLUInt;
  ck_assert_int_eq(call("b.sum3", 3), kTvmErrorFunctionCallInvalidArg);
  args[2].v_int64 = -1; /* UINT64_MAX */
  ck_assert_int_eq(call("b.sum3", 3), kTvmErrorFunctionCallInvalidArg);
  ck_assert_int_eq(calls, 0);
  /* in range, kDLUInt and kTVMArgBool are integers too */
  args[2].v_int64 = 5;
  ck_assert_int_eq(call("b.sum3", 3), 0);
  ck_assert_int_eq(ret.v_int64, 8);
  codes[2] = kTVMArgBool;
  args[2].v_int64 = 1;
  ck_assert_int_eq(call("b.sum3", 3), 0);
  ck_assert_int_eq(ret.v_int64, 4);
  set_int(2, INT32_MIN);
  ck_assert_int_eq(call("b.sum3", 3), 0);
  ck_assert_int_eq(ret.v_int64, (int64_t)INT32_MIN + 3);
  ck_assert_int_eq(calls, 3);
}
END_TEST

/* ---- every code -------------------------------------------------------------------- */

/* The codes, in two registrations (more than NCCC_PACKED_MAX_ARGS
** together). */
#define NUM_CODES "?bBhHiIlLfd"
#define PTR_CODES "psymkt"

START_TEST(every_argument_code) {
  int x = 0, i;
  DLTensor t;
  void *mod = (void *)(uintptr_t)0x8000, *fn = (void *)(uintptr_t)0x80028000u;
  TVMByteArray b = {"ab", 2};
  ck_assert_int_eq(nccc_packed_register("b.nums", record_all, NUM_CODES ":", 0),
                   NCCC_OK);
  ck_assert_int_eq(nccc_packed_register("b.ptrs", record_all, PTR_CODES ":", 0),
                   NCCC_OK);
  record_n = 11;
  codes[0] = kTVMArgBool;
  args[0].v_int64 = 1;
  set_int(1, -1);
  set_int(2, 255);
  set_int(3, -2);
  set_int(4, 65535);
  set_int(5, INT32_MIN);
  set_int(6, UINT32_MAX);
  set_int(7, INT64_MIN);
  set_int(8, -1);
  codes[9] = kDLFloat;
  args[9].v_float64 = 0.5;
  set_int(10, 3); /* an int for a double: converted, as in TVM */
  ck_assert_int_eq(call("b.nums", 11), 0);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(ret_code, kTVMNullptr);
  ck_assert_uint_eq(seen[0], 1);
  ck_assert_uint_eq(seen[1], UINT64_MAX);
  ck_assert_uint_eq(seen[2], 255);
  ck_assert_uint_eq(seen[3], nccc_slot_from_i16(-2));
  ck_assert_uint_eq(seen[4], 65535);
  ck_assert_uint_eq(seen[5], nccc_slot_from_i32(INT32_MIN));
  ck_assert_uint_eq(seen[6], UINT32_MAX);
  ck_assert_uint_eq(seen[7], nccc_slot_from_i64(INT64_MIN));
  ck_assert_uint_eq(seen[8], UINT64_MAX);
  ck_assert_uint_eq(seen[9], nccc_slot_from_float(0.5f));
  ck_assert_uint_eq(seen[10], nccc_slot_from_double(3.0));

  record_n = 6;
  codes[0] = kTVMOpaqueHandle;
  args[0].v_handle = &x;
  codes[1] = kTVMStr;
  args[1].v_str = "s";
  codes[2] = kTVMBytes;
  args[2].v_handle = &b;
  codes[3] = kTVMModuleHandle;
  args[3].v_handle = mod;
  codes[4] = kTVMPackedFuncHandle;
  args[4].v_handle = fn;
  codes[5] = kTVMNDArrayHandle; /* as good as a DLTensor * */
  args[5].v_handle = &t;
  ck_assert_int_eq(call("b.ptrs", 6), 0);
  ck_assert_uint_eq(seen[0], nccc_slot_from_ptr(&x));
  ck_assert_str_eq(nccc_slot_to_ptr(seen[1]), "s");
  ck_assert_uint_eq(seen[2], nccc_slot_from_ptr(&b));
  ck_assert_uint_eq(seen[3], nccc_slot_from_ptr(mod));
  ck_assert_uint_eq(seen[4], nccc_slot_from_ptr(fn));
  ck_assert_uint_eq(seen[5], nccc_slot_from_ptr(&t));
  /* every pointer code takes a null; its value is not read */
  for (i = 0; i < 6; i++) {
    codes[i] = kTVMNullptr;
    args[i].v_handle = (void *)&t;
  }
  ck_assert_int_eq(call("b.ptrs", 6), 0);
  for (i = 0; i < 6; i++) ck_assert_uint_eq(seen[i], 0);
  codes[5] = kTVMDLTensorHandle;
  ck_assert_int_eq(call("b.ptrs", 6), 0);
  ck_assert_uint_eq(seen[5], nccc_slot_from_ptr(&t));
  ck_assert_int_eq(calls, 4);
}
END_TEST

START_TEST(every_argument_code_refuses_the_others) {
  /* for each position, one code a TVM caller could plausibly send */
  static const int wrong[17] = {
      kDLFloat, kTVMStr, kDLFloat, kTVMStr, kTVMOpaqueHandle, kDLFloat,
      kTVMNullptr, kTVMStr, kDLFloat, kTVMStr, kTVMOpaqueHandle, kTVMStr,
      kTVMBytes, kTVMStr, kTVMPackedFuncHandle, kTVMModuleHandle,
      kTVMOpaqueHandle};
  static const int right[17] = {
      kTVMArgBool, kDLInt, kDLInt, kDLInt, kDLInt, kDLInt, kDLInt, kDLInt,
      kDLInt, kDLFloat, kDLFloat, kTVMOpaqueHandle, kTVMStr, kTVMBytes,
      kTVMModuleHandle, kTVMPackedFuncHandle, kTVMDLTensorHandle};
  int i;
  ck_assert_int_eq(nccc_packed_register("b.nums", record_all, NUM_CODES ":", 0),
                   NCCC_OK);
  ck_assert_int_eq(nccc_packed_register("b.ptrs", record_all, PTR_CODES ":", 0),
                   NCCC_OK);
  record_n = 0;
  memcpy(codes, right, 11 * sizeof codes[0]);
  ck_assert_int_eq(call("b.nums", 11), 0);
  memcpy(codes, right + 11, 6 * sizeof codes[0]);
  ck_assert_int_eq(call("b.ptrs", 6), 0);
  for (i = 0; i < 17; i++) {
    const char *name = i < 11 ? "b.nums" : "b.ptrs";
    int base = i < 11 ? 0 : 11, n = i < 11 ? 11 : 6;
    memcpy(codes, right + base, (size_t)n * sizeof codes[0]);
    codes[i - base] = wrong[i];
    ck_assert_msg(call(name, n) == kTvmErrorFunctionCallWrongArgType,
                  "position %d accepts code %d", i, wrong[i]);
  }
  ck_assert_int_eq(calls, 2);
}
END_TEST

/* One result code: echo registered as "X:X", called with value v of
** type code tc; checks the returned code and bits. */
static void result_case(char x, int tc, TVMValue v, int want_code,
                        int64_t want_bits) {
  char psig[4] = {x, ':', x, '\0'};
  ck_assert_int_eq(
      nccc_packed_register("b.echo", echo, psig, NCCC_PACKED_OVERRIDE),
      NCCC_OK);
  args[0] = v;
  codes[0] = tc;
  ck_assert_int_eq(call("b.echo", 1), 0);
  ck_assert_msg(ret_code == want_code, "%s: code %d", psig, ret_code);
  ck_assert_msg(ret.v_int64 == want_bits, "%s: value %lld", psig,
                (long long)ret.v_int64);
}

START_TEST(every_result_code) {
  TVMValue v;
  int x;
  DLTensor t;
  TVMByteArray b = {"ab", 2};
  v.v_int64 = 1;
  result_case('?', kTVMArgBool, v, kTVMArgBool, 1);
  v.v_int64 = -5;
  result_case('b', kDLInt, v, kDLInt, -5);
  result_case('h', kDLInt, v, kDLInt, -5);
  result_case('i', kDLInt, v, kDLInt, -5);
  result_case('l', kDLInt, v, kDLInt, -5);
  v.v_int64 = 200;
  result_case('B', kDLInt, v, kDLInt, 200);
  result_case('H', kDLInt, v, kDLInt, 200);
  result_case('I', kDLInt, v, kDLInt, 200);
  v.v_int64 = -1; /* uint64 max, as bits */
  result_case('L', kDLInt, v, kDLInt, -1);
  v.v_float64 = 0.25;
  result_case('f', kDLFloat, v, kDLFloat, nccc_slot_to_i64(
      nccc_slot_from_double(0.25)));
  result_case('d', kDLFloat, v, kDLFloat, nccc_slot_to_i64(
      nccc_slot_from_double(0.25)));
  v.v_handle = &x;
  result_case('p', kTVMOpaqueHandle, v, kTVMOpaqueHandle,
              (int64_t)(intptr_t)&x);
  v.v_str = "s";
  result_case('s', kTVMStr, v, kTVMStr, (int64_t)(intptr_t)v.v_str);
  v.v_handle = &b;
  result_case('y', kTVMBytes, v, kTVMBytes, (int64_t)(intptr_t)&b);
  v.v_handle = (void *)(uintptr_t)0x8000;
  result_case('m', kTVMModuleHandle, v, kTVMModuleHandle, 0x8000);
  v.v_handle = (void *)(uintptr_t)0x80028000u;
  result_case('k', kTVMPackedFuncHandle, v, kTVMPackedFuncHandle,
              0x80028000);
  v.v_handle = &t;
  result_case('t', kTVMDLTensorHandle, v, kTVMDLTensorHandle,
              (int64_t)(intptr_t)&t);
  /* a null pointer result is kTVMNullptr, whatever its code */
  v.v_handle = NULL;
  result_case('t', kTVMNullptr, v, kTVMNullptr, 0);
  result_case('s', kTVMNullptr, v, kTVMNullptr, 0);
  /* overriding one name each time kept one adapter */
  ck_assert_uint_eq(nccc_packed_available(), CAP - 1);
}
END_TEST

START_TEST(no_result_is_null) {
  ck_assert_int_eq(nccc_packed_register("b.nop", nop, ":", 0), NCCC_OK);
  ck_assert_int_eq(call("b.nop", 0), 0);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(ret_code, kTVMNullptr);
  ck_assert_ptr_null(ret.v_handle);
}
END_TEST

START_TEST(adapters_called_directly) {
  TVMFunctionHandle f;
  tvm_function_index_t index;
  TVMBackendPackedCFunc fn;
  const TVMFuncRegistry *reg;
  int tc = kDLInt;
  TVMValue a = {.v_int64 = 4}, r;
  int rc;
  ck_assert_int_eq(nccc_packed_register("b.p1", plus1, "l:l", 0), NCCC_OK);
  /* the registered function is a TVMBackendPackedCFunc like any other */
  reg = nccci_tvm_global_registry();
  ck_assert_int_eq(TVMFuncRegistry_Lookup(reg, "b.p1", &index), 0);
  ck_assert_int_eq(TVMFuncRegistry_GetByIndex(reg, index, &fn), 0);
  ck_assert_int_eq(fn(&a, &tc, 1, &r, &rc, (void *)&a), 0);
  ck_assert_int_eq(r.v_int64, 5);
  ck_assert_int_eq(rc, kDLInt);
  ck_assert_int_eq(fn(&a, &tc, 1, NULL, &rc, NULL), kTvmErrorNcccNullPointer);
  ck_assert_int_eq(fn(NULL, NULL, 1, &r, &rc, NULL), kTvmErrorNcccNullPointer);
  ck_assert_int_eq(calls, 1);
  /* after re-initialisation the adapter is free: a stale pointer to it
  ** is refused, the nccc function does not run */
  TVMInitializeRuntime();
  ck_assert_int_eq(fn(&a, &tc, 1, &r, &rc, NULL),
                   kTvmErrorFunctionCallNotImplemented);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(TVMFuncGetGlobal("b.p1", &f), 0);
  ck_assert_ptr_null(f);
}
END_TEST

/* ---- status-first functions ---------------------------------------------------- */

START_TEST(status_first_functions) {
  ck_assert_int_eq(
      nccc_packed_register("b.twice", twice, "l:l", NCCC_PACKED_STATUS),
      NCCC_OK);
  set_int(0, 21);
  ck_assert_int_eq(call("b.twice", 1), 0);
  ck_assert_int_eq(ret_code, kDLInt);
  ck_assert_int_eq(ret.v_int64, 42);
  /* a failure without a message gets one */
  set_int(0, -1);
  ck_assert_int_eq(call("b.twice", 1), kTvmErrorFunctionCallInvalidArg);
  ck_assert_str_eq(TVMGetLastError(), "b.twice: failed");
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_INVALID_ARG);
  /* one with its own keeps it */
  set_int(0, -2);
  ck_assert_int_eq(call("b.twice", 1), kTvmErrorFunctionCallInvalidArg);
  ck_assert_str_eq(TVMGetLastError(), "twice: negative");
  ck_assert_int_eq(calls, 3);
}
END_TEST

START_TEST(a_dispatcher_gets_env_first) {
  ck_assert_int_eq(nccc_packed_register_env("h.add", dispatcher, 1, "ll:l", 0),
                   NCCC_OK);
  ck_assert_int_eq(nccc_packed_register_env("h.neg", dispatcher, 2, "d:d", 0),
                   NCCC_OK);
  set_int(0, 40);
  set_int(1, 2);
  ck_assert_int_eq(call("h.add", 2), 0);
  ck_assert_uint_eq(last_env, 1);
  ck_assert_int_eq(ret.v_int64, 42);
  codes[0] = kDLFloat;
  args[0].v_float64 = 1.25;
  ck_assert_int_eq(call("h.neg", 1), 0);
  ck_assert_uint_eq(last_env, 2);
  ck_assert_int_eq(ret_code, kDLFloat);
  ck_assert(ret.v_float64 == -1.25);
  /* checked like any other: a wrong code never reaches the dispatcher */
  codes[0] = kTVMStr;
  ck_assert_int_eq(call("h.neg", 1), kTvmErrorFunctionCallWrongArgType);
  ck_assert_int_eq(call("h.add", 1), kTvmErrorFunctionCallNumArguments);
  ck_assert_int_eq(calls, 2);
  ck_assert_int_eq(nccc_packed_register_env("h.x", NULL, 1, "l:l", 0),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(nccc_packed_available(), CAP - 2);
}
END_TEST

/* ---- registration ---------------------------------------------------------------- */

START_TEST(registration_errors_take_no_adapter) {
  static const char *bad[] = {"", "l", "x:l", "l:ll", "l:x", "l:e",
                              "{p:1}:", "l*:", ":p:", "F:", "e:", NULL};
  char many[NCCC_PACKED_MAX_ARGS + 3];
  size_t i;
  /* one argument too many */
  memset(many, 'l', NCCC_PACKED_MAX_ARGS + 1);
  strcpy(many + NCCC_PACKED_MAX_ARGS + 1, ":");
  bad[sizeof bad / sizeof bad[0] - 1] = many;
  ck_assert_int_eq(nccc_packed_register(NULL, echo, "l:l", 0),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_packed_register("b.x", NULL, "l:l", 0),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_packed_register("b.x", echo, NULL, 0),
                   NCCC_ERR_NULL_POINTER);
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ck_assert_msg(nccc_packed_register("b.x", echo, bad[i], 0) ==
                      NCCC_ERR_BAD_SIGNATURE, "accepted %s", bad[i]);
    ck_assert_int_eq(nccc_packed_check_signature(bad[i]),
                     NCCC_ERR_BAD_SIGNATURE);
  }
  ck_assert_int_eq(nccc_packed_check_signature(NUM_CODES ":t"), NCCC_OK);
  ck_assert_int_eq(nccc_packed_check_signature(PTR_CODES ":?"), NCCC_OK);
  ck_assert_int_eq(nccc_packed_check_signature(NULL), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_packed_register("b.x", echo, "l:l", 4),
                   NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_packed_register("", echo, "l:l", 0),
                   (nccc_status)kTvmErrorNcccBadName);
  ck_assert_uint_eq(nccc_packed_available(), CAP);
  ck_assert_int_eq(nccc_packed_register("b.x", echo, "l:l", 0), NCCC_OK);
  ck_assert_int_eq(nccc_packed_register("b.x", echo, "l:l", 0),
                   (nccc_status)kTvmErrorFunctionAlreadyDefined);
  ck_assert_int_eq(nccc_packed_register("runtime.SystemLib", echo, "l:l", 0),
                   (nccc_status)kTvmErrorFunctionAlreadyDefined);
  ck_assert_uint_eq(nccc_packed_available(), CAP - 1);
}
END_TEST

START_TEST(override_rebinds_and_frees_the_old_adapter) {
  ck_assert_int_eq(nccc_packed_register("b.x", plus1, "l:l", 0), NCCC_OK);
  set_int(0, 10);
  ck_assert_int_eq(call("b.x", 1), 0);
  ck_assert_int_eq(ret.v_int64, 11);
  ck_assert_int_eq(
      nccc_packed_register("b.x", plus2, "l:l", NCCC_PACKED_OVERRIDE),
      NCCC_OK);
  ck_assert_uint_eq(nccc_packed_available(), CAP - 1);
  ck_assert_int_eq(call("b.x", 1), 0);
  ck_assert_int_eq(ret.v_int64, 12);
  /* overridden by a C function: the adapter is free */
  {
    TVMBackendPackedCFunc cf = c_func;
    void *as_handle;
    memcpy(&as_handle, &cf, sizeof as_handle);
    ck_assert_int_eq(TVMFuncRegisterGlobal("b.x", as_handle, 1), 0);
  }
  ck_assert_uint_eq(nccc_packed_available(), CAP);
  ck_assert_int_eq(call("b.x", 1), 0);
  ck_assert_int_eq(ret.v_int64, 7);
  ck_assert_int_eq(calls, 2);
}
END_TEST

START_TEST(pool_exhaustion_and_reinitialisation) {
  char name[8];
  unsigned k;
  ck_assert_uint_eq(nccc_packed_capacity(), CAP);
  for (k = 0; k < CAP; k++) {
    name[0] = 'a';
    name[1] = (char)('a' + k / 26);
    name[2] = (char)('a' + k % 26);
    name[3] = '\0';
    ck_assert_int_eq(nccc_packed_register(name, k % 2 ? plus2 : plus1,
                                          k % 2 ? "i:i" : "l:l", 0),
                     NCCC_OK);
  }
  ck_assert_uint_eq(nccc_packed_available(), 0);
  ck_assert_int_eq(nccc_packed_register("zz", echo, "l:l", 0),
                   NCCC_ERR_POOL_EXHAUSTED);
  ck_assert_str_eq(nccc_last_error(),
                   "packed adapter pool full: every one of the "
                   "NCCC_PACKED_MAX_ADAPTERS adapters is in use: zz");
  {
    TVMFunctionHandle f;
    ck_assert_int_eq(TVMFuncGetGlobal("zz", &f), 0);
    ck_assert_ptr_null(f);
  }
  /* each adapter calls its own function with its own signature */
  for (k = 0; k < CAP; k++) {
    name[1] = (char)('a' + k / 26);
    name[2] = (char)('a' + k % 26);
    set_int(0, 100 * (int64_t)k);
    ck_assert_int_eq(call(name, 1), 0);
    ck_assert_int_eq(ret.v_int64, 100 * (int64_t)k + (k % 2 ? 2 : 1));
    set_int(0, (int64_t)1 << 40);
    ck_assert_int_eq(call(name, 1), k % 2 ? kTvmErrorFunctionCallInvalidArg
                                          : 0);
  }
  /* re-initialisation frees them all */
  TVMInitializeRuntime();
  ck_assert_uint_eq(nccc_packed_available(), CAP);
  ck_assert_int_eq(nccc_packed_register("zz", echo, "l:l", 0), NCCC_OK);
  set_int(0, 3);
  ck_assert_int_eq(call("zz", 1), 0);
  ck_assert_int_eq(ret.v_int64, 3);
}
END_TEST

/* ---- functions named by nccc handle ------------------------------------------ */

START_TEST(register_by_handle) {
  nccc_handle h;
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_lookup("nccc.strlen", &h), NCCC_OK); /* p:iL */
  ck_assert_int_eq(
      nccc_packed_register_handle("b.strlen", h, "s:L", NCCC_PACKED_STATUS),
      NCCC_OK);
  args[0].v_str = "hello";
  codes[0] = kTVMStr;
  ck_assert_int_eq(call("b.strlen", 1), 0);
  ck_assert_int_eq(ret_code, kDLInt);
  ck_assert_int_eq(ret.v_int64, 5);
  /* the built-in's own status and message come back */
  codes[0] = kTVMNullptr;
  ck_assert_int_eq(call("b.strlen", 1), kTvmErrorNcccNullPointer);
  ck_assert_str_eq(TVMGetLastError(), "strlen: NULL address");
  /* derived from the registry signature: the argument is a handle */
  ck_assert_int_eq(
      nccc_packed_register_handle("b.strlen2", h, NULL, NCCC_PACKED_STATUS),
      NCCC_OK);
  args[0].v_handle = (void *)(uintptr_t)"four";
  codes[0] = kTVMOpaqueHandle;
  ck_assert_int_eq(call("b.strlen2", 1), 0);
  ck_assert_int_eq(ret.v_int64, 4);
  codes[0] = kTVMStr;
  ck_assert_int_eq(call("b.strlen2", 1), kTvmErrorFunctionCallWrongArgType);
}
END_TEST

START_TEST(register_by_handle_errors) {
  nccc_handle h, b;
  unsigned avail;
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_lookup("nccc.strlen", &h), NCCC_OK);
  ck_assert_int_eq(nccc_lookup("nccc.builtin", &b), NCCC_OK); /* I:ipss */
  avail = nccc_packed_available();
  /* without NCCC_PACKED_STATUS, p:iL has two results */
  ck_assert_int_eq(nccc_packed_register_handle("b.y", h, NULL, 0),
                   NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(
      nccc_packed_register_handle("b.y", h, "l:L", NCCC_PACKED_STATUS),
      NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(
      nccc_packed_register_handle("b.y", h, "s:l", NCCC_PACKED_STATUS),
      NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(
      nccc_packed_register_handle("b.y", h, "ss:L", NCCC_PACKED_STATUS),
      NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(
      nccc_packed_register_handle("b.y", b, NULL, NCCC_PACKED_STATUS),
      NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(nccc_packed_register_handle("b.y", 0x1234, NULL, 0),
                   NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_packed_register_handle(NULL, h, NULL, 0),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(nccc_packed_available(), avail);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("packed_backward");
  nccc_check_tcase(s, "calls", setup, NULL,
      NCCC_CHECK_TESTS(register_and_call,
                       wrong_counts_are_refused_before_the_call,
                       wrong_type_codes_are_refused_before_the_call,
                       values_that_do_not_fit_are_refused_before_the_call,
                       every_argument_code,
                       every_argument_code_refuses_the_others,
                       every_result_code, no_result_is_null,
                       adapters_called_directly, status_first_functions,
                       a_dispatcher_gets_env_first));
  nccc_check_tcase(s, "registration", setup, NULL,
                   NCCC_CHECK_TESTS(registration_errors_take_no_adapter,
                                    override_rebinds_and_frees_the_old_adapter,
                                    pool_exhaustion_and_reinitialisation,
                                    register_by_handle,
                                    register_by_handle_errors));
  return s;
}
