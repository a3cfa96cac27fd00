/*
** nccc/registry.h — function registries: names, functions, signatures.
**
** A registry maps names to nccc functions. Its names live in TVM CRT's
** names blob: a 2-byte native-endian count, then each name followed by NUL,
** then one more NUL. nccc adds, per function, an nccc_fn_info (signature
** string and slot counts), optionally a sorted index so that lookup is a
** binary search instead of a scan, and optionally a hash index, with
** which lookup hashes the name and compares it with one name or a few.
**
** A const registry is plain initialised data (generated code puts it in
** .rodata / flash). A mutable registry is carved out of one block the
** caller supplies; it never allocates.
**
** Signature strings: "IN:OUT", one code per slot or group of slots
**   ?  bool                 b B  int8 / uint8      h H  int16 / uint16
**   i I  int32 / uint32     l L  int64 / uint64    f  float   d  double
**   p  data pointer         s  NUL-terminated string (const char *)
**   F  function pointer     e  errno value (int, OUT only)
**   c  closure context: a context from closure_claim (docs/CALLBACKS.md),
**      passed for a callback parameter; 0 for a [nullable] one left out
**   {name}    struct or union by value: NCCC_SLOTS(sizeof) slots, its
**             layout in the module's type table
**   {name:N}  the same with its slot count N spelled out (needed when the
**             signature alone must give the counts: nccc_mreg_set)
**   *         any number of further slots (only as the last code of a side)
** OUT lists the return value, then [out]/[inout] values, then errno.
*/
#ifndef NCCC_REGISTRY_H
#define NCCC_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "slot.h"
#include "status.h"
#include "visibility.h"

/* Set in nccc_fn_info.n_in / n_out when the side ends in '*'; the low bits
** then give the minimum. */
#define NCCC_SLOTS_VARIABLE NCCC_ABI_SLOTS_VARIABLE

/* The largest number of functions one registry can hold: function indices
** are 15 bits in a handle. */
#define NCCC_REGISTRY_MAX_FUNCTIONS NCCC_ABI_HANDLE_INDEX_MASK

/* The longest name a registry accepts, in bytes without the NUL. */
#define NCCC_NAME_MAX 255u

typedef struct nccc_fn_info {
  const char *signature; /* see above; never NULL */
  uint16_t n_in;         /* in slots, maybe | NCCC_SLOTS_VARIABLE */
  uint16_t n_out;        /* out slots, maybe | NCCC_SLOTS_VARIABLE */
  uint32_t name_offset;  /* byte offset of this function's name in the
                            names blob: O(1) access for binary search */
} nccc_fn_info;

typedef struct nccc_registry {
  const char *names;         /* TVM names blob */
  const nccc_fn *funcs;      /* funcs[i] is named by the i-th name */
  const nccc_fn_info *info;  /* info[i] describes funcs[i]; never NULL */
  const uint16_t *sorted;    /* indices in strcmp order of names, or NULL
                                (then lookup scans the blob) */
  const uint16_t *hash_index; /* the names' hash index, or NULL (then
                                lookup uses sorted); see below */
} nccc_registry;

/*
** The hash index (generated; idl/abi.json, name_index): hash_index[0] is
** the number of slots less one, the number a power of two and at least
** NCCC_ABI_NAME_INDEX_SLOTS_PER_NAME times the names; hash_index[1 + k]
** is slot k: NCCC_ABI_NAME_INDEX_EMPTY (0), or the index of a function
** plus one. Name i sits in slot FNV-1a 32 of the name (NCCC_ABI_FNV1A_*)
** masked by the slot count less one, or in the next empty slot after it,
** wrapping; lookup probes from there to the name or an empty slot. A
** mutable registry has none (its view's hash_index is NULL).
*/

/*
** A names blob as one constant object: use as
**   NCCC_NAMES_BLOB(my_names, 2, "add\0sub\0");
** and point nccc_registry.names at (const char *)&my_names. The string
** literal's own terminator supplies the final extra NUL.
*/
#define NCCC_NAMES_BLOB(ident, count, literal) \
  static const struct {                        \
    uint16_t n;                                \
    char text[sizeof(literal)];                \
  } ident = {(count), literal}

/* ---- names blobs (shared with the TVM-compatible layer) ------------- */

/* The number of names in a blob. */
NCCC_API uint16_t nccc_names_count(const char *names);

/* The i-th name, or NULL when i is out of range. */
NCCC_API const char *nccc_names_get(const char *names, uint16_t i);

/* ---- reading any registry -------------------------------------------- */

/* Number of functions. */
NCCC_API uint16_t nccc_registry_count(const nccc_registry *reg);

/*
** Finds name. NCCC_OK and *out_index set, or NCCC_ERR_NAME_NOT_FOUND,
** NCCC_ERR_NULL_POINTER (reg, name or out_index NULL). *out_index is left
** untouched on failure. Through the hash index when reg->hash_index is
** set and reg has more than 16 names; else a scan of at most 16 names
** when reg->sorted is set, or a binary search of it; else a scan.
*/
NCCC_API nccc_status nccc_registry_lookup(const nccc_registry *reg, const char *name,
                                          uint16_t *out_index);

/*
** The function at index: NCCC_OK, or NCCC_ERR_INDEX_INVALID when index is
** out of range, NCCC_ERR_NULL_POINTER. Any of the out pointers may be NULL.
*/
NCCC_API nccc_status nccc_registry_get(const nccc_registry *reg, uint16_t index,
                                       nccc_fn *out_fn, const nccc_fn_info **out_info,
                                       const char **out_name);

/* ---- signatures ------------------------------------------------------ */

/*
** Parses a signature and counts its slots. A struct code without an
** explicit :N count cannot be counted here: NCCC_ERR_BAD_SIGNATURE. Also
** NCCC_ERR_BAD_SIGNATURE for any malformed string, NCCC_ERR_NULL_POINTER.
*/
NCCC_API nccc_status nccc_signature_counts(const char *signature, uint16_t *out_n_in,
                                           uint16_t *out_n_out);

/* ---- mutable registries ------------------------------------------------ */

/*
** Layout inside the caller's block, from its first suitably aligned byte:
** the function table, the info table and the sorted index (capacity
** entries each, correctly aligned whatever the block's address), then a
** string area: names grow upward from its start as a TVM names blob,
** signature copies grow downward from its end. A set that would make the
** two meet fails with NCCC_ERR_REGISTRY_FULL and changes nothing.
*/
typedef struct nccc_mreg {
  nccc_registry view; /* read it with the functions above */
  nccc_fn *funcs;
  nccc_fn_info *info;
  uint16_t *sorted;
  uint16_t capacity;
  char *names;      /* start of the names blob */
  char *names_end;  /* the blob's final NUL: where the next name goes */
  char *sigs_low;   /* lowest byte used by signature copies */
} nccc_mreg;

/* Bytes of table per function (besides its strings), for sizing blocks. */
#define NCCC_MREG_ENTRY_BYTES \
  (sizeof(nccc_fn) + sizeof(nccc_fn_info) + sizeof(uint16_t))

/*
** Creates an empty mutable registry in block. capacity is the most
** functions it will hold; 0 chooses size / (NCCC_MREG_ENTRY_BYTES + 24),
** that is room for names and signatures of 24 bytes on average.
** Errors: NCCC_ERR_NULL_POINTER; NCCC_ERR_BUFFER_TOO_SMALL when the block
** cannot hold the tables for capacity entries plus an empty blob and at
** least one function (capacity 0 that works out to 0 included).
*/
NCCC_API nccc_status nccc_mreg_init(nccc_mreg *reg, void *block, size_t size,
                                    uint16_t capacity);

/*
** Adds or replaces name. The name and the signature are copied into the
** block; the signature gives the slot counts (see nccc_signature_counts).
** override != 0 replaces an existing entry in place (same index);
** otherwise an existing name gives NCCC_ERR_ALREADY_DEFINED.
** Errors: NCCC_ERR_NULL_POINTER, NCCC_ERR_BAD_NAME (empty or longer than
** NCCC_NAME_MAX), NCCC_ERR_BAD_SIGNATURE, NCCC_ERR_ALREADY_DEFINED,
** NCCC_ERR_REGISTRY_FULL. On any error nothing changes. *out_index (may be
** NULL) receives the entry's index on success.
*/
NCCC_API nccc_status nccc_mreg_set(nccc_mreg *reg, const char *name, nccc_fn fn,
                                   const char *signature, int override,
                                   uint16_t *out_index);

#endif
