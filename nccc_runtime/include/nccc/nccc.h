/*
** nccc/nccc.h — the public API of the nccc runtime in one include.
**
**   slot.h      the slot ABI and value conversions
**   status.h    status codes, the per-thread last error
**   registry.h  names blobs, const and mutable registries, signatures
**   module.h    modules, layout tables, constants
**   handle.h    function handles
**   call.h      lookup, call by handle, checked call, registration
**   platform.h  platform hooks
**   runtime.h   initialisation, the root entry point, built-ins
**   closure.h   closures, scopes, thunk pools (callbacks)
**   site.h      call sites of the trace and fault shims
**   trace.h     call tracing into a ring buffer
**   fault.h     fault injection
**   visibility.h  NCCC_API and NCCC_INTERNAL
*/
#ifndef NCCC_NCCC_H
#define NCCC_NCCC_H

#include "config.h"
#include "visibility.h"
#include "slot.h"
#include "status.h"
#include "registry.h"
#include "module.h"
#include "handle.h"
#include "call.h"
#include "platform.h"
#include "runtime.h"
#include "closure.h"
#include "site.h"
#include "trace.h"
#include "fault.h"

#endif
