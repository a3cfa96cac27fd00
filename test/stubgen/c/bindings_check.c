/*
** bindings_check.c — the library that nccc_add_bindings built from
** idl/examples/tour.idl, called through the runtime.
*/
#include <check.h>
#include <errno.h>
#include <string.h>

#include <nccc/nccc.h>

#include "tour_nccc.h"

struct point { int x; int y; };

static void setup(void) {
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_tour_register(), NCCC_OK);
}

static nccc_handle find(const char *name) {
  nccc_handle h = 0;
  ck_assert_int_eq(nccc_lookup(name, &h), NCCC_OK);
  return h;
}

START_TEST(test_add_through_a_handle) {
  uint64_t in[2] = {nccc_slot_from_i64(-40), nccc_slot_from_i64(-2)};
  uint64_t out[1] = {0};
  ck_assert_int_eq(nccc_call_checked(find("tour.add"), in, 2, out, 1),
                   NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), -42);
  /* a wrong slot count is refused before the call */
  ck_assert_int_eq(nccc_call_checked(find("tour.add"), in, 1, out, 1),
                   NCCC_ERR_NUM_ARGUMENTS);
}
END_TEST

START_TEST(test_signature_and_counts_come_from_the_registry) {
  const nccc_fn_info *info;
  const char *name;
  ck_assert_int_eq(nccc_function(find("tour.move_point"), NULL, &info, &name),
                   NCCC_OK);
  ck_assert_str_eq(name, "move_point");
  ck_assert_str_eq(info->signature, "{point}i:{point}{point}");
  ck_assert_uint_eq(info->n_in, NCCC_SLOTS(sizeof(struct point)) + 1);
  ck_assert_uint_eq(info->n_out, 2 * NCCC_SLOTS(sizeof(struct point)));
}
END_TEST

START_TEST(test_struct_by_value_and_out_values) {
  struct point p = {1, 2}, now, old;
  uint64_t in[4], out[4];
  nccc_slots_from_bytes(in, &p, sizeof p);
  in[NCCC_SLOTS(sizeof p)] = nccc_slot_from_i32(5);
  ck_assert_int_eq(nccc_call(find("tour.move_point"), in, out), NCCC_OK);
  nccc_slots_to_bytes(&now, out, sizeof now);
  nccc_slots_to_bytes(&old, out + NCCC_SLOTS(sizeof now), sizeof old);
  ck_assert_int_eq(now.x, 6);
  ck_assert_int_eq(old.x, 1);
}
END_TEST

START_TEST(test_errno_lands_in_the_last_out_slot) {
  uint64_t in[2] = {nccc_slot_from_i32(1), nccc_slot_from_i32(0)};
  uint64_t out[2];
  ck_assert_int_eq(nccc_call(find("tour.checked_div"), in, out), NCCC_OK);
  ck_assert_uint_eq(out[1], (uint64_t)EDOM);
}
END_TEST

START_TEST(test_layouts_and_constants) {
  uint16_t index;
  const nccc_module *m;
  ck_assert_int_eq(nccc_module_find("tour", &index), NCCC_OK);
  m = nccc_module_at(index);
  ck_assert_ptr_eq(m, &nccc_tour_module);
  ck_assert_str_eq(m->types[0].name, "point");
  ck_assert_uint_eq(m->types[0].size, sizeof(struct point));
  ck_assert_str_eq(m->constants[1].name, "GREEN");
  ck_assert_uint_eq(m->constants[1].value, 5);
}
END_TEST

int main(void) {
  Suite *s = suite_create("stubgen_bindings");
  TCase *tc = tcase_create("tour");
  SRunner *sr;
  int failed;
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, test_add_through_a_handle);
  tcase_add_test(tc, test_signature_and_counts_come_from_the_registry);
  tcase_add_test(tc, test_struct_by_value_and_out_values);
  tcase_add_test(tc, test_errno_lands_in_the_last_out_slot);
  tcase_add_test(tc, test_layouts_and_constants);
  suite_add_tcase(s, tc);
  sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed != 0;
}
