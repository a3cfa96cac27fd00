/*
** oracle.h — what the generated corpus table (corpus_table.c, written by
** gen_corpus.py) and the driver (oracle_check.c) share.
*/
#ifndef FO_ORACLE_H
#define FO_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include <ffi.h>
#include <nccc/slot.h>

/* The alignment of T as a member of a struct (what libffi computes). */
#define FO_ALIGNOF(T) offsetof(struct { char c; T v; }, v)

typedef enum fo_kind {
  FO_K_INT,    /* any integer type; is_signed tells which */
  FO_K_BOOL,
  FO_K_ENUM,   /* slot: sign-extended int32, whatever the enum's own type */
  FO_K_FLOAT,
  FO_K_DOUBLE,
  FO_K_PTR,    /* data and function pointers */
  FO_K_RECORD  /* struct or union by value */
} fo_kind;

/* How fill functions choose values: random, the k-th edge value of each
** leaf's type, or random with garbage above the width of narrow integers. */
enum { FO_MODE_RANDOM, FO_MODE_EDGE, FO_MODE_DIRTY };

typedef struct fo_rng {
  uint64_t state;
} fo_rng;

typedef struct fo_type {
  const char *name;  /* C spelling */
  fo_kind kind;
  size_t size, align;
  int is_signed;     /* integers and enums */
  ffi_type *ffi;     /* set by fo_init_types */
  /* records: writes a value of the type to obj */
  void (*fill)(void *obj, int mode, fo_rng *rng, int k);
  /* records: sets the bytes of every field to 0xff, leaves padding alone */
  void (*mask)(unsigned char *m);
  const size_t *offsets;  /* structs: offsetof each libffi element */
  size_t n_offsets;
  const char *layout;     /* records: name in the module's layout table */
} fo_type;

typedef struct fo_case {
  const char *name;
  const char *module;
  nccc_fn wrapper;
  void (*fn)(void);
  int ret;  /* a type id, or FO_T_VOID */
  int nparams;
  const int *params;
  const char *signature;  /* what the module's registry must say */
} fo_case;

/* corpus_table.c */
extern fo_type fo_types[];
extern const fo_case fo_cases[];
void fo_init_types(void);

/* oracle_check.c, used by corpus_table.c */
ffi_type *fo_scalar_ffi(int type);
void fo_random_bytes(void *dst, size_t n, fo_rng *rng);
void fo_fill_leaf(int type, void *dst, int mode, fo_rng *rng, int k);
void fo_mask_range(unsigned char *m, size_t offset, size_t n);

#endif
