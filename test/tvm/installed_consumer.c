/*
** installed_consumer.c — a program written against TVM's CRT API that is
** built with nothing but the installed headers and
** `pkg-config --cflags --libs nccc-tvm-compat` (or find_package(nccc)).
** It prints what it observes; installed_consumer.sh compares the output.
*/
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/func_registry.h>
#include <tvm/runtime/crt/module.h>

#include "crt_config.h"

static void *seen_resource;

static int add(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
               int *ret_tcode, void *resource_handle) {
  seen_resource = resource_handle;
  if (num_args != 2 || type_codes[0] != kTVMArgInt ||
      type_codes[1] != kTVMArgInt) {
    TVMAPISetLastError("add expects two ints");
    return -1;
  }
  ret[0].v_int64 = args[0].v_int64 + args[1].v_int64;
  ret_tcode[0] = kTVMArgInt;
  return 0;
}

static int twice(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
                 int *ret_tcode, void *resource_handle) {
  (void)type_codes;
  (void)num_args;
  seen_resource = resource_handle;
  ret[0].v_int64 = 2 * args[0].v_int64;
  ret_tcode[0] = kTVMArgInt;
  return 0;
}

/* The system library the way TVM's code generator writes one. */
static const struct {
  uint16_t count;
  char names[sizeof "add\0twice\0"];
} lib_names = {2, "add\0twice\0"};
static const TVMBackendPackedCFunc lib_funcs[] = {add, twice};
static const TVMFuncRegistry lib_registry = {(const char *)&lib_names,
                                             lib_funcs};
static const TVMModule lib = {&lib_registry};

const TVMModule *TVMSystemLibEntryPoint(void) { return &lib; }

int main(void) {
  TVMFunctionHandle syslib = NULL, f = NULL;
  TVMFunctionHandle missing = (TVMFunctionHandle)(uintptr_t)0xdead;
  TVMModuleHandle mod;
  TVMValue args[2], ret;
  int codes[2] = {kTVMArgInt, kTVMArgInt}, tcode, r;
  TVMFunctionHandle twice_handle;
  TVMBackendPackedCFunc twice_fn = twice;

  if (TVMInitializeRuntime() != kTvmErrorNoError) return 1;
  if (TVMFuncGetGlobal("runtime.SystemLib", &syslib) != 0 || !syslib) return 2;
  if (TVMFuncCall(syslib, NULL, NULL, 0, &ret, &tcode) != 0) return 3;
  mod = ret.v_handle;
  printf("system library: type %d handle 0x%" PRIxPTR "\n", tcode,
         (uintptr_t)mod);

  if (TVMModGetFunction(mod, "add", 0, &f) != 0) return 4;
  args[0].v_int64 = 40;
  args[1].v_int64 = 2;
  r = TVMFuncCall(f, args, codes, 2, &ret, &tcode);
  printf("add(40, 2) = %" PRId64 " (status %d, type %d, resource %s)\n",
         ret.v_int64, r, tcode,
         seen_resource == (void *)&lib_registry ? "registry" : "other");

  memcpy(&twice_handle, &twice_fn, sizeof twice_handle);
  r = TVMFuncRegisterGlobal("app.twice", twice_handle, 0);
  printf("register app.twice: %d, again: 0x%x\n", r,
         (unsigned)TVMFuncRegisterGlobal("app.twice", twice_handle, 0));
  if (TVMFuncGetGlobal("app.twice", &f) != 0 || !f) return 5;
  args[0].v_int64 = 21;
  r = TVMFuncCall(f, args, codes, 1, &ret, &tcode);
  printf("app.twice(21) = %" PRId64 " (status %d, resource %s)\n", ret.v_int64,
         r, seen_resource == NULL ? "NULL" : "other");

  r = TVMFuncGetGlobal("app.missing", &missing);
  printf("missing global: status %d, handle %s\n", r,
         missing == NULL ? "NULL" : "set");
  printf("missing in module: 0x%x\n",
         (unsigned)TVMModGetFunction(mod, "nothing", 0, &f));

  r = TVMFuncCall((TVMFunctionHandle)(uintptr_t)0x1234u, args, codes, 2, &ret,
                  &tcode);
  printf("bad handle: %d, %s\n", r, TVMGetLastError());
  r = TVMModFree((TVMModuleHandle)(uintptr_t)(0x8000u |
                                              TVM_CRT_MAX_REGISTERED_MODULES));
  printf("free module index %d: %d\n", TVM_CRT_MAX_REGISTERED_MODULES, r);
  return 0;
}
