/*
** test_slot.c — the slot ABI: every conversion of nccc/slot.h at its edges.
*/
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nccc/slot.h"

#include "nccc_check.h"

/* ---- integers ----------------------------------------------------------- */

START_TEST(test_i64_edges) {
  ck_assert_uint_eq(nccc_slot_from_i64(INT64_MIN), 0x8000000000000000u);
  ck_assert_uint_eq(nccc_slot_from_i64(INT64_MAX), 0x7fffffffffffffffu);
  ck_assert_uint_eq(nccc_slot_from_i64(-1), UINT64_MAX);
  ck_assert_uint_eq(nccc_slot_from_i64(0), 0);
  ck_assert_int_eq(nccc_slot_to_i64(0x8000000000000000u), INT64_MIN);
  ck_assert_int_eq(nccc_slot_to_i64(0x7fffffffffffffffu), INT64_MAX);
  ck_assert_int_eq(nccc_slot_to_i64(UINT64_MAX), -1);
  ck_assert_int_eq(nccc_slot_to_i64(nccc_slot_from_i64(INT64_MIN + 1)),
                   INT64_MIN + 1);
}
END_TEST

START_TEST(test_u64_edges) {
  ck_assert_uint_eq(nccc_slot_from_u64(UINT64_MAX), UINT64_MAX);
  ck_assert_uint_eq(nccc_slot_to_u64(UINT64_MAX), UINT64_MAX);
  ck_assert_uint_eq(nccc_slot_to_u64(nccc_slot_from_u64(0)), 0);
  ck_assert_uint_eq(nccc_slot_to_u64(0x8000000000000000u), 0x8000000000000000u);
}
END_TEST

START_TEST(test_minus_one_narrow) {
  /* sign extension for signed types, zero extension for unsigned */
  ck_assert_uint_eq(nccc_slot_from_i8(-1), UINT64_MAX);
  ck_assert_uint_eq(nccc_slot_from_u8(255), 255);
  ck_assert_uint_eq(nccc_slot_from_u8((uint8_t)-1), 255);
  ck_assert_uint_eq(nccc_slot_from_i16(-1), UINT64_MAX);
  ck_assert_uint_eq(nccc_slot_from_u16((uint16_t)-1), 0xffffu);
  ck_assert_uint_eq(nccc_slot_from_i32(-1), UINT64_MAX);
  ck_assert_uint_eq(nccc_slot_from_u32((uint32_t)-1), 0xffffffffu);
  ck_assert_int_eq(nccc_slot_to_i8(UINT64_MAX), -1);
  ck_assert_uint_eq(nccc_slot_to_u8(UINT64_MAX), 255);
  ck_assert_int_eq(nccc_slot_to_i8(255), -1);
}
END_TEST

START_TEST(test_width_round_trips) {
  ck_assert_uint_eq(nccc_slot_from_i8(INT8_MIN), (uint64_t)0 - 128u);
  ck_assert_uint_eq(nccc_slot_from_i8(INT8_MAX), 127);
  ck_assert_int_eq(nccc_slot_to_i8(nccc_slot_from_i8(INT8_MIN)), INT8_MIN);
  ck_assert_int_eq(nccc_slot_to_i8(nccc_slot_from_i8(INT8_MAX)), INT8_MAX);
  ck_assert_uint_eq(nccc_slot_to_u8(nccc_slot_from_u8(0)), 0);
  ck_assert_uint_eq(nccc_slot_to_u8(nccc_slot_from_u8(UINT8_MAX)), UINT8_MAX);

  ck_assert_uint_eq(nccc_slot_from_i16(INT16_MIN), (uint64_t)0 - 32768u);
  ck_assert_uint_eq(nccc_slot_from_i16(INT16_MAX), 32767);
  ck_assert_int_eq(nccc_slot_to_i16(nccc_slot_from_i16(INT16_MIN)), INT16_MIN);
  ck_assert_int_eq(nccc_slot_to_i16(nccc_slot_from_i16(INT16_MAX)), INT16_MAX);
  ck_assert_uint_eq(nccc_slot_to_u16(nccc_slot_from_u16(UINT16_MAX)),
                    UINT16_MAX);
  ck_assert_uint_eq(nccc_slot_from_u16(UINT16_MAX), 0xffffu);

  ck_assert_uint_eq(nccc_slot_from_i32(INT32_MIN), 0xffffffff80000000u);
  ck_assert_uint_eq(nccc_slot_from_i32(INT32_MAX), 0x7fffffffu);
  ck_assert_int_eq(nccc_slot_to_i32(nccc_slot_from_i32(INT32_MIN)), INT32_MIN);
  ck_assert_int_eq(nccc_slot_to_i32(nccc_slot_from_i32(INT32_MAX)), INT32_MAX);
  ck_assert_uint_eq(nccc_slot_to_u32(nccc_slot_from_u32(UINT32_MAX)),
                    UINT32_MAX);
  ck_assert_uint_eq(nccc_slot_from_u32(UINT32_MAX), 0xffffffffu);

  /* every 8- and 16-bit value, both signednesses */
  for (int v = INT16_MIN; v <= INT16_MAX; v++) {
    ck_assert_int_eq(nccc_slot_to_i16(nccc_slot_from_i16((int16_t)v)), v);
    ck_assert_uint_eq(nccc_slot_from_i16((int16_t)v), (uint64_t)(int64_t)v);
  }
  for (unsigned v = 0; v <= UINT16_MAX; v++)
    ck_assert_uint_eq(nccc_slot_to_u16(nccc_slot_from_u16((uint16_t)v)), v);
  for (int v = INT8_MIN; v <= INT8_MAX; v++)
    ck_assert_int_eq(nccc_slot_to_i8(nccc_slot_from_i8((int8_t)v)), v);
}
END_TEST

START_TEST(test_narrowing_takes_low_bits) {
  ck_assert_uint_eq(nccc_slot_to_u8(0x1234u), 0x34u);
  ck_assert_uint_eq(nccc_slot_to_u16(0xabcd12345678u), 0x5678u);
  ck_assert_uint_eq(nccc_slot_to_u32(0xabcd000012345678u), 0x12345678u);
  ck_assert_int_eq(nccc_slot_to_i32(0x0000000080000000u), INT32_MIN);
  ck_assert_int_eq(nccc_slot_to_i16(0x8000u), INT16_MIN);
}
END_TEST

START_TEST(test_bool) {
  ck_assert_uint_eq(nccc_slot_from_bool(false), 0);
  ck_assert_uint_eq(nccc_slot_from_bool(true), 1);
  ck_assert(!nccc_slot_to_bool(0));
  ck_assert(nccc_slot_to_bool(1));
  ck_assert(nccc_slot_to_bool(2));
  ck_assert(nccc_slot_to_bool(0x8000000000000000u));
}
END_TEST

START_TEST(test_fits) {
  ck_assert(nccc_slot_fits_i32(nccc_slot_from_i32(INT32_MIN)));
  ck_assert(nccc_slot_fits_i32(nccc_slot_from_i32(INT32_MAX)));
  ck_assert(nccc_slot_fits_i32(UINT64_MAX));
  ck_assert(!nccc_slot_fits_i32(0x80000000u)); /* zero-extended, not signed */
  ck_assert(!nccc_slot_fits_i32(0x100000000u));
  ck_assert(!nccc_slot_fits_i32(0xffffffff7fffffffu));

  ck_assert(nccc_slot_fits_u32(UINT32_MAX));
  ck_assert(nccc_slot_fits_u32(0));
  ck_assert(!nccc_slot_fits_u32(0x100000000u));
  ck_assert(!nccc_slot_fits_u32(UINT64_MAX));

  ck_assert(nccc_slot_fits_i16(nccc_slot_from_i16(INT16_MIN)));
  ck_assert(nccc_slot_fits_i16(32767));
  ck_assert(!nccc_slot_fits_i16(32768));
  ck_assert(!nccc_slot_fits_i16(0xffff));
  ck_assert(!nccc_slot_fits_i16((uint64_t)0 - 32769u));

  ck_assert(nccc_slot_fits_u16(UINT16_MAX));
  ck_assert(!nccc_slot_fits_u16(0x10000u));
  ck_assert(!nccc_slot_fits_u16(UINT64_MAX));

  ck_assert(nccc_slot_fits_i8(UINT64_MAX));
  ck_assert(nccc_slot_fits_i8(nccc_slot_from_i8(INT8_MIN)));
  ck_assert(nccc_slot_fits_i8(127));
  ck_assert(!nccc_slot_fits_i8(128));
  ck_assert(!nccc_slot_fits_i8(255));
  ck_assert(!nccc_slot_fits_i8((uint64_t)0 - 129u));

  ck_assert(nccc_slot_fits_u8(255));
  ck_assert(!nccc_slot_fits_u8(256));
  ck_assert(!nccc_slot_fits_u8(UINT64_MAX));

  ck_assert(nccc_slot_fits_bool(0));
  ck_assert(nccc_slot_fits_bool(1));
  ck_assert(!nccc_slot_fits_bool(2));
  ck_assert(!nccc_slot_fits_bool(UINT64_MAX));
}
END_TEST

/* ---- pointers ----------------------------------------------------------- */

START_TEST(test_pointers) {
  int local = 7;
  ck_assert_uint_eq(nccc_slot_from_ptr(NULL), 0);
  ck_assert_ptr_null(nccc_slot_to_ptr(0));
  ck_assert_ptr_eq(nccc_slot_to_ptr(nccc_slot_from_ptr(&local)), &local);
  ck_assert_uint_eq(nccc_slot_from_ptr(&local), (uint64_t)(uintptr_t)&local);
  void *top = (void *)UINTPTR_MAX;
  ck_assert_uint_eq(nccc_slot_from_ptr(top), (uint64_t)UINTPTR_MAX);
  ck_assert_ptr_eq(nccc_slot_to_ptr(nccc_slot_from_ptr(top)), top);
  ck_assert(nccc_slot_fits_ptr(0));
  ck_assert(nccc_slot_fits_ptr(nccc_slot_from_ptr(&local)));
  ck_assert(nccc_slot_fits_ptr(nccc_slot_from_ptr(top)));
#if UINTPTR_MAX < UINT64_MAX
  ck_assert(!nccc_slot_fits_ptr((uint64_t)UINTPTR_MAX + 1u));
  ck_assert(!nccc_slot_fits_ptr(UINT64_MAX));
#else
  ck_assert(nccc_slot_fits_ptr(UINT64_MAX));
#endif
}
END_TEST

/* ---- doubles ------------------------------------------------------------ */

START_TEST(test_double_bits) {
  ck_assert_uint_eq(nccc_slot_from_double(0.0), 0);
  ck_assert_uint_eq(nccc_slot_from_double(-0.0), 0x8000000000000000u);
  ck_assert_uint_eq(nccc_slot_from_double(1.0), 0x3ff0000000000000u);
  ck_assert_uint_eq(nccc_slot_from_double(-2.5), 0xc004000000000000u);
  ck_assert_uint_eq(nccc_slot_from_double(INFINITY), 0x7ff0000000000000u);
  ck_assert_uint_eq(nccc_slot_from_double(-INFINITY), 0xfff0000000000000u);
  ck_assert_uint_eq(nccc_slot_from_double(DBL_MAX), 0x7fefffffffffffffu);
  ck_assert_uint_eq(nccc_slot_from_double(DBL_MIN), 0x0010000000000000u);
  ck_assert_uint_eq(nccc_slot_from_double(DBL_TRUE_MIN), 1u);

  double nz = nccc_slot_to_double(0x8000000000000000u);
  ck_assert(nz == 0.0 && signbit(nz));
  ck_assert_double_eq(nccc_slot_to_double(0x3ff8000000000000u), 1.5);
}
END_TEST

START_TEST(test_double_nan_payloads) {
  static const uint64_t pats[] = {
      0x7ff8000000000000u, /* the default quiet NaN */
      0x7ff8000000000001u, 0x7ff8dead0000beefu, 0x7fffffffffffffffu,
      0x7ff0000000000001u, /* signalling, smallest payload */
      0x7ff4000000001234u, /* signalling with payload */
      0xfff8000000000000u, /* negative quiet */
      0xfff0000000000abcu, /* negative signalling */
      0xffffffffffffffffu,
  };
  for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
    double d = nccc_slot_to_double(pats[i]);
    ck_assert(isnan(d));
    ck_assert_uint_eq(nccc_check_double_bits(d), pats[i]);
    ck_assert_uint_eq(nccc_slot_from_double(d), pats[i]);
    ck_assert_uint_eq(nccc_slot_from_double(nccc_check_double_of_bits(pats[i])),
                      pats[i]);
  }
}
END_TEST

/* ---- floats ------------------------------------------------------------- */

/* For every non-NaN float the slot is the double pattern of the widened
** value, and converts back to the same float bits. */
static void check_float(float f) {
  ck_assert_uint_eq(nccc_slot_from_float(f), nccc_check_double_bits((double)f));
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(nccc_slot_from_float(f))),
      nccc_check_float_bits(f));
}

START_TEST(test_float_values) {
  check_float(0.0f);
  check_float(-0.0f);
  check_float(1.0f);
  check_float(-1.0f);
  check_float(0.1f);
  check_float(3.14159265f);
  check_float(FLT_MAX);
  check_float(-FLT_MAX);
  check_float(FLT_MIN);
  check_float(-FLT_MIN);
  check_float(nccc_check_float_of_bits(0x00000001u)); /* smallest denormal */
  check_float(nccc_check_float_of_bits(0x007fffffu)); /* largest denormal */
  check_float(nccc_check_float_of_bits(0x80000001u)); /* negative denormal */
  check_float(INFINITY);
  check_float(-INFINITY);
  check_float(16777217.0f);
  ck_assert_uint_eq(nccc_slot_from_float(1.0f), 0x3ff0000000000000u);
  ck_assert_uint_eq(nccc_slot_from_float(-0.0f), 0x8000000000000000u);
  ck_assert_uint_eq(nccc_slot_from_float(INFINITY), 0x7ff0000000000000u);
  ck_assert_uint_eq(nccc_slot_from_float(FLT_MAX), 0x47efffffe0000000u);
  ck_assert_uint_eq(nccc_slot_from_float(FLT_MIN), 0x3810000000000000u);
  /* the smallest float denormal 2^-149 is a normal double */
  ck_assert_uint_eq(nccc_slot_from_float(nccc_check_float_of_bits(1u)),
                    0x36a0000000000000u);
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(0x8000000000000000u)),
      0x80000000u);

  /* a pseudo-random sweep of bit patterns, NaNs skipped here */
  uint32_t x = 0x12345678u;
  for (int i = 0; i < 100000; i++) {
    x = x * 1664525u + 1013904223u;
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu)) continue;
    check_float(nccc_check_float_of_bits(x));
  }
}
END_TEST

/* The slot of a float NaN: sign, all-ones exponent, the 23 fraction bits
** at the top of the double's fraction. */
static uint64_t nan_slot(uint32_t f) {
  return ((uint64_t)(f & 0x80000000u) << 32) | 0x7ff0000000000000u |
         ((uint64_t)(f & 0x007fffffu) << 29);
}

START_TEST(test_float_nan_payloads) {
  static const uint32_t pats[] = {
      0x7fc00000u,                           /* default quiet */
      0x7fc00001u, 0x7fc12345u, 0x7fffffffu, /* quiet with payloads */
      0x7f800001u, 0x7f812345u, 0x7fbfffffu, /* signalling with payloads */
      0xffc00000u, 0xffc0abcdu,              /* negative quiet */
      0xff800001u, 0xffa00000u,              /* negative signalling */
  };
  for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
    float f = nccc_check_float_of_bits(pats[i]);
    uint64_t s = nccc_slot_from_float(f);
    ck_assert_uint_eq(s, nan_slot(pats[i]));
    ck_assert(isnan(nccc_slot_to_double(s)));
    ck_assert_uint_eq(nccc_check_float_bits(nccc_slot_to_float(s)), pats[i]);
  }
  /* the quiet bit of a quiet float NaN is the quiet bit of the double */
  ck_assert_uint_eq(nccc_slot_from_float(nccc_check_float_of_bits(0x7fc00000u)),
                    0x7ff8000000000000u);
  /* a signalling float stays signalling (no FPU conversion) */
  ck_assert_uint_eq(nccc_slot_from_float(nccc_check_float_of_bits(0x7f800001u)),
                    0x7ff0000020000000u);
}
END_TEST

START_TEST(test_double_nan_to_float) {
  /* payload in the top 23 fraction bits: kept */
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(0x7ff8000020000000u)),
      0x7fc00001u);
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(0xfff0000020000000u)),
      0xff800001u);
  /* payload only in the low bits: still a NaN (made quiet), never inf */
  float f = nccc_slot_to_float(0x7ff0000000000001u);
  ck_assert(isnan(f));
  ck_assert_uint_eq(nccc_check_float_bits(f), 0x7fc00000u);
  f = nccc_slot_to_float(0xfff0000000000001u);
  ck_assert_uint_eq(nccc_check_float_bits(f), 0xffc00000u);
  /* negative quiet double NaN */
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(0xfff8000000000000u)),
      0xffc00000u);
}
END_TEST

START_TEST(test_double_to_float_rounds) {
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(nccc_slot_from_double(0.1))),
      nccc_check_float_bits(0.1f));
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(nccc_slot_from_double(1e300))),
      nccc_check_float_bits(INFINITY));
  ck_assert_uint_eq(
      nccc_check_float_bits(nccc_slot_to_float(0xfff0000000000000u)),
      nccc_check_float_bits(-INFINITY));
}
END_TEST

/* ---- bytes -------------------------------------------------------------- */

START_TEST(test_slots_from_bytes) {
  unsigned char src[40];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(0xa0 + i);
  for (size_t n = 1; n <= 33; n++) {
    uint64_t slots[7];
    memset(slots, 0xee, sizeof slots);
    nccc_slots_from_bytes(slots, src, n);
    size_t ns = NCCC_SLOTS(n);
    ck_assert_uint_eq(ns, (n + 7) / 8);
    const unsigned char *b = (const unsigned char *)slots;
    ck_assert_int_eq(memcmp(b, src, n), 0);
    for (size_t i = n; i < ns * 8; i++) ck_assert_uint_eq(b[i], 0);
    for (size_t i = ns * 8; i < sizeof slots; i++)
      ck_assert_uint_eq(b[i], 0xee);

    unsigned char back[40];
    memset(back, 0x55, sizeof back);
    nccc_slots_to_bytes(back, slots, n);
    ck_assert_int_eq(memcmp(back, src, n), 0);
    for (size_t i = n; i < sizeof back; i++) ck_assert_uint_eq(back[i], 0x55);
  }
}
END_TEST

START_TEST(test_slots_struct) {
  struct s3 {
    uint8_t a, b, c;
  } v = {1, 2, 3};
  uint64_t slot = UINT64_MAX;
  nccc_slots_from_bytes(&slot, &v, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  ck_assert_uint_eq(slot, 0x030201u);
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  ck_assert_uint_eq(slot, 0x0102030000000000u);
#endif
  struct s3 w = {0, 0, 0};
  nccc_slots_to_bytes(&w, &slot, sizeof w);
  ck_assert_uint_eq(w.a, 1);
  ck_assert_uint_eq(w.b, 2);
  ck_assert_uint_eq(w.c, 3);
}
END_TEST

START_TEST(test_sig_codes) {
  ck_assert_str_eq(NCCC_SIG_CHAR, (char)-1 < 0 ? "b" : "B");
  ck_assert_str_eq(NCCC_SIG_LONG, sizeof(long) == 8 ? "l" : "i");
  ck_assert_str_eq(NCCC_SIG_ULONG, sizeof(long) == 8 ? "L" : "I");
  ck_assert_str_eq(NCCC_SIG_SIZE, sizeof(size_t) == 8 ? "L" : "I");
  ck_assert_str_eq(NCCC_SIG_SSIZE, sizeof(size_t) == 8 ? "l" : "i");
  ck_assert_str_eq(NCCC_SIG_UINTPTR, sizeof(uintptr_t) == 8 ? "L" : "I");
  ck_assert_str_eq(NCCC_SIG_INTPTR, sizeof(uintptr_t) == 8 ? "l" : "i");
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("slot");
  nccc_check_tcase(s, "slot", NULL, NULL,
                   NCCC_CHECK_TESTS(test_i64_edges, test_u64_edges,
                                    test_minus_one_narrow,
                                    test_width_round_trips,
                                    test_narrowing_takes_low_bits, test_bool,
                                    test_fits, test_pointers, test_double_bits,
                                    test_double_nan_payloads, test_float_values,
                                    test_float_nan_payloads,
                                    test_double_nan_to_float,
                                    test_double_to_float_rounds,
                                    test_slots_from_bytes, test_slots_struct,
                                    test_sig_codes));
  return s;
}
