/*
** closure_fixture.h — what the closure test programs (test_closure.c,
** test_closure_lifecycle.c) share: the per-test setup, the host
** procedures their closures run, and sorting through cbt.qsort_r.
*/
#ifndef CLOSURE_FIXTURE_H
#define CLOSURE_FIXTURE_H

#include <stdint.h>

#include <nccc/nccc.h>

#define S(p) nccc_slot_from_ptr(p)
/* Fills result slots a call must overwrite (or, when refused, zero). */
#define SENTINEL 0x5a5a5a5a5a5a5a5au

/* A fresh runtime with module "cbt", an empty host table, no last error,
** no library calls counted. */
void closure_setup(void);

/* Every test ends without a host error (a call or notice the host did
** not expect). */
void closure_teardown(void);

/* ---- host procedures ------------------------------------------------- */

/* comparator: args a b (int pointers) -> int; data, unless NULL, is an
** int counting its calls */
void proc_cmp(const uint64_t *args, uint64_t *results, void *data);

/* The members of cbt.copy_async's group. progress: args done total, logs
** done * 100 + total into progress_log[n_progress++]; ready: args
** result, keeps it in ready_result and n_progress in ready_after. */
extern int progress_log[16], n_progress, ready_result, ready_after;
void proc_progress(const uint64_t *args, uint64_t *results, void *data);
void proc_ready(const uint64_t *args, uint64_t *results, void *data);

/* watch: arg x -> x * data (an intptr_t factor) */
void proc_watch(const uint64_t *args, uint64_t *results, void *data);

/* ---- sorting ------------------------------------------------------------ */

/* v[0..n) holds 0..n-1 in an order drawn from seed. */
void fill_shuffled(int *v, int n, unsigned seed);

/* Fails the test unless v[i] == i for every i < n. */
void assert_sorted(const int *v, int n);

/* Sorts v[0..n) through cbt.qsort_r with closure ctx as its comparator
** context; fails the test unless the call succeeds. */
void sort_with(int *v, int n, void *ctx);

#endif
