/*
** tvm/runtime/crt/platform.h — what the runtime needs from its platform.
**
** nccc takes its platform hooks from nccc/platform.h (nccc_platform_set):
** memory for TVMBackendAllocWorkspace, the lock around registration and
** the abort. Only the abort keeps TVM's name, because TVM code calls it.
*/
#ifndef TVM_RUNTIME_CRT_PLATFORM_H_
#define TVM_RUNTIME_CRT_PLATFORM_H_

#include "../c_runtime_api.h"
#include "error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
** Called when execution cannot continue; must not return. The runtime
** carries a weak definition that calls the nccc platform's abort hook
** (nccc_platform_abort), so defining it is optional.
*/
#if defined(_MSC_VER)
__declspec(noreturn) void TVMPlatformAbort(tvm_crt_error_t code);
#else
TVM_DLL void __attribute__((noreturn)) TVMPlatformAbort(tvm_crt_error_t code);
#endif

#ifdef __cplusplus
}
#endif

#endif
