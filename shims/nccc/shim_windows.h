/*
** nccc/shim_windows.h — declarations that exist on Windows only.
**
** A function the IDL marks [windows] keeps its registry entry, its index
** and its signature on every target, so that a module binds the same
** everywhere; on other targets its wrapper does not call it (it is not
** even declared there): it zeroes its out slots and records
** NCCC_ERR_NOT_IMPLEMENTED, "fn: on Windows only ([windows])", as the
** thread's last error.
**
**   #ifdef _WIN32
**   void nccc_m_GetFileAttributesA(const uint64_t *in, uint64_t *out) { ... }
**   #else
**   void nccc_m_GetFileAttributesA(const uint64_t *in, uint64_t *out) {
**     NCCC_WINDOWS_ONLY("GetFileAttributesA", in, out, 2);
**   }
**   #endif
*/
#ifndef NCCC_SHIM_WINDOWS_H
#define NCCC_SHIM_WINDOWS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/status.h>

/* The refusal: fn, the function's registry name, a string literal. */
#define NCCC_WINDOWS_ONLY(fn, in, out, n_out)                               \
  do {                                                                      \
    (void)(in);                                                             \
    if ((n_out) != 0) memset((out), 0, sizeof(uint64_t) * (size_t)(n_out)); \
    nccc_fail(NCCC_ERR_NOT_IMPLEMENTED, fn, "on Windows only ([windows])");  \
  } while (0)

#endif
