/*
** tvm_internal.h — what the TVM-compatible files share with each other
** and with their tests. Not part of the public API.
*/
#ifndef NCCC_TVM_INTERNAL_H
#define NCCC_TVM_INTERNAL_H

#include <stdint.h>

#include <nccc/config.h>
#include <nccc/visibility.h>
#include <tvm/runtime/crt/func_registry.h>

/* One function TVMInitializeRuntime registers. The table's type makes
** the compiler check that every built-in has the 6-parameter
** TVMBackendPackedCFunc type (TVM passed its built-ins through a void *
** and registered 5-parameter functions as 6-parameter ones). */
typedef struct nccci_tvm_builtin {
  const char *name;
  TVMBackendPackedCFunc func;
} nccci_tvm_builtin;

NCCC_INTERNAL extern const nccci_tvm_builtin nccci_tvm_builtins[];
NCCC_INTERNAL extern const uint16_t nccci_tvm_builtin_count;

/* The global function registry (for tests and diagnostics). */
NCCC_INTERNAL const TVMFuncRegistry *nccci_tvm_global_registry(void);

/* TVMFuncRegistry_Lookup without recording an error on a miss (for
** callers to which a miss is no failure). reg, its names and name must
** not be NULL. Returns 1 and sets *out when found, else 0. */
NCCC_INTERNAL int nccci_tvm_find(const TVMFuncRegistry *reg, const char *name,
                                 tvm_function_index_t *out);

/* Records a failure (nccc_fail, whose codes agree with TVM's) and
** returns code. */
NCCC_INTERNAL tvm_crt_error_t nccci_tvm_fail(tvm_crt_error_t code, const char *what,
                                             const char *detail);

#endif
