/*
** nccc/shim_function_pointer.h — the function_pointer shim.
**
** A [function_pointer] wrapper calls through the pointer in in[0]
** (OpenGL extension entry points, dlsym results) and shifts the other
** arguments by one. A NULL target is not called: the wrapper zeroes its
** out slots and records NCCC_ERR_NULL_POINTER as the thread's last error,
** so a host that checks nccc_last_status sees why nothing happened.
*/
#ifndef NCCC_SHIM_FUNCTION_POINTER_H
#define NCCC_SHIM_FUNCTION_POINTER_H

#include <stdint.h>
#include <string.h>

#include <nccc/status.h>

/* The target in slot s as a pointer of function type fn_type. */
#define NCCC_FP_TARGET(fn_type, s) ((fn_type)(uintptr_t)(s))

/* Refuses a NULL target: zeroes n_out slots of out and returns from the
** wrapper. */
#define NCCC_FP_REQUIRE(s, out, n_out)                                 \
  do {                                                                 \
    if ((s) == 0) {                                                    \
      memset((out), 0, sizeof(uint64_t) * (size_t)(n_out));            \
      nccc_fail(NCCC_ERR_NULL_POINTER, "function_pointer target", NULL); \
      return;                                                          \
    }                                                                  \
  } while (0)

#endif
