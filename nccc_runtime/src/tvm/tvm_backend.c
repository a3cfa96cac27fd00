/*
** tvm_backend.c — the backend calls of TVM-generated code: workspace
** memory through the nccc platform's hooks, parallel launches run on
** the calling thread (the CRT has no thread pool), global functions
** looked up for an operator, one-time initialisation.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/platform.h>
#include <nccc/status.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/c_runtime_api.h>

#include "tvm_internal.h"

#if NCCC_WITH_TVM

void *TVMBackendAllocWorkspace(int device_type, int device_id,
                               uint64_t nbytes, int dtype_code_hint,
                               int dtype_bits_hint) {
  void *p;
  (void)device_type;
  (void)device_id;
  (void)dtype_code_hint;
  (void)dtype_bits_hint;
  if (nbytes == 0) {
    nccc_fail(NCCC_ERR_INVALID_ARG, "TVMBackendAllocWorkspace", "0 bytes");
    return NULL;
  }
#if SIZE_MAX < UINT64_MAX
  if (nbytes > SIZE_MAX) {
    nccc_fail(NCCC_ERR_NO_MEMORY, "TVMBackendAllocWorkspace",
              "size exceeds the address space");
    return NULL;
  }
#endif
  p = nccc_platform_get()->alloc((size_t)nbytes);
  if (p == NULL) {
    nccc_fail(NCCC_ERR_NO_MEMORY, "TVMBackendAllocWorkspace",
              "platform allocator failed");
  }
  return p;
}

int TVMBackendFreeWorkspace(int device_type, int device_id, void *ptr) {
  (void)device_type;
  (void)device_id;
  if (ptr != NULL) nccc_platform_get()->free(ptr);
  return 0;
}

int TVMBackendParallelLaunch(FTVMParallelLambda flambda, void *cdata,
                             int num_task) {
  TVMParallelGroupEnv env;
  (void)num_task;
  if (flambda == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMBackendParallelLaunch",
                          NULL);
  }
  env.sync_handle = NULL;
  env.num_task = 1;
  return flambda(0, &env, cdata);
}

int TVMBackendParallelBarrier(int task_id, TVMParallelGroupEnv *penv) {
  (void)task_id;
  (void)penv;
  return 0;
}

int TVMBackendRegisterSystemLibSymbol(const char *name, void *ptr) {
  return TVMFuncRegisterGlobal(name, ptr, 0);
}

int TVMBackendGetFuncFromEnv(void *mod_node, const char *func_name,
                             TVMFunctionHandle *func) {
  TVMFunctionHandle found = NULL;
  int status;
  (void)mod_node;
  if (func == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMBackendGetFuncFromEnv",
                          NULL);
  }
  status = TVMFuncGetGlobal(func_name, &found);
  if (status != 0) return status;
  if (found == NULL) {
    return nccci_tvm_fail(kTvmErrorFunctionNameNotFound,
                          "TVMBackendGetFuncFromEnv", func_name);
  }
  *func = found;
  return 0;
}

int TVMBackendRunOnce(void **handle, int (*f)(void *), void *cdata,
                      int nbytes) {
  int first;
  (void)nbytes;
  if (handle == NULL || f == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMBackendRunOnce", NULL);
  }
  /* The flag is claimed under the lock, so that two threads never both
  ** run f; the second one does not wait for the first to finish. */
  nccc_platform_lock();
  first = *handle == NULL;
  if (first) *handle = (void *)handle;
  nccc_platform_unlock();
  return first ? f(cdata) : 0;
}

/* The functions a Python environment offers TVM's C++ runtime. */
static const char *const env_capi_names[] = {
    "PyErr_CheckSignals", "Py_IncRef", "Py_DecRef", "PyGILState_Ensure",
    "PyGILState_Release"};

int TVMBackendRegisterEnvCAPI(const char *name, void *ptr) {
  size_t i;
  (void)ptr;
  if (name == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMBackendRegisterEnvCAPI",
                          NULL);
  }
  for (i = 0; i < sizeof env_capi_names / sizeof env_capi_names[0]; i++) {
    if (strcmp(name, env_capi_names[i]) == 0) return 0;
  }
  return nccci_tvm_fail(kTvmErrorFunctionNameNotFound,
                        "TVMBackendRegisterEnvCAPI", name);
}

#endif /* NCCC_WITH_TVM */
