/*
** nccc/trace.h — call tracing into a fixed ring buffer.
**
** Wrappers generated with the trace shim record, for each call of a
** function whose tracing is on, its handle, start and end time (from the
** platform's now_ns hook; 0 without one) and a status. Tracing is
** switched on per function or per module (a function is traced when
** either is on). Records go into a ring: a static one of
** NCCC_TRACE_RECORDS records, or a block the caller supplies; when it is
** full the oldest records are overwritten.
**
** Records are numbered from 0 (after the last clear) in the order they
** were written; a reader asks for them by number, so it can tell how many
** it missed, and concurrent writers never make it read a torn record
** (reads and writes take the platform lock).
**
** Switches are kept per module object, so they survive a module being
** removed and added again. nccc_init switches all tracing off, clears the
** ring and goes back to the static ring.
**
** A build with NCCC_WITH_TRACE 0 (nccc/config.h) defines none of these
** functions.
*/
#ifndef NCCC_TRACE_H
#define NCCC_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "handle.h"
#include "status.h"
#include "visibility.h"

typedef struct nccc_trace_record {
  uint32_t handle;   /* the function's handle at the time of the call */
  uint32_t status;   /* NCCC_OK, or NCCC_ERR_FAULT_INJECTED */
  uint64_t start_ns; /* now_ns before the call */
  uint64_t end_ns;   /* now_ns after it (= start_ns for a faulted call) */
} nccc_trace_record;

/*
** Records go to block (size bytes, any alignment; the records start at
** its first 8-byte boundary) instead of the static ring; NULL goes back to
** the static ring. Clears the ring either way. Errors:
** NCCC_ERR_BUFFER_TOO_SMALL (room for no record; nothing changes).
*/
NCCC_API nccc_status nccc_trace_set_buffer(void *block, size_t size);

/*
** Switches tracing of one function on or off. Errors: NCCC_ERR_BAD_HANDLE,
** NCCC_ERR_INVALID_ARG (a function of the global registry: only module
** functions have shims), NCCC_ERR_POOL_EXHAUSTED (on for
** NCCC_TRACE_MAX_FUNCTIONS functions already).
*/
NCCC_API nccc_status nccc_trace_enable(nccc_handle handle, int on);

/* Switches tracing of every function of the module at module_index on or
** off. NCCC_OK or NCCC_ERR_INDEX_INVALID (no module there). */
NCCC_API nccc_status nccc_trace_enable_module(uint16_t module_index, int on);

/* Switches all tracing off (the records stay). */
NCCC_API void nccc_trace_disable_all(void);

/* 1 when calls of handle are traced now, else 0. */
NCCC_API int nccc_trace_enabled(nccc_handle handle);

typedef struct nccc_trace_stats {
  uint64_t first;    /* number of the oldest record still held */
  uint64_t next;     /* number the next record will get; next - first held */
  uint32_t capacity; /* records the ring holds */
} nccc_trace_stats;

/* A consistent snapshot of the ring's numbers (never fails). */
NCCC_API void nccc_trace_get_stats(nccc_trace_stats *out);

/* Record number seq. Errors: NCCC_ERR_NULL_POINTER, NCCC_ERR_INDEX_INVALID
** (overwritten already, or not written yet). *out untouched on failure. */
NCCC_API nccc_status nccc_trace_read(uint64_t seq, nccc_trace_record *out);

/* Forgets every record; numbering starts again at 0. */
NCCC_API void nccc_trace_clear(void);

#endif
