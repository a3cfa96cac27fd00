/*
** tvm/runtime/c_runtime_api.h — TVM's C runtime API, as far as its
** micro runtime (the CRT) implemented it, provided by nccc.
**
** Values crossing the API are a TVMValue plus a type code from
** TVMArgTypeCode (TVM's numbers). Functions and modules are referred to
** by handles that are small integers disguised as pointers, encoded as in
** TVM's CRT (see docs/TVM.md); they are never 0 and never dereferenced.
**
** Return values: 0 on success. A bad handle gives -1, as in TVM; registry
** problems give the tvm_crt_error_t code (tvm/runtime/crt/error_codes.h).
** Every failure also records a message for the calling thread, read with
** TVMGetLastError (one buffer per thread, unlike TVM's single one).
** Call TVMInitializeRuntime (tvm/runtime/crt/crt.h) first; until then
** the module and function calls fail with kTvmErrorNcccNotInitialized.
*/
#ifndef TVM_RUNTIME_C_RUNTIME_API_H_
#define TVM_RUNTIME_C_RUNTIME_API_H_

#include <stddef.h>
#include <stdint.h>

#include "../../../visibility.h"
#include "../../dlpack/dlpack.h"

#ifdef _MSC_VER
#define TVM_WEAK __declspec(selectany)
#else
#define TVM_WEAK __attribute__((weak))
#endif

/* TVM's export macro: the nccc API's (nccc/visibility.h). */
#ifndef TVM_DLL
#define TVM_DLL NCCC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t tvm_index_t;

/* Device types TVM adds to DLDeviceType. */
typedef enum {
  kDLAOCL = 32,
  kDLSDAccel,
  kOpenGL,
  kDLMicroDev,
  TVMDeviceExtType_End
} TVMDeviceExtType;

/* The type code of each TVMValue passed to or returned from a packed
** function. 0..2 coincide with DLPack's kDLInt, kDLUInt, kDLFloat. */
typedef enum {
  kTVMArgInt = kDLInt,
  kTVMArgFloat = kDLFloat,
  kTVMOpaqueHandle = 3U,
  kTVMNullptr = 4U,
  kTVMDataType = 5U,
  kDLDevice = 6U,
  kTVMDLTensorHandle = 7U,
  kTVMObjectHandle = 8U,
  kTVMModuleHandle = 9U,
  kTVMPackedFuncHandle = 10U,
  kTVMStr = 11U,
  kTVMBytes = 12U,
  kTVMNDArrayHandle = 13U,
  kTVMObjectRValueRefArg = 14U,
  kTVMArgBool = 15U,
  /* Ranges reserved for frameworks built on TVM's packed functions. */
  kTVMExtBegin = 16U,
  kTVMNNVMFirst = 16U,
  kTVMNNVMLast = 20U,
  kTVMExtReserveEnd = 64U,
  kTVMExtEnd = 128U
} TVMArgTypeCode;

typedef DLTensor *TVMArrayHandle;

/* One argument or return value; the type code says which member is live. */
typedef union {
  int64_t v_int64;
  double v_float64;
  void *v_handle;
  const char *v_str;
  DLDataType v_type;
  DLDevice v_device;
} TVMValue;

/* The value behind kTVMBytes. */
typedef struct {
  const char *data;
  size_t size;
} TVMByteArray;

typedef void *TVMModuleHandle;
typedef void *TVMFunctionHandle;
typedef void *TVMRetValueHandle;
typedef void *TVMStreamHandle;
typedef void *TVMObjectHandle;

/* ---- errors ---------------------------------------------------------- */

/* Records msg as this thread's last error (a packed function does this
** before returning non-zero). NULL forgets the last error. Messages are
** cut to NCCC_ERROR_MESSAGE_BYTES - 1 bytes. */
TVM_DLL void TVMAPISetLastError(const char *msg);

/* The same with printf formatting; returns what vsnprintf returned (the
** untruncated length). Lives in its own object file, so programs that
** never call it do not link the printf machinery. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 1, 2)))
#endif
TVM_DLL int TVMAPIErrorf(const char *fmt, ...);

/* The calling thread's last error message; "" when there is none. Valid
** until this thread's next failing call. */
TVM_DLL const char *TVMGetLastError(void);

/* ---- modules ------------------------------------------------------------ */

/*
** Finds func_name in module mod (query_imports is ignored: CRT modules
** import nothing). On success *out is a function handle.
** Returns 0; -1 for a module handle that names no present module;
** kTvmErrorFunctionNameNotFound (*out untouched) when the module has no
** such function; kTvmErrorNcccNullPointer for a NULL func_name or out.
*/
TVM_DLL int TVMModGetFunction(TVMModuleHandle mod, const char *func_name,
                              int query_imports, TVMFunctionHandle *out);

/*
** Unregisters module mod; its function handles stop working. Freeing the
** system library's module is a successful no-op, as in TVM (it stays for
** the runtime's lifetime). Returns 0, or -1 when mod names no present
** module (freeing twice included).
*/
TVM_DLL int TVMModFree(TVMModuleHandle mod);

/* ---- functions ------------------------------------------------------------- */

/*
** Registers f, which must be a TVMBackendPackedCFunc (the 6-parameter type
** of c_backend_api.h), as the global function name. override != 0 replaces
** an existing function of that name in place (its handle stays valid).
** Returns the error of TVMMutableFuncRegistry_Set (0 on success), or
** kTvmErrorNcccNullPointer when f is NULL.
*/
TVM_DLL int TVMFuncRegisterGlobal(const char *name, TVMFunctionHandle f,
                                  int override);

/*
** Finds the global function name. *out is its handle, or NULL when there
** is no such function: that is not an error (0 is returned), as in TVM.
** Returns kTvmErrorNcccNullPointer for a NULL name or out.
*/
TVM_DLL int TVMFuncGetGlobal(const char *name, TVMFunctionHandle *out);

/*
** Calls the function behind func. ret_val[0] and ret_type_code[0] are
** preset to NULL / kTVMNullptr. The function's resource_handle argument
** is NULL for a global function and the module's registry pointer (the
** TVMModule's `registry` member) for a module function, as in TVM.
** Returns what the function returned; -1 (nothing called) for a handle
** that names no present function; kTvmErrorNcccNullPointer for a NULL
** ret_val or ret_type_code, or NULL arrays with num_args > 0;
** kTvmErrorFunctionCallNumArguments for num_args < 0.
*/
TVM_DLL int TVMFuncCall(TVMFunctionHandle func, TVMValue *arg_values,
                        int *type_codes, int num_args, TVMValue *ret_val,
                        int *ret_type_code);

/* Nothing to free (handles own nothing); returns 0. */
TVM_DLL int TVMFuncFree(TVMFunctionHandle func);

#ifdef __cplusplus
}
#endif

#endif
