/*
** tvm_registry.c — TVM CRT's function registries (TVMFuncRegistry_*,
** TVMMutableFuncRegistry_*) on nccc's names blobs.
**
** A mutable registry's buffer: the names blob grows upward from byte 0,
** the function table sits at the end, aligned down from where TVM put it.
** TVM left the table wherever buffer + size - n * sizeof(void *) fell,
** misaligned for most buffers; it also let the blob's final NUL land on
** the table's first byte when a name exactly filled the names area, and
** took "" as a name, which ended the blob early while the count went up.
** Here every write is checked against the table first.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/registry.h>
#include <nccc/status.h>
#include <tvm/runtime/crt/func_registry.h>

#include "crt_config.h"
#include "tvm_internal.h"

#if NCCC_WITH_TVM

/* TVM's codes and nccc's agree wherever both name a condition. */
#define SAME_STATUS(name, tvm_name) \
  _Static_assert((int)tvm_name == (int)name, #tvm_name " is " #name);
NCCC_ABI_TVM_STATUSES(SAME_STATUS)

_Static_assert(TVM_CRT_MAX_STRLEN_FUNCTION_NAME >= 2,
               "TVM_CRT_MAX_STRLEN_FUNCTION_NAME leaves no room for a name");

#define FUNC_ALIGN offsetof(struct { char c; TVMBackendPackedCFunc f; }, f)

/* The longest name, without its NUL. */
#define NAME_MAX_BYTES ((size_t)TVM_CRT_MAX_STRLEN_FUNCTION_NAME - 1)

tvm_crt_error_t nccci_tvm_fail(tvm_crt_error_t code, const char *what,
                               const char *detail) {
  nccc_fail((nccc_status)code, what, detail);
  return code;
}

/* strlen that stops looking after max + 1 bytes. */
static size_t bounded_strlen(const char *s, size_t max) {
  size_t n = 0;
  while (n <= max && s[n] != '\0') n++;
  return n;
}

/* ---- reading any registry ---------------------------------------------- */

uint16_t TVMFuncRegistry_GetNumFuncs(const TVMFuncRegistry *reg) {
  return reg != NULL ? nccc_names_count(reg->names) : 0;
}

int TVMFuncRegistry_SetNumFuncs(const TVMFuncRegistry *reg,
                                const uint16_t num_funcs) {
  if (reg == NULL || reg->names == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer,
                          "TVMFuncRegistry_SetNumFuncs", "no registry");
  }
  /* The blob is the caller's writable memory (see the header). */
  memcpy((char *)(uintptr_t)reg->names, &num_funcs, sizeof num_funcs);
  return kTvmErrorNoError;
}

const char *TVMFuncRegistry_Get0thFunctionName(const TVMFuncRegistry *reg) {
  if (reg == NULL || reg->names == NULL) return NULL;
  return reg->names + sizeof(uint16_t);
}

int nccci_tvm_find(const TVMFuncRegistry *reg, const char *name,
                   tvm_function_index_t *out) {
  uint16_t n = nccc_names_count(reg->names);
  const char *p = nccc_names_get(reg->names, 0);
  uint16_t i;
  for (i = 0; i < n; i++) {
    if (strcmp(p, name) == 0) {
      *out = i;
      return 1;
    }
    p += strlen(p) + 1;
  }
  return 0;
}

tvm_crt_error_t TVMFuncRegistry_Lookup(const TVMFuncRegistry *reg,
                                       const char *name,
                                       tvm_function_index_t *function_index) {
  if (reg == NULL || reg->names == NULL || name == NULL ||
      function_index == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "TVMFuncRegistry_Lookup",
                          NULL);
  }
  if (!nccci_tvm_find(reg, name, function_index)) {
    return nccci_tvm_fail(kTvmErrorFunctionNameNotFound,
                          "function not found", name);
  }
  return kTvmErrorNoError;
}

tvm_crt_error_t TVMFuncRegistry_GetByIndex(const TVMFuncRegistry *reg,
                                           tvm_function_index_t index,
                                           TVMBackendPackedCFunc *out_func) {
  if (reg == NULL || reg->names == NULL || out_func == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer,
                          "TVMFuncRegistry_GetByIndex", NULL);
  }
  /* The index first: an empty registry (count 0) may have no table. */
  if (index >= nccc_names_count(reg->names)) {
    return nccci_tvm_fail(kTvmErrorFunctionIndexInvalid,
                          "function index out of range", NULL);
  }
  if (reg->funcs == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer,
                          "TVMFuncRegistry_GetByIndex", "no function table");
  }
  *out_func = reg->funcs[index];
  return kTvmErrorNoError;
}

/* ---- mutable registries ------------------------------------------------ */

tvm_crt_error_t TVMMutableFuncRegistry_Create(TVMMutableFuncRegistry *reg,
                                              uint8_t *buffer,
                                              size_t buffer_size_bytes) {
  size_t max, table;
  uint16_t zero = 0;
  if (reg == NULL || buffer == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer,
                          "TVMMutableFuncRegistry_Create", NULL);
  }
  if (buffer_size_bytes < NCCC_TVM_REGISTRY_MIN_BYTES) {
    return nccci_tvm_fail(kTvmErrorBufferTooSmall,
                          "function registry buffer too small", NULL);
  }
  max = buffer_size_bytes / kTvmAverageFuncEntrySizeBytes;
  if (max > NCCC_REGISTRY_MAX_FUNCTIONS) max = NCCC_REGISTRY_MAX_FUNCTIONS;
  /* Table offset aligned down; done on offsets so that no pointer is
  ** formed outside the buffer. The minimum size leaves at least 8 bytes
  ** of names (see NCCC_TVM_REGISTRY_MIN_BYTES): count, one short name,
  ** final NUL. */
  table = buffer_size_bytes - max * sizeof(TVMBackendPackedCFunc);
  table -= ((uintptr_t)buffer + table) % FUNC_ALIGN;

  memcpy(buffer, &zero, sizeof zero);
  buffer[sizeof zero] = '\0';
  reg->registry.names = (const char *)buffer;
  reg->registry.funcs = (const TVMBackendPackedCFunc *)(void *)(buffer + table);
  reg->max_functions = max;
  return kTvmErrorNoError;
}

tvm_crt_error_t TVMMutableFuncRegistry_Set(TVMMutableFuncRegistry *reg,
                                           const char *name,
                                           TVMBackendPackedCFunc func,
                                           int override) {
  char *names, *end, *limit;
  TVMBackendPackedCFunc *funcs;
  tvm_function_index_t index;
  uint16_t count;
  size_t len;

  if (reg == NULL || name == NULL || func == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer,
                          "TVMMutableFuncRegistry_Set", NULL);
  }
  if (reg->registry.names == NULL || reg->registry.funcs == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer,
                          "TVMMutableFuncRegistry_Set", "registry not created");
  }
  len = bounded_strlen(name, NAME_MAX_BYTES);
  if (len == 0) {
    return nccci_tvm_fail(kTvmErrorNcccBadName, "empty function name", NULL);
  }
  if (len > NAME_MAX_BYTES) {
    return nccci_tvm_fail(kTvmErrorNcccBadName, "function name too long",
                          NULL);
  }
  /* Created by TVMMutableFuncRegistry_Create: both live in the caller's
  ** writable buffer. */
  names = (char *)(uintptr_t)reg->registry.names;
  funcs = (TVMBackendPackedCFunc *)(uintptr_t)reg->registry.funcs;

  if (nccci_tvm_find(&reg->registry, name, &index)) {
    if (!override) {
      return nccci_tvm_fail(kTvmErrorFunctionAlreadyDefined,
                            "function already defined", name);
    }
    funcs[index] = func;
    return kTvmErrorNoError;
  }

  count = nccc_names_count(names);
  if (count >= reg->max_functions || count >= NCCC_REGISTRY_MAX_FUNCTIONS) {
    return nccci_tvm_fail(kTvmErrorFunctionRegistryFull,
                          "function registry full", name);
  }
  /* The blob's final NUL: the new name goes there, followed by its own
  ** NUL and a new final NUL, all of which must stay below the table. */
  end = names + sizeof(uint16_t);
  for (index = 0; index < count; index++) end += strlen(end) + 1;
  limit = (char *)funcs;
  if (end >= limit || (size_t)(limit - end) < len + 2) {
    return nccci_tvm_fail(kTvmErrorFunctionRegistryFull,
                          "function registry has no room for the name", name);
  }
  memcpy(end, name, len);
  end[len] = '\0';
  end[len + 1] = '\0';
  funcs[count] = func;
  count++;
  memcpy(names, &count, sizeof count);
  return kTvmErrorNoError;
}

#endif /* NCCC_WITH_TVM */
