/*
** nccc/shim_site.h — the wrapper side of the trace and fault shims.
**
** A wrapper with either shim (or both) is generated as a static body —
** the wrapper it would be without them — and a public wrapper of one
** line that names the function by its module and its index in the
** module's registry and lists its shims:
**
**   static void nccc_m_f_body(const uint64_t *in, uint64_t *out) {
**     int r;
**     NCCC_ERRNO_CLEAR();
**     r = f(nccc_slot_to_i32(in[0]));
**     out[1] = NCCC_ERRNO_SLOT();
**     out[0] = nccc_slot_from_i32(r);
**   }
**   void nccc_m_f(const uint64_t *in, uint64_t *out) {
**     NCCC_SITE_WRAP(&nccc_m_module, 7,
**                    NCCC_SITE_TRACE | NCCC_SITE_FAULT | NCCC_SITE_ERRNO,
**                    nccc_m_f_body, in, out, 2);
**   }
**
** With no fault armed and no tracing on anywhere, the wrapper is one load
** of nccc_site_active, one branch not taken, and the body inlined: the
** slow path is one call into the runtime (nccc_site_call) that keeps
** nothing live across the body, so it costs the fast path no stack frame
** and no saved registers. A trace record's times bracket the whole body.
*/
#ifndef NCCC_SHIM_SITE_H
#define NCCC_SHIM_SITE_H

#include <stddef.h>
#include <stdint.h>

#include <nccc/site.h>

/* shims: NCCC_SITE_TRACE | NCCC_SITE_FAULT, plus NCCC_SITE_ERRNO when the
** last of the n_out out slots is the errno slot. A statement: what
** follows it runs after the body, or after a fault skipped the body (a
** forward wrapper releases its CALL-scoped closures there). */
#if NCCC_WITH_SITES
#define NCCC_SITE_WRAP(module, index, shims, body, in, out, n_out)            \
  do {                                                                        \
    if (NCCC_SITE_UNLIKELY((NCCC_SITE_FLAGS() & (shims)) != 0)) {             \
      nccc_site_call((module), (index), (shims), (body), (in), (out),         \
                     (size_t)(n_out));                                        \
    } else {                                                                  \
      body((in), (out));                                                      \
    }                                                                         \
  } while (0)
#else
/* Trace and faults left out (nccc/config.h): only the body is left. */
#define NCCC_SITE_WRAP(module, index, shims, body, in, out, n_out) \
  do {                                                            \
    (void)(module);                                               \
    body((in), (out));                                            \
  } while (0)
#endif

#endif
