/*
** libc_check.c — idl/libc.idl end to end: the generated wrappers of
** strtol, strtoull, frexp, modf, ldexp, hypotf, nextafterf, snprintf,
** getenv and strlen, called through the runtime with checked calls, every
** result compared bit for bit with a direct call of the same function and
** with known values at the edges (-0.0, inf, NaN, FLT_MAX, denormals,
** overflow).
*/
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "libc_nccc.h"
#include "nccc_check.h"

#define SZ NCCC_SIG_SIZE
#define SIG_STRTOL "si:" NCCC_SIG_LONG "pe"
#define SIG_SNPRINTF(code) "p" SZ "s" code ":i"

/* The references are called through volatile pointers, so the compiler
** cannot fold them at compile time with results of its own. */
static long (*volatile ref_strtol)(const char *, char **, int) = strtol;
static unsigned long long (*volatile ref_strtoull)(const char *, char **,
                                                   int) = strtoull;
static double (*volatile ref_frexp)(double, int *) = frexp;
static double (*volatile ref_modf)(double, double *) = modf;
static double (*volatile ref_ldexp)(double, int) = ldexp;
static float (*volatile ref_hypotf)(float, float) = hypotf;
static float (*volatile ref_nextafterf)(float, float) = nextafterf;

static void setup(void) {
  nccc_check_init(nccc_libc_register);
}

/* Calls name with exactly n_in / n_out slots. errno is set to a value no
** call here produces, to show that the errno shim clears it. */
static void call(const char *name, const char *sig, const uint64_t *in,
                 size_t n_in, uint64_t *out, size_t n_out) {
  nccc_handle h = nccc_check_find(name, sig, n_in, n_out);
  size_t i;
  for (i = 0; i < n_out; i++) out[i] = 0xA5A5A5A5A5A5A5A5u;
  errno = 123;
  nccc_check_call_checked(h, name, in, n_in, out, n_out);
}

/* ---- strtol / strtoull ------------------------------------------------- */

/* strtol(s, &end, base) through the registry and directly: value, end
** pointer and errno agree slot for slot; returns the value slot. */
static uint64_t check_strtol(const char *s, int base, ptrdiff_t want_end,
                             int want_errno) {
  uint64_t in[2], out[3];
  char *end = NULL;
  long v;
  int e;
  in[0] = nccc_slot_from_ptr(s);
  in[1] = nccc_slot_from_i32(base);
  call("libc.strtol", SIG_STRTOL, in, 2, out, 3);
  errno = 0;
  v = ref_strtol(s, &end, base);
  e = errno;
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(v));
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(end));
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(s + want_end));
  ck_assert_uint_eq(out[2], nccc_slot_from_i32(e));
  ck_assert_uint_eq(out[2], nccc_slot_from_i32(want_errno));
  return out[0];
}

static uint64_t check_strtoull(const char *s, int base, ptrdiff_t want_end,
                               int want_errno) {
  uint64_t in[2], out[3];
  char *end = NULL;
  unsigned long long v;
  int e;
  in[0] = nccc_slot_from_ptr(s);
  in[1] = nccc_slot_from_i32(base);
  call("libc.strtoull", "si:Lpe", in, 2, out, 3);
  errno = 0;
  v = ref_strtoull(s, &end, base);
  e = errno;
  ck_assert_uint_eq(out[0], v);
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(end));
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(s + want_end));
  ck_assert_uint_eq(out[2], nccc_slot_from_i32(e));
  ck_assert_uint_eq(out[2], nccc_slot_from_i32(want_errno));
  return out[0];
}

START_TEST(test_strtol) {
  /* value, end pointer, errno 0 (cleared from 123) */
  ck_assert_uint_eq(check_strtol("  -1234xyz", 10, 7, 0),
                    nccc_slot_from_i64(-1234));
  ck_assert_uint_eq(check_strtol("-1234", 10, 5, 0), (uint64_t)-1234);
  ck_assert_uint_eq(check_strtol("+77", 10, 3, 0), 77);
  /* no digits: 0, end at the start */
  ck_assert_uint_eq(check_strtol("xyz", 10, 0, 0), 0);
  ck_assert_uint_eq(check_strtol("", 10, 0, 0), 0);
  /* base 0 reads the prefix; base 16 accepts 0x */
  ck_assert_uint_eq(check_strtol("0x1F", 0, 4, 0), 31);
  ck_assert_uint_eq(check_strtol("017", 0, 3, 0), 15);
  ck_assert_uint_eq(check_strtol("0", 0, 1, 0), 0);
  ck_assert_uint_eq(check_strtol("ff", 16, 2, 0), 255);
  ck_assert_uint_eq(check_strtol("0xFFg", 16, 4, 0), 255);
  ck_assert_uint_eq(check_strtol("-0x10", 16, 5, 0), (uint64_t)-16);
  ck_assert_uint_eq(check_strtol("zz", 36, 2, 0), 35 * 36 + 35);
  /* the extremes, and overflow: the extreme, ERANGE, end after the digits */
  ck_assert_uint_eq(check_strtol("9223372036854775807", 10, 19, 0),
                    nccc_slot_from_i64(LONG_MAX));
  ck_assert_uint_eq(check_strtol("-9223372036854775808", 10, 20, 0),
                    nccc_slot_from_i64(LONG_MIN));
  ck_assert_uint_eq(check_strtol("99999999999999999999 ", 10, 20, ERANGE),
                    nccc_slot_from_i64(LONG_MAX));
  ck_assert_uint_eq(check_strtol("-99999999999999999999", 10, 21, ERANGE),
                    nccc_slot_from_i64(LONG_MIN));
  ck_assert_uint_eq(check_strtol("0x8000000000000000", 0, 18, ERANGE),
                    nccc_slot_from_i64(LONG_MAX));
}
END_TEST

START_TEST(test_strtol_bad_base) {
  uint64_t in[2], out[3];
  char *end;
  int e;
  /* A base C does not define: 0, and the errno the C library reports
  ** (EINVAL on glibc and musl). The end pointer is not specified. */
  in[0] = nccc_slot_from_ptr("12");
  in[1] = nccc_slot_from_i32(1);
  call("libc.strtol", SIG_STRTOL, in, 2, out, 3);
  errno = 0;
  ck_assert_int_eq(ref_strtol("12", &end, 1), 0);
  e = errno;
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[2], nccc_slot_from_i32(e));
#ifdef __GLIBC__
  ck_assert_uint_eq(out[2], nccc_slot_from_i32(EINVAL));
#endif
  in[1] = nccc_slot_from_i32(37);
  call("libc.strtoull", "si:Lpe", in, 2, out, 3);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[2], nccc_slot_from_i32(e));
}
END_TEST

START_TEST(test_strtoull) {
  ck_assert_uint_eq(check_strtoull("18446744073709551615", 10, 20, 0),
                    UINT64_MAX);
  ck_assert_uint_eq(check_strtoull("18446744073709551616", 10, 20, ERANGE),
                    UINT64_MAX);
  /* "-1" is negated in the unsigned type, as C says: ULLONG_MAX */
  ck_assert_uint_eq(check_strtoull("-1", 10, 2, 0), UINT64_MAX);
  ck_assert_uint_eq(check_strtoull("-18446744073709551615", 10, 21, 0), 1);
  ck_assert_uint_eq(check_strtoull("deadBEEFcafe!", 16, 12, 0),
                    0xdeadbeefcafeu);
  ck_assert_uint_eq(check_strtoull("0XfFfFfFfFfFfFfFfF", 0, 18, 0),
                    UINT64_MAX);
  ck_assert_uint_eq(check_strtoull("0x1ffffffffffffffff", 0, 19, ERANGE),
                    UINT64_MAX);
  ck_assert_uint_eq(check_strtoull("0777", 0, 4, 0), 511);
  ck_assert_uint_eq(check_strtoull("12", 2, 1, 0), 1);
  ck_assert_uint_eq(check_strtoull(" \t\n", 10, 0, 0), 0);
}
END_TEST

/* ---- frexp, modf, ldexp ---------------------------------------------------- */

static void check_frexp(double x, uint64_t want, int want_exp) {
  uint64_t in[1] = {nccc_slot_from_double(x)}, out[2];
  int e = 99;
  double m = ref_frexp(x, &e);
  call("libc.frexp", "d:di", in, 1, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_double(m));
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(e));
  ck_assert_uint_eq(out[0], want);
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(want_exp));
}

START_TEST(test_frexp) {
  check_frexp(8.0, nccc_slot_from_double(0.5), 4);
  check_frexp(-3.0, nccc_slot_from_double(-0.75), 2);
  check_frexp(0.0, 0, 0);
  check_frexp(-0.0, 0x8000000000000000u, 0);
  check_frexp(DBL_MAX, 0x3fefffffffffffffu, 1024);
  check_frexp(DBL_MIN, nccc_slot_from_double(0.5), -1021);
  /* the smallest denormal, 2^-1074, and the largest */
  check_frexp(nccc_check_double_of_bits(1), nccc_slot_from_double(0.5), -1073);
  check_frexp(nccc_check_double_of_bits(0x000fffffffffffffu),
              0x3feffffffffffffeu, -1022);
  /* inf and NaN come back unchanged; glibc stores exponent 0 */
  check_frexp(INFINITY, 0x7ff0000000000000u, 0);
  check_frexp(-INFINITY, 0xfff0000000000000u, 0);
  check_frexp(nccc_check_double_of_bits(0x7ff8000000000123u),
              0x7ff8000000000123u, 0);
}
END_TEST

static void check_modf(double x, uint64_t want_frac, uint64_t want_int) {
  uint64_t in[1] = {nccc_slot_from_double(x)}, out[2];
  double ip = 99, f = ref_modf(x, &ip);
  call("libc.modf", "d:dd", in, 1, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_double(f));
  ck_assert_uint_eq(out[1], nccc_slot_from_double(ip));
  ck_assert_uint_eq(out[0], want_frac);
  ck_assert_uint_eq(out[1], want_int);
}

START_TEST(test_modf) {
  check_modf(3.75, nccc_slot_from_double(0.75), nccc_slot_from_double(3.0));
  check_modf(-2.5, nccc_slot_from_double(-0.5), nccc_slot_from_double(-2.0));
  check_modf(-0.0, 0x8000000000000000u, 0x8000000000000000u);
  check_modf(-7.0, 0x8000000000000000u, nccc_slot_from_double(-7.0));
  check_modf(INFINITY, 0, 0x7ff0000000000000u);
  check_modf(-INFINITY, 0x8000000000000000u, 0xfff0000000000000u);
  check_modf(1e300, 0, nccc_slot_from_double(1e300));
  check_modf(nccc_check_double_of_bits(1), 1, 0);
  check_modf(-nccc_check_double_of_bits(1), 0x8000000000000001u,
             0x8000000000000000u);
  check_modf(nccc_check_double_of_bits(0xfff8000000000042u),
             0xfff8000000000042u, 0xfff8000000000042u);
}
END_TEST

static void check_ldexp(double x, int e, uint64_t want) {
  uint64_t in[2] = {nccc_slot_from_double(x), nccc_slot_from_i32(e)}, out[1];
  call("libc.ldexp", "di:d", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_double(ref_ldexp(x, e)));
  ck_assert_uint_eq(out[0], want);
}

START_TEST(test_ldexp) {
  check_ldexp(0.75, 2, nccc_slot_from_double(3.0));
  check_ldexp(1.0, -1, nccc_slot_from_double(0.5));
  check_ldexp(1.0, 1023, 0x7fe0000000000000u);
  check_ldexp(1.0, 1024, 0x7ff0000000000000u);      /* overflow: inf */
  check_ldexp(-1.0, 1024, 0xfff0000000000000u);
  check_ldexp(1.0, -1074, 1);                       /* smallest denormal */
  check_ldexp(1.0, -1075, 0);                       /* a tie: to even, 0 */
  check_ldexp(DBL_MIN, -1, 0x0008000000000000u);
  check_ldexp(-0.0, 5, 0x8000000000000000u);
  check_ldexp(1.0, INT_MAX, 0x7ff0000000000000u);
  check_ldexp(1.0, INT_MIN, 0);
  check_ldexp(-1.0, INT_MIN, 0x8000000000000000u);
  check_ldexp(nccc_check_double_of_bits(0x7ff8000000000777u), 3,
              0x7ff8000000000777u);
  check_ldexp(INFINITY, -2000, 0x7ff0000000000000u);
}
END_TEST

/* ---- hypotf, nextafterf: float slots ------------------------------------------- */

static void check_hypotf(float x, float y, uint64_t want) {
  uint64_t in[2] = {nccc_slot_from_float(x), nccc_slot_from_float(y)}, out[1];
  call("libc.hypotf", "ff:f", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_float(ref_hypotf(x, y)));
  ck_assert_uint_eq(out[0], want);
}

START_TEST(test_hypotf) {
  check_hypotf(3.0f, 4.0f, nccc_slot_from_double(5.0));
  check_hypotf(-3.0f, -4.0f, nccc_slot_from_double(5.0));
  check_hypotf(-0.0f, -0.0f, 0);
  check_hypotf(FLT_MAX, FLT_MAX, 0x7ff0000000000000u); /* overflows float */
  check_hypotf(FLT_MAX, 1.0f, nccc_slot_from_double(FLT_MAX));
  check_hypotf(FLT_TRUE_MIN, 0.0f, 0x36a0000000000000u); /* 2^-149 */
  check_hypotf(FLT_TRUE_MIN, -0.0f, 0x36a0000000000000u);
  /* an infinity wins over a quiet NaN (C Annex F) */
  check_hypotf(INFINITY, NAN, 0x7ff0000000000000u);
  check_hypotf(NAN, -INFINITY, 0x7ff0000000000000u);
}
END_TEST

START_TEST(test_hypotf_nan) {
  /* a NaN argument gives a NaN, whose bits match the direct call's */
  float payload = nccc_check_float_of_bits(0x7fc01234u);
  uint64_t in[2] = {nccc_slot_from_float(payload), nccc_slot_from_float(1.0f)};
  uint64_t out[1];
  call("libc.hypotf", "ff:f", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_float(ref_hypotf(payload, 1.0f)));
  ck_assert_uint_eq(out[0] & 0x7ff0000000000000u, 0x7ff0000000000000u);
  ck_assert_uint_ne(out[0] & 0x000fffffffffffffu, 0);
}
END_TEST

static void check_nextafterf(float x, float y, uint64_t want) {
  uint64_t in[2] = {nccc_slot_from_float(x), nccc_slot_from_float(y)}, out[1];
  call("libc.nextafterf", "ff:f", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_float(ref_nextafterf(x, y)));
  ck_assert_uint_eq(out[0], want);
}

START_TEST(test_nextafterf) {
  check_nextafterf(0.0f, 1.0f, 0x36a0000000000000u);  /* FLT_TRUE_MIN */
  check_nextafterf(-0.0f, 1.0f, 0x36a0000000000000u);
  check_nextafterf(0.0f, -1.0f, 0xb6a0000000000000u); /* -FLT_TRUE_MIN */
  check_nextafterf(FLT_TRUE_MIN, 0.0f, 0);
  check_nextafterf(-FLT_TRUE_MIN, 0.0f, 0x8000000000000000u);
  /* x == y returns y: the sign of zero comes from y */
  check_nextafterf(0.0f, -0.0f, 0x8000000000000000u);
  check_nextafterf(-0.0f, 0.0f, 0);
  check_nextafterf(1.0f, 2.0f, nccc_slot_from_double(1.0 + FLT_EPSILON));
  check_nextafterf(1.0f, 0.0f, nccc_slot_from_double(1.0 - FLT_EPSILON / 2));
  check_nextafterf(FLT_MAX, INFINITY, 0x7ff0000000000000u);
  check_nextafterf(INFINITY, 0.0f, 0x47efffffe0000000u); /* FLT_MAX */
  check_nextafterf(-FLT_MAX, -INFINITY, 0xfff0000000000000u);
  /* FLT_MIN down to the largest denormal, 0x007fffff */
  check_nextafterf(FLT_MIN, 0.0f,
                   nccc_slot_from_float(nccc_check_float_of_bits(0x007fffffu)));
  /* a NaN argument comes back as a NaN, as the direct call gives it */
  {
    float nan_x = nccc_check_float_of_bits(0x7fc00abcu);
    uint64_t in[2] = {nccc_slot_from_float(nan_x), nccc_slot_from_float(1.0f)};
    uint64_t out[1];
    call("libc.nextafterf", "ff:f", in, 2, out, 1);
    ck_assert_uint_eq(out[0],
                      nccc_slot_from_float(ref_nextafterf(nan_x, 1.0f)));
    ck_assert_uint_eq(out[0] & 0x7ff0000000000000u, 0x7ff0000000000000u);
    ck_assert_uint_ne(out[0] & 0x000fffffffffffffu, 0);
  }
}
END_TEST

/* ---- snprintf instantiations ------------------------------------------------- */

/* Calls snprintf_<kind>(buf, size, fmt, value) on a buffer filled with
** 'X'; checks the return value, the text and that nothing after the
** first size bytes changed. */
static void check_snprintf(const char *name, const char *sig, size_t size,
                           const char *fmt, uint64_t value, int want_ret,
                           const char *want_text) {
  char buf[64];
  size_t i;
  uint64_t in[4], out[1];
  memset(buf, 'X', sizeof buf);
  in[0] = nccc_slot_from_ptr(buf);
  in[1] = size;
  in[2] = nccc_slot_from_ptr(fmt);
  in[3] = value;
  call(name, sig, in, 4, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(want_ret));
  if (size > 0) {
    ck_assert_str_eq(buf, want_text);
    ck_assert_uint_eq(strlen(buf), size - 1 < (size_t)want_ret
                                       ? size - 1 : (size_t)want_ret);
  }
  for (i = size; i < sizeof buf; i++) ck_assert_int_eq(buf[i], 'X');
}

START_TEST(test_snprintf) {
  const char *si = SIG_SNPRINTF("i"), *sl = SIG_SNPRINTF("l"),
             *sd = SIG_SNPRINTF("d"), *ss = SIG_SNPRINTF("s");
  check_snprintf("libc.snprintf_int", si, 64, "<%d>", nccc_slot_from_i32(-12),
                 5, "<-12>");
  check_snprintf("libc.snprintf_int", si, 64, "%d", nccc_slot_from_i32(INT_MIN),
                 11, "-2147483648");
  check_snprintf("libc.snprintf_int", si, 64, "%+d",
                 nccc_slot_from_i32(INT_MAX), 11, "+2147483647");
  check_snprintf("libc.snprintf_int", si, 64, "%x", 0xbeef, 4, "beef");
  /* truncation: the return value is the full length */
  check_snprintf("libc.snprintf_int", si, 8, "%d", 123456789, 9, "1234567");
  check_snprintf("libc.snprintf_int", si, 1, "%d", 42, 2, "");
  check_snprintf("libc.snprintf_int", si, 0, "%d", 42, 2, NULL);
  check_snprintf("libc.snprintf_long_long", sl, 64, "%lld",
                 nccc_slot_from_i64(INT64_MIN), 20, "-9223372036854775808");
  check_snprintf("libc.snprintf_long_long", sl, 64, "%lld",
                 nccc_slot_from_i64(INT64_MAX), 19, "9223372036854775807");
  check_snprintf("libc.snprintf_double", sd, 64, "%.3f",
                 nccc_slot_from_double(3.14159), 5, "3.142");
  check_snprintf("libc.snprintf_double", sd, 64, "%g",
                 nccc_slot_from_double(-0.0), 2, "-0");
  check_snprintf("libc.snprintf_double", sd, 64, "%f",
                 nccc_slot_from_double(-INFINITY), 4, "-inf");
  check_snprintf("libc.snprintf_double", sd, 64, "%a",
                 nccc_slot_from_double(1.0), 6, "0x1p+0");
  check_snprintf("libc.snprintf_double", sd, 64, "%.17g",
                 nccc_slot_from_double(0.1), 19, "0.10000000000000001");
  check_snprintf("libc.snprintf_double", sd, 5, "%e",
                 nccc_slot_from_double(DBL_MAX), 13, "1.79");
  check_snprintf("libc.snprintf_string", ss, 64, "[%s]",
                 nccc_slot_from_ptr("hello"), 7, "[hello]");
  check_snprintf("libc.snprintf_string", ss, 4, "[%s]",
                 nccc_slot_from_ptr("hello"), 7, "[he");
  check_snprintf("libc.snprintf_string", ss, 64, "%s|%%",
                 nccc_slot_from_ptr(""), 2, "|%");
  check_snprintf("libc.snprintf_string", ss, 64, "%.2s",
                 nccc_slot_from_ptr("abcdef"), 2, "ab");
}
END_TEST

START_TEST(test_snprintf_null_buffer) {
  /* [nullable] str with size 0: only the length is computed */
  uint64_t in[4], out[1];
  in[0] = 0;
  in[1] = 0;
  in[3] = nccc_slot_from_ptr("abc");
  in[2] = nccc_slot_from_ptr("value=%s;");
  call("libc.snprintf_string", SIG_SNPRINTF("s"), in, 4, out, 1);
  ck_assert_uint_eq(out[0], 10);
}
END_TEST

/* ---- getenv, strlen --------------------------------------------------------- */

START_TEST(test_getenv) {
  uint64_t in[1], out[1];
  const char *value;
  ck_assert_int_eq(setenv("NCCC_REAL_TEST_VAR", "value 42", 1), 0);
  in[0] = nccc_slot_from_ptr("NCCC_REAL_TEST_VAR");
  call("libc.getenv", "s:s", in, 1, out, 1);
  value = getenv("NCCC_REAL_TEST_VAR");
  ck_assert_uint_eq(out[0], nccc_slot_from_ptr(value));
  ck_assert_str_eq(value, "value 42");

  /* set but empty: a pointer to "" */
  ck_assert_int_eq(setenv("NCCC_REAL_TEST_VAR", "", 1), 0);
  call("libc.getenv", "s:s", in, 1, out, 1);
  value = getenv("NCCC_REAL_TEST_VAR");
  ck_assert_ptr_nonnull(value);
  ck_assert_uint_eq(out[0], nccc_slot_from_ptr(value));
  ck_assert_int_eq(value[0], '\0');

  /* unset: NULL, slot 0 */
  ck_assert_int_eq(unsetenv("NCCC_REAL_TEST_VAR"), 0);
  call("libc.getenv", "s:s", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);
}
END_TEST

START_TEST(test_strlen) {
  static char big[10001];
  uint64_t in[1], out[1];
  in[0] = nccc_slot_from_ptr("");
  call("libc.strlen", "s:" SZ, in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);
  in[0] = nccc_slot_from_ptr("hello");
  call("libc.strlen", "s:" SZ, in, 1, out, 1);
  ck_assert_uint_eq(out[0], 5);
  in[0] = nccc_slot_from_ptr("ab\0cd");
  call("libc.strlen", "s:" SZ, in, 1, out, 1);
  ck_assert_uint_eq(out[0], 2);
  memset(big, 'z', sizeof big - 1);
  in[0] = nccc_slot_from_ptr(big);
  call("libc.strlen", "s:" SZ, in, 1, out, 1);
  ck_assert_uint_eq(out[0], 10000);
}
END_TEST

/* ---- the module itself ---------------------------------------------------------- */

START_TEST(test_constants_and_registry) {
  uint16_t index = 0;
  const nccc_module *m;
  nccc_handle h;
  uint64_t in[3] = {0}, out[4] = {0};
  ck_assert_int_eq(nccc_module_find("libc", &index), NCCC_OK);
  m = nccc_module_at(index);
  ck_assert_ptr_eq(m, &nccc_libc_module);
  ck_assert_uint_eq(m->n_types, 0);
  ck_assert_uint_eq(m->n_constants, 3);
  ck_assert_str_eq(m->constants[0].name, "EDOM");
  ck_assert_uint_eq(m->constants[0].value, nccc_slot_from_i32(EDOM));
  ck_assert_str_eq(m->constants[1].name, "EINVAL");
  ck_assert_uint_eq(m->constants[1].value, nccc_slot_from_i32(EINVAL));
  ck_assert_str_eq(m->constants[2].name, "ERANGE");
  ck_assert_str_eq(m->constants[2].type, "i");
  ck_assert_uint_eq(m->constants[2].value, nccc_slot_from_i32(ERANGE));
  ck_assert_uint_eq(nccc_registry_count(m->registry), 13);

  /* the variadic prototype itself is not a function of the module */
  ck_assert_int_eq(nccc_lookup("libc.snprintf", &h), NCCC_ERR_NAME_NOT_FOUND);
  /* counts that do not match are refused before the call */
  h = nccc_check_find("libc.strtol", SIG_STRTOL, 2, 3);
  ck_assert_int_eq(nccc_call_checked(h, in, 2, out, 2), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(h, in, 3, out, 3), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 4), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_uint_eq(out[0], 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("real_libc");
  nccc_check_tcase(s, "libc", setup, NULL,
                   NCCC_CHECK_TESTS(test_strtol, test_strtol_bad_base,
                                    test_strtoull, test_frexp, test_modf,
                                    test_ldexp, test_hypotf, test_hypotf_nan,
                                    test_nextafterf, test_snprintf,
                                    test_snprintf_null_buffer, test_getenv,
                                    test_strlen, test_constants_and_registry));
  return s;
}
