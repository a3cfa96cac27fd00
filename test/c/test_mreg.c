/*
** test_mreg.c — mutable registries carved out of a caller's block.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccc/registry.h"

#include "nccc_check.h"

/* The layout sweep checks millions of facts and Check records every
** assertion that passes, so the hot paths test first and call Check only
** to report a failure. */
#define EXPECT(cond)                                 \
  do {                                               \
    if (!(cond)) ck_abort_msg("expected %s", #cond); \
  } while (0)
#define EXPECT_MSG(cond, ...)               \
  do {                                      \
    if (!(cond)) ck_abort_msg(__VA_ARGS__); \
  } while (0)

/* Eight distinct functions, so a test can tell which one an entry holds. */
static void fn0(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 0; }
static void fn1(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 1; }
static void fn2(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 2; }
static void fn3(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 3; }
static void fn4(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 4; }
static void fn5(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 5; }
static void fn6(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 6; }
static void fn7(const uint64_t *in, uint64_t *out) { out[0] = in[0] + 7; }
static const nccc_fn fns[8] = {fn0, fn1, fn2, fn3, fn4, fn5, fn6, fn7};

typedef struct sig_case {
  const char *sig;
  uint16_t n_in, n_out;
} sig_case;
static const sig_case sigs[] = {
    {":", 0, 0},
    {"i:i", 1, 1},
    {"ll:l", 2, 1},
    {"{pt:3}p:d", 4, 1},
    {"pL*:i*", NCCC_SLOTS_VARIABLE | 2, NCCC_SLOTS_VARIABLE | 1},
    {"?bBhHiIlLfdpsF:e", 14, 1},
    {"s:", 1, 0},
};
#define N_SIGS (sizeof sigs / sizeof sigs[0])

/* What a test expects entry i of a registry to be. */
typedef struct expect {
  char name[NCCC_NAME_MAX + 1];
  int fn;
  int sig;
} expect;

static uint32_t rng;
static uint32_t next_rand(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static int in_block(const void *p, const void *block, size_t size) {
  const unsigned char *b = block;
  const unsigned char *q = p;
  return q >= b && q < b + size;
}

/* Reads every entry back and checks it against ex: names, functions,
** signatures, counts, the names blob and the sorted index. */
static void verify(const nccc_mreg *reg, const expect *ex, uint16_t n,
                   const void *block, size_t size) {
  const nccc_registry *v = &reg->view;
  EXPECT(nccc_registry_count(v) == n);
  EXPECT(nccc_names_count(v->names) == n);
  EXPECT(nccc_names_get(v->names, n) == NULL);
  for (uint16_t i = 0; i < n; i++) {
    uint16_t idx = 0xbeef;
    EXPECT(nccc_registry_lookup(v, ex[i].name, &idx) == NCCC_OK);
    EXPECT(idx == i);
    nccc_fn fn = NULL;
    const nccc_fn_info *info = NULL;
    const char *name = NULL;
    EXPECT(nccc_registry_get(v, i, &fn, &info, &name) == NCCC_OK);
    EXPECT(fn == fns[ex[i].fn]);
    EXPECT(strcmp(name, ex[i].name) == 0);
    EXPECT(name == nccc_names_get(v->names, i));
    EXPECT(name == v->names + info->name_offset);
    EXPECT(strcmp(info->signature, sigs[ex[i].sig].sig) == 0);
    EXPECT(info->n_in == sigs[ex[i].sig].n_in);
    EXPECT(info->n_out == sigs[ex[i].sig].n_out);
    /* the strings are copies inside the block */
    EXPECT(in_block(name, block, size));
    EXPECT(in_block(info->signature, block, size));
    EXPECT(in_block(info->signature + strlen(info->signature), block, size));
  }
  /* the index is a permutation in strcmp order */
  EXPECT(v->sorted != NULL);
  for (uint16_t i = 0; i < n; i++) {
    EXPECT(v->sorted[i] < n);
    if (i > 0)
      EXPECT(strcmp(ex[v->sorted[i - 1]].name, ex[v->sorted[i]].name) < 0);
  }
}

/* Free bytes between the names blob and the signature copies. */
static size_t string_room(const nccc_mreg *reg) {
  return (size_t)(reg->sigs_low - reg->names_end - 1);
}

/* ---- init --------------------------------------------------------------- */

START_TEST(test_init_errors) {
  _Alignas(16) unsigned char block[256];
  nccc_mreg reg;
  ck_assert_int_eq(nccc_mreg_init(NULL, block, sizeof block, 4),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_mreg_init(&reg, NULL, sizeof block, 4),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_mreg_init(&reg, block, 0, 0),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_int_eq(nccc_mreg_init(&reg, block, 0, 4),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_int_eq(nccc_mreg_init(&reg, block, 8, 1),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  /* capacity 0 that works out to 0 */
  ck_assert_int_eq(nccc_mreg_init(&reg, block, NCCC_MREG_ENTRY_BYTES + 23, 0),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  /* tables alone do not fit */
  ck_assert_int_eq(nccc_mreg_init(&reg, block, sizeof block, 20),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BUFFER_TOO_SMALL);
}
END_TEST

START_TEST(test_init_empty) {
  _Alignas(16) unsigned char block[512];
  nccc_mreg reg;
  ck_assert_int_eq(nccc_mreg_init(&reg, block, sizeof block, 0), NCCC_OK);
  ck_assert_uint_eq(reg.capacity, sizeof block / (NCCC_MREG_ENTRY_BYTES + 24));
  ck_assert_uint_eq(nccc_registry_count(&reg.view), 0);
  ck_assert_uint_eq(nccc_names_count(reg.view.names), 0);
  ck_assert_ptr_eq(reg.view.names, reg.names);
  ck_assert_ptr_eq(reg.names_end, reg.names + 2);
  ck_assert_ptr_eq(reg.sigs_low, (char *)block + sizeof block);
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_registry_lookup(&reg.view, "a", &idx),
                   NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(idx, 0xbeef);
  ck_assert_int_eq(nccc_registry_get(&reg.view, 0, NULL, NULL, NULL),
                   NCCC_ERR_INDEX_INVALID);

  ck_assert_int_eq(nccc_mreg_init(&reg, block, sizeof block, 7), NCCC_OK);
  ck_assert_uint_eq(reg.capacity, 7);
}
END_TEST

/* A failed init leaves the registry as it was (status.h: out-parameters
** are untouched on failure). */
START_TEST(test_init_failure_untouched) {
  _Alignas(16) unsigned char block[512], small[16];
  nccc_mreg reg;
  ck_assert_int_eq(nccc_mreg_init(&reg, block, sizeof block, 4), NCCC_OK);
  ck_assert_int_eq(nccc_mreg_set(&reg, "kept", fn3, "i:i", 0, NULL), NCCC_OK);
  nccc_mreg copy = reg;
  ck_assert_int_eq(nccc_mreg_init(&reg, small, sizeof small, 4),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_int_eq(memcmp(&copy, &reg, sizeof reg), 0);
  ck_assert_int_eq(nccc_mreg_init(&reg, small, sizeof small, 0),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_int_eq(nccc_mreg_init(&reg, NULL, sizeof block, 4),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(memcmp(&copy, &reg, sizeof reg), 0);
  expect ex[1] = {{"kept", 3, 1}};
  verify(&reg, ex, 1, block, sizeof block);
}
END_TEST

/* ---- set ---------------------------------------------------------------- */

typedef struct fixture {
  _Alignas(16) unsigned char block[1024];
  nccc_mreg reg;
  unsigned char snap_block[1024];
  nccc_mreg snap_reg;
} fixture;
static fixture fx;

static void snapshot(void) {
  memcpy(fx.snap_block, fx.block, sizeof fx.block);
  fx.snap_reg = fx.reg;
}
static void assert_unchanged(void) {
  ck_assert_int_eq(memcmp(fx.snap_block, fx.block, sizeof fx.block), 0);
  ck_assert_int_eq(memcmp(&fx.snap_reg, &fx.reg, sizeof fx.reg), 0);
}

static void setup(void) {
  memset(&fx, 0, sizeof fx);
  ck_assert_int_eq(nccc_mreg_init(&fx.reg, fx.block, sizeof fx.block, 4),
                   NCCC_OK);
}

START_TEST(test_set_basic) {
  uint16_t idx = 0xbeef;
  char sig[] = "ll:l";
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "add", fn1, sig, 0, &idx), NCCC_OK);
  ck_assert_uint_eq(idx, 0);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a.b.c", fn2, "i:i", 0, &idx),
                   NCCC_OK);
  ck_assert_uint_eq(idx, 1);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "x", fn3, ":", 0, NULL), NCCC_OK);
  sig[0] = 'X'; /* the registry kept its own copy */
  expect ex[3] = {{"add", 1, 2}, {"a.b.c", 2, 1}, {"x", 3, 0}};
  verify(&fx.reg, ex, 3, fx.block, sizeof fx.block);

  const nccc_fn_info *info = NULL;
  ck_assert_int_eq(nccc_registry_get(&fx.reg.view, 0, NULL, &info, NULL),
                   NCCC_OK);
  ck_assert_ptr_ne(info->signature, sig);
  uint64_t in[1] = {10}, out[1] = {0};
  nccc_fn fn = NULL;
  ck_assert_int_eq(nccc_registry_get(&fx.reg.view, 1, &fn, NULL, NULL),
                   NCCC_OK);
  fn(in, out);
  ck_assert_uint_eq(out[0], 12);
}
END_TEST

START_TEST(test_set_duplicate) {
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", fn0, "i:i", 0, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "b", fn1, "ll:l", 0, NULL), NCCC_OK);
  snapshot();
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", fn5, ":", 0, &idx),
                   NCCC_ERR_ALREADY_DEFINED);
  ck_assert_uint_eq(idx, 0xbeef);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_ALREADY_DEFINED);
  assert_unchanged();
  expect ex[2] = {{"a", 0, 1}, {"b", 1, 2}};
  verify(&fx.reg, ex, 2, fx.block, sizeof fx.block);
}
END_TEST

START_TEST(test_set_override) {
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", fn0, "i:i", 0, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "b", fn1, "ll:l", 0, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", fn4, "{pt:3}p:d", 1, &idx),
                   NCCC_OK);
  ck_assert_uint_eq(idx, 0); /* same index */
  expect ex[3] = {{"a", 4, 3}, {"b", 1, 2}, {"c", 6, 4}};
  verify(&fx.reg, ex, 2, fx.block, sizeof fx.block);
  /* override of a name not present adds it */
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "c", fn6, "pL*:i*", 1, &idx),
                   NCCC_OK);
  ck_assert_uint_eq(idx, 2);
  verify(&fx.reg, ex, 3, fx.block, sizeof fx.block);
  /* override again, back to a short signature */
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "b", fn7, ":", 1, &idx), NCCC_OK);
  ck_assert_uint_eq(idx, 1);
  ex[1].fn = 7;
  ex[1].sig = 0;
  verify(&fx.reg, ex, 3, fx.block, sizeof fx.block);
}
END_TEST

START_TEST(test_set_full_table) {
  expect ex[4] = {{"d", 0, 1}, {"c", 1, 2}, {"b", 2, 0}, {"a", 3, 6}};
  for (int i = 0; i < 4; i++)
    ck_assert_int_eq(nccc_mreg_set(&fx.reg, ex[i].name, fns[ex[i].fn],
                                   sigs[ex[i].sig].sig, 0, NULL),
                     NCCC_OK);
  verify(&fx.reg, ex, 4, fx.block, sizeof fx.block);
  /* a new name on a full table: refused, nothing changed */
  snapshot();
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "e", fn4, "i:i", 0, &idx),
                   NCCC_ERR_REGISTRY_FULL);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "e", fn4, "i:i", 1, &idx),
                   NCCC_ERR_REGISTRY_FULL);
  ck_assert_uint_eq(idx, 0xbeef);
  assert_unchanged();
  verify(&fx.reg, ex, 4, fx.block, sizeof fx.block);
  /* override still works when full */
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "b", fn5, "ll:l", 1, &idx), NCCC_OK);
  ck_assert_uint_eq(idx, 2);
  ex[2].fn = 5;
  ex[2].sig = 2;
  verify(&fx.reg, ex, 4, fx.block, sizeof fx.block);
}
END_TEST

START_TEST(test_set_bad_names) {
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", fn0, "i:i", 0, NULL), NCCC_OK);
  snapshot();
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "", fn1, "i:i", 0, &idx),
                   NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "", fn1, "i:i", 1, &idx),
                   NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_NAME);
  char longest[NCCC_NAME_MAX + 2];
  memset(longest, 'n', sizeof longest);
  longest[NCCC_NAME_MAX + 1] = '\0'; /* one byte too long */
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, longest, fn1, "i:i", 0, &idx),
                   NCCC_ERR_BAD_NAME);
  char huge[2000];
  memset(huge, 'h', sizeof huge - 1);
  huge[sizeof huge - 1] = '\0';
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, huge, fn1, "i:i", 0, &idx),
                   NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_mreg_set(NULL, "b", fn1, "i:i", 0, &idx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, NULL, fn1, "i:i", 0, &idx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "b", fn1, NULL, 0, &idx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "b", NULL, "i:i", 0, &idx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", NULL, "i:i", 1, &idx),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(idx, 0xbeef);
  assert_unchanged();
  ck_assert_uint_eq(nccc_registry_count(&fx.reg.view), 1);

  /* exactly NCCC_NAME_MAX bytes is fine */
  longest[NCCC_NAME_MAX] = '\0';
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, longest, fn1, "i:i", 0, &idx),
                   NCCC_OK);
  ck_assert_uint_eq(idx, 1);
  expect ex[2] = {{"a", 0, 1}, {"", 1, 1}};
  memcpy(ex[1].name, longest, NCCC_NAME_MAX + 1);
  verify(&fx.reg, ex, 2, fx.block, sizeof fx.block);
}
END_TEST

START_TEST(test_set_bad_signature) {
  ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", fn0, "i:i", 0, NULL), NCCC_OK);
  snapshot();
  static const char *const bad[] = {"", "ii", "x:", "{pt}:", "*i:", "i:i:i"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ck_assert_int_eq(nccc_mreg_set(&fx.reg, "b", fn1, bad[i], 0, NULL),
                     NCCC_ERR_BAD_SIGNATURE);
    ck_assert_int_eq(nccc_mreg_set(&fx.reg, "a", fn1, bad[i], 1, NULL),
                     NCCC_ERR_BAD_SIGNATURE);
  }
  assert_unchanged();
  expect ex[1] = {{"a", 0, 1}};
  verify(&fx.reg, ex, 1, fx.block, sizeof fx.block);
}
END_TEST

/* A name that exactly fills the string area fits; one byte more does not.
** Checked at every block alignment and over a range of sizes. */
START_TEST(test_exact_fill) {
  static _Alignas(16) unsigned char arena[16 + 400 + 16 + 8];
  int tried = 0;
  for (size_t off = 0; off < 8; off++) {
    for (size_t size = 120; size <= 400; size += 7) {
      for (int extra = 0; extra <= 1; extra++) {
        memset(arena, 0xa5, sizeof arena);
        unsigned char *block = arena + 16 + off;
        nccc_mreg reg;
        ck_assert_int_eq(nccc_mreg_init(&reg, block, size, 2), NCCC_OK);
        /* one small entry first, so the area holds both kinds of string */
        ck_assert_int_eq(nccc_mreg_set(&reg, "f", fn1, "i:i", 0, NULL),
                         NCCC_OK);
        /* name + NUL + "s:" + NUL + the blob's new final NUL */
        size_t room = string_room(&reg);
        if (room < 5 || room - 4 + 1 > NCCC_NAME_MAX) continue;
        size_t len = room - 4 + (size_t)extra;
        char name[NCCC_NAME_MAX + 1];
        memset(name, 'n', len);
        name[len] = '\0';
        nccc_mreg before = reg;
        unsigned char copy[400];
        memcpy(copy, block, size);
        nccc_status st = nccc_mreg_set(&reg, name, fn2, "s:", 0, NULL);
        expect ex[2] = {{"f", 1, 1}, {"", 2, 6}};
        memcpy(ex[1].name, name, len + 1);
        if (extra == 0) {
          ck_assert_int_eq(st, NCCC_OK);
          ck_assert_ptr_eq(reg.names_end + 1, reg.sigs_low);
          verify(&reg, ex, 2, block, size);
          /* nothing fits now, not even the shortest entry */
          ck_assert_int_eq(nccc_mreg_set(&reg, "g", fn3, ":", 0, NULL),
                           NCCC_ERR_REGISTRY_FULL);
          verify(&reg, ex, 2, block, size);
        } else {
          ck_assert_int_eq(st, NCCC_ERR_REGISTRY_FULL);
          ck_assert_int_eq(memcmp(&before, &reg, sizeof reg), 0);
          ck_assert_int_eq(memcmp(copy, block, size), 0);
          verify(&reg, ex, 1, block, size);
        }
        for (size_t i = 0; i < 16 + off; i++) ck_assert_uint_eq(arena[i], 0xa5);
        for (size_t i = 16 + off + size; i < sizeof arena; i++)
          ck_assert_uint_eq(arena[i], 0xa5);
        tried++;
      }
    }
  }
  ck_assert_int_gt(tried, 100);
}
END_TEST

/* ---- every alignment, many sizes, filled until full --------------------- */

#define MAX_SIZE 600
static _Alignas(16) unsigned char arena[32 + MAX_SIZE + 8 + 32];
static unsigned char arena_snap[sizeof arena];
static expect sweep_ex[MAX_SIZE];

static void random_name(char *out) {
  size_t len = 1 + next_rand() % 12;
  for (size_t i = 0; i < len; i++) out[i] = (char)('a' + next_rand() % 5);
  out[len] = '\0';
}

static int find_expect(const expect *ex, uint16_t n, const char *name) {
  for (uint16_t i = 0; i < n; i++)
    if (strcmp(ex[i].name, name) == 0) return i;
  return -1;
}

/* Every byte outside the block still holds the fill pattern. */
static void check_guards(size_t off, size_t size) {
  size_t bad = 0;
  for (size_t i = 0; i < 32 + off; i++) bad += arena[i] != 0xa5;
  for (size_t i = 32 + off + size; i < sizeof arena; i++)
    bad += arena[i] != 0xa5;
  ck_assert_msg(bad == 0,
                "%zu bytes written outside the block (off %zu, "
                "size %zu)",
                bad, off, size);
}

static void sweep_one(size_t off, size_t size, uint16_t cap) {
  memset(arena, 0xa5, sizeof arena);
  unsigned char *block = arena + 32 + off;
  nccc_mreg reg;
  nccc_status st = nccc_mreg_init(&reg, block, size, cap);
  check_guards(off, size);
  size_t want = cap ? cap : size / (NCCC_MREG_ENTRY_BYTES + 24);
  if (st != NCCC_OK) {
    EXPECT(st == NCCC_ERR_BUFFER_TOO_SMALL);
    /* only refused when it really is tight */
    EXPECT_MSG(want == 0 || size < 32 + want * NCCC_MREG_ENTRY_BYTES + 32,
               "refused size %zu cap %u off %zu", size, cap, off);
    return;
  }
  EXPECT(want > 0);
  EXPECT(reg.capacity == want);
  /* tables aligned for their types, whatever the block's address */
  EXPECT((uintptr_t)reg.funcs % _Alignof(nccc_fn) == 0);
  EXPECT((uintptr_t)reg.info % _Alignof(nccc_fn_info) == 0);
  EXPECT((uintptr_t)reg.sorted % _Alignof(uint16_t) == 0);
  EXPECT(reg.view.funcs == reg.funcs);
  EXPECT(reg.view.info == reg.info);
  EXPECT(reg.view.sorted == reg.sorted);
  EXPECT(reg.view.names == reg.names);
  /* tables inside the block, apart from each other and the strings */
  const unsigned char *f0 = (const unsigned char *)reg.funcs;
  const unsigned char *f1 = (const unsigned char *)(reg.funcs + want);
  const unsigned char *i0 = (const unsigned char *)reg.info;
  const unsigned char *i1 = (const unsigned char *)(reg.info + want);
  const unsigned char *s0 = (const unsigned char *)reg.sorted;
  const unsigned char *s1 = (const unsigned char *)(reg.sorted + want);
  const unsigned char *str = (const unsigned char *)reg.names;
  EXPECT(f0 >= block && i0 >= block && s0 >= block);
  EXPECT(f1 <= str && i1 <= str && s1 <= str);
  EXPECT(f1 <= i0 || i1 <= f0);
  EXPECT(f1 <= s0 || s1 <= f0);
  EXPECT(i1 <= s0 || s1 <= i0);
  EXPECT(in_block(reg.names, block, size));

  uint16_t n = 0;
  int full_seen = 0;
  for (int attempt = 0; attempt < 4 * (int)want + 16 && full_seen < 4;
       attempt++) {
    char name[16];
    random_name(name);
    int fn = (int)(next_rand() % 8);
    int sig = (int)(next_rand() % N_SIGS);
    int existing = find_expect(sweep_ex, n, name);
    int override = (int)(next_rand() % 4 == 0);
    size_t room = string_room(&reg);
    memcpy(arena_snap, arena, sizeof arena);
    nccc_mreg before = reg;
    uint16_t idx = 0xbeef;
    st = nccc_mreg_set(&reg, name, fns[fn], sigs[sig].sig, override, &idx);
    check_guards(off, size);
    if (existing >= 0 && !override) {
      EXPECT(st == NCCC_ERR_ALREADY_DEFINED);
    } else if (st == NCCC_OK) {
      if (existing >= 0) {
        EXPECT(idx == existing);
      } else {
        EXPECT(n < want);
        EXPECT(idx == n);
        memcpy(sweep_ex[n].name, name, sizeof name);
        n++;
      }
      sweep_ex[idx].fn = fn;
      sweep_ex[idx].sig = sig;
    } else {
      EXPECT(st == NCCC_ERR_REGISTRY_FULL);
      /* full means the table is full or the strings do not fit */
      size_t need =
          strlen(sigs[sig].sig) + 1 + (existing >= 0 ? 0 : strlen(name) + 1);
      EXPECT_MSG(n == want || need > room,
                 "full with %u of %zu and %zu bytes free (need %zu)", n, want,
                 room, need);
      full_seen++;
    }
    if (st != NCCC_OK) {
      EXPECT(idx == 0xbeef);
      EXPECT(memcmp(arena_snap, arena, sizeof arena) == 0);
      EXPECT(memcmp(&before, &reg, sizeof reg) == 0);
    }
  }
  verify(&reg, sweep_ex, n, block, size);
  if (n == want) {
    /* a new name on a full table is refused and changes nothing */
    memcpy(arena_snap, arena, sizeof arena);
    EXPECT(nccc_mreg_set(&reg, "zz-new", fn0, ":", 0, NULL) ==
           NCCC_ERR_REGISTRY_FULL);
    EXPECT(memcmp(arena_snap, arena, sizeof arena) == 0);
  }
}

START_TEST(test_sweep) {
  static const uint16_t caps[] = {0, 1, 2, 3, 5, 8, 13, 21};
  size_t off = (size_t)_i;
  rng = 12345u + (uint32_t)off;
  for (size_t size = 1; size <= MAX_SIZE; size++)
    for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++)
      sweep_one(off, size, caps[c]);
}
END_TEST

/* ---- the sorted index after random insertion orders --------------------- */

#define MANY 400
static char many_names[MANY][12];
static _Alignas(
    16) unsigned char big_block[MANY * (NCCC_MREG_ENTRY_BYTES + 32)];

START_TEST(test_sorted_random_order) {
  /* names with shared prefixes, dots and single letters */
  for (int i = 0; i < MANY; i++) {
    static const char *const stems[] = {"a", "ab", "a.b", "b", "ba", "z", "A"};
    snprintf(many_names[i], sizeof many_names[i], "%s%d", stems[i % 7], i / 7);
    if (i % 7 == 0 && i / 7 == 0) strcpy(many_names[i], "a");
  }
  for (uint32_t seed = 1; seed <= 6; seed++) {
    int order[MANY];
    for (int i = 0; i < MANY; i++) order[i] = i;
    rng = seed;
    for (int i = MANY - 1; i > 0; i--) {
      int j = (int)(next_rand() % (uint32_t)(i + 1));
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    nccc_mreg reg;
    ck_assert_int_eq(nccc_mreg_init(&reg, big_block, sizeof big_block, MANY),
                     NCCC_OK);
    static expect ex[MANY];
    for (int k = 0; k < MANY; k++) {
      const char *name = many_names[order[k]];
      uint16_t idx = 0xbeef;
      ck_assert_int_eq(
          nccc_mreg_set(&reg, name, fns[k % 8], sigs[k % N_SIGS].sig, 0, &idx),
          NCCC_OK);
      ck_assert_uint_eq(idx, k);
      strcpy(ex[k].name, name);
      ex[k].fn = k % 8;
      ex[k].sig = (int)(k % N_SIGS);
      if (k % 37 == 0 || k == MANY - 1) {
        verify(&reg, ex, (uint16_t)(k + 1), big_block, sizeof big_block);
        /* names not inserted yet are not found */
        for (int m = k + 1; m < MANY; m++) {
          idx = 0xbeef;
          ck_assert_int_eq(
              nccc_registry_lookup(&reg.view, many_names[order[m]], &idx),
              NCCC_ERR_NAME_NOT_FOUND);
          ck_assert_uint_eq(idx, 0xbeef);
        }
      }
    }
  }
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("mreg");
  nccc_check_tcase(s, "init", NULL, NULL,
                   NCCC_CHECK_TESTS(test_init_errors, test_init_empty,
                                    test_init_failure_untouched));
  nccc_check_tcase(s, "set", setup, NULL,
                   NCCC_CHECK_TESTS(test_set_basic, test_set_duplicate,
                                    test_set_override, test_set_full_table,
                                    test_set_bad_names,
                                    test_set_bad_signature));
  TCase *tl = nccc_check_tcase(s, "layout", NULL, NULL,
                               NCCC_CHECK_TESTS(test_exact_fill));
  tcase_set_timeout(tl, 120);
  tcase_add_loop_test(tl, test_sweep, 0, 8);
  tcase_add_test(tl, test_sorted_random_order);
  return s;
}
