/*
** test_rpc_faults_nested.c — the faults of docs/RPC.md ("Faults") inside
** nested calls: the device's call to the host, the host's answer, a
** request the host makes from inside, at one and two levels, lost,
** corrupted or cut; the host giving up while the device waits; and the
** session messages (hello, start, notice). Each test checks the result,
** that every call ran once (the device's counter, the host's), that the
** device is back at level 0, and that the next call works.
*/
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "rpc_mangler.h"
#include "rpc_test_client.h"
#include "rpc_test_module.h"

static nccc_remote *r;
static const mangle pass = {PASS, 0, 0};
static nccc_handle twice, deeper, inner_count;
static int host_runs;
static nccc_status inner_status;

/* Host functions the device calls (L:L). */
static void h_twice(const uint64_t *in, uint64_t *out) {
  host_runs++;
  out[0] = 2 * in[0];
}

/* rpct.call_host(twice, x) on the device again: one level deeper;
** 0 when that call failed (its status in inner_status) */
static void h_deeper(const uint64_t *in, uint64_t *out) {
  uint64_t args[2] = {twice, in[0]}, res[2] = {0, 0};
  host_runs++;
  inner_status = rpct_call(r, "rpct.call_host", args, 2, res, 2);
  out[0] = inner_status == NCCC_OK ? res[1] : 0;
}

/* rpct.count from inside the device's call */
static void h_inner_count(const uint64_t *in, uint64_t *out) {
  (void)in;
  host_runs++;
  out[0] = rpct_count(r);
}

/* Once per test: nccc_init (in mangler_open) begins a fresh registry. */
static void register_host(void) {
  ck_assert_int_eq(nccc_register("faults.twice", h_twice, "L:L", 0, &twice), NCCC_OK);
  ck_assert_int_eq(nccc_register("faults.deeper", h_deeper, "L:L", 0, &deeper), NCCC_OK);
  ck_assert_int_eq(nccc_register("faults.inner_count", h_inner_count, "L:L", 0, &inner_count),
                   NCCC_OK);
}

static void open_with(int timeout_ms, mangle to_device, mangle from_device) {
  r = mangler_open(0, timeout_ms, to_device, from_device);
  register_host();
  host_runs = 0;
  inner_status = NCCC_OK;
}

static void setup(void) { open_with(PATIENT_MS, pass, pass); }

static void teardown(void) {
  nccc_remote_close(r);
  r = NULL;
}

/* rpct.call_host(fn, x): the device's result status and value. */
static nccc_status call_host(nccc_handle fn, uint64_t x, uint64_t *value) {
  uint64_t in[2] = {fn, x}, out[2] = {0, 0};
  nccc_status st = rpct_call(r, "rpct.call_host", in, 2, out, 2);
  if (st != NCCC_OK) return st;
  *value = out[1];
  return (nccc_status)(int32_t)out[0];
}

/* The device is back at level 0, and the next calls work, nesting as
** deep as the device goes. */
static void check_goes_on(void) {
  uint64_t value = 0;
  ck_assert_uint_eq(rpct_stat(r, RPCT_DEPTH), 0);
  ck_assert_int_eq(call_host(twice, 5, &value), NCCC_OK);
  ck_assert_uint_eq(value, 11);
  ck_assert_int_eq(call_host(deeper, 5, &value), NCCC_OK);
  ck_assert_int_eq(inner_status, NCCC_OK);
  ck_assert_uint_eq(value, 12);
}

/* What one nested call through the mangled link must give: the value
** (plus the device's counter before it, when relative), how often the
** device's counter went up and how often the host's functions ran. */
typedef struct expect {
  nccc_handle fn;
  uint64_t value;
  int relative;
  uint64_t device_calls;
  int host_calls;
} expect;

/* call_host(e.fn, 20) with the link mangling as to_device and
** from_device say. */
static void nested_once(mangle to_device, mangle from_device, expect e) {
  uint64_t before = rpct_count(r), value = 0;
  link_.to_device = to_device;
  link_.from_device = from_device;
  ck_assert_int_eq(call_host(e.fn, 20, &value), NCCC_OK);
  ck_assert_uint_eq(value, e.value + (e.relative ? before : 0));
  ck_assert_int_eq(host_runs, e.host_calls);
  ck_assert_uint_eq(rpct_count(r), before + e.device_calls + 1);
  check_goes_on();
}

/* call_host(twice, 20): 41, one device call, one host call. */
static const expect once = {0, 41, 0, 1, 1};

static expect with(nccc_handle fn, expect e) {
  e.fn = fn;
  return e;
}

/* rpct.count from inside: the count it got (before + 2) plus 1 */
static const expect inner = {0, 3, 1, 2, 1};
/* deeper: twice(20) + 1 at the second level, + 1 at the first */
static const expect two_levels = {0, 42, 0, 2, 2};

/* One level: the device's call to the host, and the host's answer. */
START_TEST(test_nested_call_corrupted) {
  nested_once(pass, (mangle){CORRUPT, NCCC_RPC_CALL, 0}, with(twice, once));
  ck_assert_uint_ge(nccc_remote_stats_get(r)->bad_frames, 1);
  ck_assert_uint_ge(rpct_stat(r, RPCT_NESTED_RESENT), 1);
}
END_TEST

START_TEST(test_nested_call_lost) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  nested_once(pass, (mangle){DROP, NCCC_RPC_CALL, 0}, with(twice, once));
  ck_assert_uint_ge(rpct_stat(r, RPCT_NESTED_RESENT), 1);
}
END_TEST

START_TEST(test_nested_answer_corrupted) {
  nested_once((mangle){CORRUPT, NCCC_RPC_RESULT, 0}, pass, with(twice, once));
  ck_assert_uint_ge(rpct_stat(r, RPCT_BAD_CRC), 1);
}
END_TEST

START_TEST(test_nested_answer_lost) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  nested_once((mangle){DROP, NCCC_RPC_RESULT, 0}, pass, with(twice, once));
  ck_assert_uint_ge(rpct_stat(r, RPCT_NESTED_RESENT), 1);
}
END_TEST

START_TEST(test_nested_answer_cut) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  nested_once((mangle){CUT, NCCC_RPC_RESULT, 0}, pass, with(twice, once));
  ck_assert_uint_ge(rpct_stat(r, RPCT_CUT), 1);
}
END_TEST

/* A request the host makes while it runs the device's call (depth 1),
** and its answer. */
START_TEST(test_inner_request_corrupted) {
  nested_once((mangle){CORRUPT, NCCC_RPC_CALL, 1}, pass, with(inner_count, inner));
}
END_TEST

START_TEST(test_inner_answer_lost) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  nested_once(pass, (mangle){DROP, NCCC_RPC_RESULT, 0}, with(inner_count, inner));
  ck_assert_uint_ge(rpct_stat(r, RPCT_RESENT), 1);
}
END_TEST

/* Two levels: the second level's call, its answer, the first level's
** answer after the second level ran. */
START_TEST(test_second_level_call_lost) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  nested_once(pass, (mangle){DROP, NCCC_RPC_CALL, 1}, with(deeper, two_levels));
}
END_TEST

START_TEST(test_second_level_answer_lost) {
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  nested_once((mangle){DROP, NCCC_RPC_RESULT, 0}, pass, with(deeper, two_levels));
}
END_TEST

START_TEST(test_first_level_answer_corrupted_after_second) {
  nested_once((mangle){CORRUPT, NCCC_RPC_RESULT, 1}, pass, with(deeper, two_levels));
}
END_TEST

/* The host gives up while the device waits for its nested call's answer
** (no retries): the outcome is unknown, nothing runs twice, and the next
** request frees the level, however often it happens. */
START_TEST(test_host_gives_up_nested) {
  int max_depth = nccc_remote_device_info(r)->max_depth;
  uint64_t before = rpct_count(r), value;
  nccc_remote_set_timeout(r, SILENCE_MS, 0);
  for (int k = 0; k <= max_depth; k++) {
    nccc_status st;
    link_.from_device = (mangle){DROP, NCCC_RPC_CALL, 0};
    st = call_host(twice, 20, &value);
    ck_assert_int_eq(st, NCCC_ERR_RPC_TIMEOUT);
    ck_assert(nccc_remote_outcome_unknown(st));
  }
  nccc_remote_set_timeout(r, PATIENT_MS, 2);
  ck_assert_uint_eq(rpct_count(r), before + (uint64_t)max_depth + 2);
  ck_assert_int_eq(host_runs, 0);
  ck_assert_uint_eq(rpct_stat(r, RPCT_GIVEN_UP), (uint64_t)max_depth + 1);
  check_goes_on();
}
END_TEST

/* The host gives up the second level's call and answers the first: the
** device leaves the second level's wait and takes that answer. */
START_TEST(test_host_gives_up_second_level) {
  uint64_t before = rpct_count(r), value = 0;
  nccc_remote_set_timeout(r, SILENCE_MS, 0);
  link_.from_device = (mangle){DROP, NCCC_RPC_CALL, 1};
  ck_assert_int_eq(call_host(deeper, 20, &value), NCCC_OK);
  ck_assert_int_eq(inner_status, NCCC_ERR_RPC_TIMEOUT);
  ck_assert_uint_eq(value, 1); /* deeper gave 0, plus 1 */
  nccc_remote_set_timeout(r, PATIENT_MS, 2);
  ck_assert_uint_eq(rpct_count(r), before + 3);
  ck_assert_int_eq(host_runs, 1);
  ck_assert_uint_eq(rpct_stat(r, RPCT_GIVEN_UP), 1);
  check_goes_on();
}
END_TEST

/* ---- the session's messages ---- */

static void open_hello_doubled(void) {
  open_with(PATIENT_MS, (mangle){DOUBLE, NCCC_RPC_HELLO, 0}, pass);
}

START_TEST(test_hello_duplicated) {
  /* the copy gets the same start again: one session, which works */
  ck_assert_uint_eq(rpct_count(r), 1);
  ck_assert_uint_eq(rpct_stat(r, RPCT_SESSIONS), 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->restarts, 0);
  ck_assert_uint_eq(rpct_count(r), 2);
  check_goes_on();
}
END_TEST

static void open_start_lost(void) {
  /* the first start is the device's announcement, the second the answer
  ** to the hello */
  open_with(SILENCE_MS, pass, (mangle){DROP, NCCC_RPC_START, 1});
}

START_TEST(test_start_lost) {
  /* the host said hello again, with a new nonce: a second session */
  ck_assert_uint_eq(rpct_stat(r, RPCT_SESSIONS), 2);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->sessions, 1);
  ck_assert_uint_eq(rpct_count(r), 1);
  check_goes_on();
}
END_TEST

static void open_hello_lost(void) {
  open_with(SILENCE_MS, (mangle){DROP, NCCC_RPC_HELLO, 0}, pass);
}

START_TEST(test_hello_lost) {
  ck_assert_uint_eq(rpct_stat(r, RPCT_SESSIONS), 1);
  ck_assert_uint_eq(rpct_count(r), 1);
  check_goes_on();
}
END_TEST

START_TEST(test_notice_lost) {
  /* the device's notice of the corrupted request never comes: the host
  ** sends the request again after silence */
  uint64_t before = rpct_count(r);
  nccc_remote_set_timeout(r, SILENCE_MS, 2);
  link_.to_device = (mangle){CORRUPT, NCCC_RPC_CALL, 0};
  link_.from_device = (mangle){DROP, NCCC_RPC_NOTICE, 0};
  ck_assert_uint_eq(rpct_count(r), before + 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->notices, 0);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->resent, 1);
  ck_assert_uint_eq(rpct_count(r), before + 2);
}
END_TEST

/* Messages only a device sends, sent by a host: ignored; a type nobody
** knows: a notice, counted as malformed. */
START_TEST(test_device_messages_from_host_ignored) {
  static const uint8_t types[] = {NCCC_RPC_START, NCCC_RPC_LOG, NCCC_RPC_NOTICE, NCCC_RPC_RESULT};
  uint8_t msg[NCCC_RPC_HEADER_BYTES + 12];
  uint16_t session = nccc_remote_device_info(r)->session;
  uint64_t before = rpct_count(r), protocol = rpct_stat(r, RPCT_PROTOCOL);
  memset(msg, 0, sizeof msg);
  for (size_t k = 0; k < sizeof types; k++) {
    nccc_rpc_header_put(msg, types[k], session, 0);
    mangler_inject_frame(msg, sizeof msg);
  }
  ck_assert_uint_eq(rpct_count(r), before + 1);
  ck_assert_uint_eq(rpct_stat(r, RPCT_PROTOCOL), protocol);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->notices, 0);
  nccc_rpc_header_put(msg, 0x77, session, 0);
  mangler_inject_frame(msg, sizeof msg);
  ck_assert_uint_eq(rpct_count(r), before + 2);
  ck_assert_uint_eq(rpct_stat(r, RPCT_PROTOCOL), protocol + 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->notices, 1);
}
END_TEST

/* Request id 0 is never newer than the session's starting newest id (0):
** refused as replayed, not run. */
START_TEST(test_request_id_zero_refused) {
  uint8_t msg[NCCC_RPC_HEADER_BYTES + 8];
  uint64_t before = rpct_count(r), replayed = rpct_stat(r, RPCT_REPLAYED);
  nccc_rpc_header_put(msg, NCCC_RPC_CALL, nccc_remote_device_info(r)->session, 0);
  nccc_rpc_put32(msg + 8, rpct_lookup(r, "rpct.count"));
  nccc_rpc_put16(msg + 12, 0);
  nccc_rpc_put16(msg + 14, 1);
  mangler_inject_frame(msg, sizeof msg);
  ck_assert_uint_eq(rpct_count(r), before + 1);
  ck_assert_uint_eq(rpct_stat(r, RPCT_REPLAYED), replayed + 1);
}
END_TEST

void rpc_nested_fault_tests(Suite *s) {
  TCase *tc = nccc_check_tcase(
      s, "nested", setup, teardown,
      NCCC_CHECK_TESTS(test_nested_call_corrupted, test_nested_call_lost,
                       test_nested_answer_corrupted, test_nested_answer_lost,
                       test_nested_answer_cut, test_inner_request_corrupted,
                       test_inner_answer_lost, test_second_level_call_lost,
                       test_second_level_answer_lost,
                       test_first_level_answer_corrupted_after_second,
                       test_host_gives_up_nested, test_host_gives_up_second_level,
                       test_notice_lost, test_device_messages_from_host_ignored,
                       test_request_id_zero_refused));
  tcase_set_timeout(tc, 60);
  nccc_check_tcase(s, "hello duplicated", open_hello_doubled, teardown,
                   NCCC_CHECK_TESTS(test_hello_duplicated));
  nccc_check_tcase(s, "start lost", open_start_lost, teardown,
                   NCCC_CHECK_TESTS(test_start_lost));
  nccc_check_tcase(s, "hello lost", open_hello_lost, teardown,
                   NCCC_CHECK_TESTS(test_hello_lost));
}
