/*
** test_ffi_values.c — values through the forwarder: libm functions found
** with dlsym and local functions of every scalar code at edge values, each
** compared bit for bit with a direct C call whose results are converted
** with nccc/slot.h; errno after the call.
*/
#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "forwarder_fixture.h"
#include "nccc_check.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5au
#define TARGET(f) ((nccc_ffi_target)(f))

static uint64_t dbits(double d) { return nccc_slot_from_double(d); }
static double dval(uint64_t bits) { return nccc_slot_to_double(bits); }
static float fval(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* A symbol of the running program and the libraries it loaded. */
static nccc_ffi_target sym(const char *name) {
  void *h = dlopen(NULL, RTLD_NOW);
  void *p;
  nccc_ffi_target t;
  ck_assert_ptr_nonnull(h);
  p = dlsym(h, name);
  ck_assert_msg(p != NULL, "dlsym %s", name);
  ck_assert_uint_eq(sizeof p, sizeof t);
  memcpy(&t, &p, sizeof t);
  dlclose(h);
  return t;
}

/* ---- libm, found with dlsym ------------------------------------------------ */

/* The direct calls go through volatile pointers so that the compiler
** cannot fold them into constants of its own. */
static double (*volatile direct_cbrt)(double) = cbrt;
static double (*volatile direct_ldexp)(double, int) = ldexp;
static float (*volatile direct_hypotf)(float, float) = hypotf;
static float (*volatile direct_nextafterf)(float, float) = nextafterf;

static const double dvals[] = {27.0, -8.0, 2.0, 1e-310, -0.0, 0.0,
                               DBL_MAX, DBL_MIN, 4.9e-324, 1e300};

START_TEST(test_cbrt) {
  nccc_fn fn = fwd_make(sym("cbrt"), "d:d");
  size_t i;
  for (i = 0; i < sizeof dvals / sizeof dvals[0]; i++) {
    uint64_t in[1] = {dbits(dvals[i])}, out[2] = {SENTINEL, SENTINEL};
    fn(in, out);
    ck_assert_uint_eq(out[0], dbits(direct_cbrt(dvals[i])));
    ck_assert_uint_eq(out[1], SENTINEL);
  }
  {
    /* glibc's cbrt is not correctly rounded: within an ulp of 3 */
    uint64_t in[1] = {dbits(27.0)}, out[1];
    fn(in, out);
    ck_assert_double_eq_tol(dval(out[0]), 3.0, 1e-15);
  }
  {
    /* NaN with a payload, and infinity */
    uint64_t in[1] = {0x7ff8000000000123u}, out[1];
    fn(in, out);
    ck_assert_uint_eq(out[0], dbits(direct_cbrt(dval(in[0]))));
    in[0] = dbits(-INFINITY);
    fn(in, out);
    ck_assert_uint_eq(out[0], dbits(-INFINITY));
  }
  fwd_drop(fn);
}
END_TEST

START_TEST(test_ldexp) {
  static const struct { double x; int e; } cases[] = {
      {1.5, 1023}, {1.0, -1074}, {1.0, -1075}, {-3.0, 10},
      {1.0, INT_MAX}, {1.0, INT_MIN}, {-0.0, 5}, {0.75, 0}};
  nccc_fn fn = fwd_make(sym("ldexp"), "di:d");
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint64_t in[2] = {dbits(cases[i].x), nccc_slot_from_i32(cases[i].e)};
    uint64_t out[1] = {SENTINEL};
    fn(in, out);
    ck_assert_uint_eq(out[0], dbits(direct_ldexp(cases[i].x, cases[i].e)));
  }
  {
    /* an int argument takes the low 32 bits of its slot */
    uint64_t in[2] = {dbits(1.0), 0xdeadbeef00000003u}, out[1];
    fn(in, out);
    ck_assert_uint_eq(out[0], dbits(8.0));
  }
  fwd_drop(fn);
}
END_TEST

START_TEST(test_ldexp_errno) {
  nccc_fn fn = fwd_make(sym("ldexp"), "di:de");
  uint64_t in[2] = {dbits(1.0), nccc_slot_from_i32(INT_MAX)};
  uint64_t out[3] = {SENTINEL, SENTINEL, SENTINEL};
  double expect;
  int expect_errno;
  errno = 0;
  expect = direct_ldexp(1.0, INT_MAX);
  expect_errno = errno;
  errno = EDOM; /* the forwarder clears it before the call */
  fn(in, out);
  ck_assert_uint_eq(out[0], dbits(expect));
  ck_assert_uint_eq(out[0], dbits(INFINITY));
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(expect_errno));
  ck_assert_uint_eq(out[2], SENTINEL);
  in[1] = nccc_slot_from_i32(3);
  errno = EDOM;
  fn(in, out);
  ck_assert_uint_eq(out[0], dbits(8.0));
  ck_assert_uint_eq(out[1], 0);
  fwd_drop(fn);
}
END_TEST

static const uint32_t fbits[] = {
    0x3f800000u, /* 1 */
    0x40400000u, /* 3 */
    0x40800000u, /* 4 */
    0x7f7fffffu, /* FLT_MAX */
    0xff7fffffu, /* -FLT_MAX */
    0x80000000u, /* -0 */
    0x00000001u, /* smallest subnormal */
    0x00800000u, /* FLT_MIN */
    0x7f800000u, /* inf */
    0x7fc01234u, /* NaN with payload */
    0x3eaaaaabu, /* 1/3 */
};
#define N_FBITS (sizeof fbits / sizeof fbits[0])

START_TEST(test_hypotf) {
  nccc_fn fn = fwd_make(sym("hypotf"), "ff:f");
  size_t i, j;
  for (i = 0; i < N_FBITS; i++) {
    for (j = 0; j < N_FBITS; j++) {
      float x = fval(fbits[i]), y = fval(fbits[j]);
      uint64_t in[2] = {nccc_slot_from_float(x), nccc_slot_from_float(y)};
      uint64_t out[1] = {SENTINEL};
      fn(in, out);
      ck_assert_uint_eq(out[0], nccc_slot_from_float(direct_hypotf(x, y)));
    }
  }
  {
    uint64_t in[2] = {nccc_slot_from_float(3.0f), nccc_slot_from_float(4.0f)};
    uint64_t out[1];
    fn(in, out);
    ck_assert_uint_eq(out[0], dbits(5.0)); /* widened: the double pattern */
  }
  fwd_drop(fn);
}
END_TEST

START_TEST(test_nextafterf) {
  nccc_fn fn = fwd_make(sym("nextafterf"), "ff:f");
  size_t i, j;
  for (i = 0; i < N_FBITS; i++) {
    for (j = 0; j < N_FBITS; j++) {
      float x = fval(fbits[i]), y = fval(fbits[j]);
      uint64_t in[2] = {nccc_slot_from_float(x), nccc_slot_from_float(y)};
      uint64_t out[1] = {SENTINEL};
      fn(in, out);
      ck_assert_uint_eq(out[0],
                        nccc_slot_from_float(direct_nextafterf(x, y)));
    }
  }
  {
    /* FLT_MAX towards infinity overflows; 0 towards -1 gives -denormal */
    uint64_t in[2] = {nccc_slot_from_float(FLT_MAX),
                      nccc_slot_from_float(INFINITY)};
    uint64_t out[1];
    fn(in, out);
    ck_assert_uint_eq(out[0], dbits(INFINITY));
    in[0] = nccc_slot_from_float(0.0f);
    in[1] = nccc_slot_from_float(-1.0f);
    fn(in, out);
    ck_assert_uint_eq(out[0], nccc_slot_from_float(-fval(1)));
  }
  fwd_drop(fn);
}
END_TEST

/* ---- every scalar code ---------------------------------------------------------- */

static bool id_q(bool x) { return x; }
static bool not_q(bool x) { return !x; }
static int8_t id_b(int8_t x) { return x; }
static uint8_t id_B(uint8_t x) { return x; }
static int16_t id_h(int16_t x) { return x; }
static uint16_t id_H(uint16_t x) { return x; }
static int32_t id_i(int32_t x) { return x; }
static uint32_t id_I(uint32_t x) { return x; }
static int64_t id_l(int64_t x) { return x; }
static uint64_t id_L(uint64_t x) { return x; }
static float id_f(float x) { return x; }
static double id_d(double x) { return x; }
static void *id_p(void *x) { return x; }
static const char *id_s(const char *x) { return x; }
typedef int (*int_fn)(int);
static int twice(int x) { return 2 * x; }
static int_fn id_F(int_fn x) { return x; }

/* Calls the forwarder of "c:c" on one slot; returns out[0] and checks
** that nothing past it was written. */
static uint64_t via(nccc_fn fn, uint64_t slot) {
  uint64_t in[1] = {slot}, out[2] = {SENTINEL, SENTINEL};
  fn(in, out);
  ck_assert_uint_eq(out[1], SENTINEL);
  return out[0];
}

START_TEST(test_integers) {
  static const uint64_t slots[] = {
      0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff,
      0x80000000u, 0xffffffffu, 0xffffffffffffff80u, 0xffffffffffffffffu,
      0x8000000000000000u, 0x7fffffffffffffffu, 0x123456789abcdef0u};
  nccc_fn fb = fwd_make(TARGET(id_b), "b:b"),
          fB = fwd_make(TARGET(id_B), "B:B");
  nccc_fn fh = fwd_make(TARGET(id_h), "h:h"),
          fH = fwd_make(TARGET(id_H), "H:H");
  nccc_fn fi = fwd_make(TARGET(id_i), "i:i"),
          fI = fwd_make(TARGET(id_I), "I:I");
  nccc_fn fl = fwd_make(TARGET(id_l), "l:l"),
          fL = fwd_make(TARGET(id_L), "L:L");
  size_t k;
  for (k = 0; k < sizeof slots / sizeof slots[0]; k++) {
    uint64_t s = slots[k];
    /* arguments take the slot's low bits; results are extended */
    ck_assert_uint_eq(via(fb, s), nccc_slot_from_i8(id_b(nccc_slot_to_i8(s))));
    ck_assert_uint_eq(via(fB, s), nccc_slot_from_u8(id_B(nccc_slot_to_u8(s))));
    ck_assert_uint_eq(via(fh, s), nccc_slot_from_i16(id_h(nccc_slot_to_i16(s))));
    ck_assert_uint_eq(via(fH, s), nccc_slot_from_u16(id_H(nccc_slot_to_u16(s))));
    ck_assert_uint_eq(via(fi, s), nccc_slot_from_i32(id_i(nccc_slot_to_i32(s))));
    ck_assert_uint_eq(via(fI, s), nccc_slot_from_u32(id_I(nccc_slot_to_u32(s))));
    ck_assert_uint_eq(via(fl, s), nccc_slot_from_i64(id_l(nccc_slot_to_i64(s))));
    ck_assert_uint_eq(via(fL, s), id_L(s));
  }
  /* the edges spelled out */
  ck_assert_uint_eq(via(fb, 0xff), 0xffffffffffffffffu); /* int8 -1 */
  ck_assert_uint_eq(via(fb, 0x80), 0xffffffffffffff80u); /* INT8_MIN */
  ck_assert_uint_eq(via(fB, 0xffffffffffffffffu), 0xff);
  ck_assert_uint_eq(via(fh, 0x8000), 0xffffffffffff8000u);
  ck_assert_uint_eq(via(fH, 0xffffffffffffffffu), 0xffff);
  ck_assert_uint_eq(via(fi, 0x80000000u), 0xffffffff80000000u);
  ck_assert_uint_eq(via(fI, 0xffffffffffffffffu), 0xffffffffu);
  ck_assert_uint_eq(via(fl, nccc_slot_from_i64(INT64_MIN)),
                    0x8000000000000000u);
  ck_assert_uint_eq(via(fL, UINT64_MAX), UINT64_MAX);
  fwd_drop(fb), fwd_drop(fB), fwd_drop(fh), fwd_drop(fH);
  fwd_drop(fi), fwd_drop(fI), fwd_drop(fl), fwd_drop(fL);
}
END_TEST

START_TEST(test_bool) {
  nccc_fn id = fwd_make(TARGET(id_q), "?:?"),
          neg = fwd_make(TARGET(not_q), "?:?");
  ck_assert_uint_eq(via(id, 0), 0);
  ck_assert_uint_eq(via(id, 1), 1);
  ck_assert_uint_eq(via(id, 2), 1); /* any non-zero slot is true */
  ck_assert_uint_eq(via(id, 0x8000000000000000u), 1);
  ck_assert_uint_eq(via(neg, 0), 1);
  ck_assert_uint_eq(via(neg, 0x100), 0);
  fwd_drop(id), fwd_drop(neg);
}
END_TEST

START_TEST(test_floats) {
  static const uint64_t dslots[] = {
      0x0000000000000000u, 0x8000000000000000u, /* +-0 */
      0x7ff0000000000000u, 0xfff0000000000000u, /* +-inf */
      0x7ff8000000000000u, 0x7ff8000000000123u, /* quiet NaNs */
      0xfff4000000000001u, 0x7ff0000000000001u, /* signalling NaNs */
      0x0000000000000001u, 0x7fefffffffffffffu, /* denormal min, DBL_MAX */
      0x3fd5555555555555u};
  nccc_fn fd = fwd_make(TARGET(id_d), "d:d"),
          ff = fwd_make(TARGET(id_f), "f:f");
  size_t k;
  for (k = 0; k < sizeof dslots / sizeof dslots[0]; k++) {
    ck_assert_uint_eq(via(fd, dslots[k]), dslots[k]);
    ck_assert_uint_eq(via(fd, dslots[k]), dbits(id_d(dval(dslots[k]))));
  }
  for (k = 0; k < N_FBITS; k++) {
    uint64_t s = nccc_slot_from_float(fval(fbits[k]));
    ck_assert_uint_eq(via(ff, s), s);
    ck_assert_uint_eq(via(ff, s), nccc_slot_from_float(id_f(fval(fbits[k]))));
  }
  ck_assert_uint_eq(via(ff, nccc_slot_from_float(FLT_MAX)),
                    dbits((double)FLT_MAX));
  ck_assert_uint_eq(via(ff, nccc_slot_from_float(-0.0f)), 0x8000000000000000u);
  /* a float NaN payload survives the round trip */
  ck_assert_uint_eq(via(ff, nccc_slot_from_float(fval(0x7fc01234u))),
                    nccc_slot_from_float(fval(0x7fc01234u)));
  fwd_drop(fd), fwd_drop(ff);
}
END_TEST

START_TEST(test_pointers) {
  static char text[] = "forwarded";
  nccc_fn fp = fwd_make(TARGET(id_p), "p:p"),
          fs = fwd_make(TARGET(id_s), "s:s");
  nccc_fn fF = fwd_make(TARGET(id_F), "F:F");
  nccc_fn len = fwd_make(sym("strlen"), "s:" NCCC_SIG_SIZE);
  ck_assert_uint_eq(via(fp, nccc_slot_from_ptr(text)), nccc_slot_from_ptr(text));
  ck_assert_uint_eq(via(fp, 0), 0);
  ck_assert_uint_eq(via(fs, nccc_slot_from_ptr(text)), nccc_slot_from_ptr(text));
  ck_assert_uint_eq(via(fF, (uint64_t)(uintptr_t)twice),
                    (uint64_t)(uintptr_t)twice);
  ck_assert_uint_eq(via(len, nccc_slot_from_ptr(text)), 9);
  fwd_drop(fp), fwd_drop(fs), fwd_drop(fF), fwd_drop(len);
}
END_TEST

static int apply(int_fn f, int x) { return f(x); }

START_TEST(test_function_pointer_argument) {
  nccc_fn fn = fwd_make(TARGET(apply), "Fi:i");
  uint64_t in[2] = {(uint64_t)(uintptr_t)twice, nccc_slot_from_i32(-21)};
  uint64_t out[1] = {SENTINEL};
  fn(in, out);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(-42));
  fwd_drop(fn);
}
END_TEST

/* Sixteen arguments, doubles and floats between integers of every width,
** so that registers run out and the rest go on the stack. */
static double many(int8_t a0, double d0, uint16_t a1, float f1, int32_t a2,
                   double d2, uint64_t a3, float f3, int64_t a4, double d4,
                   bool a5, float f5, uint8_t a6, double d6, void *a7,
                   double d7) {
  return a0 + d0 * 2 + a1 * 3.0 + f1 * 5.0 + a2 * 7.0 + d2 * 11 +
         (double)(a3 % 1000) * 13 + f3 * 17.0 + (double)(a4 % 1000) * 19 +
         d4 * 23 + a5 * 29 + f5 * 31.0 + a6 * 37 + d6 * 41 +
         (double)((uintptr_t)a7 % 1000) * 43 + d7 * 47;
}

START_TEST(test_many_arguments) {
  static char where[1];
  double (*volatile direct)(int8_t, double, uint16_t, float, int32_t, double,
                            uint64_t, float, int64_t, double, bool, float,
                            uint8_t, double, void *, double) = many;
  nccc_fn fn = fwd_make(TARGET(many), "bdHfidLfld?fBdpd:d");
  uint64_t in[16], out[2] = {SENTINEL, SENTINEL};
  in[0] = nccc_slot_from_i8(-128);
  in[1] = dbits(0.5);
  in[2] = nccc_slot_from_u16(65535);
  in[3] = nccc_slot_from_float(-1.25f);
  in[4] = nccc_slot_from_i32(INT32_MIN);
  in[5] = dbits(-0.0);
  in[6] = UINT64_MAX;
  in[7] = nccc_slot_from_float(FLT_MAX);
  in[8] = nccc_slot_from_i64(INT64_MIN);
  in[9] = dbits(1e-300);
  in[10] = nccc_slot_from_bool(true);
  in[11] = nccc_slot_from_float(0.1f);
  in[12] = nccc_slot_from_u8(200);
  in[13] = dbits(3.5);
  in[14] = nccc_slot_from_ptr(where);
  in[15] = dbits(-7.25);
  fn(in, out);
  ck_assert_uint_eq(out[0],
                    dbits(direct(-128, 0.5, 65535, -1.25f, INT32_MIN, -0.0,
                                 UINT64_MAX, FLT_MAX, INT64_MIN, 1e-300, true,
                                 0.1f, 200, 3.5, where, -7.25)));
  ck_assert_uint_eq(out[1], SENTINEL);
  fwd_drop(fn);
}
END_TEST

/* ---- void results, no arguments, errno ---------------------------------------- */

static int64_t seen;
static void store(int64_t x) { seen = x; }
static int64_t answer(void) { return 42; }
static void set_errno(int e) { errno = e; }

START_TEST(test_void_and_empty) {
  nccc_fn fs = fwd_make(TARGET(store), "l:"),
          fa = fwd_make(TARGET(answer), ":l");
  nccc_fn fe = fwd_make(TARGET(set_errno), "i:e");
  uint64_t in[1] = {nccc_slot_from_i64(-5)}, out[2] = {SENTINEL, SENTINEL};
  fs(in, out);
  ck_assert_int_eq(seen, -5);
  ck_assert_uint_eq(out[0], SENTINEL); /* a void result writes nothing */
  fa(NULL, out);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_uint_eq(out[1], SENTINEL);
  in[0] = nccc_slot_from_i32(ERANGE);
  out[0] = SENTINEL;
  fe(in, out);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(ERANGE)); /* errno alone */
  ck_assert_uint_eq(out[1], SENTINEL);
  fwd_drop(fs), fwd_drop(fa), fwd_drop(fe);
}
END_TEST

START_TEST(test_strtol_errno) {
  nccc_fn fn = fwd_make(sym("strtol"), "spi:" NCCC_SIG_LONG "e");
  static const char big[] = "99999999999999999999999999";
  char *end = NULL;
  uint64_t in[3] = {nccc_slot_from_ptr(big), nccc_slot_from_ptr(&end),
                    nccc_slot_from_i32(10)};
  uint64_t out[3] = {SENTINEL, SENTINEL, SENTINEL};
  fn(in, out);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(LONG_MAX));
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(ERANGE));
  ck_assert_uint_eq(out[2], SENTINEL);
  ck_assert_ptr_eq(end, big + strlen(big));
  /* a successful call reports 0, whatever errno held before */
  in[0] = nccc_slot_from_ptr("-42");
  in[1] = 0;
  errno = ERANGE;
  fn(in, out);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(-42));
  ck_assert_uint_eq(out[1], 0);
  fwd_drop(fn);
}
END_TEST

START_TEST(test_errno_untouched_without_e) {
  nccc_fn fn = fwd_make(sym("cbrt"), "d:d");
  uint64_t in[1] = {dbits(8.0)}, out[1];
  errno = EDOM;
  fn(in, out);
  ck_assert_uint_eq(out[0], dbits(2.0));
  ck_assert_int_eq(errno, EDOM);
  fwd_drop(fn);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("ffi_values");
  nccc_check_tcase(s, "values", fwd_setup, fwd_teardown,
                   NCCC_CHECK_TESTS(test_cbrt, test_ldexp, test_ldexp_errno,
                                    test_hypotf, test_nextafterf, test_integers,
                                    test_bool, test_floats, test_pointers,
                                    test_function_pointer_argument,
                                    test_many_arguments, test_void_and_empty,
                                    test_strtol_errno,
                                    test_errno_untouched_without_e));
  return s;
}
