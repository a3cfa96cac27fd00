/*
** tvm_backend.c — the backend calls of TVM-generated code: workspace
** memory through the nccc platform's hooks, and parallel launches run on
** the calling thread (the CRT has no thread pool).
*/
#include <stddef.h>
#include <stdint.h>

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

#endif /* NCCC_WITH_TVM */
