/*
** lasterror_fixture.h — the callback fixture of win32.idl: a C function
** that runs a callback and reports the Win32 last error it left.
*/
#ifndef NCCC_LASTERROR_FIXTURE_H
#define NCCC_LASTERROR_FIXTURE_H

/* Clears the last error, calls step(1, ctx) and returns GetLastError(). */
unsigned int lasterror_after_step(unsigned int (*step)(unsigned int, void *),
                                  void *ctx);

#endif
