/*
** test_closure_race.c — the closure lookup that takes no lock, under
** contention: worker threads call contexts through nccc_closure_call
** while the main thread keeps releasing and re-claiming the records
** behind them (with a real lock installed). A call either runs with the
** environment word its context was claimed with, or is refused as stale
** and touches nothing; it never runs with another claim's word.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include <nccc/nccc.h>
#include "nccc_check.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5au
#define WORKERS 3
#define CELLS 2    /* few published contexts: workers keep hitting the ones being re-claimed */
#define ROUNDS 200000

/* One published claim: (ctx, env) under a sequence counter, odd while
** the main thread rewrites it. */
typedef struct cell {
  atomic_uint_fast64_t seq;
  atomic_uintptr_t ctx;
  atomic_uint_fast64_t env;
} cell;

static cell cells[CELLS];
static atomic_int stop;
static atomic_long ran, refused, wrong;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void take(void) { pthread_mutex_lock(&lock); }
static void drop(void) { pthread_mutex_unlock(&lock); }

/* The target: hands back the environment word it was called with. */
static void echo_env(const uint64_t *in, uint64_t *out) { out[0] = in[0]; }

/* Reads a consistent (ctx, env) pair of cell k; 0 while it is rewritten. */
static int read_cell(unsigned k, void **ctx, uint64_t *env) {
  uint_fast64_t s1 = atomic_load_explicit(&cells[k].seq, memory_order_acquire), s2;
  if (s1 & 1u) return 0;
  *ctx = (void *)atomic_load_explicit(&cells[k].ctx, memory_order_relaxed);
  *env = atomic_load_explicit(&cells[k].env, memory_order_relaxed);
  atomic_thread_fence(memory_order_acquire);
  s2 = atomic_load_explicit(&cells[k].seq, memory_order_relaxed);
  return s1 == s2;
}

static void *worker(void *arg) {
  unsigned k = (unsigned)(uintptr_t)arg;
  while (!atomic_load(&stop)) {
    void *ctx;
    uint64_t env, in[1] = {0}, out[1] = {SENTINEL};
    k = (k * 1103515245u + 12345u) % CELLS;
    if (!read_cell(k, &ctx, &env) || ctx == NULL) continue;
    nccc_closure_call(in, out, ctx, 0, &nccc_callback_untyped);
    if (out[0] == SENTINEL) {
      atomic_fetch_add(&refused, 1);
    } else if (out[0] == env) {
      atomic_fetch_add(&ran, 1);
    } else {
      atomic_fetch_add(&wrong, 1);
    }
  }
  return NULL;
}

/* Replaces the claim of cell k by a new one with environment env. */
static void reclaim(unsigned k, uint64_t env) {
  void *old = (void *)atomic_load(&cells[k].ctx), *ctx = NULL;
  if (old != NULL) ck_assert_int_eq(nccc_closure_release(old), NCCC_OK);
  ck_assert_int_eq(nccc_closure_claim(echo_env, env, NCCC_SCOPE_FOREVER, &ctx),
                   NCCC_OK);
  atomic_fetch_add_explicit(&cells[k].seq, 1, memory_order_relaxed);
  atomic_thread_fence(memory_order_release);
  atomic_store_explicit(&cells[k].ctx, (uintptr_t)ctx, memory_order_relaxed);
  atomic_store_explicit(&cells[k].env, env, memory_order_relaxed);
  atomic_fetch_add_explicit(&cells[k].seq, 1, memory_order_release);
}

START_TEST(test_calls_race_reclaims) {
  static const nccc_platform locked = {NULL, NULL, NULL, take, drop, NULL, NULL};
  pthread_t t[WORKERS];
  unsigned k, round;
  nccc_closure_stats st;
  uint64_t stale_before;
  nccc_platform_set(&locked);
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  nccc_closure_get_stats(&st);
  stale_before = st.stale_calls;
  for (k = 0; k < CELLS; k++) reclaim(k, 1000u + k);
  for (k = 0; k < WORKERS; k++)
    ck_assert_int_eq(pthread_create(&t[k], NULL, worker, (void *)(uintptr_t)k), 0);
  for (round = 0; round < ROUNDS; round++)
    reclaim(round % CELLS, 0x100000u + round);
  atomic_store(&stop, 1);
  for (k = 0; k < WORKERS; k++) ck_assert_int_eq(pthread_join(t[k], NULL), 0);

  ck_assert_int_eq(atomic_load(&wrong), 0);
  /* both outcomes happened, so the race was run, not avoided */
  ck_assert_int_gt(atomic_load(&ran), 0);
  nccc_closure_get_stats(&st);
  ck_assert_int_eq(st.in_use, CELLS);
  /* every refusal was reported as a stale call */
  ck_assert_uint_eq(st.stale_calls - stale_before, (uint64_t)atomic_load(&refused));
  for (k = 0; k < CELLS; k++)
    ck_assert_int_eq(nccc_closure_release((void *)atomic_load(&cells[k].ctx)),
                     NCCC_OK);
  nccc_platform_set(NULL);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("closure_race");
  TCase *tc = nccc_check_tcase(s, "race", NULL, NULL,
                               NCCC_CHECK_TESTS(test_calls_race_reclaims));
  tcase_set_timeout(tc, 120);
  return s;
}
