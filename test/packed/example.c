/*
** example.c — the worked example of docs/PACKED.md, run by ctest
** (packed_example compares its output with example.expected).
**
** idl/examples/packed.idl declares typed wrappers (module "ops") for the
** packed functions defined here; the program calls them forward, makes
** an nccc function a packed function (backward), and calls a packed
** function with the type codes in the slot buffer (dynamic).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/module.h>

#include "ops_nccc.h"

/* ---- packed functions, written as TVM code writes them ------------------------- */

static int demo_add(TVMValue *args, int *codes, int n, TVMValue *ret,
                    int *ret_code, void *resource_handle) {
  (void)resource_handle;
  if (n != 2 || codes[0] != kDLInt || codes[1] != kDLInt) {
    TVMAPISetLastError("demo.add: expects (int, int)");
    return kTvmErrorFunctionCallWrongArgType;
  }
  ret->v_int64 = args[0].v_int64 + args[1].v_int64;
  *ret_code = kDLInt;
  return 0;
}

/* The Euclidean norm of a 1-D float64 tensor. */
static int demo_norm(TVMValue *args, int *codes, int n, TVMValue *ret,
                     int *ret_code, void *resource_handle) {
  const DLTensor *t;
  const double *x;
  double sum = 0;
  int64_t i;
  (void)resource_handle;
  if (n != 1 || codes[0] != kTVMDLTensorHandle) {
    TVMAPISetLastError("demo.norm: expects (DLTensor*)");
    return kTvmErrorFunctionCallWrongArgType;
  }
  t = args[0].v_handle;
  x = t->data;
  for (i = 0; i < t->shape[0]; i++) sum += x[i] * x[i];
  ret->v_float64 = sqrt(sum);
  *ret_code = kDLFloat;
  return 0;
}

static int demo_greet(TVMValue *args, int *codes, int n, TVMValue *ret,
                      int *ret_code, void *resource_handle) {
  static char text[64];
  (void)resource_handle;
  if (n != 1 || codes[0] != kTVMStr) {
    TVMAPISetLastError("demo.greet: expects (str)");
    return kTvmErrorFunctionCallWrongArgType;
  }
  snprintf(text, sizeof text, "hello, %s", args[0].v_str);
  ret->v_str = text;
  *ret_code = kTVMStr;
  return 0;
}

/* An operator of the system library: x *= k, in place. */
static int scale(TVMValue *args, int *codes, int n, TVMValue *ret,
                 int *ret_code, void *resource_handle) {
  DLTensor *t;
  double *x;
  int64_t i;
  (void)ret;
  (void)ret_code;
  (void)resource_handle;
  if (n != 2 || codes[0] != kTVMDLTensorHandle || codes[1] != kDLFloat) {
    TVMAPISetLastError("scale: expects (DLTensor*, float)");
    return kTvmErrorFunctionCallWrongArgType;
  }
  t = args[0].v_handle;
  x = t->data;
  for (i = 0; i < t->shape[0]; i++) x[i] *= args[1].v_float64;
  return 0;
}

/* The system library, as TVM's code generator would write it. */
static const struct {
  uint16_t count;
  char names[sizeof "scale\0"];
} lib_names = {1, "scale\0"};
static const TVMBackendPackedCFunc lib_funcs[] = {scale};
static const TVMFuncRegistry lib_registry = {(const char *)&lib_names,
                                             lib_funcs};
static const TVMModule lib = {&lib_registry};
const TVMModule *TVMSystemLibEntryPoint(void) { return &lib; }

static void register_global(const char *name, TVMBackendPackedCFunc fn) {
  void *as_handle;
  memcpy(&as_handle, &fn, sizeof as_handle);
  TVMFuncRegisterGlobal(name, as_handle, 0);
}

/* ---- an nccc function (a host's dispatcher would do as well) -------------- */

static void twice(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(2 * nccc_slot_to_i64(in[0]));
}

static int failed;

static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAILED: %s\n", what);
    failed = 1;
  }
}

int main(void) {
  double data[3] = {3, 4, 12};
  int64_t shape[1] = {3};
  DLTensor v;
  uint64_t in[3], out[2];
  nccc_handle h;

  memset(&v, 0, sizeof v);
  v.data = data;
  v.device.device_type = kDLCPU;
  v.ndim = 1;
  v.dtype.code = kDLFloat;
  v.dtype.bits = 64;
  v.dtype.lanes = 1;
  v.shape = shape;

  TVMInitializeRuntime();
  nccc_init(NULL, 0);
  nccc_ops_register();     /* the generated module "ops" */
  nccc_tvm_module_add(NULL); /* the module "tvm", for the dynamic call */
  register_global("demo.add", demo_add);
  register_global("demo.norm", demo_norm);
  register_global("demo.greet", demo_greet);

  /* ---- forward: typed wrappers, found by name in the nccc registry */
  nccc_lookup("ops.add", &h);
  in[0] = nccc_slot_from_i64(40);
  in[1] = nccc_slot_from_i64(2);
  nccc_call(h, in, out);
  printf("%-24s -> status %d, %lld\n", "ops.add(40, 2)",
         (int)nccc_slot_to_i32(out[0]), (long long)nccc_slot_to_i64(out[1]));
  expect(out[0] == 0 && out[1] == 42, "add");

  in[0] = nccc_slot_from_ptr(&v);
  nccc_ops_norm(in, out);
  printf("%-24s -> status %d, %g\n", "ops.norm([3 4 12])",
         (int)nccc_slot_to_i32(out[0]), nccc_slot_to_double(out[1]));
  expect(out[0] == 0 && nccc_slot_to_double(out[1]) == 13.0, "norm");

  in[0] = nccc_slot_from_ptr("world");
  nccc_ops_greet(in, out);
  printf("%-24s -> status %d, \"%s\"\n", "ops.greet(\"world\")",
         (int)nccc_slot_to_i32(out[0]), (const char *)nccc_slot_to_ptr(out[1]));
  expect(out[0] == 0, "greet");

  in[0] = nccc_slot_from_ptr(&v);
  in[1] = nccc_slot_from_double(0.5);
  nccc_ops_scale(in, out); /* "scale" of the system library */
  printf("%-24s -> status %d, v = [%g %g %g]\n", "ops.scale(v, 0.5)",
         (int)nccc_slot_to_i32(out[0]), data[0], data[1], data[2]);
  expect(out[0] == 0 && data[2] == 6.0, "scale");

  nccc_ops_system_lib(NULL, out);
  in[0] = out[1]; /* the module handle */
  in[1] = nccc_slot_from_ptr(&v);
  in[2] = nccc_slot_from_double(2.0);
  nccc_ops_scale_in(in, out); /* the same, through a module handle */
  printf("%-24s -> status %d, v = [%g %g %g]\n", "ops.scale_in(lib, v, 2)",
         (int)nccc_slot_to_i32(out[0]), data[0], data[1], data[2]);
  expect(out[0] == 0 && data[2] == 12.0, "scale_in");

  /* a status: the wrapper of a function nobody registered */
  TVMInitializeRuntime();
  in[0] = nccc_slot_from_i64(1);
  in[1] = nccc_slot_from_i64(2);
  nccc_ops_add(in, out);
  printf("%-24s -> status %#x, %s\n", "ops.add after re-init",
         (unsigned)nccc_slot_to_i32(out[0]), TVMGetLastError());
  expect(out[0] == kTvmErrorFunctionNameNotFound, "absent");
  register_global("demo.add", demo_add);

  /* ---- backward: an nccc function as the packed function "demo.twice" */
  {
    TVMFunctionHandle f;
    TVMValue arg, ret;
    int code = kDLInt, ret_code, err;
    nccc_packed_register("demo.twice", twice, "l:l", 0);
    TVMFuncGetGlobal("demo.twice", &f);
    arg.v_int64 = 21;
    err = TVMFuncCall(f, &arg, &code, 1, &ret, &ret_code);
    printf("%-24s -> %d, %lld (type code %d)\n", "demo.twice(21)", err,
           (long long)ret.v_int64, ret_code);
    expect(err == 0 && ret.v_int64 == 42, "twice");
    arg.v_str = "21";
    code = kTVMStr;
    err = TVMFuncCall(f, &arg, &code, 1, &ret, &ret_code);
    printf("%-24s -> %#x: %s\n", "demo.twice(\"21\")", (unsigned)err,
           TVMGetLastError());
    expect(err == kTvmErrorFunctionCallWrongArgType, "twice refused");
  }

  /* ---- dynamic: type codes in the slot buffer, no generated code */
  {
    uint64_t call_in[] = {nccc_slot_from_ptr("demo.add"), 2,
                          kDLInt, nccc_slot_from_i64(5),
                          kDLInt, nccc_slot_from_i64(6)};
    uint64_t call_out[3];
    nccc_lookup("tvm.call_global", &h);
    nccc_call_checked(h, call_in, 6, call_out, 3);
    printf("%-24s -> status %d, type code %d, %lld\n",
           "tvm.call_global(...)", (int)nccc_slot_to_i32(call_out[0]),
           (int)call_out[1], (long long)nccc_slot_to_i64(call_out[2]));
    expect(call_out[0] == 0 && call_out[2] == 11, "dynamic");
  }
  return failed;
}
