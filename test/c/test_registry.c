/*
** test_registry.c — names blobs, const registries built by hand, and
** signature parsing.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccc/registry.h"

#include "nccc_check.h"

static void f_sub(const uint64_t *in, uint64_t *out) { out[0] = in[0] - in[1]; }
static void f_add(const uint64_t *in, uint64_t *out) { out[0] = in[0] + in[1]; }
static void f_mul(const uint64_t *in, uint64_t *out) { out[0] = in[0] * in[1]; }

/* Names in table order, not sorted: the index puts them in order. */
NCCC_NAMES_BLOB(names3, 3, "sub\0add\0mul\0");
static const nccc_fn funcs3[] = {f_sub, f_add, f_mul};
/* name_offset: each name's byte offset in the blob, count included */
static const nccc_fn_info info3[] = {
    {"ll:l", 2, 1, 2}, {"LL:L", 2, 1, 6}, {"ii:i", 2, 1, 10}};
static const uint16_t sorted3[] = {1, 2, 0}; /* add, mul, sub */
static const nccc_registry reg_sorted = {(const char *)&names3, funcs3, info3,
                                         sorted3, NULL};
static const nccc_registry reg_scan = {(const char *)&names3, funcs3, info3,
                                       NULL, NULL};

NCCC_NAMES_BLOB(names0, 0, "");
static const nccc_fn funcs0[1] = {f_add};
static const nccc_fn_info info0[1] = {{":", 0, 0, 2}};
static const nccc_registry reg_empty = {(const char *)&names0, funcs0, info0,
                                        NULL, NULL};

/* ---- names blobs -------------------------------------------------------- */

START_TEST(test_names_blob_layout) {
  const char *b = (const char *)&names3;
  uint16_t n;
  memcpy(&n, b, 2);
  ck_assert_uint_eq(n, 3);
  ck_assert_int_eq(memcmp(b + 2, "sub\0add\0mul\0\0", 13), 0);
  ck_assert_uint_eq(sizeof names3.text, 13);
}
END_TEST

START_TEST(test_names_count_get) {
  const char *b = (const char *)&names3;
  ck_assert_uint_eq(nccc_names_count(b), 3);
  ck_assert_str_eq(nccc_names_get(b, 0), "sub");
  ck_assert_str_eq(nccc_names_get(b, 1), "add");
  ck_assert_str_eq(nccc_names_get(b, 2), "mul");
  ck_assert_ptr_eq(nccc_names_get(b, 0), b + 2);
  ck_assert_ptr_null(nccc_names_get(b, 3));
  ck_assert_ptr_null(nccc_names_get(b, 0xffff));

  const char *e = (const char *)&names0;
  ck_assert_uint_eq(nccc_names_count(e), 0);
  ck_assert_ptr_null(nccc_names_get(e, 0));
}
END_TEST

/* ---- const registries --------------------------------------------------- */

static void check_lookup_hits(const nccc_registry *r) {
  static const char *const names[] = {"sub", "add", "mul"};
  for (uint16_t i = 0; i < 3; i++) {
    uint16_t idx = 0xbeef;
    ck_assert_int_eq(nccc_registry_lookup(r, names[i], &idx), NCCC_OK);
    ck_assert_uint_eq(idx, i);
  }
}

static void check_lookup_misses(const nccc_registry *r) {
  static const char *const misses[] = {"",    "a",       "ad",  "adds", "add ",
                                       "Add", "aaa",     "zzz", "subx", "mu",
                                       "s",   "sub\x01", "m"};
  for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
    uint16_t idx = 0xbeef;
    ck_assert_int_eq(nccc_registry_lookup(r, misses[i], &idx),
                     NCCC_ERR_NAME_NOT_FOUND);
    ck_assert_uint_eq(idx, 0xbeef); /* untouched on a miss */
  }
}

START_TEST(test_const_lookup_sorted) {
  ck_assert_uint_eq(nccc_registry_count(&reg_sorted), 3);
  check_lookup_hits(&reg_sorted);
  check_lookup_misses(&reg_sorted);
}
END_TEST

START_TEST(test_const_lookup_scan) {
  ck_assert_uint_eq(nccc_registry_count(&reg_scan), 3);
  check_lookup_hits(&reg_scan);
  check_lookup_misses(&reg_scan);
}
END_TEST

START_TEST(test_const_lookup_empty) {
  uint16_t idx = 0xbeef;
  ck_assert_uint_eq(nccc_registry_count(&reg_empty), 0);
  ck_assert_int_eq(nccc_registry_lookup(&reg_empty, "add", &idx),
                   NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(idx, 0xbeef);
  ck_assert_int_eq(nccc_registry_get(&reg_empty, 0, NULL, NULL, NULL),
                   NCCC_ERR_INDEX_INVALID);
}
END_TEST

START_TEST(test_const_lookup_null) {
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_registry_lookup(NULL, "add", &idx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_registry_lookup(&reg_sorted, NULL, &idx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_registry_lookup(&reg_sorted, "add", NULL),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(idx, 0xbeef);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
}
END_TEST

START_TEST(test_const_get) {
  for (uint16_t i = 0; i < 3; i++) {
    nccc_fn fn = NULL;
    const nccc_fn_info *info = NULL;
    const char *name = NULL;
    ck_assert_int_eq(nccc_registry_get(&reg_sorted, i, &fn, &info, &name),
                     NCCC_OK);
    ck_assert(fn == funcs3[i]);
    ck_assert_ptr_eq(info, &info3[i]);
    ck_assert_ptr_eq(name, nccc_names_get((const char *)&names3, i));
    ck_assert_str_eq(name, i == 0 ? "sub" : i == 1 ? "add" : "mul");
  }
  uint64_t in[2] = {7, 5}, out[1] = {0};
  nccc_fn fn = NULL;
  ck_assert_int_eq(nccc_registry_get(&reg_sorted, 1, &fn, NULL, NULL), NCCC_OK);
  fn(in, out);
  ck_assert_uint_eq(out[0], 12);
  /* every out pointer may be NULL */
  ck_assert_int_eq(nccc_registry_get(&reg_sorted, 2, NULL, NULL, NULL),
                   NCCC_OK);
}
END_TEST

START_TEST(test_const_get_bounds) {
  nccc_fn fn = f_mul;
  const nccc_fn_info *info = &info3[0];
  const char *name = "sentinel";
  ck_assert_int_eq(nccc_registry_get(&reg_sorted, 3, &fn, &info, &name),
                   NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_registry_get(&reg_sorted, 0xffff, &fn, &info, &name),
                   NCCC_ERR_INDEX_INVALID);
  ck_assert(fn == f_mul);
  ck_assert_ptr_eq(info, &info3[0]);
  ck_assert_str_eq(name, "sentinel");
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_registry_get(NULL, 0, &fn, &info, &name),
                   NCCC_ERR_NULL_POINTER);
}
END_TEST

/* A larger const registry assembled at run time, the way generated code
** lays one out, to give the binary search some depth. */
#define BIG 300
static char big_names_text[BIG][16];
static uint16_t big_sorted[BIG];
static nccc_fn big_funcs[BIG];
static nccc_fn_info big_info[BIG];
static union {
  uint16_t align;
  char bytes[2 + BIG * 16 + 1];
} big_blob;

static int cmp_idx(const void *a, const void *b) {
  return strcmp(big_names_text[*(const uint16_t *)a],
                big_names_text[*(const uint16_t *)b]);
}

static void build_big(nccc_registry *r, int with_index) {
  char *p = big_blob.bytes + 2;
  uint16_t n = BIG;
  memcpy(big_blob.bytes, &n, 2);
  uint32_t x = 99;
  for (int i = 0; i < BIG; i++) {
    x = x * 1103515245u + 12345u;
    /* odd-looking names with shared prefixes and dots */
    snprintf(big_names_text[i], sizeof big_names_text[i], "%c%u.%x",
             'a' + (int)(x >> 28) % 4, (unsigned)(x >> 8) % 1000u, i);
    size_t len = strlen(big_names_text[i]) + 1;
    memcpy(p, big_names_text[i], len);
    big_info[i].name_offset = (uint32_t)(p - big_blob.bytes);
    p += len;
    big_sorted[i] = (uint16_t)i;
    big_funcs[i] = (i % 3 == 0) ? f_add : (i % 3 == 1) ? f_sub : f_mul;
    big_info[i].signature = "LL:L";
    big_info[i].n_in = 2;
    big_info[i].n_out = 1;
  }
  *p = '\0';
  qsort(big_sorted, BIG, sizeof big_sorted[0], cmp_idx);
  r->names = big_blob.bytes;
  r->funcs = big_funcs;
  r->info = big_info;
  r->sorted = with_index ? big_sorted : NULL;
  r->hash_index = NULL; /* test_name_index.c tests that index */
}

START_TEST(test_const_big) {
  for (int with_index = 0; with_index <= 1; with_index++) {
    nccc_registry r;
    build_big(&r, with_index);
    ck_assert_uint_eq(nccc_registry_count(&r), BIG);
    ck_assert_uint_eq(nccc_names_count(r.names), BIG);
    for (uint16_t i = 0; i < BIG; i++) {
      uint16_t idx = 0xbeef;
      ck_assert_int_eq(nccc_registry_lookup(&r, big_names_text[i], &idx),
                       NCCC_OK);
      ck_assert_uint_eq(idx, i);
      ck_assert_str_eq(nccc_names_get(r.names, i), big_names_text[i]);
      /* near misses that sort just after and just before every name
      ** (no name contains '!' or '$') */
      char miss[24];
      size_t len = strlen(big_names_text[i]);
      memcpy(miss, big_names_text[i], len);
      miss[len] = '!';
      miss[len + 1] = '\0';
      idx = 0xbeef;
      ck_assert_int_eq(nccc_registry_lookup(&r, miss, &idx),
                       NCCC_ERR_NAME_NOT_FOUND);
      miss[len - 1] = '$';
      miss[len] = '\0';
      ck_assert_int_eq(nccc_registry_lookup(&r, miss, &idx),
                       NCCC_ERR_NAME_NOT_FOUND);
      ck_assert_uint_eq(idx, 0xbeef);
    }
    ck_assert_ptr_null(nccc_names_get(r.names, BIG));
    ck_assert_int_eq(nccc_registry_get(&r, BIG, NULL, NULL, NULL),
                     NCCC_ERR_INDEX_INVALID);
    ck_assert_int_eq(nccc_registry_get(&r, BIG - 1, NULL, NULL, NULL), NCCC_OK);
  }
}
END_TEST

/* ---- signatures --------------------------------------------------------- */

static void sig_ok(const char *sig, unsigned n_in, unsigned n_out) {
  uint16_t a = 0xbeef, b = 0xbeef;
  ck_assert_msg(nccc_signature_counts(sig, &a, &b) == NCCC_OK,
                "signature \"%s\" refused", sig);
  ck_assert_msg(a == n_in && b == n_out, "\"%s\": got %x:%x, want %x:%x", sig,
                a, b, n_in, n_out);
}

static void sig_bad(const char *sig) {
  uint16_t a = 0xbeef, b = 0xbeef;
  ck_assert_msg(nccc_signature_counts(sig, &a, &b) == NCCC_ERR_BAD_SIGNATURE,
                "signature \"%s\" accepted", sig);
  ck_assert_uint_eq(a, 0xbeef);
  ck_assert_uint_eq(b, 0xbeef);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_SIGNATURE);
}

START_TEST(test_signature_good) {
  sig_ok(":", 0, 0);
  sig_ok("i:", 1, 0);
  sig_ok(":i", 0, 1);
  sig_ok("ii:i", 2, 1);
  sig_ok("?bBhHiIlLfdpsF:?bBhHiIlLfdpsFe", 14, 15);
  sig_ok("p:ie", 1, 2);
  sig_ok("{point:2}:{point:3}", 2, 3);
  sig_ok("{a:1}{b:4}i:{c:1}", 6, 1);
  sig_ok("{big:300}:", 300, 0);
  sig_ok("*:", NCCC_SLOTS_VARIABLE, 0);
  sig_ok(":*", 0, NCCC_SLOTS_VARIABLE);
  sig_ok("*:*", NCCC_SLOTS_VARIABLE, NCCC_SLOTS_VARIABLE);
  sig_ok("pL*:i", NCCC_SLOTS_VARIABLE | 2, 1);
  sig_ok("pL:i*", 2, NCCC_SLOTS_VARIABLE | 1);
  sig_ok("{s:2}*:{t:3}*", NCCC_SLOTS_VARIABLE | 2, NCCC_SLOTS_VARIABLE | 3);
}
END_TEST

START_TEST(test_signature_bad) {
  sig_bad("");         /* no ':' */
  sig_bad("ii");       /* no ':' */
  sig_bad("i:i:i");    /* two ':' */
  sig_bad("x:");       /* unknown code */
  sig_bad(":i ");      /* space is no code */
  sig_bad("e:");       /* errno only on the out side */
  sig_bad("{point}:"); /* struct without a count cannot be counted */
  sig_bad(":{point}");
  sig_bad("{point:2:"); /* unterminated */
  sig_bad("{point:}:");
  sig_bad("{point:x}:");
  sig_bad("{:2}:"); /* no name */
  sig_bad("{point:2");
  sig_bad("point:2}:");
  sig_bad("*i:"); /* '*' only last */
  sig_bad(":**");
  sig_bad("**:");
  sig_bad("i*i:i");
  sig_bad("{big:32768}:"); /* does not fit a 15-bit count */
}
END_TEST

START_TEST(test_signature_null) {
  uint16_t a = 0xbeef, b = 0xbeef;
  ck_assert_int_eq(nccc_signature_counts(NULL, &a, &b), NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(a, 0xbeef);
  ck_assert_uint_eq(b, 0xbeef);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("registry");
  nccc_check_tcase(s, "const", NULL, NULL,
                   NCCC_CHECK_TESTS(test_names_blob_layout,
                                    test_names_count_get,
                                    test_const_lookup_sorted,
                                    test_const_lookup_scan,
                                    test_const_lookup_empty,
                                    test_const_lookup_null, test_const_get,
                                    test_const_get_bounds, test_const_big));
  nccc_check_tcase(s, "signature", NULL, NULL,
                   NCCC_CHECK_TESTS(test_signature_good, test_signature_bad,
                                    test_signature_null));
  return s;
}
