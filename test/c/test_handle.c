/*
** test_handle.c — handle encoding and decoding against the runtime's state.
*/
#include <stdint.h>
#include <stdlib.h>

#include "nccc/nccc.h"

#include "nccc_check.h"

static void f_one(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = 1;
}
static void f_two(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = 2;
}

NCCC_NAMES_BLOB(two_names, 2, "one\0two\0");
static const nccc_fn two_funcs[] = {f_one, f_two};
static const nccc_fn_info two_info[] = {{":L", 0, 1, 2}, {":L", 0, 1, 6}};
static const nccc_registry two_reg = {(const char *)&two_names, two_funcs,
                                      two_info, NULL, NULL};
static const nccc_module two_mod = {"two", &two_reg, NULL, 0, 0, NULL};

static uint16_t two_index;

static void setup(void) {
  nccc_check_init(NULL);
  ck_assert_int_eq(nccc_module_add(&two_mod, &two_index), NCCC_OK);
}

/* Decodes h expecting failure; the outputs must stay untouched. */
static void decode_bad(nccc_handle h) {
  uint16_t m = 0xbeef, f = 0xbeef;
  ck_assert_msg(nccc_handle_decode(h, &m, &f) == NCCC_ERR_BAD_HANDLE,
                "handle %08x accepted", (unsigned)h);
  ck_assert_uint_eq(m, 0xbeef);
  ck_assert_uint_eq(f, 0xbeef);
}

static void decode_ok(nccc_handle h, uint16_t want_m, uint16_t want_f) {
  uint16_t m = 0xbeef, f = 0xbeef;
  ck_assert_msg(nccc_handle_decode(h, &m, &f) == NCCC_OK, "handle %08x refused",
                (unsigned)h);
  ck_assert_uint_eq(m, want_m);
  ck_assert_uint_eq(f, want_f);
}

START_TEST(test_encode) {
  ck_assert_uint_eq(nccc_handle_encode(0, 0), 0x80008000u);
  ck_assert_uint_eq(nccc_handle_encode(3, 5), 0x80038005u);
  ck_assert_uint_eq(nccc_handle_encode(0x7fff, 0x7fff), 0xffffffffu);
  ck_assert_uint_eq(nccc_handle_encode(NCCC_GLOBAL_MODULE, 1),
                    0x80008001u | ((uint32_t)NCCC_MAX_MODULES << 16));
  ck_assert_uint_eq(NCCC_GLOBAL_MODULE, NCCC_MAX_MODULES);
}
END_TEST

START_TEST(test_decode_module) {
  decode_ok(nccc_handle_encode(two_index, 0), two_index, 0);
  decode_ok(nccc_handle_encode(two_index, 1), two_index, 1);
  /* function index == count: one past the end */
  decode_bad(nccc_handle_encode(two_index, 2));
  decode_bad(nccc_handle_encode(two_index, 0x7fff));
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_HANDLE);
}
END_TEST

START_TEST(test_decode_markers) {
  nccc_handle h = nccc_handle_encode(two_index, 1);
  decode_bad(0);
  decode_bad(h & ~0x80000000u); /* no bit 31 */
  decode_bad(h & ~0x00008000u); /* no bit 15 */
  decode_bad(h & ~0x80008000u); /* neither */
  decode_bad((uint32_t)two_index << 16 | 1u);
  decode_bad(0x80000000u);
  decode_bad(0x00008000u);
}
END_TEST

START_TEST(test_decode_global) {
  /* the global registry starts empty */
  decode_bad(nccc_handle_encode(NCCC_GLOBAL_MODULE, 0));
  nccc_handle g = 0;
  ck_assert_int_eq(nccc_register("g", f_one, ":L", 0, &g), NCCC_OK);
  ck_assert_uint_eq(g, nccc_handle_encode(NCCC_GLOBAL_MODULE, 0));
  decode_ok(g, NCCC_GLOBAL_MODULE, 0);
  decode_bad(nccc_handle_encode(NCCC_GLOBAL_MODULE, 1));
  ck_assert_int_eq(nccc_register("h", f_two, ":L", 0, NULL), NCCC_OK);
  decode_ok(nccc_handle_encode(NCCC_GLOBAL_MODULE, 1), NCCC_GLOBAL_MODULE, 1);
  decode_bad(nccc_handle_encode(NCCC_GLOBAL_MODULE, 2));
  /* past the global index: no such module */
  decode_bad(nccc_handle_encode(NCCC_GLOBAL_MODULE + 1, 0));
  decode_bad(nccc_handle_encode(0x7fff, 0));
}
END_TEST

START_TEST(test_decode_absent_and_removed) {
  /* a module slot that never held a module */
  uint16_t empty = two_index == NCCC_MAX_MODULES - 1 ? 0 : NCCC_MAX_MODULES - 1;
  ck_assert_ptr_null(nccc_module_at(empty));
  decode_bad(nccc_handle_encode(empty, 0));

  nccc_handle h = nccc_handle_encode(two_index, 0);
  decode_ok(h, two_index, 0);
  ck_assert_int_eq(nccc_module_remove(two_index), NCCC_OK);
  decode_bad(h);
  uint64_t out[1] = {77};
  ck_assert_int_eq(nccc_call(h, NULL, out), NCCC_ERR_BAD_HANDLE);
  ck_assert_uint_eq(out[0], 77);
}
END_TEST

START_TEST(test_zero_never_valid) {
  /* whatever is present, 0 is no handle */
  ck_assert_int_eq(nccc_register("z", f_one, ":L", 0, NULL), NCCC_OK);
  decode_bad(0);
  uint64_t out[1] = {77};
  ck_assert_int_eq(nccc_call(0, NULL, out), NCCC_ERR_BAD_HANDLE);
  ck_assert_uint_eq(out[0], 77);
  /* and every handle lookup gives is non-zero with both markers */
  nccc_handle h = 0;
  ck_assert_int_eq(nccc_lookup("two.one", &h), NCCC_OK);
  ck_assert_uint_eq(h & 0x80008000u, 0x80008000u);
  ck_assert_int_eq(nccc_lookup("z", &h), NCCC_OK);
  ck_assert_uint_eq(h & 0x80008000u, 0x80008000u);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("handle");
  nccc_check_tcase(s, "handle", setup, NULL,
                   NCCC_CHECK_TESTS(test_encode, test_decode_module,
                                    test_decode_markers, test_decode_global,
                                    test_decode_absent_and_removed,
                                    test_zero_never_valid));
  return s;
}
