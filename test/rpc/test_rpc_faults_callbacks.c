/*
** test_rpc_faults_callbacks.c — the faults inside nested calls
** (docs/RPC.md, "Faults") on a device serving the Cortex-M3 image's
** module "callbacks" with host procedures as its callbacks (the image in
** its full configuration on its UART, the test server on x86-64, ARM and
** MIPS), through the fault tests' mangling link (rpc_mangler.c): the
** device's callback to a host procedure and the host's answer, lost or
** corrupted; the release notice lost; the host giving up while the device
** waits. Each test checks fold's result, that the host procedure ran once
** per step, that the device's closures are back to what they were (its
** closure_stats built-in), that a callback nested one level deeper still
** works (no level left taken) and the next call.
**
** NCCC_FAULTS_DEVICE is the command that starts the device with its link
** on stdin and stdout (device/run_qemu.sh --link for the image; the test
** server by default). The device is started once for the tests but the
** last two, which start it again.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

#include "rpc_mangler.h"

static nccc_remote *r;
static const mangle pass = {PASS, 0, 0};
static int steps, notices;
static nccc_status inner_status;

enum { SUM, NESTED };

/* The host procedure of the device's fold: acc + i (SUM), or acc + i +
** fold(3) made through the device again (NESTED). */
static void step(const uint64_t *in, uint64_t *out);

static void *claim(uint64_t env) {
  void *ctx = NULL;
  ck_assert_int_eq(nccc_closure_claim_typed(step, env, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY,
                                            "ii:i", &ctx),
                   NCCC_OK);
  return ctx;
}

/* callbacks.fold(n) through the bound module with a call-scoped closure
** of env: its status; *result the value. */
static nccc_status fold(int32_t n, uint64_t env, int32_t *result) {
  uint64_t out[1] = {0};
  nccc_status st;
  nccc_handle h;
  ck_assert_int_eq(nccc_lookup("callbacks.fold", &h), NCCC_OK);
  nccc_clear_error();
  nccc_call(h, (uint64_t[]){nccc_slot_from_i32(n), nccc_slot_from_ptr(claim(env))}, out);
  st = nccc_last_status();
  *result = nccc_slot_to_i32(out[0]);
  return st;
}

static void step(const uint64_t *in, uint64_t *out) {
  int32_t acc, i, inner = 0;
  if (out == NULL) { /* the release notice */
    notices++;
    return;
  }
  steps++;
  acc = nccc_slot_to_i32(in[1]);
  i = nccc_slot_to_i32(in[2]);
  if (in[0] == NESTED) inner_status = fold(3, SUM, &inner);
  out[0] = nccc_slot_from_i32(acc + i + inner);
}

/* The device's closures in use (its closure_stats built-in). */
static uint64_t device_closures(void) {
  uint64_t out[6] = {0};
  nccc_handle h;
  ck_assert_int_eq(nccc_remote_lookup(r, "nccc.closure_stats", &h, NULL, NULL, NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_remote_call(r, h, NULL, 0, out, 6), NCCC_OK);
  ck_assert_int_eq((int32_t)out[0], NCCC_OK);
  return out[2];
}

static void setup(void) {
  if (r != NULL) {
    nccc_remote_set_timeout(r, PATIENT_MS, 2);
    return;
  }
  r = mangler_open(0, PATIENT_MS, pass, pass);
  ck_assert_int_eq(nccc_remote_bind(r, "callbacks", NULL, NULL), NCCC_OK);
}

/* fold(2) whose steps fold(3) on the device again (two levels, the
** device's depth), with the link mangling as given: 0+0+3, then 3+1+3,
** every step once, the device's closures as before. */
static void fold_nested(mangle to_device, mangle from_device) {
  uint64_t before = device_closures();
  int32_t value = 0;
  steps = 0;
  inner_status = NCCC_ERR_INVALID_ARG;
  link_.to_device = to_device;
  link_.from_device = from_device;
  ck_assert_msg(fold(2, NESTED, &value) == NCCC_OK, "fold: %s", nccc_last_error());
  ck_assert_int_eq(inner_status, NCCC_OK);
  ck_assert_int_eq(value, 7);
  ck_assert_int_eq(steps, 2 + 2 * 3);
  nccc_remote_set_timeout(r, PATIENT_MS, 2);
  ck_assert_uint_eq(device_closures(), before);
}

/* fold(4) of SUM with the link mangling as given: 6, four steps, one
** release notice, nothing left taken on either side; then a callback
** that folds again on the device (no level left taken) and the next
** call. */
static void fold_through(mangle to_device, mangle from_device) {
  uint64_t before = device_closures();
  int32_t value = 0;
  steps = notices = 0;
  link_.to_device = to_device;
  link_.from_device = from_device;
  ck_assert_msg(fold(4, SUM, &value) == NCCC_OK, "fold: %s", nccc_last_error());
  ck_assert_int_eq(value, 6);
  ck_assert_int_eq(steps, 4);
  ck_assert_int_eq(notices, 1);
  nccc_remote_set_timeout(r, PATIENT_MS, 2);
  ck_assert_uint_eq(device_closures(), before);
  fold_nested(pass, pass);
}

START_TEST(test_callback_corrupted) {
  fold_through(pass, (mangle){CORRUPT, NCCC_RPC_CALL, 1});
}
END_TEST

START_TEST(test_callback_lost) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  fold_through(pass, (mangle){DROP, NCCC_RPC_CALL, 2});
}
END_TEST

START_TEST(test_answer_corrupted) {
  fold_through((mangle){CORRUPT, NCCC_RPC_RESULT, 1}, pass);
}
END_TEST

START_TEST(test_answer_lost) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  fold_through((mangle){DROP, NCCC_RPC_RESULT, 0}, pass);
}
END_TEST

START_TEST(test_release_notice_lost) {
  /* the fifth call from the device is the release notice */
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  fold_through(pass, (mangle){DROP, NCCC_RPC_CALL, 4});
}
END_TEST

START_TEST(test_host_gives_up) {
  /* no retries: the host gives fold up when the device's second callback
  ** is lost; the device leaves its wait at the next request, releases
  ** the closure, and runs nothing twice */
  uint64_t before = device_closures();
  int32_t value = 0;
  nccc_status st;
  steps = notices = 0;
  nccc_remote_set_timeout(r, SILENCE_MS, 0);
  link_.from_device = (mangle){DROP, NCCC_RPC_CALL, 1};
  st = fold(4, SUM, &value);
  ck_assert_int_eq(st, NCCC_ERR_RPC_TIMEOUT);
  ck_assert(nccc_remote_outcome_unknown(st));
  ck_assert_int_eq(value, 0);
  ck_assert_int_eq(steps, 1);
  fold_through(pass, pass);
  ck_assert_uint_eq(device_closures(), before);
}
END_TEST

/* A request the host makes from inside a callback (depth 1), and the
** answer to it, at the device's second level. */
START_TEST(test_inner_request_lost) {
  /* the host's second call is the first inner fold */
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  fold_nested((mangle){DROP, NCCC_RPC_CALL, 1}, pass);
  fold_through(pass, pass);
}
END_TEST

START_TEST(test_inner_answer_corrupted) {
  /* the device's first answer is the first inner fold's */
  fold_nested(pass, (mangle){CORRUPT, NCCC_RPC_RESULT, 0});
  fold_through(pass, pass);
}
END_TEST

START_TEST(test_second_level_callback_lost) {
  /* the device's second call is the first inner fold's first step */
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  fold_nested(pass, (mangle){DROP, NCCC_RPC_CALL, 1});
  fold_through(pass, pass);
}
END_TEST

/* The session's messages on a fresh start of the device: a hello the
** link doubles opens one session, a start lost is made up by a new
** hello. */
static void boot_with(mangle to_device, mangle from_device, int sessions) {
  int32_t value = 0;
  nccc_remote_close(r); /* the tests after start the device again */
  r = mangler_open(0, PATIENT_MS, to_device, from_device);
  ck_assert_int_eq(nccc_remote_bind(r, "callbacks", NULL, NULL), NCCC_OK);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->sessions, 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->restarts, 0);
  ck_assert_int_eq(nccc_remote_device_info(r)->session & 0xff, sessions);
  steps = 0;
  ck_assert_int_eq(fold(4, SUM, &value), NCCC_OK);
  ck_assert_int_eq(value, 6);
  ck_assert_int_eq(steps, 4);
  nccc_remote_close(r);
  r = NULL;
}

START_TEST(test_hello_duplicated) {
  boot_with((mangle){DOUBLE, NCCC_RPC_HELLO, 0}, pass, 1);
}
END_TEST

START_TEST(test_start_lost) {
  /* the first start is the device's announcement, the second the
  ** hello's answer: the host says hello again, the device's second
  ** session */
  boot_with(pass, (mangle){DROP, NCCC_RPC_START, 1}, 2);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("rpc_faults_callbacks");
  TCase *tc = nccc_check_tcase(
      s, "nested", setup, NULL,
      NCCC_CHECK_TESTS(test_callback_corrupted, test_callback_lost, test_answer_corrupted,
                       test_answer_lost, test_release_notice_lost, test_host_gives_up,
                       test_inner_request_lost, test_inner_answer_corrupted,
                       test_second_level_callback_lost, test_hello_duplicated,
                       test_start_lost));
  tcase_set_timeout(tc, 180);
  return s;
}
