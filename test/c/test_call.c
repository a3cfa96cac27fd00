/*
** test_call.c — initialisation, modules, lookup, calls, checked calls and
** registration in the global registry.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccc/nccc.h"

#include "nccc_check.h"

static int calls; /* how often a test function ran */

static void f_add(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = in[0] + in[1];
}
static void f_neg(const uint64_t *in, uint64_t *out) {
  calls++;
  out[0] = nccc_slot_from_i64(-nccc_slot_to_i64(in[0]));
}
static void f_dotted(const uint64_t *in, uint64_t *out) {
  (void)in;
  calls++;
  out[0] = 42;
}
/* in[0] = how many values follow; out[0] = their sum, out[1..] copies. */
static void f_sum(const uint64_t *in, uint64_t *out) {
  calls++;
  uint64_t s = 0;
  for (uint64_t i = 0; i < in[0]; i++) s += in[1 + i];
  out[0] = s;
}
static void f_seven(const uint64_t *in, uint64_t *out) {
  (void)in;
  calls++;
  out[0] = 7;
}

/* Sorted: add, neg, sum, x.y */
NCCC_NAMES_BLOB(math_names, 4, "add\0neg\0x.y\0sum\0");
static const nccc_fn math_funcs[] = {f_add, f_neg, f_dotted, f_sum};
static const nccc_fn_info math_info[] = {
    {"LL:L", 2, 1, 2},
    {"l:l", 1, 1, 6},
    {":L", 0, 1, 10},
    {"L*:L*", NCCC_SLOTS_VARIABLE | 1, NCCC_SLOTS_VARIABLE | 1, 14}};
static const uint16_t math_sorted[] = {0, 1, 3, 2};
static const nccc_registry math_reg = {(const char *)&math_names, math_funcs,
                                       math_info, math_sorted, NULL};
static const nccc_module math_mod = {"math", &math_reg, NULL, 0, 0, NULL};
static const nccc_module math_again = {"math", &math_reg, NULL, 0, 0, NULL};

static void setup(void) {
  calls = 0;
  nccc_check_init(NULL);
}

/* ---- before nccc_init (runs first in its own process) ------------------- */

START_TEST(test_not_initialized) {
  nccc_handle h = 0xdeadbeefu;
  ck_assert_int_eq(nccc_lookup("x", &h), NCCC_ERR_NOT_INITIALIZED);
  ck_assert_uint_eq(h, 0xdeadbeefu);
  ck_assert_int_eq(nccc_register("x", f_add, "LL:L", 0, &h),
                   NCCC_ERR_NOT_INITIALIZED);
  ck_assert_uint_eq(h, 0xdeadbeefu);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NOT_INITIALIZED);
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_module_add(&math_mod, &idx), NCCC_ERR_NOT_INITIALIZED);
  ck_assert_uint_eq(idx, 0xbeef);
  /* no handle is valid yet, not even one of the global registry */
  uint64_t out[1] = {5};
  ck_assert_int_eq(
      nccc_call(nccc_handle_encode(NCCC_GLOBAL_MODULE, 0), NULL, out),
      NCCC_ERR_BAD_HANDLE);
  ck_assert_uint_eq(out[0], 5);
  /* ensure_init initialises */
  ck_assert_int_eq(nccc_ensure_init(), NCCC_OK);
  ck_assert_int_eq(nccc_module_find("nccc", &idx), NCCC_OK);
}
END_TEST

/* ---- initialisation ----------------------------------------------------- */

START_TEST(test_builtin_module_present) {
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_module_find("nccc", &idx), NCCC_OK);
  const nccc_module *m = nccc_module_at(idx);
  ck_assert_ptr_nonnull(m);
  ck_assert_str_eq(m->name, "nccc");
  ck_assert_uint_eq(nccc_registry_count(m->registry), NCCC_BUILTIN_COUNT);
  nccc_handle h = 0;
  ck_assert_int_eq(nccc_lookup("nccc.version", &h), NCCC_OK);
  uint64_t out[3] = {99, 0, 0};
  ck_assert_int_eq(nccc_call(h, NULL, out), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_str_eq((const char *)nccc_slot_to_ptr(out[2]), NCCC_VERSION_STRING);
}
END_TEST

START_TEST(test_init_twice) {
  uint16_t idx;
  ck_assert_int_eq(nccc_register("a", f_add, "LL:L", 0, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_module_add(&math_mod, NULL), NCCC_OK);
  nccc_check_init(NULL);
  /* a fresh runtime: nothing registered, only the built-in module */
  nccc_handle h = 0xdeadbeefu;
  ck_assert_int_eq(nccc_lookup("a", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_lookup("math.add", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(h, 0xdeadbeefu);
  ck_assert_int_eq(nccc_module_find("math", &idx), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_module_find("nccc", &idx), NCCC_OK);
  int present = 0;
  for (uint16_t i = 0; i < NCCC_MAX_MODULES; i++)
    if (nccc_module_at(i) != NULL) present++;
  ck_assert_int_eq(present, 1);
  /* and it works */
  ck_assert_int_eq(nccc_register("a", f_neg, "l:l", 0, &h), NCCC_OK);
  ck_assert_uint_eq(h, nccc_handle_encode(NCCC_GLOBAL_MODULE, 0));
  ck_assert_int_eq(nccc_module_add(&math_mod, NULL), NCCC_OK);
  uint64_t in[1] = {5}, out[1] = {0};
  ck_assert_int_eq(nccc_call(h, in, out), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), -5);
}
END_TEST

START_TEST(test_init_own_block) {
  static _Alignas(8) unsigned char block[4096];
  static unsigned char tiny[16];
  ck_assert_int_eq(nccc_init(tiny, sizeof tiny), NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_int_eq(nccc_init(block, sizeof block), NCCC_OK);
  uint16_t idx;
  ck_assert_int_eq(nccc_module_find("nccc", &idx), NCCC_OK);
  /* more than the default block would hold */
  int n = 0;
  for (; n < 60; n++) {
    char name[16];
    snprintf(name, sizeof name, "fn%d", n);
    ck_assert_int_eq(nccc_register(name, f_seven, ":i", 0, NULL), NCCC_OK);
  }
  nccc_handle h;
  ck_assert_int_eq(nccc_lookup("fn59", &h), NCCC_OK);
  ck_assert_uint_eq(h, nccc_handle_encode(NCCC_GLOBAL_MODULE, 59));
  uint64_t out[1] = {0};
  ck_assert_int_eq(nccc_call(h, NULL, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 7);
}
END_TEST

START_TEST(test_ensure_init_keeps_state) {
  ck_assert_int_eq(nccc_register("kept", f_add, "LL:L", 0, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_ensure_init(), NCCC_OK);
  nccc_handle h;
  ck_assert_int_eq(nccc_lookup("kept", &h), NCCC_OK);
}
END_TEST

/* ---- modules ------------------------------------------------------------ */

START_TEST(test_module_add_find_remove) {
  uint16_t idx = 0xbeef, found = 0xbeef;
  ck_assert_int_eq(nccc_module_add(&math_mod, &idx), NCCC_OK);
  ck_assert_uint_lt(idx, NCCC_MAX_MODULES);
  ck_assert_ptr_eq(nccc_module_at(idx), &math_mod);
  ck_assert_int_eq(nccc_module_find("math", &found), NCCC_OK);
  ck_assert_uint_eq(found, idx);
  ck_assert_ptr_null(nccc_module_at(NCCC_MAX_MODULES));
  ck_assert_ptr_null(nccc_module_at(0xffff));

  ck_assert_int_eq(nccc_module_remove(idx), NCCC_OK);
  ck_assert_ptr_null(nccc_module_at(idx));
  found = 0xbeef;
  ck_assert_int_eq(nccc_module_find("math", &found), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(found, 0xbeef);
  ck_assert_int_eq(nccc_module_remove(idx), NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_module_remove(NCCC_MAX_MODULES),
                   NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_module_remove(0xffff), NCCC_ERR_INDEX_INVALID);
  /* and back again */
  ck_assert_int_eq(nccc_module_add(&math_mod, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_module_find("math", &found), NCCC_OK);
  ck_assert_int_eq(nccc_module_find(NULL, &found), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_module_find("ma", &found), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_module_find("mathx", &found), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_module_find("", &found), NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

START_TEST(test_module_duplicate_and_bad) {
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_module_add(&math_mod, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_module_add(&math_again, &idx),
                   NCCC_ERR_ALREADY_DEFINED);
  ck_assert_int_eq(nccc_module_add(&math_mod, &idx), NCCC_ERR_ALREADY_DEFINED);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_ALREADY_DEFINED);
  nccc_module other_nccc = {"nccc", &math_reg, NULL, 0, 0, NULL};
  ck_assert_int_eq(nccc_module_add(&other_nccc, &idx),
                   NCCC_ERR_ALREADY_DEFINED);
  nccc_module empty = {"", &math_reg, NULL, 0, 0, NULL};
  nccc_module dotted = {"a.b", &math_reg, NULL, 0, 0, NULL};
  ck_assert_int_eq(nccc_module_add(&empty, &idx), NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_module_add(&dotted, &idx), NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_module_add(NULL, &idx), NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(idx, 0xbeef);
}
END_TEST

START_TEST(test_module_table_full) {
  static nccc_module mods[NCCC_MAX_MODULES + 1];
  static char names[NCCC_MAX_MODULES + 1][8];
  /* the built-in module takes one place */
  int room = NCCC_MAX_MODULES - 1;
  uint16_t last = 0;
  for (int i = 0; i <= room; i++) {
    snprintf(names[i], sizeof names[i], "m%d", i);
    mods[i] = (nccc_module){names[i], &math_reg, NULL, 0, 0, NULL};
  }
  for (int i = 0; i < room; i++)
    ck_assert_int_eq(nccc_module_add(&mods[i], &last), NCCC_OK);
  uint16_t idx = 0xbeef;
  ck_assert_int_eq(nccc_module_add(&mods[room], &idx), NCCC_ERR_MODULES_FULL);
  ck_assert_uint_eq(idx, 0xbeef);
  /* every module is reachable, each by its own name */
  for (int i = 0; i < room; i++) {
    char fname[16];
    snprintf(fname, sizeof fname, "m%d.neg", i);
    nccc_handle h;
    ck_assert_int_eq(nccc_lookup(fname, &h), NCCC_OK);
  }
  ck_assert_int_eq(nccc_module_remove(last), NCCC_OK);
  ck_assert_int_eq(nccc_module_add(&mods[room], &idx), NCCC_OK);
  ck_assert_uint_eq(idx, last);
}
END_TEST

/* ---- lookup ------------------------------------------------------------- */

START_TEST(test_lookup_module_function) {
  uint16_t mi;
  ck_assert_int_eq(nccc_module_add(&math_mod, &mi), NCCC_OK);
  nccc_handle h = 0;
  ck_assert_int_eq(nccc_lookup("math.add", &h), NCCC_OK);
  ck_assert_uint_eq(h, nccc_handle_encode(mi, 0));
  ck_assert_int_eq(nccc_lookup("math.sum", &h), NCCC_OK);
  ck_assert_uint_eq(h, nccc_handle_encode(mi, 3));
  /* only the first dot splits: the module's own function "x.y" */
  ck_assert_int_eq(nccc_lookup("math.x.y", &h), NCCC_OK);
  ck_assert_uint_eq(h, nccc_handle_encode(mi, 2));
  uint64_t out[1] = {0};
  ck_assert_int_eq(nccc_call(h, NULL, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 42);

  h = 0xdeadbeefu;
  static const char *const misses[] = {"math.",    "math.nope", "math.ad",
                                       "math.x",   "add",       "math",
                                       "nope.add", "",          "math..x.y"};
  for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++) {
    ck_assert_msg(nccc_lookup(misses[i], &h) == NCCC_ERR_NAME_NOT_FOUND,
                  "\"%s\" found", misses[i]);
    ck_assert_uint_eq(h, 0xdeadbeefu);
  }
  ck_assert_int_eq(nccc_lookup(NULL, &h), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_lookup("math.add", NULL), NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(h, 0xdeadbeefu);
}
END_TEST

START_TEST(test_lookup_global_dotted) {
  nccc_handle a = 0, b = 0, c = 0, h = 0;
  ck_assert_int_eq(nccc_register("runtime.SystemLib", f_seven, ":i", 0, &a),
                   NCCC_OK);
  ck_assert_int_eq(nccc_register("math.sub", f_seven, ":i", 0, &b), NCCC_OK);
  ck_assert_int_eq(nccc_register(".lead", f_seven, ":i", 0, &c), NCCC_OK);
  ck_assert_int_eq(nccc_lookup("runtime.SystemLib", &h), NCCC_OK);
  ck_assert_uint_eq(h, a);
  ck_assert_int_eq(nccc_lookup(".lead", &h), NCCC_OK);
  ck_assert_uint_eq(h, c);
  /* no module "math": the whole string is a global name */
  ck_assert_int_eq(nccc_lookup("math.sub", &h), NCCC_OK);
  ck_assert_uint_eq(h, b);
  /* with module "math" present, "math." names that module */
  uint16_t mi;
  ck_assert_int_eq(nccc_module_add(&math_mod, &mi), NCCC_OK);
  h = 0xdeadbeefu;
  ck_assert_int_eq(nccc_lookup("math.sub", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(h, 0xdeadbeefu);
  ck_assert_int_eq(nccc_lookup("math.add", &h), NCCC_OK);
  ck_assert_uint_eq(h, nccc_handle_encode(mi, 0));
  ck_assert_int_eq(nccc_module_remove(mi), NCCC_OK);
  ck_assert_int_eq(nccc_lookup("math.sub", &h), NCCC_OK);
  ck_assert_uint_eq(h, b);
}
END_TEST

/* ---- function, call ----------------------------------------------------- */

START_TEST(test_function_info) {
  uint16_t mi;
  ck_assert_int_eq(nccc_module_add(&math_mod, &mi), NCCC_OK);
  nccc_fn fn = NULL;
  const nccc_fn_info *info = NULL;
  const char *name = NULL;
  ck_assert_int_eq(nccc_function(nccc_handle_encode(mi, 1), &fn, &info, &name),
                   NCCC_OK);
  ck_assert(fn == f_neg);
  ck_assert_ptr_eq(info, &math_info[1]);
  ck_assert_str_eq(name, "neg");
  ck_assert_int_eq(nccc_function(nccc_handle_encode(mi, 1), NULL, NULL, NULL),
                   NCCC_OK);

  nccc_handle g;
  ck_assert_int_eq(nccc_register("glob", f_sum, "L*:L", 0, &g), NCCC_OK);
  ck_assert_int_eq(nccc_function(g, &fn, &info, &name), NCCC_OK);
  ck_assert(fn == f_sum);
  ck_assert_str_eq(name, "glob");
  ck_assert_str_eq(info->signature, "L*:L");
  ck_assert_uint_eq(info->n_in, NCCC_SLOTS_VARIABLE | 1);
  ck_assert_uint_eq(info->n_out, 1);

  fn = f_add;
  info = &math_info[0];
  name = "sentinel";
  ck_assert_int_eq(nccc_function(nccc_handle_encode(mi, 4), &fn, &info, &name),
                   NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_function(0, &fn, &info, &name), NCCC_ERR_BAD_HANDLE);
  ck_assert(fn == f_add);
  ck_assert_ptr_eq(info, &math_info[0]);
  ck_assert_str_eq(name, "sentinel");
}
END_TEST

START_TEST(test_call) {
  uint16_t mi;
  ck_assert_int_eq(nccc_module_add(&math_mod, &mi), NCCC_OK);
  nccc_handle h;
  ck_assert_int_eq(nccc_lookup("math.add", &h), NCCC_OK);
  uint64_t in[2] = {40, 2}, out[1] = {0};
  ck_assert_int_eq(nccc_call(h, in, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(nccc_lookup("math.neg", &h), NCCC_OK);
  in[0] = nccc_slot_from_i64(INT64_MAX);
  ck_assert_int_eq(nccc_call(h, in, out), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), -INT64_MAX);
  /* bad handles: nothing called, nothing written */
  out[0] = 99;
  ck_assert_int_eq(nccc_call(nccc_handle_encode(mi, 4), in, out),
                   NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_call(h & ~0x8000u, in, out), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(
      nccc_call(nccc_handle_encode(NCCC_GLOBAL_MODULE, 0), in, out),
      NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(calls, 2);
  ck_assert_uint_eq(out[0], 99);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_HANDLE);
}
END_TEST

/* ---- checked call ------------------------------------------------------- */

START_TEST(test_call_checked_fixed) {
  nccc_handle h;
  ck_assert_int_eq(nccc_register("add", f_add, "LL:L", 0, &h), NCCC_OK);
  uint64_t in[4] = {3, 4, 0, 0}, out[3] = {0, 0, 0};
  static const size_t bad[][2] = {{0, 1}, {1, 1}, {3, 1}, {2, 0},
                                  {2, 2}, {4, 3}, {1, 0}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    out[0] = 99;
    ck_assert_int_eq(nccc_call_checked(h, in, bad[i][0], out, bad[i][1]),
                     NCCC_ERR_NUM_ARGUMENTS);
    ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NUM_ARGUMENTS);
    ck_assert_uint_eq(out[0], 99);
  }
  ck_assert_int_eq(calls, 0);
  ck_assert_int_eq(nccc_call_checked(h, in, 2, out, 1), NCCC_OK);
  ck_assert_int_eq(calls, 1);
  ck_assert_uint_eq(out[0], 7);
  /* NULL buffers with non-zero counts */
  ck_assert_int_eq(nccc_call_checked(h, NULL, 2, out, 1),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_call_checked(h, in, 2, NULL, 1), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(nccc_call_checked(0, in, 2, out, 1), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(test_call_checked_empty_sides) {
  nccc_handle h7, hv;
  ck_assert_int_eq(nccc_register("seven", f_seven, ":i", 0, &h7), NCCC_OK);
  uint64_t out[1] = {0};
  /* a side with no slots may be NULL */
  ck_assert_int_eq(nccc_call_checked(h7, NULL, 0, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 7);
  ck_assert_int_eq(calls, 1);
  uint64_t in[1] = {0};
  ck_assert_int_eq(nccc_call_checked(h7, in, 1, out, 1),
                   NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(nccc_register("void", f_seven, "i:", 0, &hv), NCCC_OK);
  ck_assert_int_eq(nccc_call_checked(hv, in, 1, out, 1),
                   NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(test_call_checked_variable) {
  uint16_t mi;
  ck_assert_int_eq(nccc_module_add(&math_mod, &mi), NCCC_OK);
  nccc_handle h;
  ck_assert_int_eq(nccc_lookup("math.sum", &h), NCCC_OK); /* L*:L* */
  uint64_t in[5] = {0, 1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  /* below the minimum of one slot on either side */
  ck_assert_int_eq(nccc_call_checked(h, in, 0, out, 1), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 0), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(calls, 0);
  /* the minimum and more */
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 0);
  in[0] = 4;
  ck_assert_int_eq(nccc_call_checked(h, in, 5, out, 4), NCCC_OK);
  ck_assert_uint_eq(out[0], 10);
  ck_assert_int_eq(calls, 2);

  /* fixed in, variable out with a minimum of two */
  nccc_handle g;
  ck_assert_int_eq(nccc_register("v", f_seven, "i:ii*", 0, &g), NCCC_OK);
  ck_assert_int_eq(nccc_call_checked(g, in, 1, out, 1), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(g, in, 2, out, 2), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(calls, 2);
  ck_assert_int_eq(nccc_call_checked(g, in, 1, out, 2), NCCC_OK);
  ck_assert_int_eq(nccc_call_checked(g, in, 1, out, 4), NCCC_OK);
  ck_assert_int_eq(calls, 4);
}
END_TEST

/* ---- register ----------------------------------------------------------- */

START_TEST(test_register) {
  nccc_handle h1 = 0, h2 = 0, h = 0;
  ck_assert_int_eq(nccc_register("f", f_add, "LL:L", 0, &h1), NCCC_OK);
  ck_assert_int_eq(nccc_register("g", f_neg, "l:l", 0, &h2), NCCC_OK);
  ck_assert_int_eq(nccc_register("quiet", f_seven, ":i", 0, NULL), NCCC_OK);
  ck_assert_uint_ne(h1, h2);
  ck_assert_int_eq(nccc_lookup("f", &h), NCCC_OK);
  ck_assert_uint_eq(h, h1);
  ck_assert_int_eq(nccc_lookup("g", &h), NCCC_OK);
  ck_assert_uint_eq(h, h2);

  /* a duplicate is refused and changes nothing */
  h = 0xdeadbeefu;
  ck_assert_int_eq(nccc_register("f", f_seven, ":i", 0, &h),
                   NCCC_ERR_ALREADY_DEFINED);
  ck_assert_uint_eq(h, 0xdeadbeefu);
  uint64_t in[2] = {1, 2}, out[1] = {0};
  ck_assert_int_eq(nccc_call_checked(h1, in, 2, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 3);

  /* override: same handle, new function and signature */
  ck_assert_int_eq(nccc_register("f", f_seven, ":i", 1, &h), NCCC_OK);
  ck_assert_uint_eq(h, h1);
  ck_assert_int_eq(nccc_call_checked(h1, in, 2, out, 1),
                   NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(h1, NULL, 0, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 7);

  /* errors pass through from the registry, out untouched */
  h = 0xdeadbeefu;
  ck_assert_int_eq(nccc_register("", f_add, "LL:L", 0, &h), NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_register("x", f_add, "LL", 0, &h),
                   NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(nccc_register(NULL, f_add, "LL:L", 0, &h),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_register("x", f_add, NULL, 0, &h),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_uint_eq(h, 0xdeadbeefu);
  ck_assert_int_eq(nccc_lookup("x", &h), NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

START_TEST(test_register_until_full) {
  /* the default block fills up; what is in stays callable */
  nccc_status st = NCCC_OK;
  int n = 0;
  for (; n < 10000; n++) {
    char name[16];
    snprintf(name, sizeof name, "r%d", n);
    st = nccc_register(name, f_seven, ":i", 0, NULL);
    if (st != NCCC_OK) break;
  }
  ck_assert_int_eq(st, NCCC_ERR_REGISTRY_FULL);
  ck_assert_int_gt(n, 10);
  for (int i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof name, "r%d", i);
    nccc_handle h;
    ck_assert_int_eq(nccc_lookup(name, &h), NCCC_OK);
    ck_assert_uint_eq(h, nccc_handle_encode(NCCC_GLOBAL_MODULE, (uint16_t)i));
    uint64_t out[1] = {0};
    ck_assert_int_eq(nccc_call_checked(h, NULL, 0, out, 1), NCCC_OK);
    ck_assert_uint_eq(out[0], 7);
  }
  nccc_handle h;
  char name[16];
  snprintf(name, sizeof name, "r%d", n);
  ck_assert_int_eq(nccc_lookup(name, &h), NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("call");
  nccc_check_tcase(s, "uninitialised", NULL, NULL,
                   NCCC_CHECK_TESTS(test_not_initialized));
  nccc_check_tcase(s, "runtime", setup, NULL,
                   NCCC_CHECK_TESTS(test_builtin_module_present,
                                    test_init_twice, test_init_own_block,
                                    test_ensure_init_keeps_state,
                                    test_module_add_find_remove,
                                    test_module_duplicate_and_bad,
                                    test_module_table_full,
                                    test_lookup_module_function,
                                    test_lookup_global_dotted,
                                    test_function_info, test_call,
                                    test_call_checked_fixed,
                                    test_call_checked_empty_sides,
                                    test_call_checked_variable, test_register,
                                    test_register_until_full));
  return s;
}
