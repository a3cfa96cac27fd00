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

/*
** Splits a handle and checks it against the runtime's present state: both
** markers set, the module index a present module or the global registry,
** the function index below that registry's count. NCCC_OK or
** NCCC_ERR_BAD_HANDLE; the outputs are written only on success.
*/
nccc_status nccc_handle_decode(nccc_handle handle, uint16_t *out_module,
                               uint16_t *out_function);

#endif
