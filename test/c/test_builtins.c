/*
** test_builtins.c — the root entry point and every built-in, driven the
** way a host drives them: one symbol (nccc_root) and calls through nccc_fn
** pointers with two slot buffers. C is used only to set up what a host
** cannot make itself (a module with layout and constant tables).
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccc/nccc.h"

#include "nccc_check.h"

#define S(p) nccc_slot_from_ptr(p)
#define STR(slot) ((const char *)nccc_slot_to_ptr(slot))
#define FN_SLOT(f) ((uint64_t)(uintptr_t)(f))
#define SLOT_FN(s) ((nccc_fn)(uintptr_t)(s))
#define SENTINEL 0x5a5a5a5a5a5a5a5au

/* Calls built-in index with in[] and returns out[0], the status. */
static uint64_t bcall(unsigned index, const uint64_t *in, uint64_t *out) {
  nccc_check_builtin(index)(in, out);
  return out[0];
}

static int calls;
static void f_add(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = in[0] + in[1];
}
static void f_mul(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = in[0] * in[1];
}

static void setup(void) {
  calls = 0;
  nccc_check_init(NULL);
}

/* ---- the root ----------------------------------------------------------- */

START_TEST(test_root_initialises) {
  /* no nccc_init: the root does it on first use */
  uint64_t out[4] = {SENTINEL, 0, 0, 0};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_VERSION, NULL, out), NCCC_OK);
  ck_assert_str_eq(STR(out[2]), NCCC_VERSION_STRING);
  uint64_t in[1] = {S("nccc.strlen")};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LOOKUP, in, out), NCCC_OK);
  ck_assert_uint_ne(out[1], 0);
}
END_TEST

static const char *const expected_sigs[NCCC_BUILTIN_COUNT] = {
    "I:ipss",  ":iIs", ":iis",    "s:iI",  "I:ipssII",  "Ipp:i",      "IpLpL:i",
    "sps?:iI", ":iI",  "H:isIII", "s:iH",  "HH:isIIII", "HHH:issIII", "HH:issL",
    "L:ip",    "p:i",  "pI:iL",   "pIL:i", "pL:i*",     "pL*:i",      "p:iL",
    "FLI:ip",  "III*:ip", "p:i",  ":iIILLL", "I?:i",    "H?:i",       "pL:i",
    ":iLLI",   "L:iIILL", ":i",   "IIiI*:i", "I:i",     "I:iIL",
    ":i",      "FLIs:ip", "III*:ip"};

START_TEST(test_root_table) {
  for (unsigned i = 0; i < NCCC_BUILTIN_COUNT; i++) {
    uint64_t in[1] = {i}, out[4] = {SENTINEL, 0, 0, 0};
    nccc_root(in, out);
    ck_assert_uint_eq(out[0], NCCC_OK);
    ck_assert_uint_ne(out[1], 0);
    const char *name = STR(out[2]);
    const char *sig = STR(out[3]);
    ck_assert_uint_gt(strlen(name), 0);
    ck_assert_str_eq(sig, expected_sigs[i]);
    uint16_t n_in, n_out;
    ck_assert_int_eq(nccc_signature_counts(sig, &n_in, &n_out), NCCC_OK);

    /* the built-in "builtin" answers exactly like the root */
    uint64_t out2[4] = {SENTINEL, 0, 0, 0};
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_BUILTIN, in, out2), NCCC_OK);
    ck_assert_int_eq(memcmp(out, out2, sizeof out), 0);

    /* and the module "nccc" holds the same function under the same name */
    char full[64];
    snprintf(full, sizeof full, "nccc.%s", name);
    uint64_t lin[1] = {S(full)}, lout[2] = {SENTINEL, 0};
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_LOOKUP, lin, lout), NCCC_OK);
    uint64_t fin[1] = {lout[1]}, fout[6];
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_FUNCTION, fin, fout), NCCC_OK);
    ck_assert_uint_eq(fout[1], out[1]);
    ck_assert_str_eq(STR(fout[2]), name);
    ck_assert_str_eq(STR(fout[3]), sig);
    ck_assert_uint_eq(fout[4], n_in);
    ck_assert_uint_eq(fout[5], n_out);
  }
}
END_TEST

START_TEST(test_root_bad_index) {
  static const uint64_t bad[] = {NCCC_BUILTIN_COUNT, NCCC_BUILTIN_COUNT + 1,
                                 0xffff, 0x10000, UINT64_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint64_t in[1] = {bad[i]},
             out[4] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL};
    nccc_root(in, out);
    ck_assert_uint_eq(out[0], NCCC_ERR_INDEX_INVALID);
    out[0] = SENTINEL;
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_BUILTIN, in, out),
                      NCCC_ERR_INDEX_INVALID);
    uint64_t e[3];
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_LAST_ERROR, NULL, e), NCCC_OK);
    ck_assert_uint_eq(e[1], NCCC_ERR_INDEX_INVALID);
  }
}
END_TEST

/* ---- version, last error ------------------------------------------------ */

START_TEST(test_version) {
  uint64_t out[3] = {SENTINEL, 0, 0};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_VERSION, NULL, out), NCCC_OK);
  ck_assert_uint_eq(out[1], (NCCC_VERSION_MAJOR << 16) |
                                (NCCC_VERSION_MINOR << 8) | NCCC_VERSION_PATCH);
  ck_assert_str_eq(STR(out[2]), NCCC_VERSION_STRING);
}
END_TEST

START_TEST(test_last_error) {
  uint64_t in[1] = {S("no.such.function")}, out[3] = {SENTINEL, SENTINEL, 0};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LOOKUP, in, out),
                    NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(out[1], SENTINEL);
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LAST_ERROR, NULL, out), NCCC_OK);
  ck_assert_uint_eq(out[1], NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(STR(out[2]), "no.such.function"));
  /* clear_error: the next last_error reports nothing */
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CLEAR_ERROR, NULL, out), NCCC_OK);
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LAST_ERROR, NULL, out), NCCC_OK);
  ck_assert_uint_eq(out[1], NCCC_OK);
  ck_assert_str_eq(STR(out[2]), "");
}
END_TEST

/* ---- lookup, function, call, register ----------------------------------- */

/* Registers fn through the built-in; returns the handle. */
static uint64_t reg(const char *name, nccc_fn fn, const char *sig,
                    uint64_t override, uint64_t want) {
  uint64_t in[4] = {S(name), FN_SLOT(fn), S(sig), override};
  uint64_t out[2] = {SENTINEL, SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_REGISTER, in, out), want);
  if (want != NCCC_OK) ck_assert_uint_eq(out[1], SENTINEL);
  return out[1];
}

START_TEST(test_lookup_function) {
  uint64_t h = reg("add", f_add, "LL:L", 0, NCCC_OK);
  ck_assert_uint_eq(h, nccc_handle_encode(NCCC_GLOBAL_MODULE, 0));
  uint64_t in[1] = {S("add")}, out[6] = {SENTINEL, SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LOOKUP, in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], h);
  in[0] = 0;
  out[1] = SENTINEL;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LOOKUP, in, out), NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(out[1], SENTINEL);

  in[0] = h;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_FUNCTION, in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], FN_SLOT(f_add));
  ck_assert_str_eq(STR(out[2]), "add");
  ck_assert_str_eq(STR(out[3]), "LL:L");
  ck_assert_uint_eq(out[4], 2);
  ck_assert_uint_eq(out[5], 1);
  static const uint64_t bad[] = {0, 0x80008001u | (NCCC_MAX_MODULES << 16),
                                 0x00008000u, UINT64_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    in[0] = bad[i];
    out[1] = SENTINEL;
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_FUNCTION, in, out),
                      NCCC_ERR_BAD_HANDLE);
    ck_assert_uint_eq(out[1], SENTINEL);
  }
}
END_TEST

START_TEST(test_call) {
  uint64_t h = reg("add", f_add, "LL:L", 0, NCCC_OK);
  uint64_t args[2] = {40, 2}, res[1] = {0};
  uint64_t in[3] = {h, S(args), S(res)}, out[1] = {SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL, in, out), NCCC_OK);
  ck_assert_uint_eq(res[0], 42);
  ck_assert_int_eq(calls, 1);
  in[0] = h + 1; /* one past the last function */
  res[0] = SENTINEL;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL, in, out), NCCC_ERR_BAD_HANDLE);
  in[0] = 0;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL, in, out), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(calls, 1);
  ck_assert_uint_eq(res[0], SENTINEL);
}
END_TEST

START_TEST(test_call_checked) {
  uint64_t h = reg("mul", f_mul, "LL:L", 0, NCCC_OK);
  uint64_t args[3] = {6, 7, 8}, res[2] = {0, SENTINEL};
  uint64_t in[5] = {h, S(args), 2, S(res), 1}, out[1] = {SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL_CHECKED, in, out), NCCC_OK);
  ck_assert_uint_eq(res[0], 42);
  ck_assert_int_eq(calls, 1);
  static const uint64_t counts[][2] = {
      {1, 1}, {3, 1}, {2, 0}, {2, 2}, {0x100000002u, 1}};
  for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    in[2] = counts[i][0];
    in[4] = counts[i][1];
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL_CHECKED, in, out),
                      NCCC_ERR_NUM_ARGUMENTS);
  }
  ck_assert_int_eq(calls, 1);
  in[0] = 0;
  in[2] = 2;
  in[4] = 1;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL_CHECKED, in, out),
                    NCCC_ERR_BAD_HANDLE);
  in[0] = h;
  in[1] = 0;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL_CHECKED, in, out),
                    NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(test_register) {
  uint64_t h = reg("op", f_add, "LL:L", 0, NCCC_OK);
  reg("op", f_mul, "LL:L", 0, NCCC_ERR_ALREADY_DEFINED);
  uint64_t h2 = reg("op", f_mul, "LL:L", 1, NCCC_OK);
  ck_assert_uint_eq(h2, h);
  uint64_t args[2] = {6, 7}, res[1] = {0};
  uint64_t in[3] = {h, S(args), S(res)}, out[1];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_CALL, in, out), NCCC_OK);
  ck_assert_uint_eq(res[0], 42);
  reg("", f_add, "LL:L", 0, NCCC_ERR_BAD_NAME);
  reg("bad", f_add, "LL", 0, NCCC_ERR_BAD_SIGNATURE);
  reg(NULL, f_add, "LL:L", 0, NCCC_ERR_NULL_POINTER);
  reg("nosig", f_add, NULL, 0, NCCC_ERR_NULL_POINTER);
  uint64_t h3 = reg("other", f_add, "LL:L", 0, NCCC_OK);
  ck_assert_uint_eq(h3, nccc_handle_encode(NCCC_GLOBAL_MODULE, 1));
}
END_TEST

/* ---- modules, layouts, constants ---------------------------------------- */

struct point {
  int32_t x, y;
};
union num {
  int64_t i;
  double d;
};
struct rect {
  struct point tl, br;
  uint8_t tag[3];
};

static const nccc_field point_fields[] = {
    {"x", "i", offsetof(struct point, x), sizeof(int32_t), 1},
    {"y", "i", offsetof(struct point, y), sizeof(int32_t), 1}};
static const nccc_field num_fields[] = {
    {"i", "l", offsetof(union num, i), sizeof(int64_t), 1},
    {"d", "d", offsetof(union num, d), sizeof(double), 1}};
static const nccc_field rect_fields[] = {
    {"tl", "{point}", offsetof(struct rect, tl), sizeof(struct point), 1},
    {"br", "{point}", offsetof(struct rect, br), sizeof(struct point), 1},
    {"tag", "B", offsetof(struct rect, tag), 3, 3}};
static const nccc_type_layout geo_types[] = {
    {"point", sizeof(struct point), _Alignof(struct point), NCCC_TYPE_STRUCT, 2,
     point_fields},
    {"num", sizeof(union num), _Alignof(union num), NCCC_TYPE_UNION, 2,
     num_fields},
    {"rect", sizeof(struct rect), _Alignof(struct rect), NCCC_TYPE_STRUCT, 3,
     rect_fields},
    {"window", 0, 0, NCCC_TYPE_OPAQUE, 0, NULL}};
static const nccc_constant geo_consts[] = {{"MINUS_ONE", "i", UINT64_MAX},
                                           {"PI", "d", 0x400921fb54442d18u},
                                           {"BIG", "L", 0xfedcba9876543210u},
                                           {"GREEN", "i", 2}};
NCCC_NAMES_BLOB(geo_names, 1, "area\0");
static void f_area(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = 0;
}
static const nccc_fn geo_funcs[] = {f_area};
static const nccc_fn_info geo_info[] = {{"{rect:3}:l", 3, 1, 2}};
static const nccc_registry geo_reg = {(const char *)&geo_names, geo_funcs,
                                      geo_info, NULL, NULL};
static const nccc_module geo = {"geo", &geo_reg, geo_types, 4, 4, geo_consts};

START_TEST(test_modules) {
  uint16_t gi;
  ck_assert_int_eq(nccc_module_add(&geo, &gi), NCCC_OK);

  uint64_t out[6] = {SENTINEL, SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_COUNT, NULL, out), NCCC_OK);
  uint64_t count = out[1];
  ck_assert_uint_gt(count, gi);
  ck_assert_uint_le(count, NCCC_MAX_MODULES + 1);

  /* walking every index position finds both modules */
  int seen_geo = 0, seen_nccc = 0;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t in[1] = {i};
    uint64_t st = bcall(NCCC_BUILTIN_MODULE_INFO, in, out);
    if (st != NCCC_OK) {
      ck_assert_uint_eq(st, NCCC_ERR_INDEX_INVALID);
      continue;
    }
    if (strcmp(STR(out[1]), "geo") == 0) {
      seen_geo++;
      ck_assert_uint_eq(i, gi);
      ck_assert_uint_eq(out[2], 1);
      ck_assert_uint_eq(out[3], 4);
      ck_assert_uint_eq(out[4], 4);
    } else if (strcmp(STR(out[1]), "nccc") == 0) {
      seen_nccc++;
      ck_assert_uint_eq(out[2], NCCC_BUILTIN_COUNT);
    }
  }
  ck_assert_int_eq(seen_geo, 1);
  ck_assert_int_eq(seen_nccc, 1);

  uint64_t fin[1] = {S("geo")};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIND, fin, out), NCCC_OK);
  ck_assert_uint_eq(out[1], gi);
  fin[0] = S("geometry");
  out[1] = SENTINEL;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIND, fin, out),
                    NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(out[1], SENTINEL);
  fin[0] = 0;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIND, fin, out),
                    NCCC_ERR_NULL_POINTER);

  /* an index that holds no module, one past the global one, the largest */
  uint16_t empty = gi == NCCC_MAX_MODULES - 1 ? gi - 1 : NCCC_MAX_MODULES - 1;
  ck_assert_ptr_null(nccc_module_at(empty));
  static uint64_t bad[3];
  bad[0] = empty;
  bad[1] = NCCC_MAX_MODULES + 1;
  bad[2] = 0xffff;
  for (int i = 0; i < 3; i++) {
    uint64_t in[3] = {bad[i], 0, 0};
    out[1] = SENTINEL;
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_INFO, in, out),
                      NCCC_ERR_INDEX_INVALID);
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_TYPE, in, out),
                      NCCC_ERR_INDEX_INVALID);
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIELD, in, out),
                      NCCC_ERR_INDEX_INVALID);
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_CONSTANT, in, out),
                      NCCC_ERR_INDEX_INVALID);
    ck_assert_uint_eq(out[1], SENTINEL);
  }

  /* a removed module is gone */
  ck_assert_int_eq(nccc_module_remove(gi), NCCC_OK);
  uint64_t in[1] = {gi};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_INFO, in, out),
                    NCCC_ERR_INDEX_INVALID);
  fin[0] = S("geo");
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIND, fin, out),
                    NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

START_TEST(test_module_types) {
  uint16_t gi;
  ck_assert_int_eq(nccc_module_add(&geo, &gi), NCCC_OK);
  for (uint64_t t = 0; t < 4; t++) {
    const nccc_type_layout *L = &geo_types[t];
    uint64_t in[3] = {gi, t, 0}, out[6] = {SENTINEL};
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_TYPE, in, out), NCCC_OK);
    ck_assert_str_eq(STR(out[1]), L->name);
    ck_assert_uint_eq(out[2], L->size);
    ck_assert_uint_eq(out[3], L->align);
    ck_assert_uint_eq(out[4], L->kind);
    ck_assert_uint_eq(out[5], L->n_fields);
    for (uint64_t f = 0; f < L->n_fields; f++) {
      in[2] = f;
      ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIELD, in, out), NCCC_OK);
      ck_assert_str_eq(STR(out[1]), L->fields[f].name);
      ck_assert_str_eq(STR(out[2]), L->fields[f].type);
      ck_assert_uint_eq(out[3], L->fields[f].offset);
      ck_assert_uint_eq(out[4], L->fields[f].size);
      ck_assert_uint_eq(out[5], L->fields[f].count);
    }
    in[2] = L->n_fields;
    out[1] = SENTINEL;
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIELD, in, out),
                      NCCC_ERR_INDEX_INVALID);
    ck_assert_uint_eq(out[1], SENTINEL);
  }
  /* the numbers are the compiler's */
  uint64_t in[3] = {gi, 2, 2}, out[6];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIELD, in, out), NCCC_OK);
  ck_assert_uint_eq(out[3], 16);
  ck_assert_uint_eq(out[4], 3);
  in[1] = 4;
  out[1] = SENTINEL;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_TYPE, in, out),
                    NCCC_ERR_INDEX_INVALID);
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIELD, in, out),
                    NCCC_ERR_INDEX_INVALID);
  in[1] = 0xffff;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_TYPE, in, out),
                    NCCC_ERR_INDEX_INVALID);
  ck_assert_uint_eq(out[1], SENTINEL);
  /* the built-in module has no types */
  uint64_t fin[1] = {S("nccc")}, fout[2];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_FIND, fin, fout), NCCC_OK);
  in[0] = fout[1];
  in[1] = 0;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_TYPE, in, out),
                    NCCC_ERR_INDEX_INVALID);
}
END_TEST

START_TEST(test_module_constants) {
  uint16_t gi;
  ck_assert_int_eq(nccc_module_add(&geo, &gi), NCCC_OK);
  for (uint64_t c = 0; c < 4; c++) {
    uint64_t in[2] = {gi, c}, out[4] = {SENTINEL};
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_CONSTANT, in, out), NCCC_OK);
    ck_assert_str_eq(STR(out[1]), geo_consts[c].name);
    ck_assert_str_eq(STR(out[2]), geo_consts[c].type);
    ck_assert_uint_eq(out[3], geo_consts[c].value);
  }
  uint64_t in[2] = {gi, 1}, out[4];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_CONSTANT, in, out), NCCC_OK);
  ck_assert_double_eq(nccc_slot_to_double(out[3]), 3.141592653589793);
  in[1] = 0;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_CONSTANT, in, out), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i32(out[3]), -1);
  in[1] = 4;
  out[1] = SENTINEL;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_CONSTANT, in, out),
                    NCCC_ERR_INDEX_INVALID);
  in[1] = 0xffff;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_MODULE_CONSTANT, in, out),
                    NCCC_ERR_INDEX_INVALID);
  ck_assert_uint_eq(out[1], SENTINEL);
}
END_TEST

/* ---- memory ------------------------------------------------------------- */

START_TEST(test_alloc_free) {
  uint64_t in[1] = {64}, out[2] = {SENTINEL, 0};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_ALLOC, in, out), NCCC_OK);
  unsigned char *p = nccc_slot_to_ptr(out[1]);
  ck_assert_ptr_nonnull(p);
  memset(p, 0x11, 64); /* all 64 bytes are ours (ASan would object) */
  uint64_t pin[3] = {S(p + 63), 'B', 0x99};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_POKE, pin, out), NCCC_OK);
  ck_assert_uint_eq(p[63], 0x99);
  in[0] = S(p);
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_FREE, in, out), NCCC_OK);
}
END_TEST

typedef struct peek_case {
  char code;
  size_t width;
  unsigned char bytes[8]; /* filled at run time from value */
  uint64_t slot;
} peek_case;

static size_t ncases;
static peek_case cases[32];

static void add_case(char code, const void *value, size_t width,
                     uint64_t slot) {
  peek_case *c = &cases[ncases++];
  c->code = code;
  c->width = width;
  memcpy(c->bytes, value, width);
  c->slot = slot;
}

static void build_cases(void) {
  ncases = 0;
  int8_t b1 = -1, b2 = INT8_MIN, b3 = 127;
  add_case('b', &b1, 1, UINT64_MAX);
  add_case('b', &b2, 1, (uint64_t)0 - 128u);
  add_case('b', &b3, 1, 127);
  uint8_t B1 = 255;
  add_case('B', &B1, 1, 255);
  int16_t h1 = -2, h2 = INT16_MIN;
  add_case('h', &h1, 2, (uint64_t)0 - 2u);
  add_case('h', &h2, 2, (uint64_t)0 - 32768u);
  uint16_t H1 = 0xfffe;
  add_case('H', &H1, 2, 0xfffe);
  int32_t i1 = INT32_MIN, i2 = -7;
  add_case('i', &i1, 4, 0xffffffff80000000u);
  add_case('i', &i2, 4, (uint64_t)0 - 7u);
  uint32_t I1 = UINT32_MAX;
  add_case('I', &I1, 4, 0xffffffffu);
  int64_t l1 = INT64_MIN;
  add_case('l', &l1, 8, 0x8000000000000000u);
  uint64_t L1 = 0xfedcba9876543210u;
  add_case('L', &L1, 8, L1);
  float f1 = 1.5f, f2 = -0.0f;
  add_case('f', &f1, 4, 0x3ff8000000000000u);
  add_case('f', &f2, 4, 0x8000000000000000u);
  uint32_t fnan = 0x7f812345u; /* signalling NaN with a payload */
  add_case('f', &fnan, 4, 0x7ff0000000000000u | ((uint64_t)0x012345u << 29));
  double d1 = -0.0;
  add_case('d', &d1, 8, 0x8000000000000000u);
  uint64_t dnan = 0xfff0000000000abcu;
  add_case('d', &dnan, 8, dnan);
  void *p1 = &ncases;
  add_case('p', &p1, sizeof p1, S(&ncases));
  bool t = true, f = false;
  add_case('?', &t, sizeof t, 1);
  add_case('?', &f, sizeof f, 0);
}

START_TEST(test_peek_poke) {
  build_cases();
  for (size_t k = 0; k < ncases; k++) {
    const peek_case *c = &cases[k];
    for (size_t off = 0; off < 4; off++) { /* aligned and not */
      unsigned char buf[24];
      memset(buf, 0xcc, sizeof buf);
      memcpy(buf + 8 + off, c->bytes, c->width);
      uint64_t in[3] = {S(buf + 8 + off), (uint64_t)c->code, 0};
      uint64_t out[2] = {SENTINEL, SENTINEL};
      ck_assert_uint_eq(bcall(NCCC_BUILTIN_PEEK, in, out), NCCC_OK);
      ck_assert_msg(out[1] == c->slot, "peek '%c' case %zu: %016llx", c->code,
                    k, (unsigned long long)out[1]);

      memset(buf, 0xcc, sizeof buf);
      in[2] = c->slot;
      ck_assert_uint_eq(bcall(NCCC_BUILTIN_POKE, in, out), NCCC_OK);
      ck_assert_msg(memcmp(buf + 8 + off, c->bytes, c->width) == 0,
                    "poke '%c' case %zu", c->code, k);
      for (size_t i = 0; i < sizeof buf; i++)
        if (i < 8 + off || i >= 8 + off + c->width)
          ck_assert_uint_eq(buf[i], 0xcc);
    }
  }
}
END_TEST

START_TEST(test_peek_poke_bad) {
  unsigned char buf[16];
  memset(buf, 0xcc, sizeof buf);
  static const uint64_t bad_codes[] = {'x', 0,           'e',       '{',
                                       '*', 0x100 + 'b', UINT64_MAX};
  for (size_t i = 0; i < sizeof bad_codes / sizeof bad_codes[0]; i++) {
    uint64_t in[3] = {S(buf), bad_codes[i], 0}, out[2] = {SENTINEL, SENTINEL};
    ck_assert_uint_ne(bcall(NCCC_BUILTIN_PEEK, in, out), NCCC_OK);
    ck_assert_uint_eq(out[1], SENTINEL);
    ck_assert_uint_ne(bcall(NCCC_BUILTIN_POKE, in, out), NCCC_OK);
  }
  for (size_t i = 0; i < sizeof buf; i++) ck_assert_uint_eq(buf[i], 0xcc);

  /* NULL addresses: an error, never a crash */
  static const char codes[] = "bBhHiIlLfdp?";
  for (size_t i = 0; codes[i]; i++) {
    uint64_t in[3] = {0, (uint64_t)codes[i], 1}, out[2] = {SENTINEL, SENTINEL};
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_PEEK, in, out), NCCC_ERR_NULL_POINTER);
    ck_assert_uint_eq(out[1], SENTINEL);
    ck_assert_uint_eq(bcall(NCCC_BUILTIN_POKE, in, out), NCCC_ERR_NULL_POINTER);
  }
}
END_TEST

START_TEST(test_read) {
  unsigned char src[24];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(0x31 + i);
  for (size_t n = 0; n <= 17; n++) {
    for (size_t off = 0; off < 2; off++) {
      uint64_t in[2] = {S(src + off), n}, out[6];
      for (size_t i = 0; i < 6; i++) out[i] = SENTINEL;
      ck_assert_uint_eq(bcall(NCCC_BUILTIN_READ, in, out), NCCC_OK);
      size_t ns = NCCC_SLOTS(n);
      /* the bytes as memcpy lays them into the slots, zero-padded */
      ck_assert_int_eq(memcmp(out + 1, src + off, n), 0);
      const unsigned char *b = (const unsigned char *)(out + 1);
      for (size_t i = n; i < ns * 8; i++) ck_assert_uint_eq(b[i], 0);
      for (size_t i = 1 + ns; i < 6; i++) ck_assert_uint_eq(out[i], SENTINEL);
    }
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t in[2] = {S("\x01\x02\x03"), 3}, out[2];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_READ, in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], 0x030201u);
#endif
  uint64_t nin[2] = {0, 4}, nout[2] = {SENTINEL, SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_READ, nin, nout), NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(nout[1], SENTINEL);
}
END_TEST

START_TEST(test_write) {
  unsigned char pattern[24];
  for (size_t i = 0; i < sizeof pattern; i++)
    pattern[i] = (unsigned char)(0x91 + i);
  for (size_t n = 0; n <= 17; n++) {
    for (size_t off = 0; off < 2; off++) {
      unsigned char dst[32];
      memset(dst, 0xcc, sizeof dst);
      uint64_t in[2 + 3] = {S(dst + 8 + off), n, 0, 0, 0};
      memcpy(in + 2, pattern, n);
      uint64_t out[1] = {SENTINEL};
      ck_assert_uint_eq(bcall(NCCC_BUILTIN_WRITE, in, out), NCCC_OK);
      ck_assert_int_eq(memcmp(dst + 8 + off, pattern, n), 0);
      for (size_t i = 0; i < sizeof dst; i++)
        if (i < 8 + off || i >= 8 + off + n) ck_assert_uint_eq(dst[i], 0xcc);
    }
  }
  uint64_t nin[3] = {0, 4, 0}, nout[1] = {SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_WRITE, nin, nout),
                    NCCC_ERR_NULL_POINTER);
}
END_TEST

START_TEST(test_strlen) {
  uint64_t in[1] = {S("hello")}, out[2] = {SENTINEL, SENTINEL};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_STRLEN, in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], 5);
  in[0] = S("");
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_STRLEN, in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], 0);
  in[0] = 0;
  out[1] = SENTINEL;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_STRLEN, in, out), NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(out[1], SENTINEL);
  uint64_t e[3];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LAST_ERROR, NULL, e), NCCC_OK);
  ck_assert_uint_eq(e[1], NCCC_ERR_NULL_POINTER);
}
END_TEST

/* A host's round trip: make a C string in C memory with alloc + write,
** look a function up by it, free it. */
START_TEST(test_host_string_round_trip) {
  reg("target", f_add, "LL:L", 0, NCCC_OK);
  const char *name = "target";
  size_t n = strlen(name) + 1;
  uint64_t in[5] = {n}, out[2];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_ALLOC, in, out), NCCC_OK);
  uint64_t mem = out[1];
  uint64_t win[2 + 1] = {mem, n, 0};
  memcpy(win + 2, name, n);
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_WRITE, win, out), NCCC_OK);
  in[0] = mem;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_STRLEN, in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], n - 1);
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_LOOKUP, in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], nccc_handle_encode(NCCC_GLOBAL_MODULE, 0));
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_FREE, in, out), NCCC_OK);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("builtins");
  nccc_check_tcase(s, "first use", NULL, NULL,
                   NCCC_CHECK_TESTS(test_root_initialises));
  nccc_check_tcase(s, "builtins", setup, NULL,
                   NCCC_CHECK_TESTS(test_root_table, test_root_bad_index,
                                    test_version, test_last_error,
                                    test_lookup_function, test_call,
                                    test_call_checked, test_register,
                                    test_modules, test_module_types,
                                    test_module_constants, test_alloc_free,
                                    test_peek_poke, test_peek_poke_bad,
                                    test_read, test_write, test_strlen,
                                    test_host_string_round_trip));
  return s;
}
