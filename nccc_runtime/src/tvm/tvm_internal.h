/*
** tvm_internal.h — what the TVM-compatible files share with each other
** and with their tests. Not part of the public API.
*/
#ifndef NCCC_TVM_INTERNAL_H
#define NCCC_TVM_INTERNAL_H

#include <stdint.h>

#include <tvm/runtime/crt/func_registry.h>

/* One function TVMInitializeRuntime registers. The table's type makes
** the compiler check that every built-in has the 6-parameter
** TVMBackendPackedCFunc type (TVM passed its built-ins through a void *
** and registered 5-parameter functions as 6-parameter ones). */
typedef struct nccc_tvm_builtin {
  const char *name;
  TVMBackendPackedCFunc func;
} nccc_tvm_builtin;

extern const nccc_tvm_builtin nccc_tvm_builtins[];
extern const uint16_t nccc_tvm_builtin_count;

/* The global function registry (for tests and diagnostics). */
const TVMFuncRegistry *nccc_tvm_global_registry(void);

/* TVMFuncRegistry_Lookup without recording an error on a miss (for
** callers to which a miss is no failure). reg, its names and name must
** not be NULL. Returns 1 and sets *out when found, else 0. */
int nccc_tvm_find(const TVMFuncRegistry *reg, const char *name,
                  tvm_function_index_t *out);

/* Records a failure (nccc_fail, whose codes agree with TVM's) and
** returns code. */
tvm_crt_error_t nccc_tvm_fail(tvm_crt_error_t code, const char *what,
                              const char *detail);

#endif
