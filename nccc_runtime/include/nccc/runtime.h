/*
** nccc/runtime.h — initialisation and the root entry point.
**
** A host needs exactly two things from C: the address of nccc_root and a
** way to call an nccc_fn with two slot buffers. nccc_root is itself an
** nccc function; it hands out the built-in functions by a fixed index
** (the NCCC_BUILTIN_* numbers below never change meaning), and the
** built-ins reach everything else: lookup, call, modules, layouts,
** constants, registration, the last error and memory.
**
** Every built-in writes its status (an nccc_status) to out[0] and its
** results after it, and records the last error on failure. Signatures in
** the table below use the codes of nccc/registry.h.
*/
#ifndef NCCC_RUNTIME_H
#define NCCC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "slot.h"
#include "status.h"

#define NCCC_VERSION_MAJOR 0
#define NCCC_VERSION_MINOR 1
#define NCCC_VERSION_PATCH 0
#define NCCC_VERSION_STRING "0.1.0"

/*
** Resets the runtime: no modules, an empty global mutable registry in
** block (NULL: a static block of NCCC_GLOBAL_REGISTRY_BYTES), and the
** built-in module "nccc" added. Calling it again gives a fresh, working
** runtime. Errors: those of nccc_mreg_init (block too small).
** Not thread-safe: call it before other threads use the runtime.
*/
nccc_status nccc_init(void *block, size_t size);

/* Runs nccc_init(NULL, 0) unless the runtime is initialised already. */
nccc_status nccc_ensure_init(void);

/*
** The root: in[0] = built-in index. out[0] = status (NCCC_OK or
** NCCC_ERR_INDEX_INVALID), out[1] = the built-in's nccc_fn address,
** out[2] = its name, out[3] = its signature (C string addresses).
** Initialises the runtime on first use.
*/
void nccc_root(const uint64_t *in, uint64_t *out);

/* Built-in indices: in[] -> out[] (status first). */
enum nccc_builtin_index {
  NCCC_BUILTIN_BUILTIN = 0,        /* I        -> i p s s  (same as root) */
  NCCC_BUILTIN_VERSION = 1,        /*          -> i I s  (MAJOR<<16 | MINOR<<8 | PATCH, string) */
  NCCC_BUILTIN_LAST_ERROR = 2,     /*          -> i i s  (status, message) */
  NCCC_BUILTIN_LOOKUP = 3,         /* s        -> i I  (handle) */
  NCCC_BUILTIN_FUNCTION = 4,       /* I        -> i p s s I I */
  NCCC_BUILTIN_CALL = 5,           /* I p p    -> i */
  NCCC_BUILTIN_CALL_CHECKED = 6,   /* I p L p L -> i */
  NCCC_BUILTIN_REGISTER = 7,       /* s p s ?  -> i I */
  NCCC_BUILTIN_MODULE_COUNT = 8,   /*          -> i I  (index positions) */
  NCCC_BUILTIN_MODULE_INFO = 9,    /* H        -> i s I I I */
  NCCC_BUILTIN_MODULE_FIND = 10,   /* s        -> i H */
  NCCC_BUILTIN_MODULE_TYPE = 11,   /* H H      -> i s I I I I */
  NCCC_BUILTIN_MODULE_FIELD = 12,  /* H H H    -> i s s I I I */
  NCCC_BUILTIN_MODULE_CONSTANT = 13, /* H H    -> i s s L */
  NCCC_BUILTIN_ALLOC = 14,         /* L        -> i p */
  NCCC_BUILTIN_FREE = 15,          /* p        -> i */
  NCCC_BUILTIN_PEEK = 16,          /* p I      -> i L */
  NCCC_BUILTIN_POKE = 17,          /* p I L    -> i */
  NCCC_BUILTIN_READ = 18,          /* p L      -> i * */
  NCCC_BUILTIN_WRITE = 19,         /* p L *    -> i */
  NCCC_BUILTIN_STRLEN = 20,        /* p        -> i L */
  /* callbacks (nccc/closure.h) */
  NCCC_BUILTIN_CLOSURE_CLAIM = 21, /* F L I    -> i p  (target, env, flags -> context) */
  NCCC_BUILTIN_CLOSURE_CLAIM_GROUP = 22, /* I I I * -> i p  (flags, final, n, n x (target, env)) */
  NCCC_BUILTIN_CLOSURE_RELEASE = 23, /* p      -> i */
  NCCC_BUILTIN_CLOSURE_STATS = 24, /*          -> i I I L  (capacity, in use, stale calls) */
  /* tracing (nccc/trace.h) */
  NCCC_BUILTIN_TRACE_ENABLE = 25,  /* I ?      -> i  (handle 0 with off: all off) */
  NCCC_BUILTIN_TRACE_ENABLE_MODULE = 26, /* H ? -> i */
  NCCC_BUILTIN_TRACE_BUFFER = 27,  /* p L      -> i  (NULL: the static ring) */
  NCCC_BUILTIN_TRACE_STATS = 28,   /*          -> i L L I  (first, next, capacity) */
  NCCC_BUILTIN_TRACE_READ = 29,    /* L        -> i I I L L  (handle, status, start, end) */
  NCCC_BUILTIN_TRACE_CLEAR = 30,   /*          -> i */
  /* fault injection (nccc/fault.h) */
  NCCC_BUILTIN_FAULT_ARM = 31,     /* I I i I * -> i  (handle, count, errno, n, n result slots) */
  NCCC_BUILTIN_FAULT_DISARM = 32,  /* I        -> i  (handle 0: all) */
  NCCC_BUILTIN_FAULT_QUERY = 33,   /* I        -> i I L  (remaining, fired) */
  /* errors */
  NCCC_BUILTIN_CLEAR_ERROR = 34,   /*          -> i  (the thread's last error cleared) */
  NCCC_BUILTIN_COUNT = 35
};

#endif
