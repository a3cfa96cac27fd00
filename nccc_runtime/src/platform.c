/*
** platform.c — default platform hooks and their replacement.
**
** The defaults are chosen at compile time: hosted builds (a C library
** with malloc and abort) get those; bare-metal builds get a spinning
** abort and an allocator that always fails.
*/
#include "internal.h"

#if defined(__unix__) || defined(__APPLE__) || defined(_WIN32)
#define NCCC_HOSTED_DEFAULTS 1
#include <stdlib.h>
#endif

#ifdef NCCC_HOSTED_DEFAULTS
static void default_abort(nccc_status status) {
  (void)status;
  abort();
}
static void *default_alloc(size_t size) { return malloc(size); }
static void default_free(void *ptr) { free(ptr); }
#else
static void default_abort(nccc_status status) {
  volatile nccc_status last = status; /* visible to a debugger */
  (void)last;
  for (;;) {
  }
}
static void *default_alloc(size_t size) {
  (void)size;
  return NULL;
}
static void default_free(void *ptr) { (void)ptr; }
#endif

NCCC_THREAD_LOCAL char nccci_thread_tag NCCCI_THREAD_TAG_MODEL;
uintptr_t (*nccci_thread_hook)(void);

static uintptr_t default_thread_id(void) { return (uintptr_t)&nccci_thread_tag; }

static nccc_platform hooks = {default_abort, default_alloc, default_free,
                              NULL, NULL, NULL, default_thread_id};

void nccc_platform_set(const nccc_platform *platform) {
  hooks.abort = platform && platform->abort ? platform->abort : default_abort;
  hooks.alloc = platform && platform->alloc ? platform->alloc : default_alloc;
  hooks.free = platform && platform->free ? platform->free : default_free;
  hooks.lock = platform ? platform->lock : NULL;
  hooks.unlock = platform ? platform->unlock : NULL;
  hooks.now_ns = platform ? platform->now_ns : NULL;
  hooks.thread_id = platform && platform->thread_id ? platform->thread_id
                                                    : default_thread_id;
  nccci_thread_hook = platform ? platform->thread_id : NULL;
}

const nccc_platform *nccc_platform_get(void) { return &hooks; }

void nccc_platform_abort(nccc_status status) {
  hooks.abort(status);
  /* An abort hook that returns breaks its contract; stop here anyway. */
  default_abort(status);
}

uint64_t nccci_now_ns(void) {
  return hooks.now_ns != NULL ? hooks.now_ns() : 0;
}

void nccc_platform_lock(void) {
  if (hooks.lock != NULL) hooks.lock();
}

void nccc_platform_unlock(void) {
  if (hooks.unlock != NULL) hooks.unlock();
}
