/*
** nccc/fault.h — fault injection: make calls fail on purpose.
**
** Arming a function makes its next N calls return chosen out slots and a
** chosen errno without calling the C function behind it, so a host can
** test its error paths against any library. Only wrappers generated with
** the fault shim check for faults; arming a function whose wrapper has
** none is accepted but never fires (nccc_fault_query shows it).
**
** The errno value goes to the errno slot of wrappers that have the errno
** shim (nccc_slot_from_i32 of it); the C errno variable is not touched.
**
** A build with NCCC_WITH_FAULTS 0 (nccc/config.h) defines none of these
** functions.
*/
#ifndef NCCC_FAULT_H
#define NCCC_FAULT_H

#include <stddef.h>
#include <stdint.h>

#include "handle.h"
#include "status.h"
#include "visibility.h"

/* A count that never runs out: fail every call until disarmed. */
#define NCCC_FAULT_ALWAYS UINT32_MAX

/*
** Arms handle's function: its next count calls (NCCC_FAULT_ALWAYS: all)
** write slots[0..n_slots-1] to out[0..] (zeros to the other value
** slots) and err to the errno slot, and return. Arming an armed function
** replaces its fault. Errors: NCCC_ERR_BAD_HANDLE, NCCC_ERR_INVALID_ARG
** (count 0, n_slots over NCCC_FAULT_SLOTS, a global-registry function),
** NCCC_ERR_NULL_POINTER (slots NULL with n_slots > 0),
** NCCC_ERR_POOL_EXHAUSTED (NCCC_FAULT_MAX functions armed already).
*/
NCCC_API nccc_status nccc_fault_arm(nccc_handle handle, uint32_t count,
                                    const uint64_t *slots, size_t n_slots, int32_t err);

/* Disarms handle's function (nothing to do is fine). NCCC_OK or
** NCCC_ERR_BAD_HANDLE. */
NCCC_API nccc_status nccc_fault_disarm(nccc_handle handle);

/* Disarms every function. */
NCCC_API void nccc_fault_disarm_all(void);

/*
** For handle's function: *out_remaining (may be NULL) the calls still to
** fail (NCCC_FAULT_ALWAYS, or 0 when not armed), *out_fired (may be NULL)
** the calls failed since it was last armed. NCCC_OK or
** NCCC_ERR_BAD_HANDLE; outputs untouched on failure.
*/
NCCC_API nccc_status nccc_fault_query(nccc_handle handle, uint32_t *out_remaining,
                                      uint64_t *out_fired);

#endif
