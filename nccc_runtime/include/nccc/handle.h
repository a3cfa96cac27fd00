/*
** nccc/handle.h — function handles.
**
** A handle names one function of one module in 32 bits, encoded as in TVM
** CRT: bit 31 set, bits 30..16 the module index, bit 15 set, bits 14..0
** the function index. The marker bits make every valid handle non-zero and
** let a decoder reject integers that were never handles. The global
** mutable registry has module index NCCC_GLOBAL_MODULE.
*/
#ifndef NCCC_HANDLE_H
#define NCCC_HANDLE_H

#include <stdint.h>

#include "config.h"
#include "abi.h"
#include "status.h"
#include "visibility.h"

typedef uint32_t nccc_handle;

#define NCCC_GLOBAL_MODULE ((uint16_t)NCCC_MAX_MODULES)

#if NCCC_MAX_MODULES >= NCCC_ABI_HANDLE_INDEX_MASK
#error "NCCC_MAX_MODULES must leave a 15-bit index for the global registry"
#endif

static inline nccc_handle nccc_handle_encode(uint16_t module_index,
                                             uint16_t function_index) {
  return NCCC_ABI_HANDLE_MODULE_MARKER |
         ((uint32_t)module_index << NCCC_ABI_HANDLE_MODULE_SHIFT) |
         NCCC_ABI_HANDLE_FUNCTION_MARKER | (uint32_t)function_index;
}

/* The fields of a handle, unchecked: whether both markers are set, the
** module index and the function index. */
#define NCCC_HANDLE_MARKERS \
  (NCCC_ABI_HANDLE_MODULE_MARKER | NCCC_ABI_HANDLE_FUNCTION_MARKER)

static inline int nccc_handle_marked(nccc_handle handle) {
  return (handle & NCCC_HANDLE_MARKERS) == NCCC_HANDLE_MARKERS;
}

/* (32-bit results: uint16_t ones cost the call path extra masking.) */
static inline uint32_t nccc_handle_module(nccc_handle handle) {
  return (handle >> NCCC_ABI_HANDLE_MODULE_SHIFT) & NCCC_ABI_HANDLE_INDEX_MASK;
}

static inline uint32_t nccc_handle_function(nccc_handle handle) {
  return handle & NCCC_ABI_HANDLE_INDEX_MASK;
}

/*
** Splits a handle and checks it against the runtime's present state: both
** markers set, the module index a present module or the global registry,
** the function index below that registry's count. NCCC_OK or
** NCCC_ERR_BAD_HANDLE; the outputs are written only on success.
*/
NCCC_API nccc_status nccc_handle_decode(nccc_handle handle, uint16_t *out_module,
                                        uint16_t *out_function);

#endif
