/*
** test_status.c — status codes and the per-thread last error.
*/
/* pthread barriers */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nccc/config.h"
#include "nccc/status.h"

#include "nccc_check.h"

START_TEST(test_tvm_values) {
  /* the numbers TVM CRT callers already know */
  ck_assert_int_eq(NCCC_OK, 0);
  ck_assert_int_eq(NCCC_ERR_NAME_NOT_FOUND, 0x0100);
  ck_assert_int_eq(NCCC_ERR_INDEX_INVALID, 0x0101);
  ck_assert_int_eq(NCCC_ERR_REGISTRY_FULL, 0x0102);
  ck_assert_int_eq(NCCC_ERR_ALREADY_DEFINED, 0x0103);
  ck_assert_int_eq(NCCC_ERR_BUFFER_TOO_SMALL, 0x0104);
  ck_assert_int_eq(NCCC_ERR_PLATFORM_CHECK, 0x0500);
  ck_assert_int_eq(NCCC_ERR_NO_MEMORY, 0x0503);
  ck_assert_int_eq(NCCC_ERR_NUM_ARGUMENTS, 0x0800);
  ck_assert_int_eq(NCCC_ERR_WRONG_ARG_TYPE, 0x0801);
  ck_assert_int_eq(NCCC_ERR_NOT_IMPLEMENTED, 0x0802);
  ck_assert_int_eq(NCCC_ERR_INVALID_ARG, 0x0803);
}
END_TEST

static const nccc_status all_statuses[] = {
    NCCC_OK,
    NCCC_ERR_NAME_NOT_FOUND,
    NCCC_ERR_INDEX_INVALID,
    NCCC_ERR_REGISTRY_FULL,
    NCCC_ERR_ALREADY_DEFINED,
    NCCC_ERR_BUFFER_TOO_SMALL,
    NCCC_ERR_PLATFORM_CHECK,
    NCCC_ERR_NO_MEMORY,
    NCCC_ERR_NUM_ARGUMENTS,
    NCCC_ERR_WRONG_ARG_TYPE,
    NCCC_ERR_NOT_IMPLEMENTED,
    NCCC_ERR_INVALID_ARG,
    NCCC_ERR_BAD_NAME,
    NCCC_ERR_BAD_HANDLE,
    NCCC_ERR_BAD_SIGNATURE,
    NCCC_ERR_MODULES_FULL,
    NCCC_ERR_NULL_POINTER,
    NCCC_ERR_NOT_INITIALIZED,
};
#define N_STATUSES (sizeof all_statuses / sizeof all_statuses[0])

START_TEST(test_status_names) {
  ck_assert_str_eq(nccc_status_name(NCCC_ERR_NAME_NOT_FOUND), "name not found");
  /* every status has its own non-empty name */
  for (size_t i = 0; i < N_STATUSES; i++) {
    const char *a = nccc_status_name(all_statuses[i]);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_gt(strlen(a), 0);
    for (size_t j = 0; j < i; j++)
      ck_assert_str_ne(a, nccc_status_name(all_statuses[j]));
  }
  /* a number that is no status still gets a string */
  ck_assert_ptr_nonnull(nccc_status_name((nccc_status)0x7777));
  ck_assert_ptr_nonnull(nccc_status_name((nccc_status)-1));
}
END_TEST

START_TEST(test_fail_and_clear) {
  nccc_clear_error();
  ck_assert_int_eq(nccc_last_status(), NCCC_OK);
  ck_assert_str_eq(nccc_last_error(), "");

  ck_assert_int_eq(nccc_fail(NCCC_ERR_BAD_NAME, "set", NULL),
                   NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_NAME);
  ck_assert_str_eq(nccc_last_error(), "set");

  ck_assert_int_eq(nccc_fail(NCCC_ERR_NAME_NOT_FOUND, "lookup", "foo.bar"),
                   NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_str_eq(nccc_last_error(), "lookup: foo.bar");

  nccc_clear_error();
  ck_assert_int_eq(nccc_last_status(), NCCC_OK);
  ck_assert_str_eq(nccc_last_error(), "");
}
END_TEST

START_TEST(test_truncation) {
  char what[400], detail[1000];
  memset(what, 'w', sizeof what - 1);
  what[sizeof what - 1] = '\0';
  memset(detail, 'd', sizeof detail - 1);
  detail[sizeof detail - 1] = '\0';

  nccc_fail(NCCC_ERR_INVALID_ARG, "x", detail);
  const char *m = nccc_last_error();
  ck_assert_uint_eq(strlen(m), NCCC_ERROR_MESSAGE_BYTES - 1);
  ck_assert_int_eq(strncmp(m, "x: ddd", 6), 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_INVALID_ARG);

  nccc_fail(NCCC_ERR_INVALID_ARG, what, NULL);
  m = nccc_last_error();
  ck_assert_uint_eq(strlen(m), NCCC_ERROR_MESSAGE_BYTES - 1);
  ck_assert_int_eq(strncmp(m, what, NCCC_ERROR_MESSAGE_BYTES - 1), 0);

  nccc_fail(NCCC_ERR_INVALID_ARG, what, detail);
  ck_assert_uint_eq(strlen(nccc_last_error()), NCCC_ERROR_MESSAGE_BYTES - 1);

  /* exactly the longest message that fits is kept whole */
  char exact[NCCC_ERROR_MESSAGE_BYTES];
  memset(exact, 'e', sizeof exact - 1);
  exact[sizeof exact - 1] = '\0';
  nccc_fail(NCCC_ERR_INVALID_ARG, exact, NULL);
  ck_assert_str_eq(nccc_last_error(), exact);
  nccc_clear_error();
}
END_TEST

/* ---- per thread --------------------------------------------------------- */

#define ROUNDS 200

static pthread_barrier_t barrier;

typedef struct worker {
  nccc_status status;
  const char *what;
  int initial_ok;
  int mismatches;
} worker;

static void *worker_main(void *arg) {
  worker *w = arg;
  /* a new thread starts with no error, whatever the others did */
  w->initial_ok =
      nccc_last_status() == NCCC_OK && strcmp(nccc_last_error(), "") == 0;
  pthread_barrier_wait(&barrier);
  for (int i = 0; i < ROUNDS; i++) {
    char detail[32];
    snprintf(detail, sizeof detail, "%d", i);
    char expect[96];
    snprintf(expect, sizeof expect, "%s: %d", w->what, i);
    nccc_fail(w->status, w->what, detail);
    /* both threads have written before either reads */
    pthread_barrier_wait(&barrier);
    if (nccc_last_status() != w->status) w->mismatches++;
    if (strcmp(nccc_last_error(), expect) != 0) w->mismatches++;
    pthread_barrier_wait(&barrier);
  }
  return NULL;
}

START_TEST(test_per_thread) {
  nccc_fail(NCCC_ERR_NO_MEMORY, "main", NULL);
  ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, 2), 0);
  worker a = {NCCC_ERR_BAD_HANDLE, "thread-a", 0, 0};
  worker b = {NCCC_ERR_REGISTRY_FULL, "thread-b", 0, 0};
  pthread_t ta, tb;
  ck_assert_int_eq(pthread_create(&ta, NULL, worker_main, &a), 0);
  ck_assert_int_eq(pthread_create(&tb, NULL, worker_main, &b), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  pthread_barrier_destroy(&barrier);
  ck_assert(a.initial_ok);
  ck_assert(b.initial_ok);
  ck_assert_int_eq(a.mismatches, 0);
  ck_assert_int_eq(b.mismatches, 0);
  /* and the main thread's own error is still its own */
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NO_MEMORY);
  ck_assert_str_eq(nccc_last_error(), "main");
  nccc_clear_error();
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("status");
  nccc_check_tcase(s, "status", NULL, NULL,
                   NCCC_CHECK_TESTS(test_tvm_values, test_status_names,
                                    test_fail_and_clear, test_truncation,
                                    test_per_thread));
  return s;
}
