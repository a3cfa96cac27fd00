/*
** tvm/runtime/crt/crt.h — starting the runtime.
*/
#ifndef TVM_RUNTIME_CRT_CRT_H_
#define TVM_RUNTIME_CRT_CRT_H_

#include "error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** Resets the TVM-compatible runtime: an empty module table, a global
** function registry in a static buffer of
** TVM_CRT_GLOBAL_FUNC_REGISTRY_SIZE_BYTES (nothing is allocated), holding
** only the built-ins "runtime.SystemLib" and
** "tvm.rpc.server.ModuleGetFunction". Calling it again gives the same
** fresh runtime: globals and modules registered before are gone, earlier
** handles are stale. Returns kTvmErrorNoError, or the error of
** registering a built-in (a registry configured too small).
** Not thread-safe: call it before other threads use the runtime.
*/
TVM_DLL tvm_crt_error_t TVMInitializeRuntime(void);

#ifdef __cplusplus
}
#endif

#endif
