/*
** mreg.c — mutable registries carved from one caller-supplied block.
**
** Block layout, from the first byte aligned for the tables:
**   funcs[capacity] | info[capacity] | sorted[capacity] | strings ...
** The string area holds a TVM names blob growing upward from its start
** and signature copies growing downward from the block's end. Every
** write is checked against the other side before anything is written,
** so a set that does not fit changes nothing.
*/
#include <stddef.h>
#include <string.h>

#include "internal.h"

#if NCCC_WITH_GLOBAL_REGISTRY

#define ALIGN_OF(type) offsetof(struct { char c; type t; }, t)

static uintptr_t align_up(uintptr_t p, size_t a) {
  return (p + (a - 1)) & ~(uintptr_t)(a - 1);
}

/* Smallest string area: count, final NUL, a 1-byte name and its NUL, and
** the shortest signature ":" with its NUL. */
#define MIN_STRING_BYTES (sizeof(uint16_t) + 1 + 2 + 2)

/* Lays the tables out for capacity; returns the string area's start, or
** 0 when they do not fit with MIN_STRING_BYTES to spare. */
static uintptr_t layout(nccc_mreg *reg, uintptr_t base, uintptr_t end,
                        uint16_t capacity) {
  uintptr_t p = align_up(base, ALIGN_OF(nccc_fn));
  /* Each step checks the remaining room before adding, so no pointer is
  ** ever formed past the block. */
  if (p > end || (size_t)(end - p) / sizeof(nccc_fn) < capacity) return 0;
  reg->funcs = (nccc_fn *)p;
  p += (uintptr_t)capacity * sizeof(nccc_fn);
  p = align_up(p, ALIGN_OF(nccc_fn_info));
  if (p > end || (size_t)(end - p) / sizeof(nccc_fn_info) < capacity) return 0;
  reg->info = (nccc_fn_info *)p;
  p += (uintptr_t)capacity * sizeof(nccc_fn_info);
  p = align_up(p, ALIGN_OF(uint16_t));
  if (p > end || (size_t)(end - p) / sizeof(uint16_t) < capacity) return 0;
  reg->sorted = (uint16_t *)p;
  p += (uintptr_t)capacity * sizeof(uint16_t);
  if (p > end || (size_t)(end - p) < MIN_STRING_BYTES) return 0;
  return p;
}

nccc_status nccc_mreg_init(nccc_mreg *reg, void *block, size_t size,
                           uint16_t capacity) {
  nccc_mreg r;
  uintptr_t base, end, strings;
  uint16_t zero = 0;
  if (reg == NULL || block == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "mutable registry init", NULL);
  }
  if (capacity == 0) {
    size_t guess = size / (NCCC_MREG_ENTRY_BYTES + 24);
    capacity = (uint16_t)(guess > NCCC_REGISTRY_MAX_FUNCTIONS
                              ? NCCC_REGISTRY_MAX_FUNCTIONS : guess);
  }
  if (capacity == 0 || capacity > NCCC_REGISTRY_MAX_FUNCTIONS) {
    return nccc_fail(NCCC_ERR_BUFFER_TOO_SMALL,
                     "mutable registry block holds no function", NULL);
  }
  base = (uintptr_t)block;
  end = base + size;
  if (end < base) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "block wraps around memory", NULL);
  }
  /* Built in a local first: on failure *reg stays untouched. */
  memset(&r, 0, sizeof r);
  strings = layout(&r, base, end, capacity);
  if (strings == 0) {
    return nccc_fail(NCCC_ERR_BUFFER_TOO_SMALL,
                     "mutable registry block too small for its tables", NULL);
  }
  r.capacity = capacity;
  r.names = (char *)strings;
  memcpy(r.names, &zero, sizeof zero);
  r.names_end = r.names + sizeof zero;
  *r.names_end = '\0';
  r.sigs_low = (char *)end;
  r.view.names = r.names;
  r.view.funcs = r.funcs;
  r.view.info = r.info;
  r.view.sorted = r.sorted;
  r.view.hash_index = NULL; /* lookup through the sorted index */
  *reg = r;
  return NCCC_OK;
}

/* Position of name in the sorted index: where it is, or where it goes. */
static uint16_t sorted_position(const nccc_mreg *reg, const char *name,
                                int *found) {
  uint16_t lo = 0, hi = nccc_names_count(reg->names);
  *found = 0;
  while (lo < hi) {
    uint16_t mid = (uint16_t)(lo + (hi - lo) / 2);
    int c = strcmp(name, reg->names + reg->info[reg->sorted[mid]].name_offset);
    if (c == 0) {
      *found = 1;
      return mid;
    }
    if (c < 0) hi = mid; else lo = (uint16_t)(mid + 1);
  }
  return lo;
}

/* Free bytes between the blob's final NUL and the signature copies. */
static size_t string_room(const nccc_mreg *reg) {
  return (size_t)(reg->sigs_low - (reg->names_end + 1));
}

static const char *copy_signature(nccc_mreg *reg, const char *sig,
                                  size_t sig_bytes) {
  reg->sigs_low -= sig_bytes;
  memcpy(reg->sigs_low, sig, sig_bytes);
  return reg->sigs_low;
}

nccc_status nccc_mreg_set(nccc_mreg *reg, const char *name, nccc_fn fn,
                          const char *signature, int override,
                          uint16_t *out_index) {
  size_t name_len, sig_bytes;
  uint16_t n_in, n_out, count, pos, index;
  int found;
  nccc_status st;

  if (reg == NULL || name == NULL || fn == NULL || signature == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "mutable registry set", NULL);
  }
  if (reg->names == NULL) {
    return nccc_fail(NCCC_ERR_NOT_INITIALIZED, "mutable registry set",
                     "registry not created");
  }
  name_len = nccci_strnlen(name, NCCC_NAME_MAX);
  if (name_len == 0) {
    return nccc_fail(NCCC_ERR_BAD_NAME, "empty function name", NULL);
  }
  if (name_len > NCCC_NAME_MAX) {
    return nccc_fail(NCCC_ERR_BAD_NAME, "function name too long", NULL);
  }
  st = nccc_signature_counts(signature, &n_in, &n_out);
  if (st != NCCC_OK) return st;
  sig_bytes = strlen(signature) + 1;

  pos = sorted_position(reg, name, &found);
  if (found) {
    nccc_fn_info *info;
    index = reg->sorted[pos];
    if (!override) {
      return nccc_fail(NCCC_ERR_ALREADY_DEFINED, "function already defined",
                       name);
    }
    info = &reg->info[index];
    if (strcmp(info->signature, signature) != 0) {
      if (string_room(reg) < sig_bytes) {
        return nccc_fail(NCCC_ERR_REGISTRY_FULL,
                         "no room for the new signature of", name);
      }
      info->signature = copy_signature(reg, signature, sig_bytes);
    }
    info->n_in = n_in;
    info->n_out = n_out;
    reg->funcs[index] = fn;
  } else {
    count = nccc_names_count(reg->names);
    if (count >= reg->capacity) {
      return nccc_fail(NCCC_ERR_REGISTRY_FULL, "registry full, cannot add",
                       name);
    }
    if (string_room(reg) < name_len + 1 + sig_bytes) {
      return nccc_fail(NCCC_ERR_REGISTRY_FULL,
                       "registry string space full, cannot add", name);
    }
    index = count;
    reg->info[index].signature = copy_signature(reg, signature, sig_bytes);
    reg->info[index].n_in = n_in;
    reg->info[index].n_out = n_out;
    reg->info[index].name_offset = (uint32_t)(reg->names_end - reg->names);
    reg->funcs[index] = fn;
    memcpy(reg->names_end, name, name_len + 1);
    reg->names_end += name_len + 1;
    *reg->names_end = '\0';
    memmove(&reg->sorted[pos + 1], &reg->sorted[pos],
            (size_t)(count - pos) * sizeof(uint16_t));
    reg->sorted[pos] = index;
    count++;
    memcpy(reg->names, &count, sizeof count); /* published last */
  }
  if (out_index != NULL) *out_index = index;
  return NCCC_OK;
}

#endif /* NCCC_WITH_GLOBAL_REGISTRY */
