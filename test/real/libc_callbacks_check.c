/*
** libc_callbacks_check.c — idl/libc_callbacks.idl end to end: the C
** library's qsort_r, qsort, bsearch, pthread_create and pthread_join
** called through the registry with host procedures as callbacks. Real
** data sorted and compared with a direct qsort, a comparator that sorts
** again inside (reentrancy), the thunk pool of bsearch's comparator
** exhausted and reused, start routines running on other threads with
** their results seen after pthread_join, and many threads at once.
*/
#define _GNU_SOURCE /* qsort_r, for the reference */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "libc_cb_nccc.h"
#include "nccc_check.h"

#define S(p) nccc_slot_from_ptr(p)
#define SZ NCCC_SIG_SIZE
#define SENTINEL 0xA5A5A5A5A5A5A5A5u

/* ---- a host: one dispatcher, procedures in a table ---------------------- */

typedef void (*proc)(const uint64_t *args, uint64_t *results, void *data);

#define MAX_PROCS 2048
static struct {
  proc fn;
  void *data;
  int calls;
  int notices;
} procs[MAX_PROCS];
static int n_procs;
static int protocol_errors;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static void dispatch(const uint64_t *in, uint64_t *out) {
  uint64_t env = in[0];
  proc fn;
  void *data;
  pthread_mutex_lock(&table_lock);
  if (env >= (uint64_t)n_procs || procs[env].notices != 0) {
    protocol_errors++; /* unknown, or called after its release notice */
    pthread_mutex_unlock(&table_lock);
    return;
  }
  if (out == NULL) {
    procs[env].notices++;
    pthread_mutex_unlock(&table_lock);
    return;
  }
  procs[env].calls++;
  fn = procs[env].fn;
  data = procs[env].data;
  pthread_mutex_unlock(&table_lock);
  fn(in + 1, out, data);
}

static uint64_t host_ref(proc fn, void *data) {
  uint64_t env;
  pthread_mutex_lock(&table_lock);
  ck_assert_int_lt(n_procs, MAX_PROCS);
  procs[n_procs].fn = fn;
  procs[n_procs].data = data;
  procs[n_procs].calls = procs[n_procs].notices = 0;
  env = (uint64_t)n_procs++;
  pthread_mutex_unlock(&table_lock);
  return env;
}

static int calls_of(uint64_t env) {
  int n;
  pthread_mutex_lock(&table_lock);
  n = procs[env].calls;
  pthread_mutex_unlock(&table_lock);
  return n;
}

static int notices_of(uint64_t env) {
  int n;
  pthread_mutex_lock(&table_lock);
  n = procs[env].notices;
  pthread_mutex_unlock(&table_lock);
  return n;
}

static void *claim(const char *sig, proc fn, void *data, unsigned scope, uint64_t *env) {
  void *ctx = NULL;
  uint64_t e = host_ref(fn, data);
  ck_assert_int_eq(
      nccc_closure_claim_typed(dispatch, e, scope | NCCC_CLOSURE_NOTIFY, sig, &ctx),
      NCCC_OK);
  if (env != NULL) *env = e;
  return ctx;
}

/* The runtime's platform lock: the threads below claim, call back and
** release at the same time. */
static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;
static void lock(void) { pthread_mutex_lock(&runtime_lock); }
static void unlock(void) { pthread_mutex_unlock(&runtime_lock); }

static void setup(void) {
  nccc_platform p;
  nccc_check_init(nccc_libc_cb_register);
  p = *nccc_platform_get();
  p.lock = lock;
  p.unlock = unlock;
  nccc_platform_set(&p);
  n_procs = 0;
  protocol_errors = 0;
}

static void teardown(void) {
  ck_assert_int_eq(protocol_errors, 0);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  nccc_platform_set(NULL);
}

static void call(nccc_handle h, const uint64_t *in, size_t n_in, uint64_t *out,
                 size_t n_out) {
  nccc_check_call_checked(h, "libc_cb", in, n_in, out, n_out);
}

#define QSORT_R() nccc_check_find("libc_cb.qsort_r", "p" SZ SZ "c:", 4, 0)
#define QSORT() nccc_check_find("libc_cb.qsort", "p" SZ SZ "c:", 4, 0)
#define BSEARCH() nccc_check_find("libc_cb.bsearch", "pp" SZ SZ "c:p", 5, 1)

/* ---- host procedures ---------------------------------------------------- */

/* Compares doubles; data counts the calls. */
static void proc_cmp_double(const uint64_t *args, uint64_t *results, void *data) {
  double x = *(const double *)nccc_slot_to_ptr(args[0]);
  double y = *(const double *)nccc_slot_to_ptr(args[1]);
  if (data != NULL) ++*(int *)data;
  results[0] = nccc_slot_from_i32((x > y) - (x < y));
}

/* Compares the strings that two char * elements point to. */
static void proc_cmp_str(const uint64_t *args, uint64_t *results, void *data) {
  const char *x = *(const char *const *)nccc_slot_to_ptr(args[0]);
  const char *y = *(const char *const *)nccc_slot_to_ptr(args[1]);
  (void)data;
  results[0] = nccc_slot_from_i32(strcmp(x, y));
}

static void proc_cmp_int(const uint64_t *args, uint64_t *results, void *data) {
  int x = *(const int *)nccc_slot_to_ptr(args[0]);
  int y = *(const int *)nccc_slot_to_ptr(args[1]);
  if (data != NULL) ++*(int *)data;
  results[0] = nccc_slot_from_i32((x > y) - (x < y));
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void fill(double *v, int n, unsigned seed) {
  int i;
  for (i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    v[i] = (double)(int)(seed >> 8) / 977.0 - 4000.0;
  }
}

static void sort_r(void *base, size_t n, size_t size, void *ctx) {
  uint64_t in[4] = {S(base), n, size, S(ctx)};
  call(QSORT_R(), in, 4, NULL, 0);
}

/* ---- qsort_r ---------------------------------------------------------------- */

START_TEST(test_qsort_r_sorts_like_qsort) {
  static double v[2000], ref[2000];
  int calls = 0;
  uint64_t env;
  void *ctx = claim("pp:i", proc_cmp_double, &calls, NCCC_SCOPE_CALL, &env);
  fill(v, 2000, 42);
  memcpy(ref, v, sizeof v);
  qsort(ref, 2000, sizeof(double), cmp_double);
  sort_r(v, 2000, sizeof(double), ctx);
  ck_assert_int_eq(memcmp(v, ref, sizeof v), 0);
  ck_assert_int_gt(calls, 2000);
  ck_assert_int_eq(calls_of(env), calls);
  ck_assert_int_eq(notices_of(env), 1); /* CALL scope: released on return */
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
}
END_TEST

START_TEST(test_qsort_r_strings) {
  const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "date",
                         "elderberry", "grape", "kiwi", "lemon", "apricot"};
  const char *sorted[] = {"apple", "apricot", "banana", "cherry", "date",
                          "elderberry", "fig", "grape", "kiwi", "lemon", "pear"};
  size_t i, n = sizeof words / sizeof words[0];
  sort_r(words, n, sizeof words[0], claim("pp:i", proc_cmp_str, NULL, NCCC_SCOPE_CALL, NULL));
  for (i = 0; i < n; i++) ck_assert_str_eq(words[i], sorted[i]);
}
END_TEST

START_TEST(test_qsort_r_stale_context_refused) {
  int v[3] = {3, 2, 1};
  void *ctx = claim("pp:i", proc_cmp_int, NULL, NCCC_SCOPE_CALL, NULL);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  nccc_clear_error();
  sort_r(v, 3, sizeof(int), ctx);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(v[0], 3); /* qsort_r was not called */
}
END_TEST

/* A comparator that, on every call, sorts a small array of its own with a
** new closure through the registry before it answers. */
static int inner_sorts;
static void proc_cmp_nested(const uint64_t *args, uint64_t *results, void *data) {
  int inner[6] = {5, 3, 4, 0, 2, 1}, i;
  (void)data;
  sort_r(inner, 6, sizeof(int), claim("pp:i", proc_cmp_int, NULL, NCCC_SCOPE_CALL, NULL));
  for (i = 0; i < 6; i++) {
    if (inner[i] != i) protocol_errors++;
  }
  inner_sorts++;
  proc_cmp_double(args, results, NULL);
}

START_TEST(test_qsort_r_reentrant) {
  double v[40], ref[40];
  uint64_t env;
  void *ctx = claim("pp:i", proc_cmp_nested, NULL, NCCC_SCOPE_CALL, &env);
  inner_sorts = 0;
  fill(v, 40, 7);
  memcpy(ref, v, sizeof v);
  qsort(ref, 40, sizeof(double), cmp_double);
  sort_r(v, 40, sizeof(double), ctx);
  ck_assert_int_eq(memcmp(v, ref, sizeof v), 0);
  ck_assert_int_eq(inner_sorts, calls_of(env));
  ck_assert_int_gt(inner_sorts, 39);
  ck_assert_int_eq(n_procs, inner_sorts + 1); /* a closure per inner sort */
}
END_TEST

/* ---- bsearch and qsort: the thunk pool ---------------------------------------- */

static const int table[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};

static uint64_t search(int key, void *ctx) {
  uint64_t in[5] = {S(&key), S(table), 16, sizeof(int), S(ctx)};
  uint64_t out[1] = {SENTINEL};
  call(BSEARCH(), in, 5, out, 1);
  return out[0];
}

START_TEST(test_bsearch_found_and_not_found) {
  int calls = 0;
  uint64_t env;
  void *ctx = claim("pp:i", proc_cmp_int, &calls, NCCC_SCOPE_CALL, &env);
  ck_assert_uint_eq(search(37, ctx), S(&table[11]));
  ck_assert_int_gt(calls, 0);
  ck_assert_int_le(calls, 5); /* a binary search of 16 */
  ck_assert_int_eq(notices_of(env), 1);
  ck_assert_uint_eq(nccc_thunk_in_use(nccc_libc_cb_cmp_fn_thunk_pool()), 0);
  ck_assert_uint_eq(search(4, claim("pp:i", proc_cmp_int, NULL, NCCC_SCOPE_CALL, NULL)), 0);
}
END_TEST

START_TEST(test_thunk_pool_exhausted_then_reused) {
  const nccc_thunk_pool *pool = nccc_libc_cb_cmp_fn_thunk_pool();
  void *keep[8], *extra;
  uint64_t extra_env;
  int i;
  ck_assert_uint_eq(pool->size, 8);
  /* eight FOREVER closures: each keeps the thunk it was bound to */
  for (i = 0; i < 8; i++) {
    keep[i] = claim("pp:i", proc_cmp_int, NULL, NCCC_SCOPE_FOREVER, NULL);
    ck_assert_uint_eq(search(table[i], keep[i]), S(&table[i]));
    ck_assert_uint_eq(nccc_thunk_in_use(pool), (uint32_t)(i + 1));
  }
  /* a ninth: refused with a clear error, bsearch never called; the
  ** refused call releases its CALL closure, as a call that ran does */
  extra = claim("pp:i", proc_cmp_int, NULL, NCCC_SCOPE_CALL, &extra_env);
  nccc_clear_error();
  ck_assert_uint_eq(search(13, extra), 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_POOL_EXHAUSTED);
  ck_assert_str_eq(nccc_last_error(), "thunk pool exhausted: cmp_fn");
  ck_assert_int_eq(calls_of(extra_env), 0);
  ck_assert_int_eq(notices_of(extra_env), 1);
  ck_assert_int_eq(nccc_closure_check(extra), NCCC_ERR_STALE_CLOSURE);
  extra = claim("pp:i", proc_cmp_int, NULL, NCCC_SCOPE_CALL, &extra_env);
  /* the bound ones still work (the same thunks again) */
  ck_assert_uint_eq(search(53, keep[3]), S(&table[15]));
  /* one released: its thunk goes to the next closure */
  ck_assert_int_eq(nccc_closure_release(keep[5]), NCCC_OK);
  ck_assert_uint_eq(nccc_thunk_in_use(pool), 7);
  ck_assert_uint_eq(search(13, extra), S(&table[5]));
  ck_assert_int_gt(calls_of(extra_env), 0);
  ck_assert_int_eq(notices_of(extra_env), 1);
  ck_assert_uint_eq(nccc_thunk_in_use(pool), 7);
  for (i = 0; i < 8; i++) {
    if (i != 5) ck_assert_int_eq(nccc_closure_release(keep[i]), NCCC_OK);
  }
  ck_assert_uint_eq(nccc_thunk_in_use(pool), 0);
}
END_TEST

/* qsort's comparator is a thunk too; inside it, a bsearch binds a second
** thunk of the same pool: nested use of one pool. */
static void proc_cmp_then_search(const uint64_t *args, uint64_t *results, void *data) {
  void *ctx = claim("pp:i", proc_cmp_int, NULL, NCCC_SCOPE_CALL, NULL);
  (void)data;
  if (search(29, ctx) != S(&table[9])) protocol_errors++;
  proc_cmp_int(args, results, NULL);
}

START_TEST(test_qsort_thunk_with_nested_bsearch) {
  int v[12] = {9, 4, 11, 0, 7, 2, 10, 5, 1, 8, 3, 6}, i;
  uint64_t in[4] = {S(v), 12, sizeof(int), 0};
  uint64_t env;
  in[3] = S(claim("pp:i", proc_cmp_then_search, NULL, NCCC_SCOPE_CALL, &env));
  call(QSORT(), in, 4, NULL, 0);
  for (i = 0; i < 12; i++) ck_assert_int_eq(v[i], i);
  ck_assert_int_gt(calls_of(env), 11);
  ck_assert_uint_eq(nccc_thunk_in_use(nccc_libc_cb_cmp_fn_thunk_pool()), 0);
}
END_TEST

/* ---- threads --------------------------------------------------------------- */

struct job {
  pthread_t caller;
  int ran_elsewhere;
  double v[64];
  int sorted;
};

/* The start routine: notes its thread, sorts its job's array through the
** registry (a callback inside a callback, on the new thread) and
** returns a pointer into the job. */
static void proc_start(const uint64_t *args, uint64_t *results, void *data) {
  struct job *j = data;
  int i;
  (void)args;
  j->ran_elsewhere = !pthread_equal(pthread_self(), j->caller);
  sort_r(j->v, 64, sizeof(double),
         claim("pp:i", proc_cmp_double, NULL, NCCC_SCOPE_CALL, NULL));
  j->sorted = 1;
  for (i = 1; i < 64; i++) {
    if (j->v[i - 1] > j->v[i]) j->sorted = 0;
  }
  results[0] = S(&j->sorted);
}

static uint64_t start_thread(struct job *j, uint64_t *env, int *err) {
  uint64_t in[2], out[2] = {SENTINEL, SENTINEL};
  void *ctx = claim(":p", proc_start, j, NCCC_SCOPE_ASYNC, env);
  in[0] = 0; /* attr: NULL */
  in[1] = S(ctx);
  call(nccc_check_find("libc_cb.pthread_create", "pc:i" NCCC_SIG_ULONG, 2, 2),
       in, 2, out, 2);
  *err = nccc_slot_to_i32(out[0]);
  return out[1];
}

static void *join_thread(uint64_t thread) {
  uint64_t in[1] = {thread}, out[2] = {SENTINEL, SENTINEL};
  call(nccc_check_find("libc_cb.pthread_join", NCCC_SIG_ULONG ":ip", 1, 2), in,
       1, out, 2);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  return nccc_slot_to_ptr(out[1]);
}

START_TEST(test_pthread_start_routine_on_another_thread) {
  static struct job j;
  uint64_t env, thread;
  int err;
  memset(&j, 0, sizeof j);
  j.caller = pthread_self();
  fill(j.v, 64, 3);
  thread = start_thread(&j, &env, &err);
  ck_assert_int_eq(err, 0);
  ck_assert_uint_ne(thread, SENTINEL);
  /* what the routine returned, seen after the join */
  ck_assert_ptr_eq(join_thread(thread), &j.sorted);
  ck_assert_int_eq(j.ran_elsewhere, 1);
  ck_assert_int_eq(j.sorted, 1);
  ck_assert_int_eq(calls_of(env), 1);
  ck_assert_int_eq(notices_of(env), 1); /* ASYNC: released after its call */
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

START_TEST(test_many_threads_at_once) {
  static struct job jobs[8];
  uint64_t threads[8], envs[8];
  int i, err;
  for (i = 0; i < 8; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].caller = pthread_self();
    fill(jobs[i].v, 64, (unsigned)i + 100u);
    threads[i] = start_thread(&jobs[i], &envs[i], &err);
    ck_assert_int_eq(err, 0);
  }
  for (i = 0; i < 8; i++) {
    ck_assert_ptr_eq(join_thread(threads[i]), &jobs[i].sorted);
    ck_assert_int_eq(jobs[i].ran_elsewhere, 1);
    ck_assert_int_eq(jobs[i].sorted, 1);
    ck_assert_int_eq(notices_of(envs[i]), 1);
  }
}
END_TEST

START_TEST(test_pthread_create_refuses_a_stale_context) {
  static struct job j;
  uint64_t env, in[2], out[2] = {SENTINEL, SENTINEL};
  void *ctx = claim(":p", proc_start, &j, NCCC_SCOPE_ASYNC, &env);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  in[0] = 0;
  in[1] = S(ctx);
  nccc_clear_error();
  call(nccc_check_find("libc_cb.pthread_create", "pc:i" NCCC_SIG_ULONG, 2, 2),
       in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0); /* zeroed: no thread was started */
  ck_assert_uint_eq(out[1], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(calls_of(env), 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("libc_callbacks");
  TCase *tc = nccc_check_tcase(s, "libc_callbacks", setup, teardown,
      NCCC_CHECK_TESTS(test_qsort_r_sorts_like_qsort, test_qsort_r_strings,
                       test_qsort_r_stale_context_refused,
                       test_qsort_r_reentrant, test_bsearch_found_and_not_found,
                       test_thunk_pool_exhausted_then_reused,
                       test_qsort_thunk_with_nested_bsearch,
                       test_pthread_start_routine_on_another_thread,
                       test_many_threads_at_once,
                       test_pthread_create_refuses_a_stale_context));
  tcase_set_timeout(tc, 60);
  return s;
}
