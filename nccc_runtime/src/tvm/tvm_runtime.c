/*
** tvm_runtime.c — TVM CRT's runtime API: the global function registry,
** the module table, handles, calls, the last error and the built-ins.
**
** Handles are TVM's. A function handle is nccc_handle_encode(module,
** function): bit 31 and bit 15 set, the module index in bits 30..16 (the
** global registry has index TVM_CRT_MAX_REGISTERED_MODULES) and the
** function index in bits 14..0 (nccc/abi.h has the layout). A module
** handle is the index with the marker of a handle's function half.
** Decoding checks every field against the present state before anything
** is read: TVM let a module index equal to the table size through.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/handle.h>
#include <nccc/platform.h>
#include <nccc/status.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/func_registry.h>
#include <tvm/runtime/crt/module.h>
#include <tvm/runtime/crt/platform.h>

#include "crt_config.h"
#include "tvm_internal.h"

#if NCCC_WITH_TVM

#if TVM_CRT_MAX_REGISTERED_MODULES < 1 || \
    TVM_CRT_MAX_REGISTERED_MODULES >= NCCC_ABI_HANDLE_INDEX_MASK
#error "TVM_CRT_MAX_REGISTERED_MODULES must be 1 .. 0x7ffe (15-bit index)"
#endif

_Static_assert(TVM_CRT_GLOBAL_FUNC_REGISTRY_SIZE_BYTES >=
                   NCCC_TVM_REGISTRY_MIN_BYTES,
               "TVM_CRT_GLOBAL_FUNC_REGISTRY_SIZE_BYTES is too small");
_Static_assert(sizeof(void *) == sizeof(TVMBackendPackedCFunc),
               "TVM's API passes functions as void *");

#define GLOBAL_MODULE ((tvm_module_index_t)TVM_CRT_MAX_REGISTERED_MODULES)

/* The global registry's buffer: static, so nothing is allocated, and
** re-initialisation reuses it. */
static uint8_t global_buffer[TVM_CRT_GLOBAL_FUNC_REGISTRY_SIZE_BYTES];

static struct {
  TVMMutableFuncRegistry global;
  const TVMModule *modules[TVM_CRT_MAX_REGISTERED_MODULES];
  int system_lib; /* module index of the system library, or -1 */
  int initialized;
} S;

static int not_initialized(const char *what) {
  return nccci_tvm_fail(kTvmErrorNcccNotInitialized, what,
                        "TVMInitializeRuntime has not run");
}

/* ---- handles --------------------------------------------------------------- */

#define MODULE_MARKER NCCC_ABI_HANDLE_FUNCTION_MARKER

static TVMModuleHandle module_handle(tvm_module_index_t index) {
  return (TVMModuleHandle)(uintptr_t)(index | MODULE_MARKER);
}

/* The index of the present module mod names; -1 (error recorded) if none. */
static int decode_module(TVMModuleHandle mod, const char *what) {
  uintptr_t v = (uintptr_t)mod;
  uintptr_t index = v & NCCC_ABI_HANDLE_INDEX_MASK;
  if (v > (MODULE_MARKER | NCCC_ABI_HANDLE_INDEX_MASK) ||
      (v & MODULE_MARKER) == 0 ||
      index >= TVM_CRT_MAX_REGISTERED_MODULES || S.modules[index] == NULL) {
    nccc_fail(NCCC_ERR_BAD_HANDLE, what, "invalid module handle");
    return -1;
  }
  return (int)index;
}

static TVMFunctionHandle function_handle(tvm_module_index_t module,
                                         tvm_function_index_t function) {
  return (TVMFunctionHandle)(uintptr_t)nccc_handle_encode(module, function);
}

/* The function func names and its resource handle; -1 (error recorded)
** unless both markers are set, the module index names the global
** registry or a present module, and the function index is in range. */
static int decode_function(TVMFunctionHandle func, TVMBackendPackedCFunc *fn,
                           void **resource) {
  uint64_t v = (uint64_t)(uintptr_t)func;
  tvm_module_index_t m = (tvm_module_index_t)nccc_handle_module((nccc_handle)v);
  tvm_function_index_t f =
      (tvm_function_index_t)nccc_handle_function((nccc_handle)v);
  const TVMFuncRegistry *reg;
  if ((v >> 32) != 0 || !nccc_handle_marked((nccc_handle)v)) {
    nccc_fail(NCCC_ERR_BAD_HANDLE, "TVMFuncCall", "invalid function handle");
    return -1;
  }
  if (m == GLOBAL_MODULE) {
    reg = &S.global.registry;
    *resource = NULL;
  } else if (m < TVM_CRT_MAX_REGISTERED_MODULES && S.modules[m] != NULL) {
    reg = S.modules[m]->registry;
    *resource = (void *)(uintptr_t)reg;
  } else {
    nccc_fail(NCCC_ERR_BAD_HANDLE, "TVMFuncCall",
              "function handle names no registered module");
    return -1;
  }
  if (f >= TVMFuncRegistry_GetNumFuncs(reg)) {
    nccc_fail(NCCC_ERR_BAD_HANDLE, "TVMFuncCall",
              "function handle index out of range");
    return -1;
  }
  *fn = reg->funcs[f];
  return 0;
}

/* ---- the last error ---------------------------------------------------------- */

void TVMAPISetLastError(const char *msg) {
  /* TVM's messages carry no code; kTvmErrorPlatformCheckFailure is TVM's
  ** generic "a check failed". */
  if (msg == NULL) {
    nccc_clear_error();
  } else {
    nccc_fail(NCCC_ERR_PLATFORM_CHECK, msg, NULL);
  }
}

const char *TVMGetLastError(void) { return nccc_last_error(); }

/* ---- modules ------------------------------------------------------------------ */

/* Puts mod into the first free slot; -1 when there is none. Call locked. */
static int add_module(const TVMModule *mod) {
  int i;
  for (i = 0; i < TVM_CRT_MAX_REGISTERED_MODULES; i++) {
    if (S.modules[i] == NULL) {
      S.modules[i] = mod;
      return i;
    }
  }
  return -1;
}

int TVMModCreateFromCModule(const TVMModule *mod,
                            TVMModuleHandle *out_handle) {
  int index;
  if (!S.initialized) return not_initialized("TVMModCreateFromCModule");
  if (mod == NULL || mod->registry == NULL || out_handle == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMModCreateFromCModule",
                          NULL);
  }
  nccc_platform_lock();
  index = add_module(mod);
  nccc_platform_unlock();
  if (index < 0) {
    nccc_fail(NCCC_ERR_MODULES_FULL, "TVMModCreateFromCModule",
              "all TVM_CRT_MAX_REGISTERED_MODULES slots taken");
    return -1;
  }
  *out_handle = module_handle((tvm_module_index_t)index);
  return 0;
}

int TVMModFree(TVMModuleHandle mod) {
  int index;
  if (!S.initialized) return not_initialized("TVMModFree");
  nccc_platform_lock();
  index = decode_module(mod, "TVMModFree");
  if (index >= 0 && index != S.system_lib) S.modules[index] = NULL;
  nccc_platform_unlock();
  return index < 0 ? -1 : 0;
}

int TVMModGetFunction(TVMModuleHandle mod, const char *func_name,
                      int query_imports, TVMFunctionHandle *out) {
  tvm_function_index_t f;
  tvm_crt_error_t err;
  int index;
  (void)query_imports;
  if (!S.initialized) return not_initialized("TVMModGetFunction");
  if (func_name == NULL || out == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMModGetFunction", NULL);
  }
  nccc_platform_lock();
  index = decode_module(mod, "TVMModGetFunction");
  err = index < 0 ? kTvmErrorNoError
                  : TVMFuncRegistry_Lookup(S.modules[index]->registry,
                                           func_name, &f);
  nccc_platform_unlock();
  if (index < 0) return -1;
  if (err != kTvmErrorNoError) return err;
  *out = function_handle((tvm_module_index_t)index, f);
  return 0;
}

/* ---- global functions and calls ---------------------------------------------- */

int TVMFuncRegisterGlobal(const char *name, TVMFunctionHandle f,
                          int override) {
  TVMBackendPackedCFunc fn;
  tvm_crt_error_t err;
  if (!S.initialized) return not_initialized("TVMFuncRegisterGlobal");
  if (f == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMFuncRegisterGlobal",
                          "NULL function");
  }
  /* TVM's API hands functions over as void *; memcpy converts without
  ** the cast ISO C leaves undefined. */
  memcpy(&fn, &f, sizeof fn);
  nccc_platform_lock();
  err = TVMMutableFuncRegistry_Set(&S.global, name, fn, override != 0);
  nccc_platform_unlock();
  return err;
}

int TVMFuncGetGlobal(const char *name, TVMFunctionHandle *out) {
  tvm_function_index_t f;
  if (!S.initialized) return not_initialized("TVMFuncGetGlobal");
  if (name == NULL || out == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMFuncGetGlobal", NULL);
  }
  /* An absent name is no error: *out = NULL, as TVM's C++ runtime does. */
  nccc_platform_lock();
  *out = nccci_tvm_find(&S.global.registry, name, &f)
             ? function_handle(GLOBAL_MODULE, f)
             : NULL;
  nccc_platform_unlock();
  return 0;
}

int TVMFuncCall(TVMFunctionHandle func, TVMValue *arg_values, int *type_codes,
                int num_args, TVMValue *ret_val, int *ret_type_code) {
  TVMBackendPackedCFunc fn;
  void *resource;
  if (!S.initialized) return not_initialized("TVMFuncCall");
  if (ret_val == NULL || ret_type_code == NULL ||
      (num_args > 0 && (arg_values == NULL || type_codes == NULL))) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMFuncCall", NULL);
  }
  if (num_args < 0) {
    return nccci_tvm_fail(kTvmErrorFunctionCallNumArguments, "TVMFuncCall",
                          "negative num_args");
  }
  if (decode_function(func, &fn, &resource) != 0) return -1;
  ret_val[0].v_handle = NULL;
  ret_type_code[0] = kTVMNullptr;
  return fn(arg_values, type_codes, num_args, ret_val, ret_type_code,
            resource);
}

int TVMFuncFree(TVMFunctionHandle func) {
  (void)func;
  return 0;
}

/* ---- built-ins ---------------------------------------------------------------- */

/* "runtime.SystemLib": the module of TVMSystemLibEntryPoint, registered
** on first use and kept for the runtime's lifetime. Arguments ignored. */
static int system_lib(TVMValue *args, int *type_codes, int num_args,
                      TVMValue *ret_val, int *ret_type_code,
                      void *resource_handle) {
  const TVMModule *lib;
  int index;
  (void)args;
  (void)type_codes;
  (void)num_args;
  (void)resource_handle;
  nccc_platform_lock();
  index = S.system_lib;
  if (index < 0) {
    lib = TVMSystemLibEntryPoint();
    if (lib == NULL || lib->registry == NULL) {
      nccc_platform_unlock();
      nccc_fail(NCCC_ERR_NOT_IMPLEMENTED, "runtime.SystemLib",
                "TVMSystemLibEntryPoint gave no module");
      return -1;
    }
    index = add_module(lib);
    S.system_lib = index;
  }
  nccc_platform_unlock();
  if (index < 0) {
    nccc_fail(NCCC_ERR_MODULES_FULL, "runtime.SystemLib",
              "all TVM_CRT_MAX_REGISTERED_MODULES slots taken");
    return -1;
  }
  ret_val[0].v_handle = module_handle((tvm_module_index_t)index);
  ret_type_code[0] = kTVMModuleHandle;
  return 0;
}

/* "tvm.rpc.server.ModuleGetFunction"(module, name, query_imports): the
** function handle, or a null value when the module has no such function
** (no error, as in TVM). Wrong arguments are errors here (TVM returned 0
** and a null value). */
static int module_get_function(TVMValue *args, int *type_codes, int num_args,
                               TVMValue *ret_val, int *ret_type_code,
                               void *resource_handle) {
  int err;
  (void)resource_handle;
  if (num_args != 3) {
    return nccci_tvm_fail(kTvmErrorFunctionCallNumArguments,
                          "tvm.rpc.server.ModuleGetFunction",
                          "expects 3 arguments");
  }
  if (type_codes[0] != kTVMModuleHandle || type_codes[1] != kTVMStr ||
      type_codes[2] != kDLInt) {
    return nccci_tvm_fail(kTvmErrorFunctionCallWrongArgType,
                          "tvm.rpc.server.ModuleGetFunction",
                          "expects (module, str, int)");
  }
  err = TVMModGetFunction(args[0].v_handle, args[1].v_str,
                          args[2].v_int64 != 0, &ret_val[0].v_handle);
  if (err == 0) {
    ret_type_code[0] = kTVMPackedFuncHandle;
  } else if (err == kTvmErrorFunctionNameNotFound) {
    err = 0;
  }
  return err;
}

const nccci_tvm_builtin nccci_tvm_builtins[] = {
    {"runtime.SystemLib", system_lib},
    {"tvm.rpc.server.ModuleGetFunction", module_get_function},
};
const uint16_t nccci_tvm_builtin_count =
    (uint16_t)(sizeof nccci_tvm_builtins / sizeof nccci_tvm_builtins[0]);

const TVMFuncRegistry *nccci_tvm_global_registry(void) {
  return &S.global.registry;
}

/* ---- initialisation -------------------------------------------------------------- */

tvm_crt_error_t TVMInitializeRuntime(void) {
  tvm_crt_error_t err;
  uint16_t i;
  S.initialized = 0;
  memset(S.modules, 0, sizeof S.modules);
  S.system_lib = -1;
  err = TVMMutableFuncRegistry_Create(&S.global, global_buffer,
                                      sizeof global_buffer);
  for (i = 0; err == kTvmErrorNoError && i < nccci_tvm_builtin_count; i++) {
    err = TVMMutableFuncRegistry_Set(&S.global, nccci_tvm_builtins[i].name,
                                     nccci_tvm_builtins[i].func, 0);
  }
  if (err == kTvmErrorNoError) S.initialized = 1;
  return err;
}

/* ---- weak defaults ------------------------------------------------------------------ */

/* (Windows' linker does not let a weak definition of an archive member
** satisfy a program's own reference: there each default is an archive
** member of its own, tvm_default_system_lib.c and tvm_default_abort.c.) */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
__attribute__((weak)) const TVMModule *TVMSystemLibEntryPoint(void) {
  return NULL;
}

__attribute__((weak)) void TVMPlatformAbort(tvm_crt_error_t code) {
  nccc_platform_abort((nccc_status)code);
  for (;;) {
  }
}
#endif

#endif /* NCCC_WITH_TVM */
