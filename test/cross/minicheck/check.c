/*
** check.c — the runner of check.h: suites of test cases of tests, run in
** order in this process, with the fixture around each test and a summary
** line in Check's form ("N%: Checks: X, Failures: F, Errors: 0").
*/
#include "check.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_TCASES = 64, MAX_TESTS = 256 };

struct TCase {
  const char *name;
  SFun setup, teardown;
  struct {
    const TTest *test;
    int start, end;
  } tests[MAX_TESTS];
  int n_tests;
};

struct Suite {
  const char *name;
  TCase *tcases[MAX_TCASES];
  int n_tcases;
};

struct SRunner {
  Suite *suite;
  int checks, failures;
};

static jmp_buf leave_test;

static void *allocate(size_t size) {
  void *p = calloc(1, size);
  if (p == NULL) {
    fprintf(stderr, "minicheck: out of memory\n");
    exit(2);
  }
  return p;
}

Suite *suite_create(const char *name) {
  Suite *s = allocate(sizeof *s);
  s->name = name;
  return s;
}

void suite_add_tcase(Suite *s, TCase *tc) {
  if (s->n_tcases == MAX_TCASES) {
    fprintf(stderr, "minicheck: more than %d test cases\n", MAX_TCASES);
    exit(2);
  }
  s->tcases[s->n_tcases++] = tc;
}

TCase *tcase_create(const char *name) {
  TCase *tc = allocate(sizeof *tc);
  tc->name = name;
  return tc;
}

void tcase_add_checked_fixture(TCase *tc, SFun setup, SFun teardown) {
  tc->setup = setup;
  tc->teardown = teardown;
}

void tcase_add_loop_test(TCase *tc, const TTest *t, int start, int end) {
  if (tc->n_tests == MAX_TESTS) {
    fprintf(stderr, "minicheck: more than %d tests in %s\n", MAX_TESTS,
            tc->name);
    exit(2);
  }
  tc->tests[tc->n_tests].test = t;
  tc->tests[tc->n_tests].start = start;
  tc->tests[tc->n_tests].end = end;
  tc->n_tests++;
}

/* One process, no fork: nothing can stop a test that hangs, so the
** caller's timeout (ctest's) is the only one. */
void tcase_set_timeout(TCase *tc, double seconds) {
  (void)tc;
  (void)seconds;
}

SRunner *srunner_create(Suite *s) {
  SRunner *r = allocate(sizeof *r);
  r->suite = s;
  return r;
}

void minicheck_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s:%d: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  longjmp(leave_test, 1);
}

/* Runs one iteration with the fixture around it; 1 if it failed. */
static int run_one(const TCase *tc, const TTest *t, int i) {
  volatile int failed = 0;
  if (setjmp(leave_test) == 0) {
    if (tc->setup != NULL) tc->setup();
    t->fn(i);
  } else {
    failed = 1;
    fprintf(stderr, "%s:%d: %s:%s:%d: failed\n", t->file, t->line, tc->name,
            t->name, i);
  }
  if (tc->teardown != NULL) {
    if (setjmp(leave_test) == 0) {
      tc->teardown();
    } else {
      failed = 1;
    }
  }
  return failed;
}

void srunner_run_all(SRunner *r, enum print_output mode) {
  (void)mode;
  for (int c = 0; c < r->suite->n_tcases; c++) {
    const TCase *tc = r->suite->tcases[c];
    for (int k = 0; k < tc->n_tests; k++) {
      for (int i = tc->tests[k].start; i < tc->tests[k].end; i++) {
        r->checks++;
        r->failures += run_one(tc, tc->tests[k].test, i);
      }
    }
  }
  printf("%d%%: Checks: %d, Failures: %d, Errors: 0\n",
         r->checks ? 100 * (r->checks - r->failures) / r->checks : 100,
         r->checks, r->failures);
}

int srunner_ntests_failed(SRunner *r) { return r->failures; }

void srunner_free(SRunner *r) {
  for (int c = 0; c < r->suite->n_tcases; c++) free(r->suite->tcases[c]);
  free(r->suite);
  free(r);
}
