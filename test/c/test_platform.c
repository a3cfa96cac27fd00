/*
** test_platform.c — platform hooks: installing, partial sets, restoring
** the defaults, and the runtime's use of alloc/free, lock/unlock, abort.
*/
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nccc/nccc.h"

#include "nccc_check.h"

static nccc_platform defaults;

/* ---- counting hooks ----------------------------------------------------- */

static int n_alloc, n_free, fail_alloc;
static size_t last_size;
static void *last_alloc, *last_freed;

static void *count_alloc(size_t size) {
  n_alloc++;
  last_size = size;
  if (fail_alloc) return NULL;
  last_alloc = malloc(size);
  return last_alloc;
}
static void count_free(void *p) {
  n_free++;
  last_freed = p;
  free(p);
}

/* A lock that checks it is never taken twice and records, when watching
** a name, whether the name was registered when the lock was taken and
** when it was released. */
static int n_lock, n_unlock, held, nested, probing;
static const char *watch;
static int seen_at_lock = -1, seen_at_unlock = -1;

static int probe(void) {
  nccc_handle h;
  probing = 1;
  int found = nccc_lookup(watch, &h) == NCCC_OK;
  probing = 0;
  return found;
}
static void t_lock(void) {
  if (probing) return; /* the probe's own lookup */
  n_lock++;
  if (held) nested++;
  held = 1;
  if (watch && seen_at_lock < 0) seen_at_lock = probe();
}
static void t_unlock(void) {
  if (probing) return;
  n_unlock++;
  if (watch) seen_at_unlock = probe();
  held = 0;
}

static jmp_buf abort_jump;
static nccc_status abort_status;
static void t_abort(nccc_status st) {
  abort_status = st;
  longjmp(abort_jump, 1);
}

static uint64_t t_now(void) { return 123456789u; }

static void setup(void) {
  nccc_platform_set(NULL);
  defaults = *nccc_platform_get();
  n_alloc = n_free = fail_alloc = 0;
  last_size = 0;
  last_alloc = last_freed = NULL;
  n_lock = n_unlock = held = nested = probing = 0;
  watch = NULL;
  seen_at_lock = seen_at_unlock = -1;
  nccc_check_init(NULL);
}

static void teardown(void) { nccc_platform_set(NULL); }

static void f_nop(const uint64_t *in, uint64_t *out) {
  (void)in;
  (void)out;
}

/* Calls built-in index through the root, as a host would. */
static uint64_t bcall(unsigned index, const uint64_t *in, uint64_t *out) {
  uint64_t rin[1] = {index}, rout[4];
  nccc_root(rin, rout);
  ck_assert_uint_eq(rout[0], NCCC_OK);
  ((nccc_fn)(uintptr_t)rout[1])(in, out);
  return out[0];
}

/* ---- tests -------------------------------------------------------------- */

START_TEST(test_defaults) {
  const nccc_platform *p = nccc_platform_get();
  ck_assert_ptr_nonnull(p);
  ck_assert_ptr_nonnull(p->abort);
  ck_assert_ptr_nonnull(p->alloc);
  ck_assert_ptr_nonnull(p->free);
  ck_assert_ptr_null(p->lock);
  ck_assert_ptr_null(p->unlock);
  /* the hosted default allocator works */
  void *m = p->alloc(32);
  ck_assert_ptr_nonnull(m);
  memset(m, 0, 32);
  p->free(m);
}
END_TEST

START_TEST(test_set_and_restore) {
  nccc_platform mine = {t_abort, count_alloc, count_free,
                        t_lock,  t_unlock,    t_now,      NULL};
  nccc_platform_set(&mine);
  const nccc_platform *p = nccc_platform_get();
  ck_assert(p->abort == t_abort);
  ck_assert(p->alloc == count_alloc);
  ck_assert(p->free == count_free);
  ck_assert(p->lock == t_lock);
  ck_assert(p->unlock == t_unlock);
  ck_assert(p->now_ns == t_now);
  ck_assert_uint_eq(p->now_ns(), 123456789u);
  /* the caller's struct is copied, not kept */
  mine.alloc = NULL;
  ck_assert(nccc_platform_get()->alloc == count_alloc);

  nccc_platform_set(NULL);
  p = nccc_platform_get();
  ck_assert(p->abort == defaults.abort);
  ck_assert(p->alloc == defaults.alloc);
  ck_assert(p->free == defaults.free);
  ck_assert_ptr_null(p->lock);
  ck_assert_ptr_null(p->unlock);
  ck_assert(p->now_ns == defaults.now_ns);
}
END_TEST

START_TEST(test_partial_set) {
  nccc_platform only_alloc = {NULL, count_alloc, NULL, NULL, NULL, NULL, NULL};
  nccc_platform_set(&only_alloc);
  const nccc_platform *p = nccc_platform_get();
  ck_assert(p->alloc == count_alloc);
  /* NULL members keep the defaults */
  ck_assert(p->abort == defaults.abort);
  ck_assert(p->free == defaults.free);
  ck_assert_ptr_null(p->lock);
  ck_assert_ptr_null(p->unlock);
}
END_TEST

START_TEST(test_alloc_hooks_used) {
  nccc_platform mine = {NULL, count_alloc, count_free, NULL, NULL, NULL, NULL};
  nccc_platform_set(&mine);
  uint64_t in[1] = {100}, out[2] = {0, 0};
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_ALLOC, in, out), NCCC_OK);
  ck_assert_int_eq(n_alloc, 1);
  ck_assert_uint_eq(last_size, 100);
  ck_assert_ptr_eq(nccc_slot_to_ptr(out[1]), last_alloc);
  in[0] = out[1];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_FREE, in, out), NCCC_OK);
  ck_assert_int_eq(n_free, 1);
  ck_assert_ptr_eq(last_freed, last_alloc);

  /* an allocator that fails gives NCCC_ERR_NO_MEMORY, never a NULL "OK" */
  fail_alloc = 1;
  in[0] = 16;
  out[1] = 0x5a5a;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_ALLOC, in, out), NCCC_ERR_NO_MEMORY);
  ck_assert_uint_eq(out[1], 0x5a5a);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NO_MEMORY);
  ck_assert_int_eq(n_alloc, 2);

  /* after restoring the defaults the counting hooks are not called */
  nccc_platform_set(NULL);
  fail_alloc = 0;
  in[0] = 8;
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_ALLOC, in, out), NCCC_OK);
  in[0] = out[1];
  ck_assert_uint_eq(bcall(NCCC_BUILTIN_FREE, in, out), NCCC_OK);
  ck_assert_int_eq(n_alloc, 2);
  ck_assert_int_eq(n_free, 1);
}
END_TEST

START_TEST(test_lock_around_register) {
  nccc_platform mine = {NULL, NULL, NULL, t_lock, t_unlock, NULL, NULL};
  nccc_platform_set(&mine);
  watch = "locked.name";
  ck_assert_int_eq(nccc_register(watch, f_nop, ":", 0, NULL), NCCC_OK);
  ck_assert_int_ge(n_lock, 1);
  ck_assert_int_eq(n_lock, n_unlock);
  ck_assert_int_eq(nested, 0);
  ck_assert_int_eq(held, 0);
  /* taken before the name went in, released after */
  ck_assert_int_eq(seen_at_lock, 0);
  ck_assert_int_eq(seen_at_unlock, 1);

  /* a failing registration releases the lock too */
  watch = NULL;
  int before = n_lock;
  ck_assert_int_eq(nccc_register("locked.name", f_nop, ":", 0, NULL),
                   NCCC_ERR_ALREADY_DEFINED);
  ck_assert_int_gt(n_lock, before);
  ck_assert_int_eq(n_lock, n_unlock);
  ck_assert_int_eq(held, 0);
}
END_TEST

START_TEST(test_lock_around_modules) {
  NCCC_NAMES_BLOB(names, 1, "nop\0");
  static const nccc_fn funcs[] = {f_nop};
  static const nccc_fn_info info[] = {{":", 0, 0, 2}};
  static const nccc_registry reg = {(const char *)&names, funcs, info, NULL, NULL};
  static const nccc_module mod = {"locked", &reg, NULL, 0, 0, NULL};
  nccc_platform mine = {NULL, NULL, NULL, t_lock, t_unlock, NULL, NULL};
  nccc_platform_set(&mine);
  uint16_t idx;
  ck_assert_int_eq(nccc_module_add(&mod, &idx), NCCC_OK);
  ck_assert_int_ge(n_lock, 1);
  int after_add = n_lock;
  ck_assert_int_eq(nccc_module_add(&mod, NULL), NCCC_ERR_ALREADY_DEFINED);
  ck_assert_int_eq(nccc_module_remove(idx), NCCC_OK);
  ck_assert_int_gt(n_lock, after_add);
  ck_assert_int_eq(n_lock, n_unlock);
  ck_assert_int_eq(nested, 0);
  ck_assert_int_eq(held, 0);
}
END_TEST

START_TEST(test_abort_hook) {
  nccc_platform mine = {t_abort, NULL, NULL, NULL, NULL, NULL, NULL};
  nccc_platform_set(&mine);
  abort_status = NCCC_OK;
  if (setjmp(abort_jump) == 0) {
    nccc_platform_abort(NCCC_ERR_PLATFORM_CHECK);
    ck_abort_msg("abort hook returned");
  }
  ck_assert_int_eq(abort_status, NCCC_ERR_PLATFORM_CHECK);
}
END_TEST

/* Two threads register at once through a real mutex: every name gets in,
** each under its own index. */
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static void m_lock(void) { pthread_mutex_lock(&mutex); }
static void m_unlock(void) { pthread_mutex_unlock(&mutex); }

#define PER_THREAD 18

static void *registrar(void *arg) {
  const char *prefix = arg;
  for (int i = 0; i < PER_THREAD; i++) {
    char name[16];
    snprintf(name, sizeof name, "%s%d", prefix, i);
    if (nccc_register(name, f_nop, ":", 0, NULL) != NCCC_OK) return arg;
  }
  return NULL;
}

START_TEST(test_concurrent_register) {
  nccc_platform mine = {NULL, NULL, NULL, m_lock, m_unlock, NULL, NULL};
  nccc_platform_set(&mine);
  pthread_t a, b;
  void *ra, *rb;
  ck_assert_int_eq(pthread_create(&a, NULL, registrar, "a"), 0);
  ck_assert_int_eq(pthread_create(&b, NULL, registrar, "b"), 0);
  pthread_join(a, &ra);
  pthread_join(b, &rb);
  ck_assert_ptr_null(ra);
  ck_assert_ptr_null(rb);
  int seen[2 * PER_THREAD] = {0};
  for (int t = 0; t < 2; t++) {
    for (int i = 0; i < PER_THREAD; i++) {
      char name[16];
      snprintf(name, sizeof name, "%s%d", t ? "b" : "a", i);
      nccc_handle h;
      uint16_t m, f;
      ck_assert_int_eq(nccc_lookup(name, &h), NCCC_OK);
      ck_assert_int_eq(nccc_handle_decode(h, &m, &f), NCCC_OK);
      ck_assert_uint_eq(m, NCCC_GLOBAL_MODULE);
      ck_assert_uint_lt(f, 2 * PER_THREAD);
      seen[f]++;
      const char *got = NULL;
      ck_assert_int_eq(nccc_function(h, NULL, NULL, &got), NCCC_OK);
      ck_assert_str_eq(got, name);
    }
  }
  for (int i = 0; i < 2 * PER_THREAD; i++) ck_assert_int_eq(seen[i], 1);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("platform");
  nccc_check_tcase(s, "platform", setup, teardown,
                   NCCC_CHECK_TESTS(test_defaults, test_set_and_restore,
                                    test_partial_set, test_alloc_hooks_used,
                                    test_lock_around_register,
                                    test_lock_around_modules, test_abort_hook,
                                    test_concurrent_register));
  return s;
}
