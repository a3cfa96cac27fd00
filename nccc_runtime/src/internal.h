/*
** internal.h — state and helpers shared by the runtime's own files.
** Nothing here is part of the public API; bindings and generated code
** include <nccc/nccc.h> only.
*/
#ifndef NCCC_INTERNAL_H
#define NCCC_INTERNAL_H

#include <string.h>

#include <nccc/nccc.h>

/* The runtime's whole mutable state: zero-initialised data, no
** constructor. nccc_init fills it. */
typedef struct nccc_state {
  const nccc_module *modules[NCCC_MAX_MODULES];
  nccc_mreg global;
  int initialized;
} nccc_state;

extern nccc_state nccc_G;

/* The registry behind a module index (the global one included), or NULL. */
const nccc_registry *nccc_state_registry(uint16_t module_index);

/* Platform lock around changes to nccc_G. */
void nccc_state_lock(void);
void nccc_state_unlock(void);

/* Index of the module called name (its first len bytes), or -1. */
int nccc_module_index(const char *name, size_t len);

/* The built-in module "nccc" (builtins.c). */
extern const nccc_module nccc_builtin_module;

/* A blob's count, inline for the call path. */
static inline uint16_t nccc_blob_count(const char *names) {
  uint16_t n;
  memcpy(&n, names, sizeof n);
  return n;
}

/* Bounded string length: n when no NUL within max+1 bytes. */
size_t nccc_strnlen(const char *s, size_t max);

#endif
