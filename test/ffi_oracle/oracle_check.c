/*
** oracle_check.c — libffi as the oracle of the generated wrappers.
**
** For every function of the generated corpus (gen_corpus.py) and for
** random, edge and "dirty" value sets, the driver builds in[] slots as
** docs/ABI.md describes them, calls the generated wrapper (directly, by
** handle with nccc_call and with nccc_call_checked), and calls the same C
** function with libffi's ffi_call on arguments converted from the same
** slots. The result slots must be bit-identical (for structs and unions:
** every byte that belongs to a field), and every other byte of a record
** result must be 0: its padding and the rest of its last slot
** (docs/ABI.md, "Slots"; no union of the corpus has a member with padding
** of its own, so its only such bytes lie past every member). The slot
** conversions here are written from the ABI document, not taken from
** nccc/slot.h, so a fault in either shows up as a disagreement.
*/
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "corpus.h"
#include "corpus_table.h"
#include "fo_a_nccc.h"
#include "fo_b_nccc.h"
#include "nccc_check.h"
#include "oracle.h"

#define FO_MAX_PARAMS 12
#define FO_ARG_BYTES 128  /* the largest record of the corpus fits */
#define FO_MAX_IN (FO_MAX_PARAMS * (FO_ARG_BYTES / 8))
#define FO_MAX_OUT (FO_ARG_BYTES / 8)
#define FO_GUARD 4        /* slots after out[] that must stay untouched */
#define FO_CANARY 0xa5c3a5c3deadbeefu

#define FO_RANDOM_SETS 24
#define FO_EDGE_SETS 20   /* more than the longest edge list */
#define FO_DIRTY_SETS 8
#define FO_CHUNK 48       /* cases per Check loop iteration */

/* ---- random numbers (splitmix64: fixed seeds, same values everywhere) */

static uint64_t fo_next(fo_rng *r) {
  uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

void fo_random_bytes(void *dst, size_t n, fo_rng *rng) {
  unsigned char *p = dst;
  size_t i;
  for (i = 0; i < n; i++) p[i] = (unsigned char)fo_next(rng);
}

/* ---- the slot ABI, from docs/ABI.md ---------------------------------- */

static uint64_t zext(uint64_t v, size_t bytes) {
  return bytes >= 8 ? v : v & ((UINT64_C(1) << (8 * bytes)) - 1);
}

static uint64_t sext(uint64_t v, size_t bytes) {
  uint64_t sign;
  if (bytes >= 8) return v;
  v = zext(v, bytes);
  sign = UINT64_C(1) << (8 * bytes - 1);
  return (v ^ sign) - sign;
}

/* float -> slot: widened to double; a NaN widened by its bits so that
** signalling NaNs and payloads survive. */
static uint64_t float_bits_to_slot(uint32_t f) {
  if ((f & 0x7f800000u) == 0x7f800000u && (f & 0x007fffffu) != 0) {
    return ((uint64_t)(f >> 31) << 63) | UINT64_C(0x7ff0000000000000) |
           ((uint64_t)(f & 0x007fffffu) << 29);
  } else {
    float v;
    double d;
    uint64_t s;
    memcpy(&v, &f, 4);
    d = v;
    memcpy(&s, &d, 8);
    return s;
  }
}

/* slot -> float: the inverse of the above for every slot it produces. */
static uint32_t slot_to_float_bits(uint64_t s) {
  if ((s & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000) &&
      (s & UINT64_C(0x000fffffffffffff)) != 0) {
    uint32_t frac = (uint32_t)(s >> 29) & 0x007fffffu;
    return (uint32_t)(s >> 63) << 31 | 0x7f800000u |
           (frac != 0 ? frac : 0x00400000u);
  } else {
    double d;
    float v;
    uint32_t f;
    memcpy(&d, &s, 8);
    v = (float)d;
    memcpy(&f, &v, 4);
    return f;
  }
}

/* Stores the value a slot stands for as an object of the type (what
** libffi reads through avalue[]). */
static void store_value(const fo_type *t, void *dst, uint64_t slot) {
  switch (t->kind) {
    case FO_K_INT:
    case FO_K_ENUM:
      switch (t->size) {
        case 1: { uint8_t v = (uint8_t)slot; memcpy(dst, &v, 1); break; }
        case 2: { uint16_t v = (uint16_t)slot; memcpy(dst, &v, 2); break; }
        case 4: { uint32_t v = (uint32_t)slot; memcpy(dst, &v, 4); break; }
        default: memcpy(dst, &slot, 8); break;
      }
      break;
    case FO_K_BOOL: {
      bool b = slot != 0;
      memcpy(dst, &b, sizeof b);
      break;
    }
    case FO_K_FLOAT: {
      uint32_t f = slot_to_float_bits(slot);
      memcpy(dst, &f, 4);
      break;
    }
    case FO_K_DOUBLE:
      memcpy(dst, &slot, 8);
      break;
    case FO_K_PTR: {
      uintptr_t p = (uintptr_t)slot;
      memcpy(dst, &p, sizeof p);
      break;
    }
    case FO_K_RECORD:
      break;
  }
}

/* The slot of a value libffi returned. libffi widens integral results
** narrower than ffi_arg to a whole ffi_arg. */
static uint64_t result_slot(const fo_type *t, const void *rvalue) {
  uint64_t v = 0;
  if (t->kind == FO_K_INT || t->kind == FO_K_ENUM || t->kind == FO_K_BOOL) {
    if (t->size <= sizeof(ffi_arg)) {
      ffi_arg a;
      memcpy(&a, rvalue, sizeof a);
      v = (uint64_t)a;
    } else {
      memcpy(&v, rvalue, 8);
    }
  }
  switch (t->kind) {
    case FO_K_INT: return t->is_signed ? sext(v, t->size) : zext(v, t->size);
    case FO_K_ENUM: return sext(v, 4); /* enums are signed slots */
    case FO_K_BOOL: return zext(v, t->size);
    case FO_K_FLOAT: {
      uint32_t f;
      memcpy(&f, rvalue, 4);
      return float_bits_to_slot(f);
    }
    case FO_K_DOUBLE:
      memcpy(&v, rvalue, 8);
      return v;
    case FO_K_PTR: {
      uintptr_t p;
      memcpy(&p, rvalue, sizeof p);
      return (uint64_t)p;
    }
    case FO_K_RECORD:
      break;
  }
  return 0;
}

ffi_type *fo_scalar_ffi(int type) {
  const fo_type *t = &fo_types[type];
  switch (t->kind) {
    case FO_K_FLOAT: return &ffi_type_float;
    case FO_K_DOUBLE: return &ffi_type_double;
    case FO_K_PTR: return &ffi_type_pointer;
    case FO_K_RECORD: return t->ffi;
    default: break;
  }
  switch (t->size) {
    case 1: return t->is_signed ? &ffi_type_sint8 : &ffi_type_uint8;
    case 2: return t->is_signed ? &ffi_type_sint16 : &ffi_type_uint16;
    case 4: return t->is_signed ? &ffi_type_sint32 : &ffi_type_uint32;
    default: return t->is_signed ? &ffi_type_sint64 : &ffi_type_uint64;
  }
}

/* ---- values ------------------------------------------------------------ */

static const uint32_t float_edges[] = {
  0x00000000u, 0x80000000u,              /* 0, -0 */
  0x3f800000u, 0xbf800000u,              /* 1, -1 */
  0x7f800000u, 0xff800000u,              /* inf, -inf */
  0x7fc00000u, 0xffc12345u,              /* quiet NaNs, one with payload */
  0x7fa5a5a5u, 0x7f800001u, 0xff800002u, /* signalling NaNs with payloads */
  0x7f7fffffu, 0xff7fffffu,              /* FLT_MAX, -FLT_MAX */
  0x00800000u,                           /* FLT_MIN */
  0x00000001u, 0x807fffffu, 0x00400000u, /* denormals */
  0x3eaaaaabu,                           /* 1/3 */
};

static const uint64_t double_edges[] = {
  UINT64_C(0x0000000000000000), UINT64_C(0x8000000000000000),
  UINT64_C(0x3ff0000000000000), UINT64_C(0xbff0000000000000),
  UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000),
  UINT64_C(0x7ff8000000000000), UINT64_C(0xfff80000c0ffee00),
  UINT64_C(0x7ff0000000000001), UINT64_C(0x7ff4deadbeef1234),
  UINT64_C(0xfff0000000000003),
  UINT64_C(0x7fefffffffffffff), UINT64_C(0xffefffffffffffff), /* DBL_MAX */
  UINT64_C(0x0010000000000000),                               /* DBL_MIN */
  UINT64_C(0x0000000000000001), UINT64_C(0x800fffffffffffff), /* denormals */
  UINT64_C(0x3fd5555555555555),
  UINT64_C(0x36a0000000000000), /* exactly FLT_TRUE_MIN */
};

static const int32_t enum_edges[] = {
  0, 1, -1, INT32_MIN, INT32_MAX, FO_NEG, FO_POS, FO_F4, FO_FBIG,
};

static int fo_pointee; /* a real address among the pointer edge values */

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The k-th edge value of a scalar type, as a slot. */
static uint64_t edge_slot(const fo_type *t, int k) {
  switch (t->kind) {
    case FO_K_INT: {
      size_t w = 8 * t->size;
      uint64_t max = t->is_signed ? (UINT64_C(1) << (w - 1)) - 1
                                  : zext(~UINT64_C(0), t->size);
      uint64_t top = UINT64_C(1) << (w - 1);
      uint64_t pattern = zext(UINT64_C(0x5555555555555555), t->size) & max;
      uint64_t v[9];
      v[0] = 0;
      v[1] = 1;
      v[2] = ~UINT64_C(0);          /* -1, or the maximum */
      v[3] = top;                   /* the minimum, or the top bit */
      v[4] = max;
      v[5] = top + 1;
      v[6] = max - 1;
      v[7] = pattern;
      v[8] = ~pattern;
      return t->is_signed ? sext(v[k % 9], t->size) : zext(v[k % 9], t->size);
    }
    case FO_K_BOOL: return (uint64_t)(k & 1);
    case FO_K_ENUM:
      return (uint64_t)(int64_t)enum_edges[k % COUNT(enum_edges)];
    case FO_K_FLOAT:
      return float_bits_to_slot(float_edges[k % COUNT(float_edges)]);
    case FO_K_DOUBLE: return double_edges[k % COUNT(double_edges)];
    case FO_K_PTR: {
      uint64_t v[6];
      v[0] = 0;
      v[1] = 1;
      v[2] = (uint64_t)UINTPTR_MAX;
      v[3] = (uint64_t)(UINTPTR_MAX / 2 + 1);
      v[4] = (uint64_t)(uintptr_t)&fo_pointee;
      v[5] = (uint64_t)(UINTPTR_MAX & UINT64_C(0x00007fffdeadbee8));
      return v[k % 6];
    }
    case FO_K_RECORD: break;
  }
  return 0;
}

static uint64_t random_slot(const fo_type *t, fo_rng *rng) {
  uint64_t r = fo_next(rng);
  switch (t->kind) {
    case FO_K_INT:
      if ((r & 7) == 0) r = (r >> 3) % 17 - 8; /* small values now and then */
      return t->is_signed ? sext(r, t->size) : zext(r, t->size);
    case FO_K_BOOL: return r & 1;
    case FO_K_ENUM: return sext(r, 4);
    case FO_K_FLOAT: return float_bits_to_slot((uint32_t)r);
    case FO_K_DOUBLE: return r;
    case FO_K_PTR: return (uint64_t)(uintptr_t)r;
    case FO_K_RECORD: break;
  }
  return 0;
}

/* A slot of the type for this mode; DIRTY sets the bits above a narrow
** integer's width, which the ABI says a conversion ignores. */
static uint64_t value_slot(const fo_type *t, int mode, fo_rng *rng, int k) {
  uint64_t s;
  if (mode == FO_MODE_EDGE) return edge_slot(t, k);
  s = random_slot(t, rng);
  if (mode == FO_MODE_DIRTY && t->size < 8 &&
      (t->kind == FO_K_INT || t->kind == FO_K_ENUM)) {
    s = zext(s, t->size) | (fo_next(rng) << (8 * t->size));
  }
  return s;
}

void fo_fill_leaf(int type, void *dst, int mode, fo_rng *rng, int k) {
  const fo_type *t = &fo_types[type];
  store_value(t, dst, value_slot(t, mode, rng, k));
}

void fo_mask_range(unsigned char *m, size_t offset, size_t n) {
  memset(m + offset, 0xff, n);
}

/* ---- the calls ------------------------------------------------------------ */

static ffi_cif fo_cifs[FO_N_CASES];
static ffi_type *fo_atypes[FO_N_CASES][FO_MAX_PARAMS];
static nccc_handle fo_handles[FO_N_CASES];

/* Statistics of record results for the report: padding bytes checked
** (each must be 0), and how many were not. */
static unsigned long fo_pad_bytes, fo_pad_nonzero, fo_calls;

static size_t slots_of(int type) {
  return type == FO_T_VOID ? 0
         : fo_types[type].kind == FO_K_RECORD ? NCCC_SLOTS(fo_types[type].size)
                                               : 1;
}

static size_t in_slots(const fo_case *c) {
  size_t n = 0;
  int p;
  for (p = 0; p < c->nparams; p++) n += slots_of(c->params[p]);
  return n;
}

static void dump_slots(const char *what, const uint64_t *s, size_t n) {
  size_t i;
  printf("  %s:", what);
  for (i = 0; i < n; i++) printf(" %016" PRIx64, s[i]);
  printf("\n");
}

/*
** Compares what one way of calling produced with libffi's result.
** Returns 1 when they agree.
*/
static int agree(const fo_case *c, const char *how, const char *set,
                 const uint64_t *in, const uint64_t *in_before, size_t n_in,
                 const uint64_t *out, const uint64_t *want, size_t n_out,
                 uint64_t sink, uint64_t want_sink, int *reported) {
  const char *why = NULL;
  size_t i;
  if (memcmp(in, in_before, n_in * sizeof *in) != 0) why = "in[] modified";
  for (i = n_out; i < n_out + FO_GUARD && why == NULL; i++) {
    if (out[i] != FO_CANARY) why = "wrote past its out slots";
  }
  if (why == NULL && c->ret == FO_T_VOID && sink != want_sink) {
    why = "void function saw other arguments";
  }
  if (why == NULL && c->ret != FO_T_VOID) {
    const fo_type *t = &fo_types[c->ret];
    if (t->kind == FO_K_RECORD) {
      unsigned char mask[FO_ARG_BYTES];
      const unsigned char *got = (const unsigned char *)out;
      const unsigned char *exp = (const unsigned char *)want;
      memset(mask, 0, sizeof mask);
      t->mask(mask);
      for (i = 0; i < n_out * 8; i++) {
        if (i >= t->size) {
          if (got[i] != 0) why = "slot padding after the record not zero";
        } else if (mask[i]) {
          if (got[i] != exp[i]) why = "record field bytes differ";
        } else {
          fo_pad_bytes++;
          if (got[i] != 0) {
            fo_pad_nonzero++;
            why = "record padding byte not zero";
          }
        }
      }
    } else if (out[0] != want[0]) {
      why = "result slot differs";
    }
  }
  if (why == NULL) return 1;
  if ((*reported)++ == 0) {
    printf("MISMATCH %s %s [%s] %s: %s\n", c->name, how, c->signature, set,
           why);
    dump_slots("in", in_before, n_in);
    dump_slots("wrapper", out, n_out);
    dump_slots("ffi_call", want, n_out);
    if (c->ret == FO_T_VOID) {
      printf("  sink: wrapper %016" PRIx64 " ffi_call %016" PRIx64 "\n", sink,
             want_sink);
    }
  }
  return 0;
}

/* Runs one case on one value set; returns the number of disagreeing ways. */
static int run_set(int ci, int mode, int k, int *reported) {
  const fo_case *c = &fo_cases[ci];
  _Alignas(16) unsigned char args[FO_MAX_PARAMS][FO_ARG_BYTES];
  _Alignas(16) unsigned char rvalue[FO_ARG_BYTES];
  void *avalue[FO_MAX_PARAMS];
  uint64_t in[FO_MAX_IN], in_before[FO_MAX_IN], want[FO_MAX_OUT];
  uint64_t out[FO_MAX_OUT + FO_GUARD];
  size_t n_in = 0, n_out = slots_of(c->ret), i;
  uint64_t want_sink;
  fo_rng rng;
  char set[48];
  int p, bad = 0, way;

  rng.state = (uint64_t)ci * 0x100000001b3u + (uint64_t)mode * 7919u +
              (uint64_t)k;
  snprintf(set, sizeof set, "%s set %d",
           mode == FO_MODE_EDGE ? "edge" : mode == FO_MODE_DIRTY ? "dirty"
                                                                 : "random",
           k);
  for (p = 0; p < c->nparams; p++) {
    const fo_type *t = &fo_types[c->params[p]];
    memset(args[p], 0, FO_ARG_BYTES);
    if (t->kind == FO_K_RECORD) {
      t->fill(args[p], mode, &rng, k + 7 * p);
      in[n_in + NCCC_SLOTS(t->size) - 1] = 0;
      memcpy(&in[n_in], args[p], t->size);
      n_in += NCCC_SLOTS(t->size);
    } else {
      uint64_t s = value_slot(t, mode, &rng, k + p);
      in[n_in++] = s;
      store_value(t, args[p], s);
    }
    avalue[p] = args[p];
  }
  memcpy(in_before, in, n_in * sizeof *in);

  memset(rvalue, 0, sizeof rvalue);
  fo_sink = 0;
  ffi_call(&fo_cifs[ci], FFI_FN(c->fn), rvalue, avalue);
  want_sink = fo_sink;
  memset(want, 0, sizeof want);
  if (c->ret != FO_T_VOID) {
    const fo_type *t = &fo_types[c->ret];
    if (t->kind == FO_K_RECORD) {
      memcpy(want, rvalue, t->size);
    } else {
      want[0] = result_slot(t, rvalue);
    }
  }

  for (way = 0; way < 3; way++) {
    static const char *const ways[] = {"wrapper", "nccc_call", "nccc_call_checked"};
    nccc_status st = NCCC_OK;
    for (i = 0; i < FO_MAX_OUT + FO_GUARD; i++) out[i] = FO_CANARY;
    fo_sink = 0;
    if (way == 0) {
      c->wrapper(in, out);
    } else if (way == 1) {
      st = nccc_call(fo_handles[ci], in, out);
    } else {
      st = nccc_call_checked(fo_handles[ci], in, n_in, out, n_out);
    }
    fo_calls++;
    if (st != NCCC_OK) {
      if ((*reported)++ == 0) {
        printf("MISMATCH %s %s: status %d (%s)\n", c->name, ways[way], (int)st,
               nccc_last_error());
      }
      bad++;
      continue;
    }
    if (!agree(c, ways[way], set, in, in_before, n_in, out, want, n_out,
               fo_sink, want_sink, reported)) {
      bad++;
    }
  }
  return bad;
}

static int run_case(int ci) {
  int k, bad = 0, reported = 0;
  for (k = 0; k < FO_RANDOM_SETS; k++) bad += run_set(ci, FO_MODE_RANDOM, k, &reported);
  for (k = 0; k < FO_EDGE_SETS; k++) bad += run_set(ci, FO_MODE_EDGE, k, &reported);
  for (k = 0; k < FO_DIRTY_SETS; k++) bad += run_set(ci, FO_MODE_DIRTY, k, &reported);
  return bad;
}

/* ---- set-up ------------------------------------------------------------- */

static void setup_all(void) {
  int ci, p;
  fo_init_types();
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_fo_a_register() != NCCC_OK ||
      nccc_fo_b_register() != NCCC_OK) {
    fprintf(stderr, "runtime set-up failed: %s\n", nccc_last_error());
    exit(1);
  }
  for (ci = 0; ci < FO_N_CASES; ci++) {
    const fo_case *c = &fo_cases[ci];
    char name[128];
    ffi_type *rtype = c->ret == FO_T_VOID ? &ffi_type_void : fo_scalar_ffi(c->ret);
    for (p = 0; p < c->nparams; p++) fo_atypes[ci][p] = fo_scalar_ffi(c->params[p]);
    if (ffi_prep_cif(&fo_cifs[ci], FFI_DEFAULT_ABI, (unsigned)c->nparams, rtype,
                     fo_atypes[ci]) != FFI_OK) {
      fprintf(stderr, "ffi_prep_cif failed for %s\n", c->name);
      exit(1);
    }
    snprintf(name, sizeof name, "%s.%s", c->module, c->name);
    if (nccc_lookup(name, &fo_handles[ci]) != NCCC_OK) {
      fprintf(stderr, "lookup of %s failed: %s\n", name, nccc_last_error());
      exit(1);
    }
  }
}

/* ---- tests ------------------------------------------------------------- */

/* The corpus is what the oracle claims to cover. */
START_TEST(test_corpus_coverage) {
  int as_param[FO_T_COUNT] = {0}, as_result[FO_T_COUNT] = {0};
  int counts[FO_MAX_PARAMS + 1] = {0}, voids = 0, ci, p, t, modules = 0;
  ck_assert_int_ge(FO_N_CASES, 300);
  for (ci = 0; ci < FO_N_CASES; ci++) {
    const fo_case *c = &fo_cases[ci];
    ck_assert_int_le(c->nparams, FO_MAX_PARAMS);
    counts[c->nparams]++;
    if (c->ret == FO_T_VOID) voids++; else as_result[c->ret]++;
    for (p = 0; p < c->nparams; p++) as_param[c->params[p]]++;
    if (strcmp(c->module, "fo_b") == 0) modules |= 2; else modules |= 1;
  }
  for (t = 0; t < FO_T_COUNT; t++) {
    ck_assert_msg(as_param[t] > 1 && as_result[t] > 1, "type %s not covered",
                  fo_types[t].name);
  }
  for (p = 0; p <= FO_MAX_PARAMS; p++) {
    ck_assert_msg(counts[p] >= 10, "only %d functions of %d parameters",
                  counts[p], p);
  }
  ck_assert_int_ge(voids, 5);
  ck_assert_int_eq(modules, 3);
}
END_TEST

/* libffi's idea of every record agrees with the C compiler's, and so does
** the module's layout table. */
START_TEST(test_record_layouts) {
  const nccc_module *mods[2] = {&nccc_fo_a_module, &nccc_fo_b_module};
  int t, m;
  for (t = 0; t < FO_T_COUNT; t++) {
    const fo_type *ty = &fo_types[t];
    if (ty->kind != FO_K_RECORD) continue;
    ck_assert_msg(ty->ffi->size == ty->size && ty->ffi->alignment == ty->align,
                  "%s: libffi %zu/%u, C %zu/%zu", ty->name, ty->ffi->size,
                  (unsigned)ty->ffi->alignment, ty->size, ty->align);
    if (ty->offsets != NULL) {
      size_t offs[64], i;
      ck_assert_uint_le(ty->n_offsets, 64);
      ck_assert_int_eq(ffi_get_struct_offsets(FFI_DEFAULT_ABI, ty->ffi, offs),
                       FFI_OK);
      for (i = 0; i < ty->n_offsets; i++) {
        ck_assert_msg(offs[i] == ty->offsets[i], "%s element %zu: %zu != %zu",
                      ty->name, i, offs[i], ty->offsets[i]);
      }
    }
    for (m = 0; m < 2; m++) {
      uint16_t i;
      int found = 0;
      for (i = 0; i < mods[m]->n_types; i++) {
        const nccc_type_layout *l = &mods[m]->types[i];
        if (strcmp(l->name, ty->layout) != 0) continue;
        found = 1;
        ck_assert_uint_eq(l->size, ty->size);
        ck_assert_uint_eq(l->align, ty->align);
      }
      ck_assert_msg(found, "%s: no layout %s in %s", ty->name, ty->layout,
                    mods[m]->name);
    }
  }
}
END_TEST

/* The registry describes every function as the corpus does. */
START_TEST(test_registry_entries) {
  int ci;
  for (ci = 0; ci < FO_N_CASES; ci++) {
    const fo_case *c = &fo_cases[ci];
    nccc_fn fn = NULL;
    const nccc_fn_info *info = NULL;
    const char *name = NULL;
    ck_assert_int_eq(nccc_function(fo_handles[ci], &fn, &info, &name), NCCC_OK);
    ck_assert_str_eq(name, c->name);
    ck_assert_msg(fn == c->wrapper, "%s: registry holds another function",
                  c->name);
    ck_assert_str_eq(info->signature, c->signature);
    ck_assert_uint_eq(info->n_in, in_slots(c));
    ck_assert_uint_eq(info->n_out, slots_of(c->ret));
  }
}
END_TEST

/* A checked call with a wrong slot count calls nothing. */
START_TEST(test_checked_counts) {
  uint64_t in[FO_MAX_IN] = {0}, out[FO_MAX_OUT + FO_GUARD];
  int ci;
  for (ci = 0; ci < FO_N_CASES; ci += 7) {
    const fo_case *c = &fo_cases[ci];
    size_t n_in = in_slots(c), n_out = slots_of(c->ret), i;
    for (i = 0; i < FO_MAX_OUT + FO_GUARD; i++) out[i] = FO_CANARY;
    fo_sink = FO_CANARY;
    ck_assert_int_eq(nccc_call_checked(fo_handles[ci], in, n_in + 1, out, n_out),
                     NCCC_ERR_NUM_ARGUMENTS);
    ck_assert_int_eq(nccc_call_checked(fo_handles[ci], in, n_in, out, n_out + 1),
                     NCCC_ERR_NUM_ARGUMENTS);
    ck_assert_uint_eq(out[0], FO_CANARY);
    ck_assert_uint_eq(fo_sink, FO_CANARY);
  }
}
END_TEST

START_TEST(test_oracle) {
  int first = _i * FO_CHUNK, last = first + FO_CHUNK, ci, bad = 0, failing = 0;
  if (last > FO_N_CASES) last = FO_N_CASES;
  for (ci = first; ci < last; ci++) {
    int b = run_case(ci);
    bad += b;
    failing += b != 0;
  }
  ck_assert_msg(bad == 0, "%d functions (%d calls) disagree with ffi_call",
                failing, bad);
}
END_TEST

/* Padding bytes of record results belong to no field: each one must be
** 0, and they are counted too (in fork mode the counts stay in the
** children, and nothing is reported here). */
static void report_padding(void) {
  if (fo_calls > 0) printf("ffi oracle: %d functions, %lu wrapper calls compared with ffi_call; "
         "record padding bytes returned: %lu, non-zero: %lu\n",
         FO_N_CASES, fo_calls, fo_pad_bytes, fo_pad_nonzero);
}

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("ffi_oracle");
  TCase *tc = nccc_check_tcase(s, "oracle", NULL, NULL,
                               NCCC_CHECK_TESTS(test_corpus_coverage,
                                                test_record_layouts,
                                                test_registry_entries,
                                                test_checked_counts));
  /* once, in the runner's process: before the first test, after the last */
  tcase_add_unchecked_fixture(tc, setup_all, report_padding);
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_oracle, 0,
                      (FO_N_CASES + FO_CHUNK - 1) / FO_CHUNK);
  return s;
}
