/*
** status.c — the per-thread last error.
*/
#include <string.h>

#include "internal.h"

static NCCC_THREAD_LOCAL char error_text[NCCC_ERROR_MESSAGE_BYTES];
static NCCC_THREAD_LOCAL nccc_status error_status;

/* Appends src to the buffer at *pos, always leaving it NUL-terminated. */
static void append(size_t *pos, const char *src) {
  while (*src != '\0' && *pos + 1 < sizeof error_text) {
    error_text[(*pos)++] = *src++;
  }
  error_text[*pos] = '\0';
}

nccc_status nccc_fail(nccc_status status, const char *what,
                      const char *detail) {
  size_t pos = 0;
  error_status = status;
  error_text[0] = '\0';
  append(&pos, what != NULL ? what : nccc_status_name(status));
  if (detail != NULL) {
    append(&pos, ": ");
    append(&pos, detail);
  }
  return status;
}

const char *nccc_last_error(void) { return error_text; }

nccc_status nccc_last_status(void) { return error_status; }

void nccc_clear_error(void) {
  error_status = NCCC_OK;
  error_text[0] = '\0';
}

#if NCCC_WITH_STATUS_NAMES
const char *nccc_status_name(nccc_status status) {
#define NCCC_STATUS_TEXT(name, value, text) \
  case name:                                \
    return text;
  switch (status) { NCCC_ABI_STATUSES(NCCC_STATUS_TEXT) }
#undef NCCC_STATUS_TEXT
  return "unknown status";
}
#else
/* The texts are left out (nccc/config.h): the status number says it all,
** and every host has the names in its own generated table. */
const char *nccc_status_name(nccc_status status) {
  (void)status;
  return "status texts left out of this build";
}
#endif
