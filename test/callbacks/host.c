/*
** host.c — the C stand-in for a host (see host.h).
*/
#define _XOPEN_SOURCE 700 /* pthread_mutexattr_settype */
#include <check.h>
#include <pthread.h>
#include <string.h>

#include <nccc/nccc.h>

#include "host.h"

#define MAX_REFS 4096

static struct {
  host_proc proc;
  void *data;
  int held;
  int calls;
  int notices;
  uint64_t notice_ctx, notice_member;
} refs[MAX_REFS];
static int n_refs;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* Problems seen by the dispatcher, which may run on any thread (a
** failed check there could not unwind the test): counted, and checked by
** the tests with host_errors(). */
static int dispatch_errors;

void host_reset(void) {
  pthread_mutex_lock(&table_lock);
  memset(refs, 0, sizeof refs);
  n_refs = 0;
  dispatch_errors = 0;
  pthread_mutex_unlock(&table_lock);
}

uint64_t host_ref(host_proc proc, void *data) {
  uint64_t env;
  pthread_mutex_lock(&table_lock);
  ck_assert_int_lt(n_refs, MAX_REFS);
  refs[n_refs].proc = proc;
  refs[n_refs].data = data;
  refs[n_refs].held = 1;
  env = (uint64_t)++n_refs;
  pthread_mutex_unlock(&table_lock);
  return env;
}

void *host_claim(const char *sig, host_proc proc, void *data, unsigned flags,
                 uint64_t *env) {
  void *ctx = NULL;
  uint64_t e = host_ref(proc, data);
  ck_assert_int_eq(nccc_closure_claim_typed(host_dispatch, e, flags, sig, &ctx), NCCC_OK);
  ck_assert_ptr_nonnull(ctx);
  if (env != NULL) *env = e;
  return ctx;
}

void host_dispatch(const uint64_t *in, uint64_t *out) {
  uint64_t env = in[0];
  host_proc proc;
  void *data;
  pthread_mutex_lock(&table_lock);
  if (env < 1 || env > (uint64_t)n_refs) {
    dispatch_errors++;
    pthread_mutex_unlock(&table_lock);
    return;
  }
  if (!refs[env - 1].held) dispatch_errors++; /* called or notified after release */
  if (out == NULL) {
    refs[env - 1].held = 0;
    refs[env - 1].notices++;
    refs[env - 1].notice_ctx = in[1];
    refs[env - 1].notice_member = in[2];
    pthread_mutex_unlock(&table_lock);
    return;
  }
  refs[env - 1].calls++;
  proc = refs[env - 1].proc;
  data = refs[env - 1].data;
  pthread_mutex_unlock(&table_lock);
  proc(in + 1, out, data);
}

int host_errors(void) {
  int n;
  pthread_mutex_lock(&table_lock);
  n = dispatch_errors;
  pthread_mutex_unlock(&table_lock);
  return n;
}

static int field(uint64_t env, int which) {
  int v;
  pthread_mutex_lock(&table_lock);
  ck_assert_uint_ge(env, 1);
  ck_assert_uint_le(env, (uint64_t)n_refs);
  v = which == 0 ? refs[env - 1].held
      : which == 1 ? refs[env - 1].calls
                   : refs[env - 1].notices;
  pthread_mutex_unlock(&table_lock);
  return v;
}

int host_alive(uint64_t env) { return field(env, 0); }
int host_calls(uint64_t env) { return field(env, 1); }
int host_notices(uint64_t env) { return field(env, 2); }
uint64_t host_notice_ctx(uint64_t env) { return refs[env - 1].notice_ctx; }
uint64_t host_notice_member(uint64_t env) { return refs[env - 1].notice_member; }

int host_live(void) {
  int i, n = 0;
  pthread_mutex_lock(&table_lock);
  for (i = 0; i < n_refs; i++) n += refs[i].held;
  pthread_mutex_unlock(&table_lock);
  return n;
}

/* ---- the platform lock --------------------------------------------------- */

static pthread_mutex_t runtime_lock;
static int lock_errors;

static void lock(void) {
  if (pthread_mutex_lock(&runtime_lock) != 0) lock_errors++;
}
static void unlock(void) {
  if (pthread_mutex_unlock(&runtime_lock) != 0) lock_errors++;
}

void host_install_lock(void) {
  pthread_mutexattr_t a;
  nccc_platform p;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&runtime_lock, &a);
  pthread_mutexattr_destroy(&a);
  lock_errors = 0;
  p = *nccc_platform_get();
  p.lock = lock;
  p.unlock = unlock;
  nccc_platform_set(&p);
}

void host_remove_lock(void) {
  nccc_platform p = *nccc_platform_get();
  p.lock = NULL;
  p.unlock = NULL;
  nccc_platform_set(&p);
  pthread_mutex_destroy(&runtime_lock);
}

int host_lock_errors(void) { return lock_errors; }
