/*
** nccc/site.h — call sites: the runtime side of the trace and fault
** injection shims (nccc/shim_site.h has the wrapper side).
**
** A generated wrapper with a trace or fault shim names itself by its
** module and its index in the module's registry (both known when the
** code is generated) and starts with one test of nccc_site_active: a
** word whose bits say whether any fault is armed (NCCC_SITE_FAULT) and
** whether tracing is on for anything (NCCC_SITE_TRACE). While the bits
** its shims ask for are clear, that load and branch is all a wrapper
** pays; otherwise it hands its body to nccc_site_call, which decides
** under the lock.
*/
#ifndef NCCC_SITE_H
#define NCCC_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "module.h"
#include "slot.h"
#include "status.h"
#include "visibility.h"

/* Shim bits, in a wrapper's shim set and in nccc_site_active. */
#define NCCC_SITE_FAULT 1u /* the wrapper has the fault shim */
#define NCCC_SITE_TRACE 2u /* the wrapper has the trace shim */
/* Only in a wrapper's set: its last out slot is errno (errno shim). */
#define NCCC_SITE_ERRNO 4u

/* What is switched on anywhere (FAULT, TRACE bits). Written under the
** platform lock; read without it. */
NCCC_API extern uint32_t nccc_site_active;

#if defined(__GNUC__) || defined(__clang__)
#define NCCC_SITE_FLAGS() __atomic_load_n(&nccc_site_active, __ATOMIC_RELAXED)
#define NCCC_SITE_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define NCCC_SITE_FLAGS() (*(volatile uint32_t *)&nccc_site_active)
#define NCCC_SITE_UNLIKELY(x) (x)
#endif

/* nccc_site_enter's answers. */
#define NCCC_SITE_TRACING 1u /* call nccc_site_leave after the call */
#define NCCC_SITE_FAULTED 2u /* out[] is written: return without calling */

/*
** The slow path at the start of a wrapper of function index of module,
** whose shim set is shims and whose out buffer has n_out slots. A fault
** armed for it (and FAULT in shims) fires: out[] gets the armed result
** slots (zeros after them) and, with NCCC_SITE_ERRNO, the armed errno in
** out[n_out - 1]; the answer is NCCC_SITE_FAULTED, and the call is traced
** with status NCCC_ERR_FAULT_INJECTED if tracing is on for it. Otherwise,
** if tracing is on for it (and TRACE in shims), the answer is
** NCCC_SITE_TRACING and *start_ns the start time; else 0. Functions of
** modules that are not added are neither traced nor faulted.
*/
NCCC_API unsigned nccc_site_enter(const nccc_module *module, uint32_t index,
                                  unsigned shims, uint64_t *out, size_t n_out,
                                  uint64_t *start_ns);

/* Ends a call nccc_site_enter answered TRACING: records it (status
** NCCC_OK) in the trace ring. */
NCCC_API void nccc_site_leave(const nccc_module *module, uint32_t index,
                              uint64_t start_ns);

/* The whole slow path (what NCCC_SITE_WRAP calls): nccc_site_enter,
** then body(in, out) unless a fault answered, then nccc_site_leave when
** tracing. */
NCCC_API void nccc_site_call(const nccc_module *module, uint32_t index, unsigned shims,
                             nccc_fn body, const uint64_t *in, uint64_t *out,
                             size_t n_out);

#endif
