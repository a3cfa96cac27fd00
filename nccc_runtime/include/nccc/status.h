/*
** nccc/status.h — status codes and the last error.
**
** Every fallible nccc function returns an nccc_status. The numeric values
** are TVM CRT's tvm_crt_error_t values (category in bits 15..8, code in
** bits 7..0) wherever TVM has the same condition, so a status can be handed
** to TVM-style callers unchanged; conditions TVM has no code for live in
** category 0x40. On failure a function also stores a message for the
** calling thread (nccc_last_error), and leaves its out-parameters untouched.
*/
#ifndef NCCC_STATUS_H
#define NCCC_STATUS_H

#include "abi.h" /* enum nccc_status, generated from idl/abi.json */
#include "visibility.h"

/* The message of the last failure on this thread ("" if none yet). The
** pointer stays valid until this thread's next failing nccc call. */
NCCC_API const char *nccc_last_error(void);

/* The status of the last failure on this thread (NCCC_OK if none). */
NCCC_API nccc_status nccc_last_status(void);

/* Records a failure for this thread: message "what" or "what: detail".
** Returns status, so callers can write `return nccc_fail(...)`. */
NCCC_API nccc_status nccc_fail(nccc_status status, const char *what,
                               const char *detail);

/* Forgets this thread's last failure. */
NCCC_API void nccc_clear_error(void);

/* A short fixed description of a status ("name not found", ...); built
** with NCCC_WITH_STATUS_NAMES 0, the same text for every status
** (nccc/config.h). */
NCCC_API const char *nccc_status_name(nccc_status status);

#endif
