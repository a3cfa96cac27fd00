/*
** nccc/shim_trace.h — the trace shim.
**
** A [trace] wrapper records each call of its function, while tracing is
** on for it (nccc_trace_enable, nccc_trace_enable_module or the
** trace_* built-ins), as {handle, status, start, end} in the runtime's
** trace ring, with times from the platform's now_ns hook. It is written
** with NCCC_SITE_WRAP (nccc/shim_site.h) and NCCC_SITE_TRACE in its shim
** set; a wrapper with [trace] only can use the short form below.
*/
#ifndef NCCC_SHIM_TRACE_H
#define NCCC_SHIM_TRACE_H

#include <nccc/shim_site.h>

/* Trace only (a fault is never applied, so n_out does not matter). */
#define NCCC_TRACE_WRAP(module, index, body, in, out) \
  NCCC_SITE_WRAP(module, index, NCCC_SITE_TRACE, body, in, out, 0)

#endif
