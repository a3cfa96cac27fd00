/*
** nccc/module.h — modules: a named registry plus what hosts need to
** convert values without a C compiler: the layout of every struct, union
** and opaque type, and the value of every constant and enumerator.
**
** Generated code defines one const nccc_module per IDL module; every
** number in it (sizes, offsets, alignments, constant values) comes from
** the C compiler (sizeof, offsetof, the constant itself), never from the
** generator. nccc_module_add makes the module's functions reachable by
** handle and by the name "MODULE.FUNCTION".
*/
#ifndef NCCC_MODULE_H
#define NCCC_MODULE_H

#include <stdint.h>

#include "config.h"
#include "registry.h"
#include "abi.h"
#include "status.h"
#include "visibility.h"

/* One field of a struct or union. */
typedef struct nccc_field {
  const char *name;
  const char *type;  /* a signature code: "i", "p", "{point}", ... */
  uint32_t offset;   /* offsetof */
  uint32_t size;     /* sizeof the field (whole array for arrays) */
  uint32_t count;    /* array elements, 1 for a plain field */
} nccc_field;

/* enum nccc_type_kind (struct 1, union 2, opaque 3) is in nccc/abi.h. */

typedef struct nccc_type_layout {
  const char *name;   /* the IDL name ("point" for struct point) */
  uint32_t size;      /* sizeof */
  uint32_t align;     /* _Alignof (or offsetof in a char-led struct) */
  uint16_t kind;      /* nccc_type_kind */
  uint16_t n_fields;
  const nccc_field *fields;
} nccc_type_layout;

/* A named constant or enumerator, as a slot of the given type code. */
typedef struct nccc_constant {
  const char *name;
  const char *type;  /* signature code of the value */
  uint64_t value;    /* slot-encoded */
} nccc_constant;

typedef struct nccc_module {
  const char *name;
  const nccc_registry *registry;
  const nccc_type_layout *types;
  uint16_t n_types;
  uint16_t n_constants;
  const nccc_constant *constants;
} nccc_module;

/*
** Makes module reachable. *out_index (may be NULL) gets its module index.
** Errors: NCCC_ERR_NULL_POINTER, NCCC_ERR_BAD_NAME (empty name or one
** holding '.'), NCCC_ERR_ALREADY_DEFINED (a module of that name is
** present), NCCC_ERR_MODULES_FULL, NCCC_ERR_NOT_INITIALIZED.
*/
NCCC_API nccc_status nccc_module_add(const nccc_module *module, uint16_t *out_index);

/* Removes the module at index: NCCC_OK or NCCC_ERR_INDEX_INVALID. Handles
** into it become invalid (their calls fail with NCCC_ERR_BAD_HANDLE). */
NCCC_API nccc_status nccc_module_remove(uint16_t index);

/* Finds a module by name: NCCC_OK, NCCC_ERR_NAME_NOT_FOUND,
** NCCC_ERR_NULL_POINTER. */
NCCC_API nccc_status nccc_module_find(const char *name, uint16_t *out_index);

/* The module at index, or NULL when the index holds none. */
NCCC_API const nccc_module *nccc_module_at(uint16_t index);

#endif
