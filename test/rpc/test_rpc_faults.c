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

#include "rpc_test_client.h"
#include "rpc_test_module.h"
#include "remote_internal.h"

/* What the link does to the next frame the client sends. */
enum { PASS, CORRUPT, GARBAGE_BEFORE, GARBAGE_INSIDE, CUT, DOUBLE };

typedef struct mangler {
  nccc_remote_transport inner;
  int next;               /* applies to the next frame written */
  int corrupt_next_read;  /* flips a bit of the next bytes read */
  int in_frame_cut;       /* the rest of a cut frame is swallowed */
  int claim32;            /* the device's start says 4-byte pointers */
  uint8_t last[512];      /* the last frame written, for replays */
  size_t last_n;
  int from_device;        /* the pipe the device writes */
} mangler;

static mangler link_;
static nccc_remote *r;

/* The client's timeout: PATIENT_MS where an answer must come however
** loaded the machine, SILENCE_MS where the test waits for silence. */
enum { PATIENT_MS = 10000, SILENCE_MS = 1500 };

static const uint8_t junk[] = {0x00, 0x41, 0xfd, 0x13, 0xfe, 0x99};

static long inner_write_all(const uint8_t *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    long w = link_.inner.write(link_.inner.ctx, buf + done, n - done);
    if (w <= 0) return w;
    done += (size_t)w;
  }
  return (long)n;
}

/* A byte of the frame to flip that stays clear of the framing bytes. */
static size_t flippable(const uint8_t *buf, size_t n) {
  for (size_t i = 8; i < n; i++) {
    if (buf[i] < 0xf0 && (buf[i] ^ 0x04) < 0xf0) return i;
  }
  ck_abort_msg("nothing to flip");
  return 0;
}

static long m_write(void *ctx, const uint8_t *buf, size_t n) {
  uint8_t copy[512];
  int starts = n >= 2 && buf[0] == 0xff && buf[1] == 0xfd;
  (void)ctx;
  if (starts) {
    link_.in_frame_cut = 0;
    link_.last_n = 0;
  }
  if (link_.last_n + n <= sizeof link_.last) {
    memcpy(link_.last + link_.last_n, buf, n);
    link_.last_n += n;
  }
  if (link_.in_frame_cut) return (long)n;
  if (!starts || link_.next == PASS || n > sizeof copy) return inner_write_all(buf, n);
  memcpy(copy, buf, n);
  switch (link_.next) {
    case CORRUPT:
      copy[flippable(copy, n)] ^= 0x04;
      break;
    case GARBAGE_BEFORE:
      inner_write_all(junk, sizeof junk);
      break;
    case GARBAGE_INSIDE:
      inner_write_all(copy, 9);
      inner_write_all(junk, sizeof junk);
      link_.next = PASS;
      return inner_write_all(copy + 9, n - 9) > 0 ? (long)n : -1;
    case CUT:
      link_.in_frame_cut = 1;
      link_.next = PASS;
      return inner_write_all(copy, n / 2) > 0 ? (long)n : -1;
    case DOUBLE:
      inner_write_all(copy, n);
      break;
  }
  link_.next = PASS;
  return inner_write_all(copy, n) > 0 ? (long)n : -1;
}

/* The device as a 32-bit one: its start message says 4-byte pointers
** (frames decoded and encoded again on the way in). */
static nccc_rpc_decoder reframer;
static uint8_t reframed_payload[256], queue[1024];
static size_t queued, queue_at;

static int enqueue(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  ck_assert_uint_le(queued + n, sizeof queue);
  memcpy(queue + queued, data, n);
  queued += n;
  return 0;
}

static long read_as_32_bit(uint8_t *buf, size_t n, int timeout_ms) {
  uint8_t raw[512];
  size_t used, at;
  long got;
  if (queue_at == queued) queue_at = queued = 0;
  while (queued == 0) { /* until a whole frame came */
    got = link_.inner.read(link_.inner.ctx, raw, sizeof raw, timeout_ms);
    if (got <= 0) return got;
    for (at = 0; at < (size_t)got; at += used) {
      if (nccc_rpc_decode(&reframer, raw + at, (size_t)got - at, &used) == NCCC_RPC_FRAME_OK) {
        if (reframed_payload[0] == NCCC_RPC_START) reframed_payload[NCCC_RPC_HEADER_BYTES + 1] = 4;
        nccc_rpc_frame_send(reframed_payload, reframer.length, enqueue, NULL);
      }
    }
  }
  got = (long)(queued - queue_at < n ? queued - queue_at : n);
  memcpy(buf, queue + queue_at, (size_t)got);
  queue_at += (size_t)got;
  return got;
}

static long m_read(void *ctx, uint8_t *buf, size_t n, int timeout_ms) {
  long got;
  (void)ctx;
  if (link_.claim32) return read_as_32_bit(buf, n, timeout_ms);
  got = link_.inner.read(link_.inner.ctx, buf, n, timeout_ms);
  if (got > 0 && link_.corrupt_next_read) {
    size_t i = flippable(buf, (size_t)got);
    buf[i] ^= 0x04;
    link_.corrupt_next_read = 0;
  }
  return got;
}

static void m_close(void *ctx) {
  (void)ctx;
  link_.inner.close(link_.inner.ctx);
}

static void open_link(int claim32) {
  int to, from;
  long pid;
  nccc_remote_transport t;
  nccc_remote_options o = nccc_remote_default_options();
  nccc_check_init(NULL);
  ck_assert_int_eq(nccci_remote_spawn((char *const[]){RPC_TEST_SERVER, NULL}, &from, &to, &pid),
                   NCCC_OK);
  memset(&link_, 0, sizeof link_);
  link_.claim32 = claim32;
  link_.from_device = from;
  queued = queue_at = 0;
  nccc_rpc_decoder_init(&reframer, reframed_payload, sizeof reframed_payload);
  ck_assert_int_eq(nccci_remote_fd_transport(from, to, pid, &link_.inner), NCCC_OK);
  t.ctx = &link_;
  t.read = m_read;
  t.write = m_write;
  t.close = m_close;
  /* Long enough that no answer of a loaded machine (two cores shared
  ** with other builds, the sanitizers' slow start of a restarted device)
  ** is taken for silence: the tests that need silence shorten it. */
  o.timeout_ms = PATIENT_MS;
  o.retries = 2;
  ck_assert_int_eq(nccc_remote_open(&t, &o, &r), NCCC_OK);
}

static void setup(void) { open_link(0); }
static void setup_32_bit(void) { open_link(1); }

static void teardown(void) {
  nccc_remote_close(r);
  r = NULL;
}

/* rpct.count: how often count (and sleep_ms) ran on the device. */
static uint64_t count(void) {
  uint64_t out[1] = {0};
  ck_assert_msg(rpct_call(r, "rpct.count", NULL, 0, out, 1) == NCCC_OK, "count: %s",
                nccc_last_error());
  return out[0];
}

static uint64_t device_stat(int which) {
  uint64_t in[1] = {(uint64_t)which}, out[1] = {0};
  ck_assert_int_eq(rpct_call(r, "rpct.server_stat", in, 1, out, 1), NCCC_OK);
  return out[0];
}

/* count() with the link doing `what` to the request: still runs once. */
static void count_through(int what) {
  uint64_t before = count();
  link_.next = what;
  ck_assert_uint_eq(count(), before + 1);
  ck_assert_uint_eq(count(), before + 2);
}

START_TEST(test_garbage_before_frames) {
  count_through(GARBAGE_BEFORE);
  ck_assert_uint_ge(device_stat(RPCT_GARBAGE), sizeof junk);
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
  link_.next = CORRUPT;
  ck_assert_int_eq(nccc_remote_call(r, h, NULL, 0, out, 1), NCCC_ERR_RPC_FRAME);
  ck_assert(nccc_remote_outcome_unknown(NCCC_ERR_RPC_FRAME));
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "unknown"));
  /* it never ran; the session goes on */
  ck_assert_uint_eq(count(), before + 1);
}
END_TEST

START_TEST(test_corrupted_answer_served_from_cache) {
  uint64_t before = count();
  link_.corrupt_next_read = 1;
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
  ck_assert_int_eq(inner_write_all(huge, sizeof huge), (long)sizeof huge);
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
  ck_assert_int_eq(inner_write_all(old, old_n), (long)old_n);
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
  restarted.fd = link_.from_device;
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

static int raw_sink(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  return inner_write_all(data, n) == (long)n ? 0 : 1;
}

START_TEST(test_stale_session_refused) {
  /* a request of a session the device does not have never runs */
  uint8_t msg[NCCCI_RPC_CALL_FIXED];
  uint64_t before = count();
  nccc_rpc_header_put(msg, NCCC_RPC_CALL, 0x0101, 77);
  nccc_rpc_put32(msg + 8, rpct_lookup(r, "rpct.count"));
  nccc_rpc_put16(msg + 12, 0);
  nccc_rpc_put16(msg + 14, 1);
  ck_assert_int_eq(nccc_rpc_frame_send(msg, sizeof msg, raw_sink, NULL), NCCC_OK);
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
  return s;
}
