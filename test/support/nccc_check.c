/*
** nccc_check.c — the shared Check runner and runtime fixtures of the C
** tests (nccc_check.h).
*/
#include "nccc_check.h"

#include <string.h>

/* ---- the runner ------------------------------------------------------- */

int nccc_check_run(Suite *s) {
  SRunner *runner = srunner_create(s);
  int failed;
  /* CK_ENV: CK_VERBOSITY chooses the output, normal when unset. */
  srunner_run_all(runner, CK_ENV);
  failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed;
}

TCase *nccc_check_tcase(Suite *s, const char *name, SFun setup,
                        SFun teardown, const TTest *const *tests) {
  TCase *tc = tcase_create(name);
  if (setup != NULL || teardown != NULL) {
    tcase_add_checked_fixture(tc, setup, teardown);
  }
  for (; *tests != NULL; tests++) tcase_add_test(tc, *tests);
  suite_add_tcase(s, tc);
  return tc;
}

/* ---- runtime fixtures ------------------------------------------------- */

void nccc_check_init(nccc_status (*register_module)(void)) {
  ck_assert_msg(nccc_init(NULL, 0) == NCCC_OK, "nccc_init: %s",
                nccc_last_error());
  if (register_module != NULL) {
    ck_assert_msg(register_module() == NCCC_OK, "module registration: %s",
                  nccc_last_error());
  }
}

nccc_handle nccc_check_lookup(const char *name) {
  nccc_handle h = 0;
  ck_assert_msg(nccc_lookup(name, &h) == NCCC_OK, "lookup %s: %s", name,
                nccc_last_error());
  return h;
}

void nccc_check_call(const char *name, const uint64_t *in, uint64_t *out) {
  ck_assert_msg(nccc_call(nccc_check_lookup(name), in, out) == NCCC_OK,
                "call %s: %s", name, nccc_last_error());
}

nccc_handle nccc_check_find(const char *name, const char *sig, size_t n_in,
                            size_t n_out) {
  nccc_handle h = nccc_check_lookup(name);
  const nccc_fn_info *info = NULL;
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_str_eq(info->signature, sig);
  ck_assert_uint_eq(info->n_in, n_in);
  ck_assert_uint_eq(info->n_out, n_out);
  return h;
}

void nccc_check_call_checked(nccc_handle h, const char *what,
                             const uint64_t *in, size_t n_in, uint64_t *out,
                             size_t n_out) {
  ck_assert_msg(nccc_call_checked(h, in, n_in, out, n_out) == NCCC_OK,
                "call %s: %s", what, nccc_last_error());
}

nccc_fn nccc_check_builtin(unsigned index) {
  uint64_t in[1] = {index}, out[4] = {0x5a5a5a5a5a5a5a5au, 0, 0, 0};
  nccc_root(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_ne(out[1], 0);
  return (nccc_fn)(uintptr_t)out[1];
}

uint32_t nccc_check_closures_in_use(void) {
  nccc_closure_stats stats;
  nccc_closure_get_stats(&stats);
  return stats.in_use;
}

/* ---- bit patterns ------------------------------------------------------ */

uint32_t nccc_check_float_bits(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

float nccc_check_float_of_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

uint64_t nccc_check_double_bits(double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return bits;
}

double nccc_check_double_of_bits(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
