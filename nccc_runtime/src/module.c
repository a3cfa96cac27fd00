/*
** module.c — the module table and the dispatch index of calls.
*/
#include <string.h>

#include "internal.h"

nccci_state nccci_G;

const nccc_registry *nccci_state_registry(uint16_t module_index) {
  return module_index <= NCCC_GLOBAL_MODULE
             ? nccci_G.dispatch[module_index].registry : NULL;
}

void nccci_dispatch_set(uint16_t index, const nccc_registry *reg) {
  nccci_dispatch *d = &nccci_G.dispatch[index];
  d->count = 0; /* first, so no call sees a half-written entry */
  d->funcs = reg != NULL ? reg->funcs : NULL;
  d->info = reg != NULL ? reg->info : NULL;
  d->registry = reg;
  d->count = reg != NULL ? nccc_registry_count(reg) : 0;
}

const nccc_module *nccc_module_at(uint16_t index) {
  return index < NCCC_MAX_MODULES ? nccci_G.modules[index] : NULL;
}

nccc_status nccc_module_add(const nccc_module *module, uint16_t *out_index) {
  int i, free_slot = -1;
  size_t len;
  if (module == NULL || module->name == NULL || module->registry == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "module add", NULL);
  }
  if (!nccci_G.initialized) {
    return nccc_fail(NCCC_ERR_NOT_INITIALIZED, "module add", module->name);
  }
  len = nccci_strnlen(module->name, NCCC_NAME_MAX);
  if (len == 0 || len > NCCC_NAME_MAX || memchr(module->name, '.', len)) {
    return nccc_fail(NCCC_ERR_BAD_NAME, "bad module name", module->name);
  }
  nccc_platform_lock();
  if (nccci_module_index(module->name, '\0', NULL) >= 0) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_ALREADY_DEFINED, "module already present",
                     module->name);
  }
  for (i = 0; i < NCCC_MAX_MODULES && free_slot < 0; i++) {
    if (nccci_G.modules[i] == NULL) free_slot = i;
  }
  if (free_slot < 0) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_MODULES_FULL, "module table full, cannot add",
                     module->name);
  }
  nccci_G.modules[free_slot] = module;
  nccci_dispatch_set((uint16_t)free_slot, module->registry);
  nccc_platform_unlock();
  if (out_index != NULL) *out_index = (uint16_t)free_slot;
  return NCCC_OK;
}

nccc_status nccc_module_remove(uint16_t index) {
  if (index >= NCCC_MAX_MODULES || nccci_G.modules[index] == NULL) {
    return nccc_fail(NCCC_ERR_INDEX_INVALID, "no module at that index", NULL);
  }
  nccc_platform_lock();
  nccci_G.modules[index] = NULL;
  nccci_dispatch_set(index, NULL);
  nccc_platform_unlock();
  return NCCC_OK;
}

nccc_status nccc_module_find(const char *name, uint16_t *out_index) {
  int i;
  if (name == NULL || out_index == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "module find", NULL);
  }
  i = nccci_module_index(name, '\0', NULL);
  if (i < 0) return nccc_fail(NCCC_ERR_NAME_NOT_FOUND, "no module named", name);
  *out_index = (uint16_t)i;
  return NCCC_OK;
}
