/*
** check.h — the part of the Check unit-test API that nccc's C tests use,
** for targets that have no Check library (the cross builds run under
** qemu: test/cross/). Same names and meanings as Check's, run in one
** process: a failed assertion prints the file, line and values and
** leaves its test with longjmp; the test case's teardown still runs.
*/
#ifndef NCCC_MINICHECK_H
#define NCCC_MINICHECK_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void (*SFun)(void);
typedef void (*TFun)(int);

typedef struct TTest {
  const char *name;
  TFun fn;
  const char *file;
  int line;
} TTest;

typedef struct TCase TCase;
typedef struct Suite Suite;
typedef struct SRunner SRunner;

enum print_output { CK_ENV };

#define START_TEST(test)                                              \
  static void test##_fn(int _i __attribute__((unused)));              \
  static const TTest test##_ttest = {#test, test##_fn, __FILE__,      \
                                     __LINE__};                       \
  static const TTest *test = &test##_ttest;                           \
  static void test##_fn(int _i __attribute__((unused)))
#define END_TEST

Suite *suite_create(const char *name);
void suite_add_tcase(Suite *s, TCase *tc);
TCase *tcase_create(const char *name);
void tcase_add_checked_fixture(TCase *tc, SFun setup, SFun teardown);
void tcase_add_loop_test(TCase *tc, const TTest *t, int start, int end);
#define tcase_add_test(tc, t) tcase_add_loop_test((tc), (t), 0, 1)
void tcase_set_timeout(TCase *tc, double seconds);
SRunner *srunner_create(Suite *s);
void srunner_run_all(SRunner *r, enum print_output mode);
int srunner_ntests_failed(SRunner *r);
void srunner_free(SRunner *r);

/* Records the failure of the running test and leaves it. (mingw-w64's
** C library formats as C99 says with __USE_MINGW_ANSI_STDIO, which the
** Windows build sets: GCC then checks against gnu_printf.) */
#ifdef __MINGW32__
#define MINICHECK_FORMAT gnu_printf
#else
#define MINICHECK_FORMAT printf
#endif
__attribute__((noreturn, format(MINICHECK_FORMAT, 3, 4))) void
minicheck_fail(const char *file, int line, const char *fmt, ...);

#define ck_assert_msg(expr, ...)                                         \
  ((expr) ? (void)0 : minicheck_fail(__FILE__, __LINE__, __VA_ARGS__))
#define ck_assert(expr) ck_assert_msg(expr, "assertion '%s' failed", #expr)
#define ck_abort_msg(...) minicheck_fail(__FILE__, __LINE__, __VA_ARGS__)

#define MINICHECK_CMP(type, fmt, X, OP, Y)                                \
  do {                                                                    \
    type ck_x_ = (X);                                                     \
    type ck_y_ = (Y);                                                     \
    ck_assert_msg(ck_x_ OP ck_y_, "'%s' %s '%s': %" fmt " vs %" fmt, #X, \
                  #OP, #Y, ck_x_, ck_y_);                                 \
  } while (0)

#define ck_assert_int_eq(X, Y) MINICHECK_CMP(intmax_t, PRIdMAX, X, ==, Y)
#define ck_assert_int_ne(X, Y) MINICHECK_CMP(intmax_t, PRIdMAX, X, !=, Y)
#define ck_assert_int_lt(X, Y) MINICHECK_CMP(intmax_t, PRIdMAX, X, <, Y)
#define ck_assert_int_le(X, Y) MINICHECK_CMP(intmax_t, PRIdMAX, X, <=, Y)
#define ck_assert_int_gt(X, Y) MINICHECK_CMP(intmax_t, PRIdMAX, X, >, Y)
#define ck_assert_int_ge(X, Y) MINICHECK_CMP(intmax_t, PRIdMAX, X, >=, Y)
#define ck_assert_uint_eq(X, Y) MINICHECK_CMP(uintmax_t, PRIuMAX, X, ==, Y)
#define ck_assert_uint_ne(X, Y) MINICHECK_CMP(uintmax_t, PRIuMAX, X, !=, Y)
#define ck_assert_uint_lt(X, Y) MINICHECK_CMP(uintmax_t, PRIuMAX, X, <, Y)
#define ck_assert_uint_le(X, Y) MINICHECK_CMP(uintmax_t, PRIuMAX, X, <=, Y)
#define ck_assert_uint_gt(X, Y) MINICHECK_CMP(uintmax_t, PRIuMAX, X, >, Y)
#define ck_assert_uint_ge(X, Y) MINICHECK_CMP(uintmax_t, PRIuMAX, X, >=, Y)
#define ck_assert_double_eq(X, Y) MINICHECK_CMP(double, "a", X, ==, Y)
#define ck_assert_ptr_eq(X, Y) MINICHECK_CMP(const void *, "p", X, ==, Y)
#define ck_assert_ptr_ne(X, Y) MINICHECK_CMP(const void *, "p", X, !=, Y)
#define ck_assert_ptr_null(X) ck_assert_ptr_eq(X, NULL)
#define ck_assert_ptr_nonnull(X) ck_assert_ptr_ne(X, NULL)

/* Strings: NULL is refused, as Check does. */
#define MINICHECK_STR(X, OP, Y)                                          \
  do {                                                                   \
    const char *ck_x_ = (X), *ck_y_ = (Y);                               \
    ck_assert_msg(ck_x_ != NULL && ck_y_ != NULL &&                      \
                      strcmp(ck_x_, ck_y_) OP 0,                         \
                  "'%s' %s '%s': \"%s\" vs \"%s\"", #X, #OP, #Y,         \
                  ck_x_ ? ck_x_ : "(null)", ck_y_ ? ck_y_ : "(null)");   \
  } while (0)
#define ck_assert_str_eq(X, Y) MINICHECK_STR(X, ==, Y)
#define ck_assert_str_ne(X, Y) MINICHECK_STR(X, !=, Y)
#define ck_assert_mem_eq(X, Y, L)                                         \
  ck_assert_msg(memcmp((X), (Y), (L)) == 0, "'%s' == '%s' (%zu bytes)", #X, \
                #Y, (size_t)(L))

#endif
