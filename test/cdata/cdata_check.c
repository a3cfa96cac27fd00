/*
** cdata_check.c — test/cdata/cdata.idl from C: its layout table against
** the compiler's own offsetof and sizeof (records defined in place named
** by their member's path, anonymous members' fields in their record,
** arrays of records and scalars, a partial record), and the wrappers of
** functions taking events and const array typedefs, a kept input,
** unsigned-char text and a reader callback that fills the buffer it is
** given, called by handle.
*/
#include <stddef.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cdata.h"
#include "cdata_nccc.h"
#include "nccc_check.h"

static const nccc_module *cdata;

static void setup(void) {
  uint16_t index;
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  if (nccc_module_find("cdata", &index) != NCCC_OK)
    ck_assert_int_eq(nccc_cdata_register(), NCCC_OK);
  ck_assert_int_eq(nccc_module_find("cdata", &index), NCCC_OK);
  cdata = nccc_module_at(index);
  ck_assert_ptr_nonnull(cdata);
}

static const nccc_type_layout *layout(const char *name) {
  uint16_t i;
  for (i = 0; i < cdata->n_types; i++)
    if (strcmp(cdata->types[i].name, name) == 0) return &cdata->types[i];
  ck_abort_msg("no layout %s", name);
  return NULL;
}

static const nccc_field *field(const nccc_type_layout *t, const char *name) {
  uint16_t i;
  for (i = 0; i < t->n_fields; i++)
    if (strcmp(t->fields[i].name, name) == 0) return &t->fields[i];
  ck_abort_msg("no field %s in %s", name, t->name);
  return NULL;
}

/* the field's type code, offset, size and count */
static void expect(const nccc_type_layout *t, const char *name,
                   const char *code, size_t offset, size_t size,
                   size_t count) {
  const nccc_field *f = field(t, name);
  ck_assert_str_eq(f->type, code);
  ck_assert_uint_eq(f->offset, offset);
  ck_assert_uint_eq(f->size, size);
  ck_assert_uint_eq(f->count, count);
}

static void call(const char *name, const uint64_t *in, uint64_t *out) {
  nccc_handle h;
  ck_assert_int_eq(nccc_lookup(name, &h), NCCC_OK);
  ck_assert_int_eq(nccc_call(h, in, out), NCCC_OK);
}

START_TEST(test_the_event_and_its_nested_records) {
  const nccc_type_layout *ev = layout("cd_event");
  cd_event e;
  ck_assert_uint_eq(ev->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(ev->size, sizeof(cd_event));
  ck_assert_uint_eq(ev->n_fields, 4);
  expect(ev, "type", "i", offsetof(cd_event, type), sizeof(int), 1);
  expect(ev, "data", "{cd_event__data}", offsetof(cd_event, data),
         sizeof e.data, 1);
  expect(ev, "stamps", "d", offsetof(cd_event, stamps), 3 * sizeof(double),
         3);
  expect(ev, "ranges", "{cd_event__ranges}", offsetof(cd_event, ranges),
         sizeof e.ranges, 2);
}
END_TEST

START_TEST(test_records_defined_in_place_are_named_by_their_path) {
  const nccc_type_layout *data = layout("cd_event__data");
  const nccc_type_layout *scalar = layout("cd_event__data__scalar");
  const nccc_type_layout *shape = layout("cd_event__data__shape");
  const nccc_type_layout *range = layout("cd_event__ranges");
  cd_event e;
  ck_assert_uint_eq(data->kind, NCCC_TYPE_UNION);
  ck_assert_uint_eq(data->size, sizeof e.data);
  ck_assert_uint_eq(data->align, _Alignof(cd_event));
  expect(data, "scalar", "{cd_event__data__scalar}", 0, sizeof e.data.scalar,
         1);
  expect(data, "shape", "{cd_event__data__shape}", 0, sizeof e.data.shape, 1);
  ck_assert_uint_eq(scalar->size, sizeof e.data.scalar);
  ck_assert_uint_eq(scalar->align, _Alignof(size_t));
  expect(scalar, "value", "s", 0, sizeof(void *), 1);
  expect(scalar, "length", NCCC_SIG_SIZE,
         offsetof(cd_event, data.scalar.length) - offsetof(cd_event, data),
         sizeof(size_t), 1);
  /* an array of cd_point, then an anonymous union's two fields */
  expect(shape, "corners", "{cd_point}", 0, 2 * sizeof(struct cd_point), 2);
  ck_assert_uint_eq(shape->n_fields, 3);
  expect(shape, "tag", "i", 2 * sizeof(struct cd_point), sizeof(int), 1);
  expect(shape, "weight", "f", 2 * sizeof(struct cd_point), sizeof(float),
         1);
  /* an element of an array of a record defined in place */
  ck_assert_uint_eq(range->size, sizeof e.ranges[0]);
  ck_assert_uint_eq(range->align, _Alignof(short));
  expect(range, "hi", "h", sizeof(short), sizeof(short), 1);
}
END_TEST

START_TEST(test_a_partial_record_has_the_headers_size_and_offsets) {
  const nccc_type_layout *big = layout("cd_big");
  ck_assert_uint_eq(big->size, sizeof(struct cd_big));
  ck_assert_uint_eq(big->n_fields, 1);
  expect(big, "used", "i", offsetof(struct cd_big, used), sizeof(int), 1);
  ck_assert_uint_eq(big->fields[0].offset, 24);
}
END_TEST

START_TEST(test_fields_written_by_c_at_the_tables_offsets) {
  unsigned char ev[sizeof(cd_event)];
  const nccc_type_layout *ev_t = layout("cd_event");
  const nccc_type_layout *data = layout("cd_event__data");
  const nccc_type_layout *shape = layout("cd_event__data__shape");
  const nccc_type_layout *scalar = layout("cd_event__data__scalar");
  uint64_t in[2], out[1];
  size_t at_data = field(ev_t, "data")->offset, at;
  const unsigned char *text;
  size_t length;
  float weight;
  int x;
  in[0] = nccc_slot_from_ptr(ev);
  in[1] = nccc_slot_from_i32(2);
  call("cdata.cd_event_fill", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  /* data.shape.corners[0].x, data.shape.weight by the table alone */
  at = at_data + field(data, "shape")->offset + field(shape, "corners")->offset;
  memcpy(&x, ev + at + offsetof(struct cd_point, x), sizeof x);
  ck_assert_int_eq(x, -3);
  at = at_data + field(data, "shape")->offset + field(shape, "weight")->offset;
  memcpy(&weight, ev + at, sizeof weight);
  ck_assert(weight == 0.5f);
  in[1] = nccc_slot_from_i32(1);
  call("cdata.cd_event_fill", in, out);
  at = at_data + field(data, "scalar")->offset;
  memcpy(&text, ev + at + field(scalar, "value")->offset, sizeof text);
  memcpy(&length, ev + at + field(scalar, "length")->offset, sizeof length);
  ck_assert_uint_eq(length, 5);
  ck_assert_mem_eq(text, "caf\xc3\xa9", 5);
}
END_TEST

START_TEST(test_const_array_typedef_parameters) {
  cd_id a = {0}, b = {0};
  uint64_t in[2], out[1];
  in[0] = nccc_slot_from_ptr(a);
  in[1] = nccc_slot_from_u8(10);
  call("cdata.cd_id_set", in, out);
  ck_assert_uint_eq(a[3], 13);
  in[0] = nccc_slot_from_ptr(b);
  call("cdata.cd_id_set", in, out);
  in[0] = nccc_slot_from_ptr(a);
  in[1] = nccc_slot_from_ptr(b);
  call("cdata.cd_id_compare", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  b[2] = 0;
  call("cdata.cd_id_compare", in, out);
  ck_assert_int_gt(nccc_slot_to_i32(out[0]), 0);
}
END_TEST

/* reads a field of a record in C memory by the table's offset */
static void read_field(const unsigned char *record, const nccc_type_layout *t,
                       const char *name, void *to, size_t size) {
  const nccc_field *f = field(t, name);
  ck_assert_uint_eq(f->size, size);
  memcpy(to, record + f->offset, size);
}

START_TEST(test_a_kept_input_read_after_the_call) {
  const nccc_type_layout *parser_t = layout("cd_parser");
  const nccc_type_layout *ev_t = layout("cd_event");
  const nccc_type_layout *scalar = layout("cd_event__data__scalar");
  unsigned char parser[sizeof(cd_parser)], ev[sizeof(cd_event)];
  static const unsigned char input[] = "ab  cde";
  const unsigned char *value;
  size_t length, at_scalar;
  uint64_t in[3], out[1];
  ck_assert_uint_eq(parser_t->size, sizeof(cd_parser));
  at_scalar = field(ev_t, "data")->offset +
              field(layout("cd_event__data"), "scalar")->offset;
  in[0] = nccc_slot_from_ptr(parser);
  in[1] = nccc_slot_from_ptr(input);
  in[2] = nccc_slot_from_u64(sizeof input - 1);
  call("cdata.cd_parser_set_input", in, out);
  read_field(parser, parser_t, "length", &length, sizeof length);
  ck_assert_uint_eq(length, 7);
  in[1] = nccc_slot_from_ptr(ev);
  call("cdata.cd_parser_next", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 1);
  read_field(ev + at_scalar, scalar, "value", &value, sizeof value);
  read_field(ev + at_scalar, scalar, "length", &length, sizeof length);
  ck_assert_ptr_eq(value, input);
  ck_assert_uint_eq(length, 2);
  call("cdata.cd_parser_next", in, out);
  read_field(ev + at_scalar, scalar, "value", &value, sizeof value);
  read_field(ev + at_scalar, scalar, "length", &length, sizeof length);
  ck_assert_ptr_eq(value, input + 4);
  ck_assert_uint_eq(length, 3);
  call("cdata.cd_parser_next", in, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
}
END_TEST

START_TEST(test_unsigned_char_text_is_a_string_slot) {
  uint64_t in[1], out[1];
  nccc_handle h;
  const nccc_fn_info *info;
  ck_assert_int_eq(nccc_lookup("cdata.cd_text_length", &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_str_eq(info->signature, "s:" NCCC_SIG_SIZE);
  in[0] = nccc_slot_from_ptr("caf\xc3\xa9");
  call("cdata.cd_text_length", in, out);
  ck_assert_uint_eq(out[0], 5);
}
END_TEST

/* the reader: in[1] the buffer C hands it, in[2] its size; writes the
** next bytes of "hello, reader" there and returns how many */
static size_t reader_at;
static const char reader_text[] = "hello, reader";

static void reader(const uint64_t *in, uint64_t *out) {
  unsigned char *buffer = nccc_slot_to_ptr(in[1]);
  size_t size = (size_t)in[2], n = sizeof reader_text - 1 - reader_at;
  ck_assert_uint_eq(in[0], 7);
  ck_assert_uint_eq(size, 4);
  ck_assert_uint_eq(buffer[0], 0xEE);
  if (n > 3) n = 3; /* less than the buffer: C copies what was written */
  memcpy(buffer, reader_text + reader_at, n);
  reader_at += n;
  out[0] = nccc_slot_from_i32((int32_t)n);
}

START_TEST(test_a_callback_fills_the_buffer_it_is_given) {
  unsigned char dest[32];
  uint64_t in[3], out[1];
  void *ctx = NULL;
  memset(dest, 0, sizeof dest);
  reader_at = 0;
  ck_assert_int_eq(nccc_closure_claim_typed(reader, 7, NCCC_SCOPE_CALL,
                                            "p" NCCC_SIG_SIZE ":i", &ctx),
                   NCCC_OK);
  in[0] = nccc_slot_from_ptr(ctx);
  in[1] = nccc_slot_from_ptr(dest);
  in[2] = nccc_slot_from_u64(sizeof dest);
  call("cdata.cd_read_all", in, out);
  ck_assert_uint_eq(out[0], sizeof reader_text - 1);
  ck_assert_str_eq((const char *)dest, reader_text);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("cdata");
  nccc_check_tcase(s, "layouts", setup, NULL,
      NCCC_CHECK_TESTS(test_the_event_and_its_nested_records,
                       test_records_defined_in_place_are_named_by_their_path,
                       test_a_partial_record_has_the_headers_size_and_offsets));
  nccc_check_tcase(s, "calls", setup, NULL,
      NCCC_CHECK_TESTS(test_fields_written_by_c_at_the_tables_offsets,
                       test_const_array_typedef_parameters,
                       test_a_kept_input_read_after_the_call,
                       test_unsigned_char_text_is_a_string_slot,
                       test_a_callback_fills_the_buffer_it_is_given));
  return s;
}
