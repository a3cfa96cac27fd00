/*
** test_name_index.c — a const registry's hash index (nccc/registry.h):
** lookup through it with colliding and wrapping chains, absent names,
** small registries, and modules with and without one.
**
** The indices here are built as nccc/registry.h describes them, with the
** test's own FNV-1a 32 (its published test vectors are checked first),
** so a runtime that hashed or probed otherwise would miss names.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nccc/nccc.h"

#include "nccc_check.h"

#define MAX_NAMES 64
#define NAME_BYTES 16

static uint32_t fnv1a(const char *s) {
  uint32_t h = 2166136261u;
  for (; *s != '\0'; s++) h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

static void f_index(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = 0;
}

/* One registry under test: names in index order, its blob, tables, and
** a hash index of slot_count slots. */
typedef struct table {
  char names[MAX_NAMES][NAME_BYTES];
  unsigned n;
  union {
    uint16_t align;
    char bytes[2 + MAX_NAMES * NAME_BYTES + 1];
  } blob;
  nccc_fn funcs[MAX_NAMES];
  nccc_fn_info info[MAX_NAMES];
  uint16_t sorted[MAX_NAMES];
  uint16_t hash[1 + 4 * MAX_NAMES];
  nccc_registry reg;
} table;

static table t;

/* Places name i as nccc/registry.h says: its home slot, or the next empty
** one, wrapping. Returns 1 when it did not land in its home slot. */
static int place(table *tb, unsigned i, uint32_t mask) {
  uint32_t k = fnv1a(tb->names[i]) & mask;
  int moved = 0;
  while (tb->hash[1 + k] != 0) {
    k = (k + 1) & mask;
    moved = 1;
  }
  tb->hash[1 + k] = (uint16_t)(i + 1);
  return moved;
}

/* Builds the registry of the n names already in tb->names, with a hash
** index of slots slots (a power of two, at least 2n). Returns how many
** names did not land in their home slot. */
static int build(table *tb, unsigned n, uint32_t slots) {
  char *p = tb->blob.bytes + 2;
  uint16_t count = (uint16_t)n;
  int moved = 0;
  tb->n = n;
  memcpy(tb->blob.bytes, &count, sizeof count);
  for (unsigned i = 0; i < n; i++) {
    size_t len = strlen(tb->names[i]) + 1;
    memcpy(p, tb->names[i], len);
    tb->info[i].name_offset = (uint32_t)(p - tb->blob.bytes);
    tb->info[i].signature = ":L";
    tb->info[i].n_in = 0;
    tb->info[i].n_out = 1;
    tb->funcs[i] = f_index;
    tb->sorted[i] = (uint16_t)i; /* the names below are made in order */
    p += len;
  }
  *p = '\0';
  memset(tb->hash, 0, sizeof tb->hash);
  tb->hash[0] = (uint16_t)(slots - 1);
  for (unsigned i = 0; i < n; i++) moved += place(tb, i, slots - 1);
  tb->reg.names = tb->blob.bytes;
  tb->reg.funcs = tb->funcs;
  tb->reg.info = tb->info;
  tb->reg.sorted = tb->sorted;
  tb->reg.hash_index = tb->hash;
  return moved;
}

static void make_names(table *tb, unsigned n, const char *prefix) {
  for (unsigned i = 0; i < n; i++) {
    snprintf(tb->names[i], NAME_BYTES, "%s%02u", prefix, i);
  }
}

/* n names (n even) in pairs that share a home slot among slots slots:
** "prefix" and a number, from the first candidates that pair up. */
static void make_pairs(table *tb, unsigned n, const char *prefix, uint32_t slots) {
  static int first[4 * MAX_NAMES]; /* home slot -> a candidate, or -1 */
  unsigned got = 0;
  for (uint32_t k = 0; k < slots; k++) first[k] = -1;
  for (int i = 0; got < n && i < 1000000; i++) {
    char name[NAME_BYTES];
    snprintf(name, sizeof name, "%s%d", prefix, i);
    uint32_t home = fnv1a(name) & (slots - 1);
    if (first[home] == -1) {
      first[home] = i;
    } else if (first[home] >= 0) {
      snprintf(tb->names[got++], NAME_BYTES, "%s%d", prefix, first[home]);
      snprintf(tb->names[got++], NAME_BYTES, "%s", name);
      first[home] = -2; /* one pair a slot */
    }
  }
  ck_assert_uint_eq(got, n);
}

static void expect_all_found(const nccc_registry *reg, const table *tb) {
  for (unsigned i = 0; i < tb->n; i++) {
    uint16_t idx = 0xbeef;
    ck_assert_msg(nccc_registry_lookup(reg, tb->names[i], &idx) == NCCC_OK,
                  "%s not found", tb->names[i]);
    ck_assert_uint_eq(idx, i);
  }
}

static void expect_absent(const nccc_registry *reg, const char *name) {
  uint16_t idx = 0xbeef;
  ck_assert_msg(nccc_registry_lookup(reg, name, &idx) == NCCC_ERR_NAME_NOT_FOUND,
                "%s found", name);
  ck_assert_uint_eq(idx, 0xbeef);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NAME_NOT_FOUND);
}

START_TEST(test_fnv1a_vectors) {
  /* the FNV reference's test vectors for FNV-1a 32 */
  ck_assert_uint_eq(fnv1a(""), 0x811c9dc5u);
  ck_assert_uint_eq(fnv1a("a"), 0xe40c292cu);
  ck_assert_uint_eq(fnv1a("foobar"), 0xbf9cf968u);
  ck_assert_uint_eq(NCCC_ABI_FNV1A_BASIS, 2166136261u);
  ck_assert_uint_eq(NCCC_ABI_FNV1A_PRIME, 16777619u);
  ck_assert_uint_eq(NCCC_ABI_NAME_INDEX_EMPTY, 0u);
}
END_TEST

START_TEST(test_hash_index_finds_every_name) {
  make_pairs(&t, 40, "fn_", 128);
  /* each pair shares a home slot: the second of each is probed for */
  ck_assert_int_ge(build(&t, 40, 128), 20);
  expect_all_found(&t.reg, &t);
  expect_absent(&t.reg, "fn_");
  expect_absent(&t.reg, "fn_x");
  expect_absent(&t.reg, "");
  char miss[NAME_BYTES + 1];
  for (unsigned i = 0; i < 40; i++) { /* one byte more, one changed */
    snprintf(miss, sizeof miss, "%s!", t.names[i]);
    expect_absent(&t.reg, miss);
    miss[strlen(miss) - 2] = '$';
    expect_absent(&t.reg, miss);
  }
}
END_TEST

/* Every name in one chain: a full index of the lowest legal size, built
** then probed from each home slot past all the others. */
START_TEST(test_hash_index_long_chains) {
  make_names(&t, 32, "x");
  int moved = build(&t, 32, 64);
  ck_assert_int_gt(moved, 0);
  expect_all_found(&t.reg, &t);
  /* absent names whose home slot lies in a run of full slots */
  char miss[NAME_BYTES];
  int tried = 0;
  for (unsigned i = 0; i < 1000 && tried < 20; i++) {
    snprintf(miss, sizeof miss, "y%u", i);
    if (t.hash[1 + (fnv1a(miss) & 63u)] != 0) {
      expect_absent(&t.reg, miss);
      tried++;
    }
  }
  ck_assert_int_eq(tried, 20);
}
END_TEST

/* A chain that wraps from the last slot to the first: among candidate
** names, two of home slot 63 and eighteen of neither home 63 nor 0, so
** that slot 0 can only be reached by wrapping. */
START_TEST(test_hash_index_wraps) {
  unsigned n = 0, at_end = 0, others = 0;
  char name[NAME_BYTES];
  for (unsigned i = 0; i < 100000 && n < 20; i++) {
    snprintf(name, sizeof name, "w%u", i);
    uint32_t home = fnv1a(name) & 63u;
    if (home == 63u) {
      if (at_end == 2) continue;
      at_end++;
    } else {
      if (home == 0u || others == 18) continue;
      others++;
    }
    snprintf(t.names[n++], NAME_BYTES, "%s", name);
  }
  ck_assert_uint_eq(n, 20);
  build(&t, n, 64);
  /* slot 0 holds a name that went round from the end */
  ck_assert_uint_ne(t.hash[1 + 0], 0);
  ck_assert_uint_ne(fnv1a(t.names[t.hash[1 + 0] - 1]) & 63u, 0u);
  expect_all_found(&t.reg, &t);
  expect_absent(&t.reg, "w");
}
END_TEST

/* A registry of few names with a hash index (generated modules have one
** at any size; lookup scans registries of at most 16 names): the same
** answers. */
START_TEST(test_hash_index_small_registry) {
  make_names(&t, 3, "s");
  build(&t, 3, 8);
  expect_all_found(&t.reg, &t);
  expect_absent(&t.reg, "s03");
  expect_absent(&t.reg, "t00");
}
END_TEST

/* The same registry without its hash index, then without its sorted
** index: the same answers. */
START_TEST(test_without_hash_index) {
  make_names(&t, 40, "fn_");
  build(&t, 40, 128);
  t.reg.hash_index = NULL;
  expect_all_found(&t.reg, &t);
  expect_absent(&t.reg, "fn_40");
  t.reg.sorted = NULL;
  expect_all_found(&t.reg, &t);
  expect_absent(&t.reg, "fn_40");
}
END_TEST

/* nccc_lookup("M.F") through modules with and without a hash index. */
START_TEST(test_lookup_through_modules) {
  static table plain;
  make_names(&t, 40, "fn_");
  build(&t, 40, 128);
  make_names(&plain, 40, "fn_");
  build(&plain, 40, 128);
  plain.reg.hash_index = NULL;
  nccc_module hashed_mod = {"hashed", &t.reg, NULL, 0, 0, NULL};
  nccc_module plain_mod = {"plain", &plain.reg, NULL, 0, 0, NULL};
  uint16_t mh, mp;
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_module_add(&hashed_mod, &mh), NCCC_OK);
  ck_assert_int_eq(nccc_module_add(&plain_mod, &mp), NCCC_OK);
  for (unsigned i = 0; i < 40; i++) {
    char q[NAME_BYTES + 8];
    nccc_handle h = 0;
    uint16_t m = 0xbeef, f = 0xbeef;
    snprintf(q, sizeof q, "hashed.%s", t.names[i]);
    ck_assert_int_eq(nccc_lookup(q, &h), NCCC_OK);
    ck_assert_int_eq(nccc_handle_decode(h, &m, &f), NCCC_OK);
    ck_assert_uint_eq(m, mh);
    ck_assert_uint_eq(f, i);
    snprintf(q, sizeof q, "plain.%s", t.names[i]);
    ck_assert_int_eq(nccc_lookup(q, &h), NCCC_OK);
    ck_assert_int_eq(nccc_handle_decode(h, &m, &f), NCCC_OK);
    ck_assert_uint_eq(m, mp);
    ck_assert_uint_eq(f, i);
  }
  nccc_handle h = 0xdeadbeefu;
  ck_assert_int_eq(nccc_lookup("hashed.fn_40", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_lookup("plain.fn_40", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_lookup("hashed.", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(h, 0xdeadbeefu);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("name_index");
  nccc_check_tcase(s, "hash", NULL, NULL,
                   NCCC_CHECK_TESTS(test_fnv1a_vectors,
                                    test_hash_index_finds_every_name,
                                    test_hash_index_long_chains,
                                    test_hash_index_wraps,
                                    test_hash_index_small_registry,
                                    test_without_hash_index,
                                    test_lookup_through_modules));
  return s;
}
