/*
** syslib.c — a system library written the way TVM's C code generator
** writes one (target "c -system-lib"): each operator a packed function
** with TVM's generated signature, argument checks with TVMAPISetLastError,
** a call to a global packed function looked up once through
** TVMBackendGetFuncFromEnv(__tvm_module_ctx, ...), a workspace, a
** parallel lambda, and the registry blob with TVMSystemLibEntryPoint.
**
** scale_add(x, y) = host.scale(x) + y, where "host.scale" is a global the
** host registers; sum_squares(n) = 0^2 + ... + (n-1)^2, computed in a
** workspace by a parallel lambda.
*/
#include "tvm/runtime/c_runtime_api.h"
#include "tvm/runtime/c_backend_api.h"
#include "tvm/runtime/crt/module.h"
#include <stdint.h>

void* __tvm_module_ctx = NULL;
static void* __tvm_host_scale_packed = NULL;

#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t scale_add(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value, int32_t* out_ret_tcode, void* resource_handle);
#ifdef __cplusplus
extern "C"
#endif
TVM_DLL int32_t sum_squares(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value, int32_t* out_ret_tcode, void* resource_handle);

TVM_DLL int32_t scale_add(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value, int32_t* out_ret_tcode, void* resource_handle) {
  TVMValue stack_value[1];
  int32_t stack_tcode[1];
  TVMValue ret_val_1;
  int32_t ret_type_code_1;
  int32_t arg_x_code;
  int32_t arg_y_code;
  int64_t x;
  int64_t y;
  (void)resource_handle;
  if (!(num_args == 2)) {
    TVMAPISetLastError("scale_add: num_args should be 2");
    return -1;
  }
  arg_x_code = arg_type_ids[0];
  arg_y_code = arg_type_ids[1];
  if (!(arg_x_code == kTVMArgInt)) {
    TVMAPISetLastError("scale_add: Expect arg[0] to be int");
    return -1;
  }
  if (!(arg_y_code == kTVMArgInt)) {
    TVMAPISetLastError("scale_add: Expect arg[1] to be int");
    return -1;
  }
  x = ((int64_t)(((TVMValue*)args)[0].v_int64));
  y = ((int64_t)(((TVMValue*)args)[1].v_int64));
  if (__tvm_host_scale_packed == NULL) {
    if (TVMBackendGetFuncFromEnv(__tvm_module_ctx, "host.scale", &__tvm_host_scale_packed) != 0) {
      return -1;
    }
  }
  (((TVMValue*)stack_value)[0].v_int64) = x;
  ((int32_t*)stack_tcode)[0] = kTVMArgInt;
  if (TVMFuncCall(__tvm_host_scale_packed, (TVMValue*) stack_value, (int*) stack_tcode, 1, &ret_val_1, (int*) &ret_type_code_1) != 0) {
    return -1;
  }
  if (!(ret_type_code_1 == kTVMArgInt)) {
    TVMAPISetLastError("scale_add: host.scale should return int");
    return -1;
  }
  ((TVMValue*)out_ret_value)[0].v_int64 = (ret_val_1.v_int64 + y);
  out_ret_tcode[0] = kTVMArgInt;
  return 0;
}

typedef struct {
  int64_t* squares;
  int64_t n;
} __tvm_parallel_sum_squares_t;

static int __tvm_parallel_lambda(int task_id, TVMParallelGroupEnv* penv, void* cdata) {
  __tvm_parallel_sum_squares_t* closure = (__tvm_parallel_sum_squares_t*)cdata;
  int64_t i;
  for (i = task_id; i < closure->n; i += penv->num_task) {
    closure->squares[i] = i * i;
  }
  return 0;
}

TVM_DLL int32_t sum_squares(void* args, int32_t* arg_type_ids, int32_t num_args, void* out_ret_value, int32_t* out_ret_tcode, void* resource_handle) {
  __tvm_parallel_sum_squares_t closure;
  int64_t n;
  int64_t sum = 0;
  int64_t i;
  int32_t status;
  (void)resource_handle;
  if (!(num_args == 1)) {
    TVMAPISetLastError("sum_squares: num_args should be 1");
    return -1;
  }
  if (!(arg_type_ids[0] == kTVMArgInt)) {
    TVMAPISetLastError("sum_squares: Expect arg[0] to be int");
    return -1;
  }
  n = ((int64_t)(((TVMValue*)args)[0].v_int64));
  if (!(1 <= n && n <= 64)) {
    TVMAPISetLastError("sum_squares: Expect 1 <= n <= 64");
    return -1;
  }
  closure.n = n;
  closure.squares = (int64_t*)TVMBackendAllocWorkspace(1, 0, (uint64_t)(n * 8), 0, 64);
  if (closure.squares == NULL) {
    return -1;
  }
  status = TVMBackendParallelLaunch(__tvm_parallel_lambda, &closure, 0);
  for (i = 0; i < n; i++) {
    sum += closure.squares[i];
  }
  if (TVMBackendFreeWorkspace(1, 0, closure.squares) != 0) {
    return -1;
  }
  if (status != 0) {
    return -1;
  }
  ((TVMValue*)out_ret_value)[0].v_int64 = sum;
  out_ret_tcode[0] = kTVMArgInt;
  return 0;
}

static TVMBackendPackedCFunc _tvm_func_array[] = {
    (TVMBackendPackedCFunc)scale_add,
    (TVMBackendPackedCFunc)sum_squares,
};
static const TVMFuncRegistry _tvm_func_registry = {
    "\002\000scale_add\000sum_squares\000",
    _tvm_func_array,
};
static const TVMModule _tvm_system_lib = {
    &_tvm_func_registry,
};
const TVMModule* TVMSystemLibEntryPoint(void) {
    return &_tvm_system_lib;
}
