/*
** closure_fixture.c — the setup, host procedures and sorting helpers of
** the closure test programs (see closure_fixture.h).
*/
#include "closure_fixture.h"

#include "cbt_fixture.h"
#include "cbt_lib.h"
#include "host.h"
#include "nccc_check.h"

void closure_setup(void) {
  nccc_check_init(nccc_cbt_register);
  host_reset();
  nccc_clear_error();
  lib_calls = 0;
}

void closure_teardown(void) { ck_assert_int_eq(host_errors(), 0); }

/* ---- host procedures ------------------------------------------------------ */

static int cmp_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

void proc_cmp(const uint64_t *args, uint64_t *results, void *data) {
  if (data != NULL) ++*(int *)data;
  results[0] = nccc_slot_from_i32(
      cmp_ints(nccc_slot_to_ptr(args[0]), nccc_slot_to_ptr(args[1])));
}

int progress_log[16], n_progress, ready_result, ready_after;

void proc_progress(const uint64_t *args, uint64_t *results, void *data) {
  (void)results;
  (void)data;
  progress_log[n_progress++] =
      nccc_slot_to_i32(args[0]) * 100 + nccc_slot_to_i32(args[1]);
}

void proc_ready(const uint64_t *args, uint64_t *results, void *data) {
  (void)results;
  (void)data;
  ready_result = nccc_slot_to_i32(args[0]);
  ready_after = n_progress;
}

void proc_watch(const uint64_t *args, uint64_t *results, void *data) {
  results[0] = nccc_slot_from_i32(nccc_slot_to_i32(args[0]) * (int)(intptr_t)data);
}

/* ---- sorting ------------------------------------------------------------ */

void fill_shuffled(int *v, int n, unsigned seed) {
  int i;
  for (i = 0; i < n; i++) v[i] = i;
  for (i = n - 1; i > 0; i--) {
    int j, t;
    seed = seed * 1103515245u + 12345u;
    j = (int)((seed >> 8) % (unsigned)(i + 1));
    t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

void assert_sorted(const int *v, int n) {
  int i;
  for (i = 0; i < n; i++) ck_assert_int_eq(v[i], i);
}

void sort_with(int *v, int n, void *ctx) {
  uint64_t in[4] = {S(v), (uint64_t)n, sizeof(int), S(ctx)};
  nccc_check_call("cbt.qsort_r", in, NULL);
}
