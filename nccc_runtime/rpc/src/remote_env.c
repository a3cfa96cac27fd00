/*
** remote_env.c — nccc_remote_bind_env: a device module bound from the
** link an environment variable names, for the nccc_M_open function of a
** library a host loads (docs/RPC.md, "From a host language").
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "remote_internal.h"

/* The links opened so far, one per link text, kept for the process. */
typedef struct env_link {
  struct env_link *next;
  nccc_remote *remote;
  char spec[];
} env_link;

static env_link *links;
static pthread_mutex_t links_lock = PTHREAD_MUTEX_INITIALIZER;

static nccc_status link_for(const char *spec, nccc_remote **out) {
  env_link *l;
  nccc_status st;
  for (l = links; l != NULL; l = l->next) {
    if (strcmp(l->spec, spec) == 0) {
      *out = l->remote;
      return NCCC_OK;
    }
  }
  l = malloc(sizeof *l + strlen(spec) + 1);
  if (l == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "nccc_remote_bind_env", NULL);
  strcpy(l->spec, spec);
  st = nccc_remote_open_spec(spec, NULL, &l->remote);
  if (st != NCCC_OK) {
    free(l);
    return st;
  }
  l->next = links;
  links = l;
  *out = l->remote;
  return NCCC_OK;
}

/* The memory module bound beside a module M: M_memory. */
#define MEMORY_SUFFIX "_memory"

nccc_status nccc_remote_bind_env(const char *module, const char *variable) {
  char memory[NCCC_NAME_MAX + 1];
  const char *spec;
  nccc_remote *r = NULL;
  nccc_status st;
  uint16_t index;
  if (module == NULL || variable == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_bind_env", NULL);
  }
  st = nccc_ensure_init();
  if (st != NCCC_OK) return st;
  if (nccc_module_find(module, &index) == NCCC_OK) return NCCC_OK;
  spec = getenv(variable);
  if (spec == NULL || *spec == 0) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "nccc_remote_bind_env: not set", variable);
  }
  if (strlen(module) > NCCC_NAME_MAX - sizeof MEMORY_SUFFIX) {
    return nccc_fail(NCCC_ERR_BAD_NAME, "nccc_remote_bind_env", module);
  }
  strcpy(memory, module);
  strcat(memory, MEMORY_SUFFIX);
  pthread_mutex_lock(&links_lock);
  st = link_for(spec, &r);
  if (st == NCCC_OK) st = nccc_remote_bind(r, module, NULL, NULL);
  if (st == NCCC_OK && nccc_module_find(memory, &index) != NCCC_OK) {
    st = nccc_remote_bind_memory(r, memory, NULL);
  }
  pthread_mutex_unlock(&links_lock);
  return st;
}
