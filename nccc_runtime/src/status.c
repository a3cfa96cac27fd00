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

const char *nccc_status_name(nccc_status status) {
  switch (status) {
    case NCCC_OK: return "ok";
    case NCCC_ERR_NAME_NOT_FOUND: return "name not found";
    case NCCC_ERR_INDEX_INVALID: return "index out of range";
    case NCCC_ERR_REGISTRY_FULL: return "registry full";
    case NCCC_ERR_ALREADY_DEFINED: return "already defined";
    case NCCC_ERR_BUFFER_TOO_SMALL: return "buffer too small";
    case NCCC_ERR_PLATFORM_CHECK: return "platform check failed";
    case NCCC_ERR_NO_MEMORY: return "out of memory";
    case NCCC_ERR_NUM_ARGUMENTS: return "wrong number of slots";
    case NCCC_ERR_WRONG_ARG_TYPE: return "wrong argument type";
    case NCCC_ERR_NOT_IMPLEMENTED: return "not implemented";
    case NCCC_ERR_INVALID_ARG: return "invalid argument";
    case NCCC_ERR_BAD_NAME: return "bad name";
    case NCCC_ERR_BAD_HANDLE: return "bad handle";
    case NCCC_ERR_BAD_SIGNATURE: return "bad signature";
    case NCCC_ERR_MODULES_FULL: return "module table full";
    case NCCC_ERR_NULL_POINTER: return "null pointer";
    case NCCC_ERR_NOT_INITIALIZED: return "runtime not initialized";
    case NCCC_ERR_STALE_CLOSURE: return "stale closure";
    case NCCC_ERR_POOL_EXHAUSTED: return "pool exhausted";
    case NCCC_ERR_FAULT_INJECTED: return "fault injected";
  }
  return "unknown status";
}
