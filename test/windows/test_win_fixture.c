/*
** test_win_fixture.c — the host tests' fixture (test/hosts/fixture: the
** modules tour and hcb the shared case table calls) built for Windows
** x86-64, where long is 32 bits and size_t and pointers 64 (LLP64): the
** signatures the registry gives for long, unsigned long and size_t, the
** limits hcb's constants carry (the case table reads them, never a
** literal), and calls at those limits.
*/
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>

#include "host_fixture.h"
#include "nccc_check.h"

static const nccc_fn_info *info_of(const char *name) {
  nccc_handle h;
  const nccc_fn_info *info = NULL;
  ck_assert_int_eq(nccc_lookup(name, &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  return info;
}

/* hcb's constant name: its type code and value slot. */
static const nccc_constant *constant(const char *name) {
  uint16_t index, k;
  const nccc_module *m;
  ck_assert_int_eq(nccc_module_find("hcb", &index), NCCC_OK);
  m = nccc_module_at(index);
  for (k = 0; k < m->n_constants; k++) {
    if (strcmp(m->constants[k].name, name) == 0) return &m->constants[k];
  }
  ck_abort_msg("no constant %s", name);
}

static uint64_t call1(const char *name, uint64_t arg) {
  nccc_handle h;
  uint64_t out[1] = {0};
  ck_assert_int_eq(nccc_lookup(name, &h), NCCC_OK);
  ck_assert_int_eq(nccc_call(h, &arg, out), NCCC_OK);
  return out[0];
}

static void setup(void) {
  uint64_t out[2];
  nccc_fixture_open(NULL, out);
  ck_assert_uint_eq(out[0], 0);
}

START_TEST(data_model_is_llp64) {
  ck_assert_uint_eq(sizeof(long), 4);
  ck_assert_uint_eq(sizeof(size_t), 8);
  ck_assert_uint_eq(sizeof(void *), 8);
}
END_TEST

START_TEST(signatures_of_long_and_size) {
  ck_assert_str_eq(info_of("tour.echo_long")->signature, "i:i");
  ck_assert_str_eq(info_of("tour.echo_ulong")->signature, "I:I");
  ck_assert_str_eq(info_of("tour.echo_size")->signature, "L:L");
}
END_TEST

START_TEST(constants_are_the_targets_limits) {
  ck_assert_str_eq(constant("LONG_MAX")->type, "i");
  ck_assert_uint_eq(constant("LONG_MAX")->value, nccc_slot_from_i32(INT32_MAX));
  ck_assert_uint_eq(constant("LONG_MIN")->value, nccc_slot_from_i32(INT32_MIN));
  ck_assert_uint_eq(constant("MINUS_LONG_MAX")->value,
                    nccc_slot_from_i32(-INT32_MAX));
  ck_assert_str_eq(constant("ULONG_MAX")->type, "I");
  ck_assert_uint_eq(constant("ULONG_MAX")->value, UINT32_MAX);
  ck_assert_uint_eq(constant("ULONG_MAX_LESS_1")->value, UINT32_MAX - 1u);
  ck_assert_str_eq(constant("SIZE_MAX")->type, "L");
  ck_assert_uint_eq(constant("SIZE_MAX")->value, UINT64_MAX);
  ck_assert_uint_eq(constant("UINTPTR_MAX")->value, UINT64_MAX);
  ck_assert_uint_eq(constant("PTRDIFF_MIN")->value, nccc_slot_from_i64(INT64_MIN));
}
END_TEST

START_TEST(calls_at_the_limits_of_long) {
  ck_assert_uint_eq(call1("tour.echo_long", nccc_slot_from_i32(INT32_MIN)),
                    nccc_slot_from_i32(INT32_MIN));
  ck_assert_uint_eq(call1("tour.echo_long", nccc_slot_from_i32(INT32_MAX)),
                    nccc_slot_from_i32(INT32_MAX));
  ck_assert_uint_eq(call1("tour.echo_ulong", UINT32_MAX), UINT32_MAX);
  ck_assert_uint_eq(call1("tour.echo_size", UINT64_MAX), UINT64_MAX);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("win_fixture");
  nccc_check_tcase(s, "llp64", setup, NULL,
                   NCCC_CHECK_TESTS(data_model_is_llp64, signatures_of_long_and_size,
                                    constants_are_the_targets_limits,
                                    calls_at_the_limits_of_long));
  return s;
}
