/*
** nccc/packed.h — packed functions: TVM's calling convention and nccc's,
** bridged both ways (docs/PACKED.md).
**
** A packed function (TVMBackendPackedCFunc) takes TVMValues with type
** codes and returns one value with its type code; an nccc function takes
** and returns slots. This header provides
**
**   forward   typed calls of packed functions from slots: what the
**             wrappers of `packed "NAME" ...;` IDL declarations call;
**   backward  any nccc function registered as a global packed function,
**             so C code calls it with TVMFuncGetGlobal + TVMFuncCall;
**             argument counts and type codes are checked before it runs;
**   dynamic   calls with the type codes in the slot buffer, for hosts
**             without generated code (the nccc module "tvm").
**
** Packed signatures. One code per argument, ':', then the result's code
** or nothing (no result). The codes:
**
**   code   C type              sent as               also accepted
**   ?      bool                kTVMArgBool           kDLInt, kDLUInt
**   b B    int8_t / uint8_t    kDLInt                kDLUInt, kTVMArgBool
**   h H    int16_t / uint16_t  kDLInt                   "
**   i I    int32_t / uint32_t  kDLInt                   "
**   l L    int64_t / uint64_t  kDLInt                   "
**   f d    float / double      kDLFloat              kDLInt
**   p      void *              kTVMOpaqueHandle      kTVMNullptr
**   s      const char *        kTVMStr               kTVMNullptr
**   y      TVMByteArray *      kTVMBytes             kTVMNullptr
**   m      TVMModuleHandle     kTVMModuleHandle      kTVMNullptr
**   k      TVMFunctionHandle   kTVMPackedFuncHandle  kTVMNullptr
**   t      DLTensor *          kTVMDLTensorHandle    kTVMNDArrayHandle,
**                                                    kTVMNullptr
**
** A NULL pointer is sent as kTVMNullptr. A received value must fit the
** declared type exactly (an int8_t argument of 300 is refused; a uint64_t
** travels as the bits of v_int64, also above INT64_MAX, which TVM's own
** C++ refuses to send); nothing is truncated. The
** slots themselves follow the slot ABI (nccc/slot.h): in a signature
** understood by the registry, y m k t are all 'p'.
**
** Errors are TVM's ints: 0, -1 for a handle that names nothing, or a
** tvm_crt_error_t (equal to the nccc_status of the same condition):
** kTvmErrorFunctionCallNumArguments, kTvmErrorFunctionCallWrongArgType
** (a type code not accepted), kTvmErrorFunctionCallInvalidArg (a value
** that does not fit), kTvmErrorFunctionNameNotFound, ... Every failure
** records a message for the calling thread (TVMGetLastError).
**
** The TVM-compatible runtime must be initialised (TVMInitializeRuntime);
** the nccc runtime (nccc_init) only for nccc_packed_register_handle and
** the module "tvm". Nothing here allocates.
*/
#ifndef NCCC_PACKED_H
#define NCCC_PACKED_H

#include <stdint.h>

#include "abi.h"
#include "call.h"
#include "slot.h"
#include "status.h"
#include "visibility.h"
#include "tvm-compat/tvm/runtime/c_backend_api.h"
#include "tvm-compat/tvm/runtime/c_runtime_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most arguments of a packed call the bridge converts (1..255). The
** runtime's build sets it; generated code checks its own calls against
** the value it is compiled with. */
#ifndef NCCC_PACKED_MAX_ARGS
#define NCCC_PACKED_MAX_ARGS 16
#endif

/* nccc functions that can be registered as packed functions at once
** (1..4095): each takes one static adapter function. */
#ifndef NCCC_PACKED_MAX_ADAPTERS
#if defined(__unix__) || defined(__APPLE__) || defined(_WIN32)
#define NCCC_PACKED_MAX_ADAPTERS 16
#else
#define NCCC_PACKED_MAX_ADAPTERS 4
#endif
#endif

/* ---- forward: calling packed functions ---------------------------------- */

/* Where a packed function is found. */
typedef enum nccc_packed_where {
  NCCC_PACKED_GLOBAL = 0,    /* TVMFuncGetGlobal(name) */
  NCCC_PACKED_MODULE = 1,    /* TVMModGetFunction(module, name) */
  NCCC_PACKED_SYSTEM_LIB = 2 /* the same in the module "runtime.SystemLib"
                                returns */
} nccc_packed_where;

/*
** Finds name where says (mod is used for NCCC_PACKED_MODULE only).
** Returns 0 and sets *out; kTvmErrorFunctionNameNotFound (an absent
** global too, unlike TVMFuncGetGlobal); -1 for a module handle that names
** no module (or a failing "runtime.SystemLib"); kTvmErrorNcccNullPointer
** (name or out NULL); kTvmErrorFunctionCallInvalidArg (unknown where);
** kTvmErrorNcccNotInitialized. *out is untouched on failure.
*/
NCCC_API int nccc_packed_find(const char *name, nccc_packed_where where,
                              TVMModuleHandle mod, TVMFunctionHandle *out);

/*
** Calls f with the arguments in in[] (one slot each, as psig says),
** through TVMFuncCall. On success *ret_slot (may be NULL) gets the result
** as a slot, or 0 when psig declares none. Returns 0; the function's own
** non-zero result; kTvmErrorFunctionCallWrongArgType /
** kTvmErrorFunctionCallInvalidArg when the result's type code or value
** does not fit psig; NCCC_ERR_BAD_SIGNATURE for a malformed psig (nothing
** called); TVMFuncCall's errors. *ret_slot is untouched on failure.
*/
NCCC_API int nccc_packed_call(TVMFunctionHandle f, const char *psig,
                              const uint64_t *in, uint64_t *ret_slot);

/*
** The body of a generated forward wrapper, an nccc function with
**   in[]   the module handle (NCCC_PACKED_MODULE only), then the
**          arguments as psig says;
**   out[]  out[0] = the status as int (0, or an error as above, of
**          nccc_packed_find or nccc_packed_call), out[1] = the result
**          (when psig has one; 0 on failure).
** The name is looked up at every call: handles do not survive
** TVMInitializeRuntime, an override or a module being freed.
*/
NCCC_API void nccc_packed_forward(const char *name, nccc_packed_where where,
                                  const char *psig, const uint64_t *in, uint64_t *out);

/* ---- backward: nccc functions as packed functions ----------------------- */

/* Flags of nccc_packed_register: NCCC_PACKED_OVERRIDE (replace a global
** of the same name) and NCCC_PACKED_STATUS (fn writes a status to out[0]
** and its result to out[1]), from nccc/abi.h (generated from
** idl/abi.json). */

/*
** Registers fn as the global packed function name (TVMFuncRegisterGlobal)
** through one of NCCC_PACKED_MAX_ADAPTERS static adapters. The adapter
** checks num_args and every type code against psig (see above) before
** fn runs, converts the arguments to slots, calls fn and converts out[0]
** (out[1] with NCCC_PACKED_STATUS) to the returned value. A mismatch
** returns kTvmErrorFunctionCallNumArguments,
** kTvmErrorFunctionCallWrongArgType or kTvmErrorFunctionCallInvalidArg
** without calling fn. resource_handle is ignored.
** An adapter is free again once its name is registered anew (an
** override) or TVMInitializeRuntime has run; the registry cannot remove
** a name otherwise.
** Errors: NCCC_ERR_NULL_POINTER (name, fn or psig NULL),
** NCCC_ERR_BAD_SIGNATURE (psig malformed, or more than
** NCCC_PACKED_MAX_ARGS arguments), NCCC_ERR_INVALID_ARG (unknown flag),
** NCCC_ERR_POOL_EXHAUSTED (every adapter in use), and those of
** TVMFuncRegisterGlobal (kTvmErrorFunctionAlreadyDefined,
** kTvmErrorFunctionRegistryFull, kTvmErrorNcccBadName,
** kTvmErrorNcccNotInitialized); on any error no adapter is taken.
** Thread safety: takes the platform lock; calls take none. Do not
** override a name while a call through it may be running.
*/
NCCC_API nccc_status nccc_packed_register(const char *name, nccc_fn fn,
                                          const char *psig, unsigned flags);

/*
** The same for a host's dispatcher (docs/CALLBACKS.md): fn is called
** with in[0] = env and the arguments from in[1] on, as for a callback.
** The host keeps what env names alive while the name is registered; no
** notice comes when it stops being (TVM's registry cannot tell).
** Errors: those of nccc_packed_register.
*/
NCCC_API nccc_status nccc_packed_register_env(const char *name, nccc_fn fn,
                                              uint64_t env, const char *psig,
                                              unsigned flags);

/*
** The same for the function behind an nccc handle. psig NULL derives the
** packed signature from the function's registry signature (its 'p'
** arguments become opaque handles); a psig given must agree with it
** (s may stand for p, and y m k t are p). With NCCC_PACKED_STATUS the
** registry signature's out side must start with 'i'.
** Errors: those of nccc_packed_register; NCCC_ERR_BAD_HANDLE;
** NCCC_ERR_BAD_SIGNATURE (a registry signature with struct, '*', 'F' or
** 'e' codes or more than one result, or one that disagrees with psig).
*/
NCCC_API nccc_status nccc_packed_register_handle(const char *name, nccc_handle handle,
                                                 const char *psig, unsigned flags);

/* NCCC_OK if psig is a well-formed packed signature; else
** NCCC_ERR_BAD_SIGNATURE (or NCCC_ERR_NULL_POINTER) with the reason. */
NCCC_API nccc_status nccc_packed_check_signature(const char *psig);

/* Adapters in all (the build's NCCC_PACKED_MAX_ADAPTERS), and how many
** are free now. */
NCCC_API unsigned nccc_packed_capacity(void);
NCCC_API unsigned nccc_packed_available(void);

/* ---- dynamic calls -------------------------------------------------------- */

/*
** Calls f with num_args arguments given as pairs (type code, value slot)
** in pairs[0 .. 2 * num_args). The value slot of
**   kDLInt, kDLUInt, kTVMArgBool        is v_int64 (its bits);
**   kDLFloat                            the double's bits;
**   kTVMNullptr                         ignored (NULL is sent);
**   kTVMDataType, kDLDevice             the value's bytes, as a struct in
**                                       a slot (nccc/slot.h);
**   every other code up to kTVMArgBool  a pointer (kTVMStr: a C string,
**                                       kTVMBytes: a TVMByteArray *, ...).
** On success *ret_code and *ret_value get the result the same way. Returns
** 0; the function's non-zero result; kTvmErrorFunctionCallNumArguments
** (num_args < 0 or > NCCC_PACKED_MAX_ARGS); kTvmErrorFunctionCallWrongArgType
** (a code nccc does not convert, in either direction);
** kTvmErrorFunctionCallInvalidArg (a pointer slot wider than a pointer);
** kTvmErrorNcccNullPointer; TVMFuncCall's errors. Nothing is called on
** an argument error; *ret_code and *ret_value are untouched on failure.
*/
NCCC_API int nccc_packed_call_dynamic(TVMFunctionHandle f, int num_args,
                                      const uint64_t *pairs, int *ret_code,
                                      uint64_t *ret_value);

/*
** Adds the nccc module "tvm", so a host that has only nccc_root can find,
** call and register packed functions. Each function writes its status
** (0 or an error as above) to out[0]:
**   tvm.get_global       s:ip     name -> handle (absent: not found)
**   tvm.module_function  ps:ip    module, name -> handle
**   tvm.system_lib       :ip      -> module handle of runtime.SystemLib
**   tvm.call_packed      pi*:iiL  handle, num_args, then (code, value)
**                                 per argument -> ret code, ret value
**   tvm.call_global      si*:iiL  the same, by name (looked up per call)
**   tvm.register         sFsI:i   name, nccc fn, psig, flags
**   tvm.register_env     sFLsI:i  name, dispatcher, env, psig, flags
**   tvm.register_handle  sIsI:i   name, nccc handle, psig or 0, flags
**   tvm.adapters         :iII     -> free adapters, capacity
**   tvm.set_last_error   s:i      TVMAPISetLastError(message)
** The buffers of call_packed / call_global hold 2 + 2 * num_args in
** slots (the registry checks the minimum, 2) and 3 out slots.
** Errors: those of nccc_module_add (NCCC_ERR_ALREADY_DEFINED when it is
** present already). *out_index (may be NULL) gets its module index.
*/
NCCC_API nccc_status nccc_tvm_module_add(uint16_t *out_index);

#ifdef __cplusplus
}
#endif

#endif
