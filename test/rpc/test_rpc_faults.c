/*
** test_rpc_faults.c — every fault of docs/RPC.md ("Faults"), each ending
** in a clear result at the caller, never a call run twice, and the
** session usable afterwards. A mangling link sits between the client and
** the test server's pipes: it corrupts, cuts, duplicates and replays
** frames, and injects garbage, on purpose.
*/
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpc_mangler.h"
#include "rpc_test_client.h"
#include "rpc_test_module.h"
#include "remote_internal.h"

/* The tests inside nested calls (test_rpc_faults_nested.c). */
void rpc_nested_fault_tests(Suite *s);

static nccc_remote *r;
static const mangle pass = {PASS, 0, 0};

static void setup(void) { r = mangler_open(0, PATIENT_MS, pass, pass); }
static void setup_32_bit(void) { r = mangler_open(1, PATIENT_MS, pass, pass); }

static void teardown(void) {
  nccc_remote_close(r);
  r = NULL;
}

/* What the link does to the next request the client sends. */
static void next_request(int what) {
  link_.to_device = (mangle){what, 0, 0};
}

static uint64_t count(void) { return rpct_count(r); }
static uint64_t device_stat(int which) { return rpct_stat(r, which); }

/* count() with the link doing `what` to the request: still runs once. */
static void count_through(int what) {
  uint64_t before = count();
  next_request(what);
  ck_assert_uint_eq(count(), before + 1);
  ck_assert_uint_eq(count(), before + 2);
}

START_TEST(test_garbage_before_frames) {
  count_through(GARBAGE_BEFORE);
  ck_assert_uint_ge(device_stat(RPCT_GARBAGE), sizeof mangle_junk);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->resent, 0);
}
END_TEST

START_TEST(test_garbage_inside_frame) {
  count_through(GARBAGE_INSIDE);
  ck_assert_uint_ge(nccc_remote_stats_get(r)->resent, 1);
  ck_assert_uint_ge(device_stat(RPCT_BAD_CRC) + device_stat(RPCT_CUT), 1);
}
END_TEST

START_TEST(test_corrupted_request_resent) {
  count_through(CORRUPT);
  ck_assert_uint_eq(device_stat(RPCT_BAD_CRC), 1);
  ck_assert_uint_ge(nccc_remote_stats_get(r)->notices, 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->resent, 1);
}
END_TEST

START_TEST(test_corrupted_request_no_retries) {
  uint64_t before = count(), out[1];
  nccc_handle h = rpct_lookup(r, "rpct.count");
  nccc_remote_set_timeout(r, PATIENT_MS, 0);
  next_request(CORRUPT);
  ck_assert_int_eq(nccc_remote_call(r, h, NULL, 0, out, 1), NCCC_ERR_RPC_FRAME);
  ck_assert(nccc_remote_outcome_unknown(NCCC_ERR_RPC_FRAME));
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "unknown"));
  /* it never ran; the session goes on */
  ck_assert_uint_eq(count(), before + 1);
}
END_TEST

START_TEST(test_corrupted_answer_served_from_cache) {
  uint64_t before = count();
  link_.from_device = (mangle){CORRUPT, NCCC_RPC_RESULT, 0};
  ck_assert_uint_eq(count(), before + 1);
  ck_assert_uint_ge(nccc_remote_stats_get(r)->bad_frames, 1);
  ck_assert_uint_eq(device_stat(RPCT_RESENT), 1);
  ck_assert_uint_eq(count(), before + 2);
}
END_TEST

START_TEST(test_truncated_frame) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2); /* a cut frame is resent after silence */
  count_through(CUT);
  ck_assert_uint_eq(device_stat(RPCT_CUT), 1);
  ck_assert_uint_ge(nccc_remote_stats_get(r)->resent, 1);
}
END_TEST

START_TEST(test_length_over_the_limit) {
  /* a frame announcing 2 GiB: the device drops it as soon as it has
  ** read the length, says so, and serves the next request */
  const uint8_t huge[] = {0xff, 0xfd, 0x00, 0x00, 0x00, 0x7f, 1, 2, 3};
  char *name = malloc(NCCC_RPC_MAX_MESSAGE + 1);
  nccc_handle h;
  uint64_t before = count();
  ck_assert_int_eq(mangler_inject(huge, sizeof huge), (long)sizeof huge);
  ck_assert_uint_eq(count(), before + 1);
  ck_assert_uint_eq(device_stat(RPCT_TOO_LONG), 1);
  ck_assert_uint_ge(nccc_remote_stats_get(r)->notices, 1);
  /* a request over the device's limit never leaves the host */
  memset(name, 'a', NCCC_RPC_MAX_MESSAGE);
  name[NCCC_RPC_MAX_MESSAGE] = 0;
  ck_assert_int_eq(nccc_remote_lookup(r, name, &h, NULL, NULL, NULL, 0), NCCC_ERR_RPC_TOO_BIG);
  ck_assert(!nccc_remote_outcome_unknown(NCCC_ERR_RPC_TOO_BIG));
  free(name);
  ck_assert_uint_eq(count(), before + 2);
}
END_TEST

START_TEST(test_duplicated_request) {
  count_through(DOUBLE);
  ck_assert_uint_eq(device_stat(RPCT_RESENT), 1);
  ck_assert_uint_ge(nccc_remote_stats_get(r)->stale, 1);
}
END_TEST

START_TEST(test_replayed_request_refused) {
  uint8_t old[512];
  size_t old_n;
  uint64_t before = count();
  memcpy(old, link_.last, link_.last_n); /* the frame of that count */
  old_n = link_.last_n;
  ck_assert_uint_eq(count(), before + 1);
  ck_assert_int_eq(mangler_inject(old, old_n), (long)old_n);
  ck_assert_uint_eq(count(), before + 2); /* the replay did not run */
  ck_assert_uint_eq(device_stat(RPCT_REPLAYED), 1);
}
END_TEST

START_TEST(test_device_restarts_mid_call) {
  uint64_t out[1];
  nccc_handle h = rpct_lookup(r, "rpct.restart");
  ck_assert_uint_eq(count(), 1);
  /* the host waits one timeout for a refusal that never comes */
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  ck_assert_int_eq(nccc_remote_call(r, h, NULL, 0, out, 0), NCCC_ERR_RPC_RESET);
  ck_assert(nccc_remote_outcome_unknown(NCCC_ERR_RPC_RESET));
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "unknown"));
  ck_assert_uint_eq(nccc_remote_stats_get(r)->restarts, 1);
  /* a new session, on a fresh device */
  ck_assert_uint_eq(count(), 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->sessions, 2);
}
END_TEST

START_TEST(test_device_restarts_between_calls) {
  /* the host learns of the restart from the next request's answer: its
  ** session refused, nothing ran, so it goes again under a new session */
  uint64_t in[1] = {100}, out[1];
  struct pollfd restarted = {0, POLLIN, 0};
  ck_assert_uint_eq(count(), 1);
  ck_assert_int_eq(rpct_call(r, "rpct.reboot_in", in, 1, out, 0), NCCC_OK);
  /* until the fresh device announces itself, however slowly it starts */
  restarted.fd = link_.from_fd;
  ck_assert_int_eq(poll(&restarted, 1, PATIENT_MS), 1);
  ck_assert_uint_eq(count(), 1); /* a fresh device */
  ck_assert_uint_eq(nccc_remote_stats_get(r)->restarts, 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->sessions, 2);
  ck_assert_uint_eq(count(), 2);
}
END_TEST

START_TEST(test_device_silent) {
  uint64_t in[1] = {3000}, out[1];
  uint64_t before = count();
  nccc_handle h = rpct_lookup(r, "rpct.sleep_ms");
  nccc_remote_set_timeout(r, 200, 1);
  ck_assert_int_eq(nccc_remote_call(r, h, in, 1, out, 0), NCCC_ERR_RPC_TIMEOUT);
  ck_assert(nccc_remote_outcome_unknown(NCCC_ERR_RPC_TIMEOUT));
  ck_assert_uint_eq(nccc_remote_stats_get(r)->resent, 1);
  /* the device wakes: the sleep ran once (the resend was answered from
  ** its last answer), and the session goes on */
  nccc_remote_set_timeout(r, PATIENT_MS, 0);
  ck_assert_uint_eq(count(), before + 2);
  ck_assert_uint_eq(device_stat(RPCT_RESENT), 1);
}
END_TEST

START_TEST(test_stale_session_refused) {
  /* a request of a session the device does not have never runs */
  uint8_t msg[NCCCI_RPC_CALL_FIXED];
  uint64_t before = count();
  nccc_rpc_header_put(msg, NCCC_RPC_CALL, 0x0101, 77);
  nccc_rpc_put32(msg + 8, rpct_lookup(r, "rpct.count"));
  nccc_rpc_put16(msg + 12, 0);
  nccc_rpc_put16(msg + 14, 1);
  mangler_inject_frame(msg, sizeof msg);
  ck_assert_uint_eq(count(), before + 1);
  ck_assert_uint_eq(device_stat(RPCT_STALE_SESSION), 1);
}
END_TEST

START_TEST(test_values_wider_than_the_device) {
  uint8_t byte;
  uint64_t in[1] = {(uint64_t)1 << 33}, out[1] = {5};
  nccci_remote_fn refuse;
  uint32_t sent;
  ck_assert_uint_eq(nccc_remote_device_info(r)->pointer_bytes, 4);
  sent = nccc_remote_stats_get(r)->requests;
  ck_assert_int_eq(nccc_remote_read(r, (uint64_t)1 << 32, &byte, 1), NCCC_ERR_RPC_WORD_SIZE);
  ck_assert_int_eq(nccc_remote_free(r, (uint64_t)1 << 40), NCCC_ERR_RPC_WORD_SIZE);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->requests, sent);
  /* through a bound function (what its stub calls): a pointer slot over
  ** 32 bits never leaves */
  ck_assert_int_eq(nccci_remote_fn_init(&refuse, rpct_lookup(r, "rpct.refuse"), "p:i"), NCCC_OK);
  sent = nccc_remote_stats_get(r)->requests;
  ck_assert_int_eq(nccci_remote_invoke(r, &refuse, in, out), NCCC_ERR_RPC_WORD_SIZE);
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "32 bits"));
  ck_assert_uint_eq(nccc_remote_stats_get(r)->requests, sent);
  in[0] = 0x1000; /* one that fits goes */
  ck_assert_int_eq(nccci_remote_invoke(r, &refuse, in, out), NCCC_OK);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  nccci_remote_fn_free(&refuse);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("rpc_faults");
  TCase *tc = nccc_check_tcase(
      s, "faults", setup, teardown,
      NCCC_CHECK_TESTS(test_garbage_before_frames, test_garbage_inside_frame,
                       test_corrupted_request_resent, test_corrupted_request_no_retries,
                       test_corrupted_answer_served_from_cache, test_truncated_frame,
                       test_length_over_the_limit, test_duplicated_request,
                       test_replayed_request_refused, test_device_restarts_mid_call,
                       test_device_restarts_between_calls,
                       test_device_silent, test_stale_session_refused));
  tcase_set_timeout(tc, 30);
  nccc_check_tcase(s, "32-bit device", setup_32_bit, teardown,
                   NCCC_CHECK_TESTS(test_values_wider_than_the_device));
  rpc_nested_fault_tests(s);
  return s;
}
