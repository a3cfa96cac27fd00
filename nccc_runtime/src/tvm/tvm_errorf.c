/*
** tvm_errorf.c — TVMAPIErrorf, alone in its object file so that only
** programs calling it link vsnprintf.
*/
#include <stdarg.h>
#include <stdio.h>

#include <nccc/config.h>
#include <nccc/status.h>
#include <tvm/runtime/c_runtime_api.h>

#if NCCC_WITH_TVM

int TVMAPIErrorf(const char *fmt, ...) {
  char text[NCCC_ERROR_MESSAGE_BYTES];
  va_list args;
  int n;
  if (fmt == NULL) {
    nccc_fail(NCCC_ERR_NULL_POINTER, "TVMAPIErrorf", "NULL format");
    return -1;
  }
  va_start(args, fmt);
  n = vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  /* The message is recorded as TVMAPISetLastError records it. */
  if (n < 0) {
    nccc_fail(NCCC_ERR_PLATFORM_CHECK, "TVMAPIErrorf", "formatting failed");
  } else {
    nccc_fail(NCCC_ERR_PLATFORM_CHECK, text, NULL);
  }
  return n;
}

#endif /* NCCC_WITH_TVM */
