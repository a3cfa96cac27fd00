/*
** nccc/shim_errno.h — the errno shim used by generated wrappers.
**
** A wrapper with [errno] clears errno right before the call and reads it
** right after, before any other code (host code, a logger, the next call)
** can overwrite it, and stores it in its own out slot (after the [out]
** values), sign-extended like any int. The Win32 last error has a shim of
** its own, [lasterror] (nccc/shim_lasterror.h).
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

#define NCCC_ERRNO_CLEAR() (errno = 0)
#define NCCC_ERRNO_SLOT() nccc_slot_from_i32((int32_t)errno)

#endif
