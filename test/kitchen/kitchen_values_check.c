/*
** kitchen_values_check.c — the values of tour.idl and edges.idl through
** the runtime, slot for slot and bit for bit at the edges of each type:
** scalars, structs and unions by value, [out] and [inout].
*/
#include "kitchen.h"

/* ---- scalars ----------------------------------------------------------------- */

START_TEST(test_echo_signed_integers) {
  /* sign-extended to 64 bits */
  echo("tour.echo_schar", nccc_slot_from_i8(SCHAR_MIN), 0xffffffffffffff80u);
  echo("tour.echo_schar", SCHAR_MAX, 0x7f);
  echo("tour.echo_schar", nccc_slot_from_i8(-1), 0xffffffffffffffffu);
  echo("tour.echo_schar", 0, 0);
  echo("tour.echo_short", nccc_slot_from_i16(SHRT_MIN), 0xffffffffffff8000u);
  echo("tour.echo_short", SHRT_MAX, 0x7fff);
  echo("tour.echo_short", nccc_slot_from_i16(-1), 0xffffffffffffffffu);
  echo("tour.echo_short", 0, 0);
  echo("tour.echo_int", nccc_slot_from_i32(INT_MIN), 0xffffffff80000000u);
  echo("tour.echo_int", INT_MAX, 0x7fffffff);
  echo("tour.echo_int", nccc_slot_from_i32(-1), 0xffffffffffffffffu);
  echo("tour.echo_int", 0, 0);
  echo("tour.echo_llong", nccc_slot_from_i64(LLONG_MIN), 0x8000000000000000u);
  echo("tour.echo_llong", LLONG_MAX, 0x7fffffffffffffffu);
  echo("tour.echo_llong", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_llong", 0, 0);
  echo("tour.echo_i8", nccc_slot_from_i8(INT8_MIN), 0xffffffffffffff80u);
  echo("tour.echo_i8", INT8_MAX, 0x7f);
  echo("tour.echo_i8", nccc_slot_from_i8(-1), 0xffffffffffffffffu);
  echo("tour.echo_i8", 0, 0);
  echo("tour.echo_i16", nccc_slot_from_i16(INT16_MIN), 0xffffffffffff8000u);
  echo("tour.echo_i16", INT16_MAX, 0x7fff);
  echo("tour.echo_i16", nccc_slot_from_i16(-1), 0xffffffffffffffffu);
  echo("tour.echo_i16", 0, 0);
  echo("tour.echo_i32", nccc_slot_from_i32(INT32_MIN), 0xffffffff80000000u);
  echo("tour.echo_i32", INT32_MAX, 0x7fffffff);
  echo("tour.echo_i32", nccc_slot_from_i32(-1), 0xffffffffffffffffu);
  echo("tour.echo_i32", 0, 0);
  echo("tour.echo_i64", nccc_slot_from_i64(INT64_MIN), 0x8000000000000000u);
  echo("tour.echo_i64", INT64_MAX, 0x7fffffffffffffffu);
  echo("tour.echo_i64", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_i64", 0, 0);
}
END_TEST

START_TEST(test_echo_unsigned_integers) {
  /* zero-extended */
  echo("tour.echo_uchar", UCHAR_MAX, 0xff);
  echo("tour.echo_uchar", 0x80, 0x80);
  echo("tour.echo_uchar", 0, 0);
  echo("tour.echo_ushort", USHRT_MAX, 0xffff);
  echo("tour.echo_ushort", 0x8000, 0x8000);
  echo("tour.echo_ushort", 0, 0);
  echo("tour.echo_uint", UINT_MAX, 0xffffffffu);
  echo("tour.echo_uint", 0x80000000u, 0x80000000u);
  echo("tour.echo_uint", 0, 0);
  echo("tour.echo_ullong", ULLONG_MAX, 0xffffffffffffffffu);
  echo("tour.echo_ullong", 0x8000000000000000u, 0x8000000000000000u);
  echo("tour.echo_ullong", 0, 0);
  echo("tour.echo_u8", UINT8_MAX, 0xff);
  echo("tour.echo_u8", 0, 0);
  echo("tour.echo_u16", UINT16_MAX, 0xffff);
  echo("tour.echo_u16", 0, 0);
  echo("tour.echo_u32", UINT32_MAX, 0xffffffffu);
  echo("tour.echo_u32", 0, 0);
  echo("tour.echo_u64", UINT64_MAX, 0xffffffffffffffffu);
  echo("tour.echo_u64", 0, 0);
}
END_TEST

START_TEST(test_echo_target_dependent_integers) {
  /* char: its signedness decides the extension */
  echo("tour.echo_char", nccc_slot_from_i64(CHAR_MIN),
       CHAR_MIN < 0 ? 0xffffffffffffff80u : 0);
  echo("tour.echo_char", (uint64_t)CHAR_MAX, CHAR_MIN < 0 ? 0x7fu : 0xffu);
  echo("tour.echo_char", nccc_slot_from_i64((char)-1),
       CHAR_MIN < 0 ? 0xffffffffffffffffu : 0xffu);
  echo("tour.echo_char", 'A', 0x41);
  echo("tour.echo_long", nccc_slot_from_i64(LONG_MIN),
       LONG_MAX > 0x7fffffffL ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_long", (uint64_t)LONG_MAX,
       LONG_MAX > 0x7fffffffL ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_long", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_long", 0, 0);
  echo("tour.echo_ulong", ULONG_MAX,
       LONG_MAX > 0x7fffffffL ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_ulong", 0, 0);
  echo("tour.echo_ulong_t", ULONG_MAX,
       LONG_MAX > 0x7fffffffL ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_ulong_t", 0, 0);
  echo("tour.echo_size", SIZE_MAX,
       SIZE_MAX > 0xffffffffu ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_size", 0, 0);
  echo("tour.echo_ssize", nccc_slot_from_i64(-SSIZE_MAX - 1),
       SIZE_MAX > 0xffffffffu ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_ssize", (uint64_t)SSIZE_MAX,
       SIZE_MAX > 0xffffffffu ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_ssize", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_ssize", 0, 0);
  echo("tour.echo_intptr", nccc_slot_from_i64(INTPTR_MIN),
       UINTPTR_MAX > 0xffffffffu ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_intptr", (uint64_t)INTPTR_MAX,
       UINTPTR_MAX > 0xffffffffu ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_intptr", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_intptr", 0, 0);
  echo("tour.echo_uintptr", UINTPTR_MAX,
       UINTPTR_MAX > 0xffffffffu ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_uintptr", 0, 0);
  echo("tour.echo_ptrdiff", nccc_slot_from_i64(PTRDIFF_MIN),
       UINTPTR_MAX > 0xffffffffu ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_ptrdiff", (uint64_t)PTRDIFF_MAX,
       UINTPTR_MAX > 0xffffffffu ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_ptrdiff", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_ptrdiff", 0, 0);
}
END_TEST

START_TEST(test_narrow_types_take_the_low_bits_of_a_slot) {
  /* a slot that is not what the forward conversion gives: the wrapper
  ** keeps the low bits, and the result slot is well formed again */
  echo("tour.echo_uchar", 0x1ff, 0xff);
  echo("tour.echo_uchar", 0xffffffffffffffffu, 0xff);
  echo("tour.echo_schar", 0x80, 0xffffffffffffff80u);
  echo("tour.echo_schar", 0xffffffffffffff7fu, 0x7f);
  echo("tour.echo_short", 0x12348000u, 0xffffffffffff8000u);
  echo("tour.echo_ushort", 0xffffffff0001u, 1);
  echo("tour.echo_int", 0x80000000u, 0xffffffff80000000u);
  echo("tour.echo_int", 0x100000005u, 5);
  echo("tour.echo_uint", 0xffffffff00000001u, 1);
  echo("tour.echo_i8", 0x180, 0xffffffffffffff80u);
  echo("tour.echo_u16", 0x10000, 0);
  echo("tour.echo_i32", 0xfedcba9876543210u, 0x76543210u);
}
END_TEST

START_TEST(test_echo_bool) {
  echo("tour.echo_bool", 0, 0);
  echo("tour.echo_bool", 1, 1);
  /* any other slot converts like C's conversion to _Bool
  ** (nccc_slot_to_bool): non-zero is true, and true comes back as 1 */
  echo("tour.echo_bool", 2, 1);
  echo("tour.echo_bool", 0x8000000000000000u, 1);
}
END_TEST

START_TEST(test_echo_float) {
  /* widened to double, by bits for NaNs */
  echo("tour.echo_float", nccc_slot_from_float(-1.5f), 0xbff8000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(0.0f), 0);
  echo("tour.echo_float", nccc_slot_from_float(-0.0f), 0x8000000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(FLT_MAX), 0x47efffffe0000000u);
  echo("tour.echo_float", nccc_slot_from_float(-FLT_MAX), 0xc7efffffe0000000u);
  echo("tour.echo_float", nccc_slot_from_float(FLT_MIN), 0x3810000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(FLT_TRUE_MIN),
       0x36a0000000000000u);
  echo("tour.echo_float", float_slot_of_bits(0x807fffffu), /* denormal */
       0xb80fffffc0000000u);
  echo("tour.echo_float", nccc_slot_from_float(INFINITY), 0x7ff0000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(-INFINITY), 0xfff0000000000000u);
  /* NaNs: quiet with a payload, negative, signalling: all bits survive */
  echo("tour.echo_float", float_slot_of_bits(0x7fc01234u), 0x7ff8024680000000u);
  echo("tour.echo_float", float_slot_of_bits(0xffc00000u), 0xfff8000000000000u);
  echo("tour.echo_float", float_slot_of_bits(0x7f800001u), 0x7ff0000020000000u);
  echo("tour.echo_float", float_slot_of_bits(0x7fbfffffu), 0x7ff7ffffe0000000u);
  /* a double slot that is no float: rounded to float */
  echo("tour.echo_float", nccc_slot_from_double(0.1), 0x3fb99999a0000000u);
  echo("tour.echo_float", nccc_slot_from_double(1e300), 0x7ff0000000000000u);
  echo("tour.echo_float", nccc_slot_from_double(-1e-300), 0x8000000000000000u);
  /* a NaN whose payload lies below float's 23 bits stays a (quiet) NaN */
  echo("tour.echo_float", 0x7ff0000000000001u, 0x7ff8000000000000u);
}
END_TEST

START_TEST(test_echo_double) {
  echo("tour.echo_double", nccc_slot_from_double(-0.0), 0x8000000000000000u);
  echo("tour.echo_double", 0, 0);
  echo("tour.echo_double", nccc_slot_from_double(DBL_MAX), 0x7fefffffffffffffu);
  echo("tour.echo_double", nccc_slot_from_double(DBL_MIN), 0x0010000000000000u);
  echo("tour.echo_double", 1, 1); /* 2^-1074, the smallest denormal */
  echo("tour.echo_double", 0x800fffffffffffffu, 0x800fffffffffffffu);
  echo("tour.echo_double", 0x7ff0000000000000u, 0x7ff0000000000000u);
  echo("tour.echo_double", 0xfff0000000000000u, 0xfff0000000000000u);
  echo("tour.echo_double", 0x7ff8000000000123u, 0x7ff8000000000123u);
  echo("tour.echo_double", 0xfff8000000000000u, 0xfff8000000000000u);
  echo("tour.echo_double", 0x7ff0000000000001u, 0x7ff0000000000001u);
  echo("tour.echo_double", 0x7ff7ffffffffffffu, 0x7ff7ffffffffffffu);
}
END_TEST

START_TEST(test_echo_enum) {
  echo("tour.echo_color", RED, 0);
  echo("tour.echo_color", GREEN, 5);
  echo("tour.echo_color", BLUE, 6);
  echo("tour.echo_color", 7, 7);
  /* values that are no enumerator still travel as a sign-extended int */
  echo("tour.echo_color", nccc_slot_from_i32(-1), 0xffffffffffffffffu);
  echo("tour.echo_color", nccc_slot_from_i32(INT_MIN), 0xffffffff80000000u);
  echo("tour.echo_color", INT_MAX, 0x7fffffff);
}
END_TEST

START_TEST(test_add_mix_nothing) {
  uint64_t in[6], out[1];
  in[0] = nccc_slot_from_i64(-40);
  in[1] = nccc_slot_from_i64(-2);
  call("tour.add", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffd6u);
  in[0] = nccc_slot_from_i64(INT64_MAX);
  in[1] = nccc_slot_from_i64(INT64_MIN);
  call("tour.add", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);

  /* six types in one call, each converted from its own slot */
  in[0] = nccc_slot_from_i8(-128);
  in[1] = 0xffff;
  in[2] = nccc_slot_from_float(0.5f);
  in[3] = nccc_slot_from_double(-0.25);
  in[4] = nccc_slot_from_i64(-1000000);
  in[5] = nccc_slot_from_i64(CHAR_MIN);
  call("tour.mix", in, 6, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_double(CHAR_MIN < 0 ? -934720.75
                                                              : -934592.75));
  /* the same with the narrow slots carrying high garbage */
  in[0] = 0xabcdef80u;
  in[1] = 0x5550000ffffu;
  call("tour.mix", in, 6, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_double(CHAR_MIN < 0 ? -934720.75
                                                              : -934592.75));

  out[0] = SENTINEL;
  call("tour.nothing", NULL, 0, out, 0);
  ck_assert_uint_eq(out[0], SENTINEL);
}
END_TEST

/* ---- structs and unions by value -------------------------------------------- */

START_TEST(test_structs_by_value) {
  const nccc_module *m = module("tour");
  const nccc_type_layout *pl = layout(m, "point"), *cl = layout(m, "complex_t");
  struct point a = {-10, 7}, b = {4, -20}, want_p = {-3, -6};
  complex_t x = {1, 2}, y = {3, 4}, want_c = {-5, 10};
  uint64_t in[8], out[4], want[4];
  int32_t field;
  double d;

  nccc_slots_from_bytes(in, &a, sizeof a);
  nccc_slots_from_bytes(in + PT, &b, sizeof b);
  call("tour.midpoint", in, 2 * PT, out, PT);
  nccc_slots_from_bytes(want, &want_p, sizeof want_p);
  ck_assert_mem_eq(out, want, PT * 8);
  /* a host reads the fields at the layout table's offsets */
  memcpy(&field, (const char *)out + pl->fields[0].offset, sizeof field);
  ck_assert_int_eq(field, -3);
  memcpy(&field, (const char *)out + pl->fields[1].offset, sizeof field);
  ck_assert_int_eq(field, -6);

  a.x = INT_MAX;
  a.y = INT_MIN;
  b.x = -1;
  b.y = 1;
  nccc_slots_from_bytes(in, &a, sizeof a);
  nccc_slots_from_bytes(in + PT, &b, sizeof b);
  call("tour.midpoint", in, 2 * PT, out, PT);
  want_p.x = (INT_MAX - 1) / 2;
  want_p.y = (INT_MIN + 1) / 2;
  nccc_slots_from_bytes(want, &want_p, sizeof want_p);
  ck_assert_mem_eq(out, want, PT * 8);

  nccc_slots_from_bytes(in, &x, sizeof x);
  nccc_slots_from_bytes(in + CX, &y, sizeof y);
  call("tour.cmul", in, 2 * CX, out, CX);
  nccc_slots_from_bytes(want, &want_c, sizeof want_c);
  ck_assert_mem_eq(out, want, CX * 8);
  memcpy(&d, (const char *)out + cl->fields[1].offset, sizeof d);
  ck_assert(d == 10.0);
  /* (-0 + 0i)(1 + 0i) = -0 + 0i: the signs of zero travel */
  x.re = -0.0;
  x.im = 0.0;
  y.re = 1.0;
  y.im = 0.0;
  nccc_slots_from_bytes(in, &x, sizeof x);
  nccc_slots_from_bytes(in + CX, &y, sizeof y);
  call("tour.cmul", in, 2 * CX, out, CX);
  ck_assert_uint_eq(out[0], 0x8000000000000000u);
  ck_assert_uint_eq(out[1], 0);

  /* a union: its 8 bytes in one slot */
  in[0] = nccc_slot_from_double(-0.0);
  call("tour.as_number", in, 1, out, NB);
  ck_assert_uint_eq(out[0], 0x8000000000000000u);
  in[0] = 0x7ff8000000000123u;
  call("tour.as_number", in, 1, out, NB);
  ck_assert_uint_eq(out[0], 0x7ff8000000000123u);
  in[0] = nccc_slot_from_double(1.0);
  call("tour.as_number", in, 1, out, NB);
  ck_assert_uint_eq(out[0], 0x3ff0000000000000u);

  /* the slot after a struct: in[0] bias, in[1..PT] p, in[1+PT] scale */
  a.x = 1;
  a.y = 2;
  in[0] = nccc_slot_from_i32(INT_MIN);
  nccc_slots_from_bytes(in + 1, &a, sizeof a);
  in[1 + PT] = nccc_slot_from_i32(-1);
  call("tour.point_sum", in, 2 + PT, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffff7ffffffdu); /* INT_MIN - 3 */
  in[0] = nccc_slot_from_i32(100);
  a.x = 2;
  a.y = 10;
  nccc_slots_from_bytes(in + 1, &a, sizeof a);
  in[1 + PT] = nccc_slot_from_i32(3);
  call("tour.point_sum", in, 2 + PT, out, 1);
  ck_assert_uint_eq(out[0], 136);
}
END_TEST

START_TEST(test_records_that_leave_part_of_a_slot) {
  struct triple t = {INT32_MIN, -1, INT32_MAX}, t2;
  struct rgb c = {0, 128, 255}, c2;
  uint64_t in[8], out[8], want[4];
  size_t i;

  /* 12 bytes: two slots, the last 4 bytes of the second zero */
  in[0] = nccc_slot_from_i32(t.a);
  in[1] = nccc_slot_from_i32(t.b);
  in[2] = nccc_slot_from_i32(t.c);
  out[2] = SENTINEL;
  call("edges.triple_make", in, 3, out, TR);
  ck_assert_uint_eq(TR, 2);
  nccc_slots_from_bytes(want, &t, sizeof t);
  ck_assert_mem_eq(out, want, 16);
  for (i = 12; i < 16; i++) ck_assert_uint_eq(byte_at(out, i), 0);
  ck_assert_uint_eq(out[2], SENTINEL); /* nothing past the record */
  memcpy(&t2, out, sizeof t2);
  ck_assert_int_eq(t2.a, INT32_MIN);
  ck_assert_int_eq(t2.b, -1);
  ck_assert_int_eq(t2.c, INT32_MAX);

  /* 3 bytes in one slot; the wrapper reads only those 3 bytes of the in
  ** slot, whatever the other 5 hold, and zeroes them in the out slot */
  in[0] = 0xA5A5A5A5A5A5A5A5u;
  memcpy(in, &c, sizeof c);
  call("edges.rgb_invert", in, RG, out, RG);
  memcpy(&c2, out, sizeof c2);
  ck_assert_uint_eq(c2.r, 255);
  ck_assert_uint_eq(c2.g, 127);
  ck_assert_uint_eq(c2.b, 0);
  for (i = 3; i < 8; i++) ck_assert_uint_eq(byte_at(out, i), 0);

  /* a 4-byte union */
  in[0] = 0x1234;
  in[1] = 0xffff;
  call("edges.half_of", in, 2, out, HF);
  {
    union half h;
    memcpy(&h, out, sizeof h);
    ck_assert_uint_eq(h.h[0], 0x1234);
    ck_assert_uint_eq(h.h[1], 0xffff);
  }
  for (i = 4; i < 8; i++) ck_assert_uint_eq(byte_at(out, i), 0);

  /* slot positions after such records: tag, t (2), c (1), last */
  t.a = 1;
  t.b = 2;
  t.c = 3;
  c.r = 1;
  c.g = 2;
  c.b = 3;
  for (i = 0; i < 8; i++) in[i] = 0xA5A5A5A5A5A5A5A5u; /* garbage in padding */
  in[0] = 7;
  memcpy(in + 1, &t, sizeof t);
  memcpy(in + 1 + TR, &c, sizeof c);
  in[1 + TR + RG] = nccc_slot_from_i8(-1);
  call("edges.weigh", in, 2 + TR + RG, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(7000001002062));
}
END_TEST

/* ---- [out] and [inout] ---------------------------------------------------------- */

START_TEST(test_out_and_inout) {
  struct point p = {1, 2}, now, old;
  const char *text = "  42rest", *neg = "-7";
  uint64_t in[4], out[4];

  in[0] = nccc_slot_from_i32(-17);
  in[1] = nccc_slot_from_i32(5);
  call("tour.divmod", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xfffffffffffffffdu); /* quot -3 */
  ck_assert_uint_eq(out[1], 0xfffffffffffffffeu); /* rem -2 */
  in[0] = nccc_slot_from_i32(INT_MAX);
  in[1] = nccc_slot_from_i32(-2);
  call("tour.divmod", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xffffffffc0000001u); /* -1073741823 */
  ck_assert_uint_eq(out[1], 1);

  /* [inout]: the value goes in, the new value comes out */
  in[0] = nccc_slot_from_i32(41);
  in[1] = nccc_slot_from_i32(1);
  call("tour.bump", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 42);
  in[0] = nccc_slot_from_i32(-1);
  in[1] = nccc_slot_from_i32(INT_MIN + 1);
  call("tour.bump", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffff80000000u);

  /* out[]: the [inout] p first, then the [out] old, in parameter order */
  nccc_slots_from_bytes(in, &p, sizeof p);
  in[PT] = nccc_slot_from_i32(10);
  call("tour.move_point", in, PT + 1, out, 2 * PT);
  nccc_slots_to_bytes(&now, out, sizeof now);
  nccc_slots_to_bytes(&old, out + PT, sizeof old);
  ck_assert_int_eq(now.x, 11);
  ck_assert_int_eq(now.y, 2);
  ck_assert_int_eq(old.x, 1);
  ck_assert_int_eq(old.y, 2);

  /* return value first, then the [out] string */
  in[0] = nccc_slot_from_ptr(text);
  call("tour.parse_int", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(text + 4));
  expect_string(out[1], "rest");
  in[0] = nccc_slot_from_ptr(neg);
  call("tour.parse_int", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 0xfffffffffffffff9u);
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(neg + 2));
}
END_TEST

START_TEST(test_out_order_with_records_and_errno) {
  /* return, hi, t (2 slots), c (1 slot), lo, errno */
  struct triple t = {10, 20, 30}, t2;
  struct rgb c;
  uint64_t in[3], out[7];
  size_t i;
  in[0] = nccc_slot_from_i32(0x000500FF);
  nccc_slots_from_bytes(in + 1, &t, sizeof t);
  call("edges.spread", in, 1 + TR, out, 4 + TR + RG);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(-0x000500FF));
  ck_assert_uint_eq(out[0], 0xfffffffffffaff01u);
  ck_assert_uint_eq(out[1], 5);
  memcpy(&t2, out + 2, sizeof t2);
  ck_assert_int_eq(t2.a, 10 + 0x000500FF);
  ck_assert_int_eq(t2.b, 20 - 0x000500FF);
  ck_assert_int_eq(t2.c, -30);
  for (i = 12; i < 16; i++) ck_assert_uint_eq(byte_at(out + 2, i), 0);
  memcpy(&c, out + 2 + TR, sizeof c);
  ck_assert_uint_eq(c.r, 1);
  ck_assert_uint_eq(c.g, 2);
  ck_assert_uint_eq(c.b, 3);
  for (i = 3; i < 8; i++) ck_assert_uint_eq(byte_at(out + 2 + TR, i), 0);
  ck_assert_uint_eq(out[2 + TR + RG], 0xff); /* uint8_t: zero-extended */
  ck_assert_uint_eq(out[3 + TR + RG], nccc_slot_from_i32(ERANGE));
}
END_TEST

START_TEST(test_float_outs) {
  uint64_t in[2], out[2];
  in[0] = nccc_slot_from_float(-0.0f);
  in[1] = nccc_slot_from_double(1.5);
  call("edges.float_outs", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0);                   /* -(-0.0f) = +0 */
  ck_assert_uint_eq(out[1], 0x3ff8000000000000u); /* 1.5 + -0 */
  in[0] = nccc_slot_from_float(FLT_TRUE_MIN);
  in[1] = 0;
  call("edges.float_outs", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xb6a0000000000000u);
  ck_assert_uint_eq(out[1], 0x36a0000000000000u);
  in[0] = float_slot_of_bits(0x7fc01234u);
  call("edges.float_outs", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xfff8024680000000u); /* the sign flipped only */
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("kitchen values");
  nccc_check_tcase(s, "values", setup, NULL,
      NCCC_CHECK_TESTS(test_echo_signed_integers, test_echo_unsigned_integers,
                       test_echo_target_dependent_integers,
                       test_narrow_types_take_the_low_bits_of_a_slot,
                       test_echo_bool, test_echo_float, test_echo_double,
                       test_echo_enum, test_add_mix_nothing,
                       test_structs_by_value,
                       test_records_that_leave_part_of_a_slot,
                       test_out_and_inout,
                       test_out_order_with_records_and_errno, test_float_outs));
  return s;
}
