/*
** lasterror_fixture.c — see lasterror_fixture.h.
*/
#include <windows.h>

#include "lasterror_fixture.h"

unsigned int lasterror_after_step(unsigned int (*step)(unsigned int, void *),
                                  void *ctx) {
  SetLastError(0);
  step(1, ctx);
  return (unsigned int)GetLastError();
}
