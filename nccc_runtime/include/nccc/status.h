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

typedef enum nccc_status {
  NCCC_OK = 0,

  /* registry (TVM category 1) */
  NCCC_ERR_NAME_NOT_FOUND = 0x0100,   /* kTvmErrorFunctionNameNotFound */
  NCCC_ERR_INDEX_INVALID = 0x0101,    /* kTvmErrorFunctionIndexInvalid */
  NCCC_ERR_REGISTRY_FULL = 0x0102,    /* kTvmErrorFunctionRegistryFull */
  NCCC_ERR_ALREADY_DEFINED = 0x0103,  /* kTvmErrorFunctionAlreadyDefined */
  NCCC_ERR_BUFFER_TOO_SMALL = 0x0104, /* kTvmErrorBufferTooSmall */

  /* platform (TVM category 5) */
  NCCC_ERR_PLATFORM_CHECK = 0x0500, /* kTvmErrorPlatformCheckFailure */
  NCCC_ERR_NO_MEMORY = 0x0503,      /* kTvmErrorPlatformNoMemory */

  /* function calls (TVM category 8) */
  NCCC_ERR_NUM_ARGUMENTS = 0x0800,   /* kTvmErrorFunctionCallNumArguments */
  NCCC_ERR_WRONG_ARG_TYPE = 0x0801,  /* kTvmErrorFunctionCallWrongArgType */
  NCCC_ERR_NOT_IMPLEMENTED = 0x0802, /* kTvmErrorFunctionCallNotImplemented */
  NCCC_ERR_INVALID_ARG = 0x0803,     /* kTvmErrorFunctionCallInvalidArg */

  /* nccc's own (category 0x40) */
  NCCC_ERR_BAD_NAME = 0x4000,       /* empty, over-long or NULL name */
  NCCC_ERR_BAD_HANDLE = 0x4001,     /* handle markers or indices invalid */
  NCCC_ERR_BAD_SIGNATURE = 0x4002,  /* signature string malformed */
  NCCC_ERR_MODULES_FULL = 0x4003,   /* NCCC_MAX_MODULES modules present */
  NCCC_ERR_NULL_POINTER = 0x4004,   /* a required pointer was NULL */
  NCCC_ERR_NOT_INITIALIZED = 0x4005, /* nccc_init has not run */
  NCCC_ERR_STALE_CLOSURE = 0x4006,  /* a closure context that is released,
                                       spent or was never claimed */
  NCCC_ERR_POOL_EXHAUSTED = 0x4007, /* a fixed pool or table is full:
                                       closures, thunks, trace, faults */
  NCCC_ERR_FAULT_INJECTED = 0x4008  /* a call answered by fault injection
                                       (trace records) */
} nccc_status;

/* The message of the last failure on this thread ("" if none yet). The
** pointer stays valid until this thread's next failing nccc call. */
const char *nccc_last_error(void);

/* The status of the last failure on this thread (NCCC_OK if none). */
nccc_status nccc_last_status(void);

/* Records a failure for this thread: message "what" or "what: detail".
** Returns status, so callers can write `return nccc_fail(...)`. */
nccc_status nccc_fail(nccc_status status, const char *what,
                      const char *detail);

/* Forgets this thread's last failure. */
void nccc_clear_error(void);

/* A short fixed description of a status ("name not found", ...). */
const char *nccc_status_name(nccc_status status);

#endif
