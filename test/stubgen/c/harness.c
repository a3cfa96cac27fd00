/*
** harness.c — main() and the checked call of the generator's C test
** programs (harness.h).
*/
#include <string.h>

#include "harness.h"

int harness_checks, harness_failed;
uint64_t in[HARNESS_SLOTS], out[HARNESS_SLOTS];

const nccc_fn_info *harness_call(const char *name) {
  nccc_handle h;
  const nccc_fn_info *info;
  nccc_status st = nccc_lookup(name, &h);
  CHECK(st == NCCC_OK);
  if (st != NCCC_OK) {
    printf("  lookup %s: %s\n", name, nccc_last_error());
    return NULL;
  }
  CHECK(nccc_function(h, NULL, &info, NULL) == NCCC_OK);
  memset(out, 0xA5, sizeof out);
  CHECK(nccc_call_checked(h, in, info->n_in, out, info->n_out) == NCCC_OK);
  return info;
}

int main(void) {
  size_t i;
  CHECK(nccc_ensure_init() == NCCC_OK);
  CHECK(harness_register() == NCCC_OK);
  for (i = 0; harness_tests[i] != NULL; i++) {
    harness_tests[i]();
  }
  printf("checks: %d failed: %d\n", harness_checks, harness_failed);
  return harness_failed != 0;
}
