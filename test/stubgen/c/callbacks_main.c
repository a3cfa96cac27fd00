/*
** callbacks_main.c — calls the wrappers generated from
** test/stubgen/idl/cbk.idl through the runtime, with a host of a
** few lines: one dispatcher, procedures in a table indexed by the
** environment word, release notices counted.
*/
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbk_nccc.h"
#include "harness.h"

/* ---- the host ------------------------------------------------------------ */
typedef void (*proc)(const uint64_t *args, uint64_t *results);
static proc table[16];
static int calls[16], notices[16], n_procs;

static void dispatch(const uint64_t *in, uint64_t *out) {
  uint64_t env = in[0];
  if (env >= (uint64_t)n_procs) {
    CHECK(env < (uint64_t)n_procs);
    return;
  }
  if (out == NULL) {
    notices[env]++;
    return;
  }
  calls[env]++;
  table[env](in + 1, out);
}

static void *claim(const char *sig, proc p, unsigned scope, uint64_t *env) {
  void *ctx = NULL;
  *env = (uint64_t)n_procs;
  table[n_procs++] = p;
  CHECK(nccc_closure_claim_typed(dispatch, *env, scope | NCCC_CLOSURE_NOTIFY, sig, &ctx) ==
        NCCC_OK);
  return ctx;
}

static uint32_t in_use(void) {
  nccc_closure_stats s;
  nccc_closure_get_stats(&s);
  return s.in_use;
}

static nccc_handle H(const char *name) {
  nccc_handle h = 0;
  CHECK(nccc_lookup(name, &h) == NCCC_OK);
  return h;
}

static void p_sum_squares(const uint64_t *a, uint64_t *r) {
  float x = nccc_slot_to_float(a[1]);
  r[0] = nccc_slot_from_double(nccc_slot_to_double(a[0]) + (double)x * x);
}

static void p_is_vowel(const uint64_t *a, uint64_t *r) {
  char c = (char)nccc_slot_to_i64(a[0]);
  r[0] = nccc_slot_from_bool(c != 0 && strchr("aeiou", c) != NULL);
}

/* read_fn: out[1] = value, out[2] = new budget, out[3] = errno */
static int reads;
static void p_read(const uint64_t *a, uint64_t *r) {
  long budget = (long)nccc_slot_to_i64(a[0]);
  reads++;
  if (reads <= 3) {
    r[0] = nccc_slot_from_i32(1);
    r[1] = nccc_slot_from_i32(reads * 7);
    r[2] = nccc_slot_from_i64(budget - 1);
  } else if (reads == 4) {
    r[0] = nccc_slot_from_i32(0);
    r[2] = nccc_slot_from_i64(budget * 100);
  } else {
    r[0] = nccc_slot_from_i32(-1);
    r[3] = nccc_slot_from_i32(EPIPE);
  }
}

static int ticks[3][8], n_ticks;
static void p_tick(const uint64_t *a, uint64_t *r) {
  (void)r;
  if (n_ticks < 8) {
    ticks[0][n_ticks] = nccc_slot_to_i32(a[0]);
    ticks[1][n_ticks] = nccc_slot_to_i32(a[1]);
    ticks[2][n_ticks] = nccc_slot_to_i32(a[2]);
  }
  n_ticks++;
}

static void p_name_short(const uint64_t *a, uint64_t *r) {
  r[0] = nccc_slot_from_ptr(nccc_slot_to_i32(a[0]) == 1 ? "xy" : "pqrs");
}
static void p_name_long(const uint64_t *a, uint64_t *r) {
  r[0] = nccc_slot_from_ptr(nccc_slot_to_i32(a[0]) == 2 ? "abcde" : "?");
}

extern int apply(int x, void (*t)(int, int, int));

static void callback_calls(void) {
  static const float xs[4] = {1.0f, 2.0f, 0.5f, -3.0f};
  uint64_t e1, e2, e3;
  void *c1, *c2;
  nccc_handle ht;

  /* a context callback with double and float: sum of squares */
  c1 = claim("df:d", p_sum_squares, NCCC_SCOPE_CALL, &e1);
  in[0] = nccc_slot_from_ptr(xs);
  in[1] = 4;
  in[2] = nccc_slot_from_double(0.25);
  in[3] = nccc_slot_from_ptr(c1);
  harness_call("cbk.reduce");
  CHECK(nccc_slot_to_double(out[0]) == 0.25 + 1 + 4 + 0.25 + 9);
  CHECK(calls[e1] == 4 && notices[e1] == 1 && in_use() == 0);

  /* a [nullable] callback with a const context: bool and char */
  c1 = claim(NCCC_SIG_CHAR ":?", p_is_vowel, NCCC_SCOPE_CALL, &e1);
  in[0] = nccc_slot_from_ptr("education");
  in[1] = nccc_slot_from_ptr(c1);
  harness_call("cbk.count_if");
  CHECK(nccc_slot_to_i32(out[0]) == 5);
  CHECK(calls[e1] == 9 && notices[e1] == 1);
  in[1] = 0; /* left out: C gets NULL for the callback and its context */
  harness_call("cbk.count_if");
  CHECK(nccc_slot_to_i32(out[0]) == -1);

  /* [out], [inout] and [errno] in a callback: the values written back,
  ** the callback's errno seen by the library and reported by the forward
  ** wrapper's errno shim */
  c1 = claim(NCCC_SIG_LONG ":ii" NCCC_SIG_LONG "e", p_read, NCCC_SCOPE_CALL, &e1);
  in[0] = nccc_slot_from_ptr(c1);
  harness_call("cbk.read_all");
  CHECK(nccc_slot_to_i32(out[0]) == 700); /* budget 10 - 3, then * 100 */
  CHECK(nccc_slot_to_i32(out[1]) == 7 + 14 + 21);
  CHECK(nccc_slot_to_i32(out[2]) == 0);
  /* reads is 4: the next one fails */
  c1 = claim(NCCC_SIG_LONG ":ii" NCCC_SIG_LONG "e", p_read, NCCC_SCOPE_CALL, &e1);
  reads = 4;
  in[0] = nccc_slot_from_ptr(c1);
  harness_call("cbk.read_all");
  CHECK(nccc_slot_to_i32(out[0]) == -1);
  CHECK(nccc_slot_to_i32(out[2]) == EPIPE);

  /* a thunk pool callback whose parameters are unnamed or named like the
  ** wrapper's locals; trace on */
  ht = H("cbk.tick_n");
  CHECK(nccc_trace_enable(ht, 1) == NCCC_OK);
  c1 = claim("iii:", p_tick, NCCC_SCOPE_CALL, &e1);
  in[0] = nccc_slot_from_i32(3);
  in[1] = nccc_slot_from_ptr(c1);
  harness_call("cbk.tick_n");
  CHECK(nccc_slot_to_i32(out[0]) == 3);
  CHECK(n_ticks == 3 && ticks[0][2] == 2 && ticks[1][2] == 20 &&
        ticks[2][2] == 200);
  CHECK(notices[e1] == 1 && in_use() == 0);
  CHECK(nccc_thunk_in_use(nccc_cbk_tick_fn_thunk_pool()) == 0);
  {
    nccc_trace_stats st;
    nccc_trace_record rec;
    nccc_trace_get_stats(&st);
    CHECK(st.next == 1);
    CHECK(nccc_trace_read(0, &rec) == NCCC_OK && rec.handle == ht &&
          rec.status == NCCC_OK);
  }
  in[1] = 0; /* [nullable] thunk callback left out */
  harness_call("cbk.tick_n");
  CHECK(nccc_slot_to_i32(out[0]) == -1);
  /* faulted: the thunk is never bound and the CALL closure released */
  {
    uint64_t r = nccc_slot_from_i32(-9);
    CHECK(nccc_fault_arm(ht, 1, &r, 1, 0) == NCCC_OK);
  }
  c1 = claim("iii:", p_tick, NCCC_SCOPE_CALL, &e1);
  in[1] = nccc_slot_from_ptr(c1);
  harness_call("cbk.tick_n");
  CHECK(nccc_slot_to_i32(out[0]) == -9);
  CHECK(calls[e1] == 0 && notices[e1] == 1 && in_use() == 0);
  nccc_trace_disable_all();

  /* a group of two members of one type, listed out of order in the
  ** annotation: members follow parameter order (a is 0, b is 1) */
  {
    nccc_fn targets[2] = {dispatch, dispatch};
    uint64_t envs[2];
    envs[0] = (uint64_t)n_procs;
    table[n_procs++] = p_name_short;
    envs[1] = (uint64_t)n_procs;
    table[n_procs++] = p_name_long;
    const char *sigs[2] = {"i:s", "i:s"};
    CHECK(nccc_closure_claim_group_typed(2, targets, envs, sigs,
                                         NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY, 0,
                                         &c2) == NCCC_OK);
    in[0] = nccc_slot_from_ptr(c2);
    harness_call("cbk.name_both");
    CHECK(nccc_slot_to_i32(out[0]) == 2 * 10 + 5);
    CHECK((char)nccc_slot_to_i64(out[1]) == 'x');
    CHECK(notices[envs[0]] == 1 && notices[envs[1]] == 1 && in_use() == 0);
  }

  /* notified with a destroy notify, and left out */
  c1 = claim("i:s", p_name_long, NCCC_SCOPE_NOTIFIED, &e2);
  in[0] = nccc_slot_from_ptr(c1);
  harness_call("cbk.subscribe");
  CHECK(nccc_slot_to_i32(out[0]) == 1);
  in[0] = nccc_slot_from_i32(2);
  harness_call("cbk.notify");
  CHECK(nccc_slot_to_i32(out[0]) == 5);
  CHECK(in_use() == 1 && notices[e2] == 0);
  harness_call("cbk.unsubscribe");
  CHECK(in_use() == 0 && notices[e2] == 1);
  in[0] = 0;
  harness_call("cbk.subscribe");
  CHECK(nccc_slot_to_i32(out[0]) == 0); /* callback and notify both NULL */
  harness_call("cbk.unsubscribe");

  /* [function_pointer] with a FOREVER thunk callback */
  c1 = claim("iii:", p_tick, NCCC_SCOPE_FOREVER, &e3);
  n_ticks = 0;
  in[0] = (uint64_t)(uintptr_t)apply;
  in[1] = nccc_slot_from_i32(5);
  in[2] = nccc_slot_from_ptr(c1);
  harness_call("cbk.apply");
  CHECK(nccc_slot_to_i32(out[0]) == 10);
  CHECK(n_ticks == 1 && ticks[1][0] == 6 && ticks[2][0] == 7);
  CHECK(nccc_thunk_in_use(nccc_cbk_tick_fn_thunk_pool()) == 1);
  CHECK(nccc_closure_release(c1) == NCCC_OK);
  CHECK(nccc_thunk_in_use(nccc_cbk_tick_fn_thunk_pool()) == 0);
  CHECK(notices[e3] == 1);
}

nccc_status (*const harness_register)(void) = nccc_cbk_register;
void (*const harness_tests[])(void) = {callback_calls, NULL};
