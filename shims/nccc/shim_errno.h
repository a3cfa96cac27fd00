/*
** nccc/shim_errno.h — the errno shim used by generated wrappers.
**
** A wrapper with [errno] clears errno right before the call and reads it
** right after, before any other code (host code, a logger, the next call)
** can overwrite it, and stores it in its own out slot (the last one).
** On Windows the Win32 last error is cleared and read with it: the slot
** then holds errno in its low 32 bits and GetLastError() in its high 32
** bits; elsewhere it is errno, sign-extended like any int.
**
** Callbacks that run inside the call cannot disturb this: the backward
** wrappers (nccc/shim_callback.h) restore errno and the Win32 last error
** after the host's code, and a forward wrapper releases its CALL-scoped
** closures (release notices run host code) only after reading errno.
*/
#ifndef NCCC_SHIM_ERRNO_H
#define NCCC_SHIM_ERRNO_H

#include <errno.h>
#include <stdint.h>

#include <nccc/slot.h>

#ifdef _WIN32
#include <windows.h>
#define NCCC_ERRNO_CLEAR() (errno = 0, SetLastError(0))
#define NCCC_ERRNO_SLOT()                                   \
  (((uint64_t)(uint32_t)GetLastError() << 32) |             \
   (uint64_t)(uint32_t)errno)
#else
#define NCCC_ERRNO_CLEAR() (errno = 0)
#define NCCC_ERRNO_SLOT() nccc_slot_from_i32((int32_t)errno)
#endif

#endif
