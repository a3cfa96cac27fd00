/*
** nccc/platform.h — the hooks the runtime needs from its platform.
**
** The runtime itself allocates nothing, reads no clock and takes no lock;
** whatever it needs of that kind it asks of these hooks. Hosted builds get
** working defaults (abort(), malloc/free, no lock); bare-metal builds get
** an abort that spins, an allocator that always fails and no lock, and
** install their own with nccc_platform_set.
*/
#ifndef NCCC_PLATFORM_H
#define NCCC_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "visibility.h"

typedef struct nccc_platform {
  /* Must not return. Called on an unrecoverable runtime state. */
  void (*abort)(nccc_status status);
  /* Memory for the nccc.alloc built-in (hosts making C strings, buffers). */
  void *(*alloc)(size_t size);
  void (*free)(void *ptr);
  /* Guards the global mutable registry and the module table against
  ** concurrent change; both NULL means single-threaded use. */
  void (*lock)(void);
  void (*unlock)(void);
  /* A monotonic clock in nanoseconds, or NULL (timestamps read 0). */
  uint64_t (*now_ns)(void);
  /* A word that differs between threads alive at the same time, for
  ** closures claimed with NCCC_CLOSURE_THREAD (nccc/closure.h). NULL
  ** keeps the default: the address of a thread-local variable where the
  ** build has thread-local storage (NCCC_THREAD_LOCAL), else one word
  ** for the whole program (bare metal: every call counts as the
  ** claiming thread's). An RTOS may install its task id. */
  uintptr_t (*thread_id)(void);
} nccc_platform;

/* Installs hooks; a NULL member keeps the default for that hook. A NULL
** platform restores all defaults. */
NCCC_API void nccc_platform_set(const nccc_platform *platform);

/* The hooks in force (never NULL members except lock/unlock/now_ns). */
NCCC_API const nccc_platform *nccc_platform_get(void);

/* Calls the abort hook. */
NCCC_API void nccc_platform_abort(nccc_status status);

/* Take and release the platform lock: calls the lock / unlock hook when
** one is installed, else nothing. The runtime's own files and its
** companion libraries guard their shared tables with these two. */
NCCC_API void nccc_platform_lock(void);
NCCC_API void nccc_platform_unlock(void);

#endif
