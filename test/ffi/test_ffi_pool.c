/*
** test_ffi_pool.c — the forwarder pool: exhaustion, reuse, release and
** what a call through a released forwarder does, registration, refused
** signatures, the nccc_ffi module and concurrent use. Built twice: with
** the default pool and with a small one (11 forwarders, 3 arguments).
*/
/* PTHREAD_MUTEX_ERRORCHECK */
#define _XOPEN_SOURCE 700

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forwarder_fixture.h"
#include "nccc_check.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5au
#define TARGET(f) ((nccc_ffi_target)(f))
#define FN_SLOT(f) ((uint64_t)(uintptr_t)(f))
#define SLOT_FN(s) ((nccc_fn)(uintptr_t)(s))

static int plus_calls, minus_calls;
static int64_t plus1(int64_t x) {
  plus_calls++;
  return x + 1;
}
static int64_t minus1(int64_t x) {
  minus_calls++;
  return x - 1;
}
static int64_t plus2(int64_t x) { return x + 2; }

static void setup(void) {
  plus_calls = minus_calls = 0;
  fwd_setup();
}
static int64_t call1(nccc_fn fn, int64_t x) {
  uint64_t in[1] = {nccc_slot_from_i64(x)}, out[2] = {SENTINEL, SENTINEL};
  fn(in, out);
  ck_assert_uint_eq(out[1], SENTINEL);
  return nccc_slot_to_i64(out[0]);
}

static void assert_refused_call(void) {
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_HANDLE);
  ck_assert_str_eq(nccc_last_error(), "call through a released forwarder");
}

/* Fills the whole pool with forwarders of target; fns gets them. */
static void fill(nccc_fn *fns, nccc_ffi_target target) {
  unsigned k, n = nccc_ffi_capacity();
  for (k = 0; k < n; k++) fns[k] = fwd_make(target, "l:l");
  ck_assert_uint_eq(nccc_ffi_available(), 0);
}
static void drop_all(nccc_fn *fns) {
  unsigned k;
  for (k = 0; k < nccc_ffi_capacity(); k++) fwd_drop(fns[k]);
}

/* ---- the pool -------------------------------------------------------------- */

START_TEST(test_capacity) {
  ck_assert_uint_eq(nccc_ffi_capacity(), NCCC_FFI_MAX_FORWARDERS);
  ck_assert_uint_eq(nccc_ffi_available(), NCCC_FFI_MAX_FORWARDERS);
}
END_TEST

START_TEST(test_exhaustion_and_reuse) {
  nccc_fn fns[NCCC_FFI_MAX_FORWARDERS], extra = SLOT_FN(SENTINEL);
  unsigned i, j, n = nccc_ffi_capacity(), mid = n / 2;
  fill(fns, TARGET(plus1));
  for (i = 0; i < n; i++) {
    ck_assert_ptr_nonnull(fns[i]);
    for (j = 0; j < i; j++) ck_assert_ptr_ne(fns[i], fns[j]);
    ck_assert_int_eq(call1(fns[i], 41), 42);
  }
  ck_assert_int_eq(plus_calls, (int)n);

  ck_assert_int_eq(nccc_ffi_create(TARGET(minus1), "l:l", &extra),
                   NCCC_ERR_REGISTRY_FULL);
  ck_assert_ptr_eq(extra, SLOT_FN(SENTINEL)); /* untouched */
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_REGISTRY_FULL);
  ck_assert_msg(strstr(nccc_last_error(), "forwarder pool full") != NULL,
                "%s", nccc_last_error());

  fwd_drop(fns[mid]);
  ck_assert_uint_eq(nccc_ffi_available(), 1);
  extra = fwd_make(TARGET(minus1), "l:l");
  ck_assert_ptr_eq(extra, fns[mid]); /* the one free slot */
  ck_assert_int_eq(call1(extra, 41), 40);
  ck_assert_int_eq(minus_calls, 1);
  for (i = 0; i < n; i++) {
    if (i != mid) ck_assert_int_eq(call1(fns[i], 1), 2);
  }
  drop_all(fns);
}
END_TEST

START_TEST(test_reuse_oldest_released_first) {
  nccc_fn fns[NCCC_FFI_MAX_FORWARDERS];
  unsigned n = nccc_ffi_capacity();
  if (n < 3) ck_abort_msg("needs a pool of 3 or more");
  fill(fns, TARGET(plus1));
  fwd_drop(fns[2]);
  fwd_drop(fns[0]);
  fwd_drop(fns[1]);
  ck_assert_ptr_eq(fwd_make(TARGET(plus1), "l:l"), fns[2]);
  ck_assert_ptr_eq(fwd_make(TARGET(plus1), "l:l"), fns[0]);
  ck_assert_ptr_eq(fwd_make(TARGET(plus1), "l:l"), fns[1]);
  drop_all(fns);
}
END_TEST

START_TEST(test_released_call_refused) {
  /* the strtol shape: result, errno; a third slot must stay as it was */
  nccc_fn fn = fwd_make(TARGET(plus1), "l:le");
  uint64_t in[1] = {nccc_slot_from_i64(1)};
  uint64_t out[3] = {SENTINEL, SENTINEL, SENTINEL};
  fn(in, out);
  ck_assert_int_eq(plus_calls, 1);
  ck_assert_uint_eq(out[0], 2);
  ck_assert_uint_eq(out[1], 0);
  fwd_drop(fn);
  nccc_clear_error();
  out[0] = out[1] = SENTINEL;
  fn(in, out);
  ck_assert_int_eq(plus_calls, 1); /* not called */
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_uint_eq(out[2], SENTINEL);
  assert_refused_call();

  /* a void forwarder writes nothing, refused or not */
  fn = fwd_make(TARGET(plus1), "l:");
  fwd_drop(fn);
  nccc_clear_error();
  out[0] = SENTINEL;
  fn(in, out);
  ck_assert_int_eq(plus_calls, 1);
  ck_assert_uint_eq(out[0], SENTINEL);
  assert_refused_call();
}
END_TEST

START_TEST(test_release_errors) {
  nccc_fn fn = fwd_make(TARGET(plus1), "l:l");
  nccc_handle h;
  nccc_fn builtin;
  ck_assert_int_eq(nccc_ffi_release(NULL), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_lookup("nccc.strlen", &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, &builtin, NULL, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_ffi_release(builtin), NCCC_ERR_INVALID_ARG);
  ck_assert_str_eq(nccc_last_error(), "forwarder release: not a forwarder");
  ck_assert_uint_eq(nccc_ffi_available(), nccc_ffi_capacity() - 1);
  fwd_drop(fn);
  ck_assert_int_eq(nccc_ffi_release(fn), NCCC_ERR_INVALID_ARG);
  ck_assert_str_eq(nccc_last_error(), "forwarder release: released already");
}
END_TEST

/* ---- registration ----------------------------------------------------------- */

START_TEST(test_register_and_call_checked) {
  nccc_handle h, found;
  nccc_fn fn;
  const nccc_fn_info *info;
  const char *name;
  uint64_t in[1] = {nccc_slot_from_i64(-1)}, out[1] = {SENTINEL};
  ck_assert_int_eq(nccc_ffi_register("fwd.plus1", TARGET(plus1), "l:l", 0, &h),
                   NCCC_OK);
  ck_assert_int_eq(nccc_lookup("fwd.plus1", &found), NCCC_OK);
  ck_assert_uint_eq(found, h);
  ck_assert_int_eq(nccc_function(h, &fn, &info, &name), NCCC_OK);
  ck_assert_str_eq(info->signature, "l:l");
  ck_assert_uint_eq(info->n_in, 1);
  ck_assert_uint_eq(info->n_out, 1);
  ck_assert_str_eq(name, "fwd.plus1");
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_call_checked(h, in, 2, out, 1), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(plus_calls, 1);
  fwd_drop(fn);
}
END_TEST

START_TEST(test_registered_release_then_reuse) {
  nccc_fn fns[NCCC_FFI_MAX_FORWARDERS], fn, now;
  nccc_handle h, h2;
  const nccc_fn_info *info;
  uint64_t in[1] = {nccc_slot_from_i64(10)}, out[2] = {SENTINEL, SENTINEL};
  unsigned k, n = nccc_ffi_capacity();
  bool reused = false;

  ck_assert_int_eq(nccc_ffi_register("count", TARGET(plus1), "l:l", 0, &h),
                   NCCC_OK);
  ck_assert_int_eq(nccc_function(h, &fn, NULL, NULL), NCCC_OK);
  fwd_drop(fn);

  /* the entry stays, with its name, signature and handle, but calls nothing */
  ck_assert_int_eq(nccc_function(h, &now, &info, NULL), NCCC_OK);
  ck_assert_ptr_ne(now, fn);
  ck_assert_str_eq(info->signature, "l:l");
  nccc_clear_error();
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[1], SENTINEL);
  assert_refused_call();

  /* every slot taken again, the released one by a new target: the old
  ** entry must still not reach it */
  fill(fns, TARGET(minus1));
  for (k = 0; k < n; k++) reused = reused || fns[k] == fn;
  ck_assert(reused);
  nccc_clear_error();
  out[0] = SENTINEL;
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(plus_calls, 0);
  ck_assert_int_eq(minus_calls, 0);
  assert_refused_call();
  /* while the released pointer itself now forwards to the new target */
  ck_assert_int_eq(call1(fn, 10), 9);
  drop_all(fns);

  /* the name of a released forwarder can be taken without override */
  ck_assert_int_eq(nccc_ffi_register("count", TARGET(plus2), "l:l", 0, &h2),
                   NCCC_OK);
  ck_assert_uint_eq(h2, h); /* replaced in place */
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 12);
  ck_assert_int_eq(nccc_function(h, &fn, NULL, NULL), NCCC_OK);
  fwd_drop(fn);
}
END_TEST

START_TEST(test_release_unhooks_every_name) {
  nccc_fn f = fwd_make(TARGET(plus1), "l:l"),
          g = fwd_make(TARGET(minus1), "l:l");
  nccc_handle ha, hb, hc;
  uint64_t in[1] = {nccc_slot_from_i64(5)}, out[1];
  ck_assert_int_eq(nccc_register("a", f, "l:l", 0, &ha), NCCC_OK);
  ck_assert_int_eq(nccc_register("b", f, "l:l", 0, &hb), NCCC_OK);
  ck_assert_int_eq(nccc_register("c", g, "l:l", 0, &hc), NCCC_OK);
  fwd_drop(f);
  out[0] = SENTINEL;
  ck_assert_int_eq(nccc_call(ha, in, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 0);
  out[0] = SENTINEL;
  ck_assert_int_eq(nccc_call(hb, in, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(plus_calls, 0);
  ck_assert_int_eq(nccc_call(hc, in, out), NCCC_OK);
  ck_assert_uint_eq(out[0], 4);
  ck_assert_int_eq(minus_calls, 1);
  fwd_drop(g);
}
END_TEST

START_TEST(test_release_keeps_last_error) {
  nccc_fn f = fwd_make(TARGET(plus1), "l:l");
  ck_assert_int_eq(nccc_register("a", f, "l:l", 0, NULL), NCCC_OK);
  nccc_fail(NCCC_ERR_NAME_NOT_FOUND, "earlier failure", "x");
  fwd_drop(f);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_str_eq(nccc_last_error(), "earlier failure: x");
  f = fwd_make(TARGET(plus1), "l:l");
  ck_assert_int_eq(nccc_register("a", f, "l:l", 1, NULL), NCCC_OK);
  nccc_clear_error();
  fwd_drop(f);
  ck_assert_int_eq(nccc_last_status(), NCCC_OK);
  ck_assert_str_eq(nccc_last_error(), "");
}
END_TEST

static void other(const uint64_t *in, uint64_t *out) { out[0] = in[0]; }

START_TEST(test_register_errors) {
  nccc_handle h = 0;
  unsigned n = nccc_ffi_capacity();
  ck_assert_int_eq(nccc_ffi_register(NULL, TARGET(plus1), "l:l", 0, &h),
                   NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_ffi_register("", TARGET(plus1), "l:l", 0, &h),
                   NCCC_ERR_BAD_NAME);
  ck_assert_int_eq(nccc_ffi_register("x", TARGET(plus1), "l:{s}", 0, &h),
                   NCCC_ERR_BAD_SIGNATURE);
  ck_assert_int_eq(nccc_register("taken", other, "l:l", 0, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_ffi_register("taken", TARGET(plus1), "l:l", 0, &h),
                   NCCC_ERR_ALREADY_DEFINED);
  ck_assert_str_eq(nccc_last_error(), "function already defined: taken");
  ck_assert_uint_eq(h, 0);
  ck_assert_uint_eq(nccc_ffi_available(), n); /* nothing left in use */
  ck_assert_int_eq(nccc_ffi_register("taken", TARGET(plus1), "l:l", 1, &h),
                   NCCC_OK);
  ck_assert_uint_eq(nccc_ffi_available(), n - 1);
  {
    nccc_fn fn;
    ck_assert_int_eq(nccc_function(h, &fn, NULL, NULL), NCCC_OK);
    fwd_drop(fn);
  }
}
END_TEST

/* ---- signatures --------------------------------------------------------------- */

START_TEST(test_bad_signatures) {
  static const struct {
    const char *sig, *why;
  } bad[] = {
      {"l", "no ':'"},
      {"{point:2}:d", "struct"},
      {"{point}:d", "struct"},
      {"d:{point:2}", "struct"},
      {"d*:d", "'*'"},
      {"d:d*", "'*'"},
      {"*:", "'*'"},
      {"e:d", "errno"},
      {"d:ed", "last"},
      {"d:ee", "last"},
      {"d:dd", "return value"},
      {"d:de?", "last"},
      {"x:d", "unknown"},
      {"d:d:", "unknown"},
      {"d :d", "unknown"},
  };
  unsigned n = nccc_ffi_capacity();
  size_t k;
  for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    nccc_fn fn = SLOT_FN(SENTINEL);
    ck_assert_msg(nccc_ffi_create(TARGET(plus1), bad[k].sig, &fn) ==
                      NCCC_ERR_BAD_SIGNATURE, "%s", bad[k].sig);
    ck_assert_ptr_eq(fn, SLOT_FN(SENTINEL));
    ck_assert_msg(strstr(nccc_last_error(), bad[k].why) != NULL,
                  "%s: %s", bad[k].sig, nccc_last_error());
    ck_assert_msg(strstr(nccc_last_error(), bad[k].sig) != NULL,
                  "%s: %s", bad[k].sig, nccc_last_error());
    ck_assert_int_eq(nccc_ffi_check_signature(bad[k].sig),
                     NCCC_ERR_BAD_SIGNATURE);
  }
  ck_assert_uint_eq(nccc_ffi_available(), n);
  {
    nccc_fn fn = SLOT_FN(SENTINEL);
    ck_assert_int_eq(nccc_ffi_create(NULL, "l:l", &fn), NCCC_ERR_NULL_POINTER);
    ck_assert_int_eq(nccc_ffi_create(TARGET(plus1), NULL, &fn),
                     NCCC_ERR_NULL_POINTER);
    ck_assert_int_eq(nccc_ffi_create(TARGET(plus1), "l:l", NULL),
                     NCCC_ERR_NULL_POINTER);
    ck_assert_int_eq(nccc_ffi_check_signature(NULL), NCCC_ERR_NULL_POINTER);
    ck_assert_ptr_eq(fn, SLOT_FN(SENTINEL));
  }
}
END_TEST

START_TEST(test_argument_limit) {
  char sig[NCCC_FFI_MAX_ARGS + 8];
  nccc_fn fn = SLOT_FN(SENTINEL);
  memset(sig, 'i', NCCC_FFI_MAX_ARGS);
  strcpy(sig + NCCC_FFI_MAX_ARGS, ":i");
  ck_assert_int_eq(nccc_ffi_check_signature(sig), NCCC_OK);
  memset(sig, 'i', NCCC_FFI_MAX_ARGS + 1);
  strcpy(sig + NCCC_FFI_MAX_ARGS + 1, ":i");
  ck_assert_int_eq(nccc_ffi_create(TARGET(plus1), sig, &fn),
                   NCCC_ERR_BAD_SIGNATURE);
  ck_assert_ptr_eq(fn, SLOT_FN(SENTINEL));
  {
    char want[64];
    snprintf(want, sizeof want, "more than %d arguments", NCCC_FFI_MAX_ARGS);
    ck_assert_msg(strstr(nccc_last_error(), want) != NULL, "%s",
                  nccc_last_error());
  }
}
END_TEST

START_TEST(test_good_signatures) {
  static const char *const good[] = {
      ":", ":e", "l:", "l:e", ":?", ":F", "d:de", "sp:pe", "fi:f", "Fs:F"};
  static const char all[] = "?bBhHiIlLfdpsF";
  size_t k;
  char sig[32];
  for (k = 0; k < sizeof good / sizeof good[0]; k++) {
    ck_assert_msg(nccc_ffi_check_signature(good[k]) == NCCC_OK, "%s: %s",
                  good[k], nccc_last_error());
  }
  /* every code as the result, and as an argument */
  for (k = 0; k < sizeof all - 1; k++) {
    snprintf(sig, sizeof sig, "%c:%ce", all[k], all[k]);
    ck_assert_msg(nccc_ffi_check_signature(sig) == NCCC_OK, "%s", sig);
  }
  snprintf(sig, sizeof sig, "%s:F", all);
  ck_assert_int_eq(nccc_ffi_check_signature(sig),
                   NCCC_FFI_MAX_ARGS >= 14 ? NCCC_OK : NCCC_ERR_BAD_SIGNATURE);
}
END_TEST

/* ---- the module for hosts -------------------------------------------------- */

static nccc_handle lookup(const char *name) {
  nccc_handle h = 0;
  ck_assert_msg(nccc_lookup(name, &h) == NCCC_OK, "%s", name);
  return h;
}

START_TEST(test_module) {
  uint16_t index;
  uint64_t in[4], out[3];
  nccc_handle h_create, h_register, h_release, h_available, h;
  unsigned n = nccc_ffi_capacity();
  nccc_fn fn;

  ck_assert_int_eq(nccc_ffi_module_add(&index), NCCC_OK);
  ck_assert_int_eq(nccc_ffi_module_add(NULL), NCCC_ERR_ALREADY_DEFINED);
  h_create = lookup("nccc_ffi.create");
  h_register = lookup("nccc_ffi.register");
  h_release = lookup("nccc_ffi.release");
  h_available = lookup("nccc_ffi.available");

  ck_assert_int_eq(nccc_call_checked(h_available, NULL, 0, out, 3), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_eq(out[1], n);
  ck_assert_uint_eq(out[2], n);

  in[0] = FN_SLOT(plus1);
  in[1] = nccc_slot_from_ptr("l:l");
  ck_assert_int_eq(nccc_call_checked(h_create, in, 2, out, 2), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_OK);
  fn = SLOT_FN(out[1]);
  ck_assert_int_eq(call1(fn, 6), 7);

  in[1] = nccc_slot_from_ptr("l:{s:1}");
  ck_assert_int_eq(nccc_call_checked(h_create, in, 2, out, 2), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_ERR_BAD_SIGNATURE);

  in[0] = nccc_slot_from_ptr("host.minus1");
  in[1] = FN_SLOT(minus1);
  in[2] = nccc_slot_from_ptr("l:l");
  in[3] = nccc_slot_from_bool(false);
  ck_assert_int_eq(nccc_call_checked(h_register, in, 4, out, 2), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_OK);
  h = (nccc_handle)out[1];
  ck_assert_uint_eq(h, lookup("host.minus1"));
  in[0] = nccc_slot_from_i64(0);
  ck_assert_int_eq(nccc_call_checked(h, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(-1));

  ck_assert_int_eq(nccc_call_checked(h_available, NULL, 0, out, 3), NCCC_OK);
  ck_assert_uint_eq(out[1], n - 2);

  in[0] = FN_SLOT(fn);
  ck_assert_int_eq(nccc_call_checked(h_release, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_int_eq(nccc_call_checked(h_release, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_function(h, &fn, NULL, NULL), NCCC_OK);
  in[0] = FN_SLOT(fn);
  ck_assert_int_eq(nccc_call_checked(h_release, in, 1, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_OK);
}
END_TEST

/* ---- concurrent use ----------------------------------------------------------- */

static pthread_mutex_t lock;
static void t_lock(void) {
  if (pthread_mutex_lock(&lock) != 0) abort(); /* EDEADLK: taken twice */
}
static void t_unlock(void) {
  if (pthread_mutex_unlock(&lock) != 0) abort();
}

#define THREADS 4
#define ROUNDS 300

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg, r;
  char name[16];
  snprintf(name, sizeof name, "t%d", id);
  for (r = 0; r < ROUNDS; r++) {
    nccc_fn fn;
    nccc_handle h;
    uint64_t in[1] = {nccc_slot_from_i64(r)}, out[1] = {SENTINEL};
    if (nccc_ffi_create(TARGET(plus2), "l:l", &fn) != NCCC_OK) return "create";
    fn(in, out);
    if (out[0] != (uint64_t)r + 2) return "call";
    if (nccc_ffi_register(name, TARGET(plus2), "l:l", r % 2, &h) != NCCC_OK) {
      return "register";
    }
    out[0] = SENTINEL;
    if (nccc_call(h, in, out) != NCCC_OK || out[0] != (uint64_t)r + 2) {
      return "call by handle";
    }
    if (nccc_ffi_release(fn) != NCCC_OK) return "release";
    if (nccc_function(h, &fn, NULL, NULL) != NCCC_OK) return "function";
    if (nccc_ffi_release(fn) != NCCC_OK) return "release registered";
  }
  return NULL;
}

START_TEST(test_threads) {
  pthread_t t[THREADS];
  pthread_mutexattr_t attr;
  nccc_platform p;
  int k;
  if (nccc_ffi_capacity() < THREADS) ck_abort_msg("pool smaller than THREADS");
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&lock, &attr);
  memset(&p, 0, sizeof p);
  p.lock = t_lock;
  p.unlock = t_unlock;
  nccc_platform_set(&p);
  for (k = 0; k < THREADS; k++) {
    ck_assert_int_eq(pthread_create(&t[k], NULL, worker, (void *)(intptr_t)k), 0);
  }
  for (k = 0; k < THREADS; k++) {
    void *res;
    ck_assert_int_eq(pthread_join(t[k], &res), 0);
    ck_assert_msg(res == NULL, "thread %d failed at %s", k, (const char *)res);
  }
  nccc_platform_set(NULL);
  pthread_mutex_destroy(&lock);
  pthread_mutexattr_destroy(&attr);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("ffi_pool");
  nccc_check_tcase(s, "pool", setup, fwd_teardown,
                   NCCC_CHECK_TESTS(test_capacity, test_exhaustion_and_reuse,
                                    test_reuse_oldest_released_first,
                                    test_released_call_refused,
                                    test_release_errors,
                                    test_register_and_call_checked,
                                    test_registered_release_then_reuse,
                                    test_release_unhooks_every_name,
                                    test_release_keeps_last_error,
                                    test_register_errors, test_bad_signatures,
                                    test_argument_limit, test_good_signatures,
                                    test_module, test_threads));
  return s;
}
