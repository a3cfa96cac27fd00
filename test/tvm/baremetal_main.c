/*
** baremetal_main.c — a Cortex-M3 program using the TVM-compatible API:
** it must link against newlib without malloc, threads or printf.
*/
#include <stdint.h>
#include <string.h>

#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/module.h>

static int square(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
                  int *ret_tcode, void *resource_handle) {
  (void)type_codes;
  (void)num_args;
  (void)resource_handle;
  ret[0].v_int64 = args[0].v_int64 * args[0].v_int64;
  ret_tcode[0] = kTVMArgInt;
  return 0;
}

static const struct {
  uint16_t count;
  char names[sizeof "square\0"];
} names = {1, "square\0"};
static const TVMBackendPackedCFunc funcs[] = {square};
static const TVMFuncRegistry registry = {(const char *)&names, funcs};
static const TVMModule lib = {&registry};

const TVMModule *TVMSystemLibEntryPoint(void) { return &lib; }

int main(void) {
  TVMFunctionHandle f;
  TVMModuleHandle mod;
  TVMValue arg, ret;
  int code = kTVMArgInt, tcode;
  TVMBackendPackedCFunc fn = square;
  void *as_handle;
  if (TVMInitializeRuntime() != kTvmErrorNoError) return 1;
  if (TVMFuncGetGlobal("runtime.SystemLib", &f) != 0 || f == NULL) return 2;
  if (TVMFuncCall(f, NULL, NULL, 0, &ret, &tcode) != 0) return 3;
  mod = ret.v_handle;
  if (TVMModGetFunction(mod, "square", 0, &f) != 0) return 4;
  memcpy(&as_handle, &fn, sizeof as_handle);
  if (TVMFuncRegisterGlobal("square", as_handle, 0) != 0) return 5;
  arg.v_int64 = 12;
  if (TVMFuncCall(f, &arg, &code, 1, &ret, &tcode) != 0) return 6;
  return ret.v_int64 == 144 && TVMGetLastError()[0] == '\0' ? 0 : 7;
}
