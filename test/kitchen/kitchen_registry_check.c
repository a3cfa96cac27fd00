/*
** kitchen_registry_check.c — the registry and the tables of tour.idl and
** edges.idl: every function under its documented signature and slot
** counts, checked calls that refuse any other count, and the type layout
** and constants tables.
*/
#include "kitchen.h"

/* ---- registry and signatures ------------------------------------------------ */

START_TEST(test_registry_holds_the_documented_functions) {
  const nccc_module *tour = module("tour"), *edges = module("edges");
  uint16_t i;
  char full[64];
  ck_assert_ptr_eq(tour, &nccc_tour_module);
  ck_assert_ptr_eq(edges, &nccc_edges_module);
  ck_assert_uint_eq(nccc_registry_count(tour->registry), N_TOUR);
  ck_assert_uint_eq(nccc_registry_count(edges->registry), N_EDGES);
  ck_assert_uint_eq(N_SIGS, N_TOUR + N_EDGES);
  /* every function of the registry is in the table, with its signature
  ** and counts, and is found by name at its own index */
  for (i = 0; i < N_TOUR + N_EDGES; i++) {
    const nccc_module *m = i < N_TOUR ? tour : edges;
    uint16_t index = (uint16_t)(i < N_TOUR ? i : i - N_TOUR), found = 0;
    const nccc_fn_info *info;
    const char *name;
    const sig *s;
    ck_assert_int_eq(nccc_registry_get(m->registry, index, NULL, &info, &name),
                     NCCC_OK);
    snprintf(full, sizeof full, "%s.%s", m->name, name);
    s = sig_of(full);
    ck_assert_str_eq(info->signature, s->signature);
    ck_assert_uint_eq(info->n_in, s->n_in);
    ck_assert_uint_eq(info->n_out, s->n_out);
    ck_assert_int_eq(nccc_registry_lookup(m->registry, name, &found), NCCC_OK);
    ck_assert_uint_eq(found, index);
  }
}
END_TEST

START_TEST(test_signatures_on_this_target) {
  /* the target-dependent codes spelled out for LP64 Linux */
#if LONG_MAX == 0x7fffffffffffffffL && CHAR_MIN < 0
  ck_assert_str_eq(sig_of("tour.mix")->signature, "bHfdlb:d");
  ck_assert_str_eq(sig_of("tour.parse_long")->signature, "si:le");
  ck_assert_str_eq(sig_of("tour.negate")->signature, "Fl:l");
  ck_assert_str_eq(sig_of("tour.format_double")->signature, "pLsdf:i");
  ck_assert_str_eq(sig_of("tour.echo_size")->signature, "L:L");
  ck_assert_str_eq(sig_of("tour.echo_ssize")->signature, "l:l");
#endif
  ck_assert_uint_eq(sig_of("tour.midpoint")->n_in, 2);
  ck_assert_uint_eq(sig_of("tour.cmul")->n_in, 4);
  ck_assert_uint_eq(sig_of("tour.cmul")->n_out, 2);
  ck_assert_uint_eq(sig_of("tour.move_point")->n_out, 2);
  ck_assert_uint_eq(sig_of("edges.spread")->n_in, 3);
  ck_assert_uint_eq(sig_of("edges.spread")->n_out, 7);
  ck_assert_uint_eq(sig_of("edges.weigh")->n_in, 5);
}
END_TEST

START_TEST(test_renamed_function_under_its_new_name_only) {
  nccc_handle h = 0;
  uint64_t in[1], out[1];
  const char *name = NULL;
  ck_assert_int_eq(nccc_lookup("tour.color_name", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(h, 0);
  ck_assert_int_eq(
      nccc_function(nccc_check_lookup("tour.name_of_color"), NULL, NULL, &name),
      NCCC_OK);
  ck_assert_str_eq(name, "name_of_color");
  in[0] = nccc_slot_from_i32(GREEN);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "green");
  in[0] = nccc_slot_from_i32(RED);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "red");
  in[0] = nccc_slot_from_i32(BLUE);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "blue");
  in[0] = nccc_slot_from_i32(-1);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "?");
  /* prototypes and instantiations: the variadic one is not a function */
  ck_assert_int_eq(nccc_lookup("tour.snprintf", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_lookup("tour.negate_impl", &h), NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

START_TEST(test_checked_calls_refuse_other_counts) {
  size_t i;
  uint64_t in[16], out[16];
  memset(in, 0, sizeof in);
  for (i = 0; i < N_SIGS; i++) {
    const sig *s = &sigs[i];
    nccc_handle h = nccc_check_lookup(s->name);
    size_t k;
    for (k = 0; k < 16; k++) out[k] = SENTINEL;
    ck_assert_int_eq(nccc_call_checked(h, in, s->n_in + 1, out, s->n_out),
                     NCCC_ERR_NUM_ARGUMENTS);
    ck_assert_int_eq(nccc_call_checked(h, in, s->n_in, out, s->n_out + 1),
                     NCCC_ERR_NUM_ARGUMENTS);
    if (s->n_in > 0) {
      ck_assert_int_eq(nccc_call_checked(h, in, s->n_in - 1, out, s->n_out),
                       NCCC_ERR_NUM_ARGUMENTS);
      /* a NULL buffer with slots in it */
      ck_assert_int_eq(nccc_call_checked(h, NULL, s->n_in, out, s->n_out),
                       NCCC_ERR_NULL_POINTER);
    }
    if (s->n_out > 0) {
      ck_assert_int_eq(nccc_call_checked(h, in, s->n_in, out, s->n_out - 1),
                       NCCC_ERR_NUM_ARGUMENTS);
      ck_assert_int_eq(nccc_call_checked(h, in, s->n_in, NULL, s->n_out),
                       NCCC_ERR_NULL_POINTER);
    }
    /* nothing was called */
    for (k = 0; k < 16; k++) ck_assert_uint_eq(out[k], SENTINEL);
  }
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  /* no slots: NULL buffers are fine */
  ck_assert_int_eq(
      nccc_call_checked(nccc_check_lookup("tour.nothing"), NULL, 0, NULL, 0),
      NCCC_OK);
  /* handles that name no function */
  ck_assert_int_eq(nccc_call_checked(0, in, 0, out, 0), NCCC_ERR_BAD_HANDLE);
  {
    uint16_t index = 0;
    ck_assert_int_eq(nccc_module_find("tour", &index), NCCC_OK);
    ck_assert_int_eq(nccc_call_checked(nccc_handle_encode(index, N_TOUR), in,
                                       0, out, 0), NCCC_ERR_BAD_HANDLE);
  }
}
END_TEST

/* ---- layout and constants tables ---------------------------------------------- */

static void check_field(const nccc_type_layout *t, uint16_t i,
                        const char *name, const char *code, size_t offset,
                        size_t size, size_t count) {
  ck_assert_uint_lt(i, t->n_fields);
  ck_assert_str_eq(t->fields[i].name, name);
  ck_assert_str_eq(t->fields[i].type, code);
  ck_assert_uint_eq(t->fields[i].offset, offset);
  ck_assert_uint_eq(t->fields[i].size, size);
  ck_assert_uint_eq(t->fields[i].count, count);
}

START_TEST(test_layout_tables) {
  const nccc_module *m = module("tour"), *e = module("edges");
  const nccc_type_layout *t;

  ck_assert_uint_eq(m->n_types, 6);
  t = layout(m, "point");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(t->size, sizeof(struct point));
  ck_assert_uint_eq(t->align, _Alignof(struct point));
  ck_assert_uint_eq(t->n_fields, 2);
  check_field(t, 0, "x", "i", offsetof(struct point, x), sizeof(int), 1);
  check_field(t, 1, "y", "i", offsetof(struct point, y), sizeof(int), 1);

  t = layout(m, "complex_t");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(t->size, sizeof(complex_t));
  ck_assert_uint_eq(t->align, _Alignof(complex_t));
  ck_assert_uint_eq(t->n_fields, 2);
  check_field(t, 0, "re", "d", offsetof(complex_t, re), sizeof(double), 1);
  check_field(t, 1, "im", "d", offsetof(complex_t, im), sizeof(double), 1);

  t = layout(m, "number");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_UNION);
  ck_assert_uint_eq(t->size, sizeof(union number));
  ck_assert_uint_eq(t->align, _Alignof(union number));
  ck_assert_uint_eq(t->n_fields, 3);
  check_field(t, 0, "i", "l", 0, 8, 1);
  check_field(t, 1, "d", "d", 0, 8, 1);
  check_field(t, 2, "bytes", "B", 0, 8, 8);

  t = layout(m, "record");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(t->size, sizeof(struct record));
  ck_assert_uint_eq(t->align, _Alignof(struct record));
  ck_assert_uint_eq(t->n_fields, 6);
  check_field(t, 0, "name", C, offsetof(struct record, name), 16, 16);
  check_field(t, 1, "label", "s", offsetof(struct record, label),
              sizeof(const char *), 1);
  check_field(t, 2, "items", "p", offsetof(struct record, items),
              sizeof(int *), 1);
  check_field(t, 3, "count", SZ, offsetof(struct record, count),
              sizeof(size_t), 1);
  check_field(t, 4, "where", "{point}", offsetof(struct record, where),
              sizeof(struct point), 1);
  check_field(t, 5, "hook", "F", offsetof(struct record, hook),
              sizeof(void (*)(int)), 1);

  t = layout(m, "counter");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_OPAQUE);
  ck_assert_uint_eq(t->size, 0);
  ck_assert_uint_eq(t->align, 0);
  ck_assert_uint_eq(t->n_fields, 0);
  t = layout(m, "handle_t");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_OPAQUE);
  ck_assert_uint_eq(t->size, 0);

  ck_assert_uint_eq(e->n_types, 3);
  t = layout(e, "triple");
  ck_assert_uint_eq(t->size, 12);
  ck_assert_uint_eq(t->align, _Alignof(struct triple));
  check_field(t, 2, "c", "i", offsetof(struct triple, c), 4, 1);
  t = layout(e, "rgb");
  ck_assert_uint_eq(t->size, 3);
  ck_assert_uint_eq(t->align, 1);
  check_field(t, 2, "b", "B", 2, 1, 1);
  t = layout(e, "half");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_UNION);
  ck_assert_uint_eq(t->size, 4);
  ck_assert_uint_eq(t->align, _Alignof(union half));
  check_field(t, 0, "h", "H", 0, 4, 2);
  check_field(t, 1, "b", "B", 0, 4, 4);
}
END_TEST

START_TEST(test_constants_table) {
  static const struct {
    const char *name, *code;
    uint64_t value;
  } want[] = {
      {"RED", "i", RED},           {"GREEN", "i", GREEN},
      {"BLUE", "i", BLUE},         {"FLAG_A", "i", FLAG_A},
      {"FLAG_B", "i", FLAG_B},     {"FLAG_AB", "i", FLAG_AB},
      {"LIMIT", "i", 100},         {"ALL_ONES", "L", 0xffffffffffffffffULL},
      {"LETTER", C, 'A'}};
  const nccc_module *m = module("tour");
  size_t i;
  ck_assert_uint_eq(m->n_constants, sizeof want / sizeof want[0]);
  for (i = 0; i < m->n_constants; i++) {
    ck_assert_str_eq(m->constants[i].name, want[i].name);
    ck_assert_str_eq(m->constants[i].type, want[i].code);
    ck_assert_uint_eq(m->constants[i].value, want[i].value);
  }
  /* the numbers themselves, not only their agreement with the enum */
  ck_assert_uint_eq(m->constants[1].value, 5);
  ck_assert_uint_eq(m->constants[2].value, 6);
  ck_assert_uint_eq(m->constants[5].value, 3);
  ck_assert_uint_eq(m->constants[8].value, 0x41);
  ck_assert_uint_eq(module("edges")->n_constants, 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("kitchen registry");
  nccc_check_tcase(s, "registry", setup, NULL,
      NCCC_CHECK_TESTS(test_registry_holds_the_documented_functions,
                       test_signatures_on_this_target,
                       test_renamed_function_under_its_new_name_only,
                       test_checked_calls_refuse_other_counts));
  nccc_check_tcase(s, "tables", setup, NULL,
                   NCCC_CHECK_TESTS(test_layout_tables, test_constants_table));
  return s;
}
