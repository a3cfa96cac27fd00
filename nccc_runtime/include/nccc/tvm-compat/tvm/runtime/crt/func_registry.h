/*
** tvm/runtime/crt/func_registry.h — TVM CRT's function registries.
**
** A registry is a names blob plus a function table. The blob is TVM's:
** a 2-byte native-endian count, each name followed by NUL, then one more
** NUL; funcs[i] is the function of the i-th name. A const registry is
** plain initialised data (it can live in flash); a mutable one is carved
** out of a caller-supplied buffer and never allocates.
**
** Every function leaves its out-parameter untouched on failure and
** records a message for the calling thread (TVMGetLastError).
*/
#ifndef TVM_RUNTIME_CRT_FUNC_REGISTRY_H_
#define TVM_RUNTIME_CRT_FUNC_REGISTRY_H_

#include <stddef.h>
#include <stdint.h>

#include "../c_backend_api.h"
#include "error_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint16_t tvm_function_index_t;
typedef uint16_t tvm_module_index_t;

typedef struct TVMFuncRegistry {
  const char *names;                 /* the names blob */
  const TVMBackendPackedCFunc *funcs; /* in the order of the names */
} TVMFuncRegistry;

/* ---- reading any registry ---------------------------------------------- */

/* The number of functions (the blob's count); 0 for a NULL registry or
** one without a blob. */
TVM_DLL uint16_t TVMFuncRegistry_GetNumFuncs(const TVMFuncRegistry *reg);

/*
** Writes num_funcs into the blob's count. Only for a blob in writable
** memory that really holds that many names; TVMMutableFuncRegistry_Set
** keeps the count itself. Returns 0, or kTvmErrorNcccNullPointer.
*/
TVM_DLL int TVMFuncRegistry_SetNumFuncs(const TVMFuncRegistry *reg,
                                        const uint16_t num_funcs);

/* The first name (right after the count); NULL for a NULL registry. */
TVM_DLL const char *TVMFuncRegistry_Get0thFunctionName(const TVMFuncRegistry *reg);

/*
** Finds name. Returns kTvmErrorNoError and sets *function_index, or
** kTvmErrorFunctionNameNotFound, or kTvmErrorNcccNullPointer (reg, its
** names, name or function_index NULL).
*/
TVM_DLL tvm_crt_error_t TVMFuncRegistry_Lookup(const TVMFuncRegistry *reg,
                                               const char *name,
                                               tvm_function_index_t *function_index);

/*
** The function at index. Returns kTvmErrorNoError and sets *out_func,
** kTvmErrorFunctionIndexInvalid when index >= the count (so for every
** index of an empty registry, whose funcs may be NULL), or
** kTvmErrorNcccNullPointer.
*/
TVM_DLL tvm_crt_error_t TVMFuncRegistry_GetByIndex(const TVMFuncRegistry *reg,
                                                   tvm_function_index_t index,
                                                   TVMBackendPackedCFunc *out_func);

/* ---- mutable registries ------------------------------------------------ */

/*
** Buffer layout: the names blob grows upward from the buffer's first
** byte; the function table (max_functions entries) sits at the buffer's
** end, aligned for function pointers whatever the buffer's address.
** Before anything is written, a Set checks that the name, its NUL and
** the blob's final NUL fit below the table.
*/
typedef struct TVMMutableFuncRegistry {
  TVMFuncRegistry registry;
  size_t max_functions;
} TVMMutableFuncRegistry;

/* TVM's sizing guess: an average name of 10 bytes, its NUL, one pointer. */
#define TVM_AVERAGE_FUNCTION_NAME_STRLEN_BYTES 10
static const size_t kTvmAverageFunctionNameStrlenBytes =
    TVM_AVERAGE_FUNCTION_NAME_STRLEN_BYTES;
static const size_t kTvmAverageFuncEntrySizeBytes =
    TVM_AVERAGE_FUNCTION_NAME_STRLEN_BYTES + 1 + sizeof(void *);

/* The smallest buffer TVMMutableFuncRegistry_Create accepts: TVM's one
** average entry plus the bytes that aligning the table may cost. */
#define NCCC_TVM_REGISTRY_MIN_BYTES                                   \
  (TVM_AVERAGE_FUNCTION_NAME_STRLEN_BYTES + 1 + sizeof(void *) +      \
   sizeof(TVMBackendPackedCFunc) - 1)

/*
** Makes reg an empty registry in buffer. max_functions becomes
** buffer_size_bytes / kTvmAverageFuncEntrySizeBytes (at most 0x7fff,
** the largest function index a handle holds), as in TVM.
** Returns kTvmErrorNoError; kTvmErrorBufferTooSmall when buffer_size_bytes
** < NCCC_TVM_REGISTRY_MIN_BYTES (nothing written); kTvmErrorNcccNullPointer.
*/
TVM_DLL tvm_crt_error_t TVMMutableFuncRegistry_Create(TVMMutableFuncRegistry *reg,
                                                      uint8_t *buffer,
                                                      size_t buffer_size_bytes);

/*
** Adds func as name, or, with override != 0, replaces the function of an
** existing name in place (same index, so handles stay valid; this works
** on a full registry too). On any error nothing changes.
** Returns kTvmErrorNoError;
**   kTvmErrorFunctionAlreadyDefined  name exists and override == 0;
**   kTvmErrorFunctionRegistryFull    a new name and max_functions entries
**                                    present, or no room for the name;
**   kTvmErrorNcccBadName             empty name, or one too long for
**                                    char[TVM_CRT_MAX_STRLEN_FUNCTION_NAME]
**                                    (crt_config.h as the runtime was
**                                    built);
**   kTvmErrorNcccNullPointer         reg, name or func NULL, or reg never
**                                    created.
*/
TVM_DLL tvm_crt_error_t TVMMutableFuncRegistry_Set(TVMMutableFuncRegistry *reg,
                                                   const char *name,
                                                   TVMBackendPackedCFunc func,
                                                   int override);

#ifdef __cplusplus
}
#endif

#endif
