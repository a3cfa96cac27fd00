/*
** registry.c — reading registries, const or mutable alike.
*/
#include <string.h>

#include "internal.h"

uint16_t nccc_registry_count(const nccc_registry *reg) {
  return reg != NULL ? nccc_names_count(reg->names) : 0;
}

static const char *name_at(const nccc_registry *reg, uint16_t index) {
  return reg->names + reg->info[index].name_offset;
}

/* The index of name among the count names of reg, or -1: a scan, the
** first byte compared inline (a sorted registry of at most NCCCI_SCAN_MAX). */
static int scan_first_bytes(const nccc_registry *reg, uint16_t count,
                            const char *name) {
  uint16_t i;
  for (i = 0; i < count; i++) {
    const char *candidate = name_at(reg, i);
    if (candidate[0] == name[0] && strcmp(candidate, name) == 0) return i;
  }
  return -1;
}

/* The same by binary search of the sorted index; apart (GCC and Clang),
** so that the scan above saves no registers for it. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int search_sorted(const nccc_registry *reg, uint16_t count,
                         const char *name) {
  uint16_t lo = 0, hi = count; /* search [lo, hi) */
  while (lo < hi) {
    uint16_t mid = (uint16_t)(lo + (hi - lo) / 2);
    int c = strcmp(name, name_at(reg, reg->sorted[mid]));
    if (c == 0) return reg->sorted[mid];
    if (c < 0) hi = mid; else lo = (uint16_t)(mid + 1);
  }
  return -1;
}

/* The same walking the names blob (no sorted index). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int scan_blob(const nccc_registry *reg, uint16_t count,
                     const char *name) {
  const char *p = reg->names + sizeof(uint16_t);
  uint16_t i;
  for (i = 0; i < count; i++) {
    if (strcmp(p, name) == 0) return i;
    p += strlen(p) + 1;
  }
  return -1;
}

int nccci_registry_search(const nccc_registry *reg, const char *name) {
  uint16_t count;
  if (reg->names == NULL) return -1;
  memcpy(&count, reg->names, sizeof count); /* nccc_names_count, inline */
  if (reg->sorted == NULL) return scan_blob(reg, count, name);
  if (count <= NCCCI_SCAN_MAX) return scan_first_bytes(reg, count, name);
  return search_sorted(reg, count, name);
}

nccc_status nccc_registry_lookup(const nccc_registry *reg, const char *name,
                                 uint16_t *out_index) {
  int found;
  if (reg == NULL || name == NULL || out_index == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "registry lookup", NULL);
  }
  found = nccci_registry_find(reg, name);
  if (found < 0) return nccc_fail(NCCC_ERR_NAME_NOT_FOUND, "no function named", name);
  *out_index = (uint16_t)found;
  return NCCC_OK;
}

nccc_status nccc_registry_get(const nccc_registry *reg, uint16_t index,
                              nccc_fn *out_fn, const nccc_fn_info **out_info,
                              const char **out_name) {
  if (reg == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "registry get", NULL);
  }
  if (index >= nccc_names_count(reg->names)) {
    return nccc_fail(NCCC_ERR_INDEX_INVALID, "function index out of range",
                     NULL);
  }
  if (out_fn != NULL) *out_fn = reg->funcs[index];
  if (out_info != NULL) *out_info = &reg->info[index];
  if (out_name != NULL) *out_name = name_at(reg, index);
  return NCCC_OK;
}
