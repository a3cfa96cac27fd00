/*
** rpc_records.c — records by value on a big-endian device (docs/RPC.md,
** "Word size and byte order"). On the wire a record's slots hold its
** bytes as a little-endian device holds them: the device's offsets, each
** field little-endian. Slots are converted as integers, which on a
** big-endian device reverses the bytes of each slot; the server then
** calls these to put every field of every record of the call in the
** device's order (and back for the results). Nothing to do on a
** little-endian device.
*/
#include <string.h>

#include "rpc_internal.h"

static int big_endian(void) {
  const uint16_t one = 1;
  uint8_t first;
  memcpy(&first, &one, 1);
  return first == 0;
}

static void reverse(uint8_t *p, size_t n) {
  for (size_t i = 0, j = n - 1; i < j; i++, j--) {
    uint8_t t = p[i];
    p[i] = p[j];
    p[j] = t;
  }
}

static const nccc_type_layout *find_type(const nccc_module *m, const char *name, size_t len) {
  for (uint16_t t = 0; m->types != NULL && t < m->n_types; t++) {
    if (strlen(m->types[t].name) == len && memcmp(m->types[t].name, name, len) == 0) {
      return &m->types[t];
    }
  }
  return NULL;
}

/* Reverses every scalar field of the record type (at p) in place; a
** union, whose active member only the C code knows, by its largest
** member (the first of that size). Depth-bounded against a malformed
** table. */
static void swap_fields(const nccc_module *m, const nccc_type_layout *type, uint8_t *p,
                        int depth) {
  uint16_t only = type->n_fields;
  if (depth > 8) return;
  if (type->kind == NCCC_TYPE_UNION) {
    for (uint16_t f = 0; f < type->n_fields; f++) {
      if (only == type->n_fields || type->fields[f].size > type->fields[only].size) only = f;
    }
  }
  for (uint16_t f = 0; f < type->n_fields; f++) {
    const nccc_field *field = &type->fields[f];
    uint32_t count = field->count ? field->count : 1, each = field->size / count;
    const nccc_type_layout *inner = NULL;
    if ((only != type->n_fields && f != only) || field->offset + field->size > type->size) {
      continue;
    }
    if (field->type[0] == NCCC_ABI_SIG_RECORD_OPEN) {
      const char *close = strchr(field->type, NCCC_ABI_SIG_RECORD_CLOSE);
      size_t len = strcspn(field->type + 1, ":}");
      inner = close ? find_type(m, field->type + 1, len) : NULL;
      if (inner == NULL) continue;
    }
    for (uint32_t k = 0; k < count; k++) {
      uint8_t *at = p + field->offset + k * each;
      if (inner != NULL) {
        swap_fields(m, inner, at, depth + 1);
      } else if (each > 1) {
        reverse(at, each);
      }
    }
  }
}

/* One side of sig (up to ':' or the end) over slots, in place: each
** record's slots turned from reversed slot order to the record's bytes
** (or back: both steps are their own inverse, in the other order). */
static void side(const nccc_module *m, const char *sig, uint64_t *slots, size_t n,
                 int to_wire) {
  size_t k = 0;
  for (const char *p = sig; *p && *p != NCCC_ABI_SIG_SEPARATOR && k < n; p++) {
    const char *close;
    const nccc_type_layout *type;
    size_t count;
    if (*p != NCCC_ABI_SIG_RECORD_OPEN) {
      k++;
      continue;
    }
    close = strchr(p, NCCC_ABI_SIG_RECORD_CLOSE);
    if (close == NULL) return;
    type = find_type(m, p + 1, strcspn(p + 1, ":}"));
    if (type == NULL) return;
    count = NCCC_SLOTS(type->size);
    if (count > n - k) return;
    if (!to_wire) {
      for (size_t j = 0; j < count; j++) reverse((uint8_t *)&slots[k + j], 8);
    }
    swap_fields(m, type, (uint8_t *)&slots[k], 0);
    if (to_wire) {
      for (size_t j = 0; j < count; j++) reverse((uint8_t *)&slots[k + j], 8);
    }
    k += count;
    p = close;
  }
}

void nccci_rpc_records(nccc_handle handle, uint64_t *slots, size_t n, int out_side) {
  const nccc_fn_info *info = NULL;
  const nccc_module *m;
  uint16_t module, index;
  const char *sig;
  if (!big_endian() || nccc_handle_decode(handle, &module, &index) != NCCC_OK ||
      (m = nccc_module_at(module)) == NULL ||
      nccc_function(handle, NULL, &info, NULL) != NCCC_OK || info == NULL) {
    return;
  }
  sig = info->signature;
  if (out_side) {
    /* the separator, not the ':' of a record's {name:N} */
    while (*sig && *sig != NCCC_ABI_SIG_SEPARATOR) {
      if (*sig == NCCC_ABI_SIG_RECORD_OPEN) sig += strcspn(sig, "}");
      if (*sig) sig++;
    }
    if (*sig == 0) return;
    sig++;
  }
  side(m, sig, slots, n, out_side);
}
