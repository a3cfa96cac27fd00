/*
** test_packed_dynamic.c — the nccc module "tvm": what a host without
** generated code uses to find, call and register packed functions, with
** the type codes in the slot buffers.
*/
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>

#include "fixture.h"
#include "nccc_check.h"

#define P(x) nccc_slot_from_ptr(x)
#define I(x) nccc_slot_from_i64(x)
#define D(x) nccc_slot_from_double(x)

static uint64_t out[4];

/* Calls tvm.NAME with the given in slots through nccc_call_checked; the
** buffers must fit its signature. */
#define TVM(name, n_out, ...)                                             \
  do {                                                                    \
    const uint64_t in_[] = {__VA_ARGS__};                                 \
    tvm_call(name, in_, sizeof in_ / sizeof in_[0], n_out);               \
  } while (0)

static void tvm_call(const char *name, const uint64_t *in, size_t n_in,
                     size_t n_out) {
  char full[64] = "tvm.";
  nccc_handle h;
  strcat(full, name);
  ck_assert_int_eq(nccc_lookup(full, &h), NCCC_OK);
  out[0] = out[1] = out[2] = out[3] = 0x5a5a;
  ck_assert_int_eq(nccc_call_checked(h, in, n_in, out, n_out), NCCC_OK);
}

#define STATUS() ((int)nccc_slot_to_i32(out[0]))

static void *global(const char *name) {
  TVM("get_global", 2, P(name));
  ck_assert_int_eq(STATUS(), 0);
  return nccc_slot_to_ptr(out[1]);
}

static int host_calls;

static void setup(void) {
  host_calls = 0;
  fx_setup();
  nccc_check_init(NULL);
  ck_assert_int_eq(nccc_tvm_module_add(NULL), NCCC_OK);
}

/* ---- the module ---------------------------------------------------------------- */

START_TEST(module_functions_and_signatures) {
  static const char *const fns[][2] = {
      {"get_global", "s:ip"},      {"module_function", "ps:ip"},
      {"system_lib", ":ip"},       {"call_packed", "pi*:iiL"},
      {"call_global", "si*:iiL"},  {"register", "sFsI:i"},
      {"register_env", "sFLsI:i"}, {"register_handle", "sIsI:i"},
      {"adapters", ":iII"},
      {"set_last_error", "s:i"}};
  size_t i;
  uint16_t index;
  ck_assert_int_eq(nccc_module_find("tvm", &index), NCCC_OK);
  ck_assert_int_eq(nccc_registry_count(nccc_module_at(index)->registry),
                   sizeof fns / sizeof fns[0]);
  for (i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    char full[64] = "tvm.";
    nccc_handle h;
    const nccc_fn_info *info;
    strcat(full, fns[i][0]);
    ck_assert_int_eq(nccc_lookup(full, &h), NCCC_OK);
    ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
    ck_assert_str_eq(info->signature, fns[i][1]);
  }
  ck_assert_int_eq(nccc_tvm_module_add(NULL), NCCC_ERR_ALREADY_DEFINED);
}
END_TEST

/* ---- calls ---------------------------------------------------------------------- */

START_TEST(call_by_handle) {
  void *f = global("t.add");
  ck_assert_ptr_nonnull(f);
  TVM("call_packed", 3, P(f), 2, kDLInt, I(40), kDLInt, I(2));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_uint_eq(out[1], kDLInt);
  ck_assert_uint_eq(out[2], 42);
  ck_assert_int_eq(fx.codes[0], kDLInt);
  ck_assert_int_eq(fx.codes[1], kDLInt);
  ck_assert_ptr_null(fx.resource);
}
END_TEST

START_TEST(absent_global) {
  TVM("get_global", 2, P("t.absent"));
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionNameNotFound);
  ck_assert_uint_eq(out[1], 0);
  TVM("call_global", 3, P("t.absent"), 0);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionNameNotFound);
  ck_assert_uint_eq(out[1], kTVMNullptr);
  ck_assert_uint_eq(out[2], 0);
  ck_assert_int_eq(fx.calls, 0);
}
END_TEST

START_TEST(floats_strings_bytes) {
  const char *s;
  TVM("call_global", 3, P("t.scale"), 2, kDLFloat, D(1.5), kDLFloat, D(-2.0));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_uint_eq(out[1], kDLFloat);
  ck_assert_uint_eq(out[2], D(-3.0));
  TVM("call_global", 3, P("t.greet"), 1, kTVMStr, P("host"));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_uint_eq(out[1], kTVMStr);
  s = nccc_slot_to_ptr(out[2]);
  ck_assert_str_eq(s, "hello, host");
  TVM("call_global", 3, P("t.greet"), 1, kTVMNullptr, 12345);
  ck_assert_int_eq(fx.codes[0], kTVMNullptr);
  ck_assert_ptr_null(fx.args[0].v_handle); /* the value slot is not sent */
  ck_assert_str_eq(nccc_slot_to_ptr(out[2]), "hello, nobody");
  TVM("call_global", 3, P("t.len"), 1, kTVMBytes, P(&fx_bytes));
  ck_assert_uint_eq(out[2], 7);
  TVM("call_global", 3, P("t.bytes"), 0);
  ck_assert_uint_eq(out[1], kTVMBytes);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[2]), &fx_bytes);
  TVM("call_global", 3, P("t.negate"), 1, kTVMArgBool, 0);
  ck_assert_uint_eq(out[1], kTVMArgBool);
  ck_assert_uint_eq(out[2], 1);
}
END_TEST

START_TEST(data_types_and_devices_travel_as_bytes) {
  DLDataType dt = {kDLFloat, 32, 4};
  DLDevice dev = {kDLCPU, 3};
  uint64_t dt_slot, dev_slot;
  DLDataType back;
  nccc_slots_from_bytes(&dt_slot, &dt, sizeof dt);
  nccc_slots_from_bytes(&dev_slot, &dev, sizeof dev);
  TVM("call_global", 3, P("t.dtype"), 2, kTVMDataType, dt_slot, kDLDevice,
      dev_slot);
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_int_eq(fx.args[0].v_type.code, kDLFloat);
  ck_assert_int_eq(fx.args[0].v_type.bits, 32);
  ck_assert_int_eq(fx.args[0].v_type.lanes, 4);
  ck_assert_int_eq(fx.args[1].v_device.device_type, kDLCPU);
  ck_assert_int_eq(fx.args[1].v_device.device_id, 3);
  ck_assert_uint_eq(out[1], kTVMDataType);
  nccc_slots_to_bytes(&back, &out[2], sizeof back);
  ck_assert_int_eq(back.code, kDLFloat);
  ck_assert_int_eq(back.bits, 64);
  ck_assert_int_eq(back.lanes, 4);
  /* every bit of the slot is defined: the bytes after the value are 0 */
  if (sizeof back < sizeof(uint64_t)) {
    uint64_t expect;
    back.bits = 64;
    nccc_slots_from_bytes(&expect, &back, sizeof back);
    ck_assert_uint_eq(out[2], expect);
  }
}
END_TEST

START_TEST(errors_of_the_callee_come_back) {
  TVM("call_global", 3, P("t.add"), 2, kTVMStr, P("1"), kDLInt, I(2));
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallWrongArgType);
  ck_assert_uint_eq(out[1], kTVMNullptr);
  ck_assert_uint_eq(out[2], 0);
  ck_assert_int_eq(fx.calls, 1);
  TVM("call_global", 3, P("t.fail"), 1, kDLInt, I(-7));
  ck_assert_int_eq(STATUS(), -7);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(-7));
  ck_assert_str_eq(TVMGetLastError(), "t.fail: asked");
  TVM("call_packed", 3, P((void *)(uintptr_t)0x1234), 0);
  ck_assert_int_eq(STATUS(), -1);
}
END_TEST

START_TEST(argument_errors_stop_before_the_call) {
  TVM("call_global", 3, P("t.echo"), 1, 99, 0);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallWrongArgType);
  ck_assert_str_eq(TVMGetLastError(),
                   "packed call: args[0]: nccc does not convert type code 99");
  TVM("call_global", 3, P("t.echo"), 1, (uint64_t)-1, 0); /* code -1 */
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallWrongArgType);
  TVM("call_global", 3, P("t.echo"), 1, (uint64_t)1 << 40, 0);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallWrongArgType);
  TVM("call_global", 3, P("t.echo"), I(-1));
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallNumArguments);
  TVM("call_global", 3, P("t.echo"), (uint64_t)1 << 40);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallNumArguments);
  {
    uint64_t in[2 + 2 * (NCCC_PACKED_MAX_ARGS + 1)];
    memset(in, 0, sizeof in);
    in[0] = P("t.echo");
    in[1] = NCCC_PACKED_MAX_ARGS + 1;
    tvm_call("call_global", in, sizeof in / sizeof in[0], 3);
    ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallNumArguments);
  }
#if UINTPTR_MAX < UINT64_MAX
  TVM("call_global", 3, P("t.echo"), 1, kTVMOpaqueHandle, (uint64_t)1 << 40);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallInvalidArg);
#endif
  ck_assert_int_eq(fx.calls, 0);
}
END_TEST

/* A packed function whose result has a code nccc does not convert. */
static int odd_result(TVMValue *args, int *codes, int n, TVMValue *ret,
                      int *ret_code, void *resource) {
  (void)args;
  (void)codes;
  (void)n;
  (void)resource;
  ret->v_int64 = 1;
  *ret_code = kTVMExtBegin;
  return 0;
}

START_TEST(results_nccc_cannot_convert_are_refused) {
  TVMBackendPackedCFunc fn = odd_result;
  void *as_handle;
  memcpy(&as_handle, &fn, sizeof as_handle);
  ck_assert_int_eq(TVMFuncRegisterGlobal("d.odd", as_handle, 0), 0);
  TVM("call_global", 3, P("d.odd"), 0);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallWrongArgType);
  ck_assert_str_eq(TVMGetLastError(),
                   "packed call: result: nccc does not convert type code 16");
  ck_assert_uint_eq(out[2], 0);
}
END_TEST

START_TEST(module_functions_and_the_system_library) {
  void *mod, *f;
  TVM("system_lib", 2);
  ck_assert_int_eq(STATUS(), 0);
  mod = nccc_slot_to_ptr(out[1]);
  ck_assert_ptr_nonnull(mod);
  TVM("module_function", 2, P(mod), P("sq"));
  ck_assert_int_eq(STATUS(), 0);
  f = nccc_slot_to_ptr(out[1]);
  TVM("call_packed", 3, P(f), 1, kDLInt, I(12));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_uint_eq(out[2], 144);
  ck_assert_ptr_eq(fx.resource, (void *)fx_system_lib.registry);
  TVM("module_function", 2, P(mod), P("nope"));
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionNameNotFound);
  TVM("module_function", 2, P((void *)(uintptr_t)0x8001), P("sq"));
  ck_assert_int_eq(STATUS(), -1);
}
END_TEST

START_TEST(set_last_error) {
  TVM("set_last_error", 1, P("from the host"));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_str_eq(TVMGetLastError(), "from the host");
}
END_TEST

/* ---- registering host functions ------------------------------------------------- */

/* What a host's dispatcher would be: an nccc function. */
static void host_fn(const uint64_t *in, uint64_t *out_) {
  host_calls++;
  out_[0] = nccc_slot_from_double(nccc_slot_to_double(in[0]) *
                                  (double)nccc_slot_to_i32(in[1]));
}

START_TEST(register_a_host_function) {
  unsigned cap;
  TVM("adapters", 3);
  cap = (unsigned)out[2];
  ck_assert_uint_eq(cap, nccc_packed_capacity());
  ck_assert_uint_eq(out[1], cap);
  TVM("register", 1, P("h.mul"), (uint64_t)(uintptr_t)host_fn, P("di:d"), 0);
  ck_assert_int_eq(STATUS(), 0);
  TVM("adapters", 3);
  ck_assert_uint_eq(out[1], cap - 1);
  /* called from C */
  {
    TVMFunctionHandle f;
    TVMValue a[2], r;
    int c[2] = {kDLFloat, kDLInt}, rc;
    a[0].v_float64 = 2.5;
    a[1].v_int64 = 4;
    ck_assert_int_eq(TVMFuncGetGlobal("h.mul", &f), 0);
    ck_assert_int_eq(TVMFuncCall(f, a, c, 2, &r, &rc), 0);
    ck_assert_int_eq(rc, kDLFloat);
    ck_assert(r.v_float64 == 10.0);
  }
  /* and from the host again */
  TVM("call_global", 3, P("h.mul"), 2, kDLFloat, D(0.5), kDLInt, I(-6));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_uint_eq(out[1], kDLFloat);
  ck_assert_uint_eq(out[2], D(-3.0));
  TVM("call_global", 3, P("h.mul"), 2, kDLFloat, D(0.5), kTVMStr, P("6"));
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallWrongArgType);
  ck_assert_int_eq(host_calls, 2);
  /* errors of registration */
  TVM("register", 1, P("h.mul"), (uint64_t)(uintptr_t)host_fn, P("di:d"), 0);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionAlreadyDefined);
  TVM("register", 1, P("h.x"), (uint64_t)(uintptr_t)host_fn, P("di:dd"), 0);
  ck_assert_int_eq(STATUS(), NCCC_ERR_BAD_SIGNATURE);
  TVM("register", 1, P("h.x"), (uint64_t)(uintptr_t)host_fn, P("di:d"),
      (uint64_t)1 << 40);
  ck_assert_int_eq(STATUS(), NCCC_ERR_INVALID_ARG);
}
END_TEST

/* A host's one dispatcher: env 7 is the procedure "count the calls and
** return the string's length". */
static uint64_t seen_env;
static void dispatcher(const uint64_t *in, uint64_t *out_) {
  host_calls++;
  seen_env = in[0];
  out_[0] = in[0] == 7 ? strlen(nccc_slot_to_ptr(in[1])) : 0;
}

START_TEST(register_a_procedure_behind_the_dispatcher) {
  TVM("register_env", 1, P("h.len"), (uint64_t)(uintptr_t)dispatcher, 7,
      P("s:L"), 0);
  ck_assert_int_eq(STATUS(), 0);
  TVM("call_global", 3, P("h.len"), 1, kTVMStr, P("four"));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_uint_eq(out[1], kDLInt);
  ck_assert_uint_eq(out[2], 4);
  ck_assert_uint_eq(seen_env, 7);
  TVM("call_global", 3, P("h.len"), 1, kDLInt, 4);
  ck_assert_int_eq(STATUS(), kTvmErrorFunctionCallWrongArgType);
  ck_assert_int_eq(host_calls, 1);
  TVM("register_env", 1, P("h.y"), (uint64_t)(uintptr_t)dispatcher, 7,
      P("s:L"), (uint64_t)1 << 40);
  ck_assert_int_eq(STATUS(), NCCC_ERR_INVALID_ARG);
}
END_TEST

START_TEST(register_by_handle_from_the_host) {
  nccc_handle h;
  ck_assert_int_eq(nccc_lookup("nccc.strlen", &h), NCCC_OK);
  TVM("register_handle", 1, P("h.strlen"), h, P("s:L"), NCCC_PACKED_STATUS);
  ck_assert_int_eq(STATUS(), 0);
  TVM("call_global", 3, P("h.strlen"), 1, kTVMStr, P("abcdef"));
  ck_assert_int_eq(STATUS(), 0);
  ck_assert_uint_eq(out[1], kDLInt);
  ck_assert_uint_eq(out[2], 6);
  TVM("register_handle", 1, P("h.y"), 0x1234, 0, 0);
  ck_assert_int_eq(STATUS(), NCCC_ERR_BAD_HANDLE);
  TVM("register_handle", 1, P("h.y"), (uint64_t)1 << 40, 0, 0);
  ck_assert_int_eq(STATUS(), NCCC_ERR_BAD_HANDLE);
}
END_TEST

/* ---- all the way from nccc_root ------------------------------------------------- */

START_TEST(from_the_root_alone) {
  uint64_t in[8], o[6], res[3];
  nccc_fn lookup, call_checked;
  nccc_handle h;
  /* the built-ins "lookup" and "call_checked" */
  in[0] = NCCC_BUILTIN_LOOKUP;
  nccc_root(in, o);
  ck_assert_uint_eq(o[0], NCCC_OK);
  lookup = (nccc_fn)(uintptr_t)o[1];
  in[0] = NCCC_BUILTIN_CALL_CHECKED;
  nccc_root(in, o);
  call_checked = (nccc_fn)(uintptr_t)o[1];
  in[0] = P("tvm.call_global");
  lookup(in, o);
  ck_assert_uint_eq(o[0], NCCC_OK);
  h = (nccc_handle)o[1];
  {
    uint64_t args_[] = {P("t.add"), 2, kDLInt, I(-40), kDLInt, I(-2)};
    in[0] = h;
    in[1] = P(args_);
    in[2] = 6;
    in[3] = P(res);
    in[4] = 3;
    call_checked(in, o);
  }
  ck_assert_uint_eq(o[0], NCCC_OK);
  ck_assert_uint_eq(res[0], 0);
  ck_assert_uint_eq(res[1], kDLInt);
  ck_assert_uint_eq(res[2], I(-42));
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("packed_dynamic");
  nccc_check_tcase(s, "calls", setup, NULL,
                   NCCC_CHECK_TESTS(module_functions_and_signatures,
                                    call_by_handle, absent_global,
                                    floats_strings_bytes,
                                    data_types_and_devices_travel_as_bytes,
                                    errors_of_the_callee_come_back,
                                    argument_errors_stop_before_the_call,
                                    results_nccc_cannot_convert_are_refused,
                                    module_functions_and_the_system_library,
                                    set_last_error));
  nccc_check_tcase(s, "registration", setup, NULL,
                   NCCC_CHECK_TESTS(register_a_host_function,
                                    register_a_procedure_behind_the_dispatcher,
                                    register_by_handle_from_the_host,
                                    from_the_root_alone));
  return s;
}
