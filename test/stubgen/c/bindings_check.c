/*
** bindings_check.c — the library that nccc_add_bindings built from
** idl/examples/tour.idl, called through the runtime (the Check runner
** and fixtures are test/support's nccc_check).
*/
#include <errno.h>
#include <string.h>

#include "nccc_check.h"
#include "tour_nccc.h"

struct point { int x; int y; };

static void setup(void) { nccc_check_init(nccc_tour_register); }

START_TEST(test_add_through_a_handle) {
  uint64_t in[2] = {nccc_slot_from_i64(-40), nccc_slot_from_i64(-2)};
  uint64_t out[1] = {0};
  nccc_handle add = nccc_check_lookup("tour.add");
  nccc_check_call_checked(add, "tour.add", in, 2, out, 1);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), -42);
  /* a wrong slot count is refused before the call */
  ck_assert_int_eq(nccc_call_checked(add, in, 1, out, 1),
                   NCCC_ERR_NUM_ARGUMENTS);
}
END_TEST

START_TEST(test_signature_and_counts_come_from_the_registry) {
  const char *name;
  nccc_handle h = nccc_check_find("tour.move_point",
                                  "{point}i:{point}{point}",
                                  NCCC_SLOTS(sizeof(struct point)) + 1,
                                  2 * NCCC_SLOTS(sizeof(struct point)));
  ck_assert_int_eq(nccc_function(h, NULL, NULL, &name), NCCC_OK);
  ck_assert_str_eq(name, "move_point");
}
END_TEST

START_TEST(test_struct_by_value_and_out_values) {
  struct point p = {1, 2}, now, old;
  uint64_t in[4], out[4];
  nccc_slots_from_bytes(in, &p, sizeof p);
  in[NCCC_SLOTS(sizeof p)] = nccc_slot_from_i32(5);
  nccc_check_call("tour.move_point", in, out);
  nccc_slots_to_bytes(&now, out, sizeof now);
  nccc_slots_to_bytes(&old, out + NCCC_SLOTS(sizeof now), sizeof old);
  ck_assert_int_eq(now.x, 6);
  ck_assert_int_eq(old.x, 1);
}
END_TEST

START_TEST(test_errno_lands_in_the_last_out_slot) {
  uint64_t in[2] = {nccc_slot_from_i32(1), nccc_slot_from_i32(0)};
  uint64_t out[2];
  nccc_check_call("tour.checked_div", in, out);
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

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("stubgen_bindings");
  nccc_check_tcase(s, "tour", setup, NULL,
                   NCCC_CHECK_TESTS(
                       test_add_through_a_handle,
                       test_signature_and_counts_come_from_the_registry,
                       test_struct_by_value_and_out_values,
                       test_errno_lands_in_the_last_out_slot,
                       test_layouts_and_constants));
  return s;
}
