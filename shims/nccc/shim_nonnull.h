/*
** nccc/shim_nonnull.h — refusing NULL for [nonnull] parameters.
**
** A generated host module refuses NULL for a [nonnull] argument before it
** calls, but a host may call a wrapper through the registry by name, with
** no host module in between. The forward wrapper therefore checks each
** [nonnull] pointer slot itself (one compare per slot) and, on NULL, does
** not call C: it zeroes its out slots, records NCCC_ERR_NULL_POINTER as
** the thread's last error ("fn: param is NULL ([nonnull])") and returns.
**
**   void nccc_m_strlen(const uint64_t *in, uint64_t *out) {
**     NCCC_NONNULL_REQUIRE(in[0], "strlen", "s", out, 1);
**     out[0] = (uint64_t)strlen((const char *)nccc_slot_to_ptr(in[0]));
**   }
**
** A wrapper with CALL-scoped closures and no call-site shim uses
** NCCC_NONNULL_REQUIRE_END, which releases them on a refusal too. A
** packed forwarder (status first in out[0]) uses
** NCCC_NONNULL_REQUIRE_STATUS: out[0] also gets the status.
*/
#ifndef NCCC_SHIM_NONNULL_H
#define NCCC_SHIM_NONNULL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/slot.h>
#include <nccc/status.h>

/* The refusal, out of line of the fast path: zeroes the n_out slots of
** out (out may be NULL when n_out is 0) and records the error. what and
** detail as nccc_fail takes them. */
static inline void nccc_nonnull_refuse(const char *what, const char *detail,
                                       uint64_t *out, size_t n_out) {
  if (n_out != 0) memset(out, 0, sizeof(uint64_t) * n_out);
  nccc_fail(NCCC_ERR_NULL_POINTER, what, detail);
}

/* Refuses NULL in slot s (a [nonnull] argument): fn and param are string
** literals, the function's registry name and the parameter's name;
** zeroes n_out slots of out and returns from the wrapper. */
#define NCCC_NONNULL_REQUIRE(s, fn, param, out, n_out)                   \
  do {                                                                   \
    if ((s) == 0) {                                                      \
      nccc_nonnull_refuse(fn, param " is NULL ([nonnull])", (out),       \
                          (size_t)(n_out));                              \
      return;                                                            \
    }                                                                    \
  } while (0)

/* The same for a wrapper that releases its CALL-scoped closures after
** the call: end (an expression, NCCC_CB_END_CALL of each) runs before
** the return, so a refused call releases them as a finished one does. */
#define NCCC_NONNULL_REQUIRE_END(s, fn, param, out, n_out, end)          \
  do {                                                                   \
    if ((s) == 0) {                                                      \
      nccc_nonnull_refuse(fn, param " is NULL ([nonnull])", (out),       \
                          (size_t)(n_out));                              \
      end;                                                               \
      return;                                                            \
    }                                                                    \
  } while (0)

/* The same for a wrapper whose out[0] is a status (packed forwarders):
** out[0] = NCCC_ERR_NULL_POINTER as int, the other slots 0. */
#define NCCC_NONNULL_REQUIRE_STATUS(s, fn, param, out, n_out)            \
  do {                                                                   \
    if ((s) == 0) {                                                      \
      nccc_nonnull_refuse(fn, param " is NULL ([nonnull])", (out),       \
                          (size_t)(n_out));                              \
      (out)[0] = nccc_slot_from_i32((int32_t)NCCC_ERR_NULL_POINTER);     \
      return;                                                            \
    }                                                                    \
  } while (0)

#endif
