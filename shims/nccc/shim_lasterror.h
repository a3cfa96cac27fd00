/*
** nccc/shim_lasterror.h — the Win32 last-error shim used by generated
** wrappers: the twin of nccc/shim_errno.h for GetLastError.
**
** A wrapper with [lasterror] calls SetLastError(0) right before the call
** and reads GetLastError() right after, before any other code (host code,
** a logger, the next call) can overwrite it, and stores it in its own out
** slot (code 'W': after errno's when the function has both), zero-extended
** from the DWORD.
**
** A backward wrapper of a callback type with [lasterror] stores the value
** the host put in that slot with SetLastError after the host's code ran
** (nccc/shim_callback.h restores the caller's last error around the host's
** code, then this sets the callback's).
**
** GetLastError exists on Windows only: these macros are defined there
** alone. The generated C makes a declaration with [lasterror] a compile
** error located at its line in the IDL elsewhere, unless [windows] marks
** it as existing on Windows only (nccc/shim_windows.h).
*/
#ifndef NCCC_SHIM_LASTERROR_H
#define NCCC_SHIM_LASTERROR_H

#include <stdint.h>

#include <nccc/slot.h>

#ifdef _WIN32
#include <windows.h>
#define NCCC_LASTERROR_CLEAR() SetLastError(0)
#define NCCC_LASTERROR_SLOT() nccc_slot_from_u32((uint32_t)GetLastError())
#define NCCC_CB_SET_LASTERROR(slot) SetLastError((DWORD)nccc_slot_to_u32(slot))
#endif

#endif
