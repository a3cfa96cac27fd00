/*
** rpc_mangler.c — the fault tests' link (rpc_mangler.h). Frames the
** client writes are mangled as they pass; frames the device writes are
** decoded, mangled and encoded again on their way to the client.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "rpc_mangler.h"
#include "remote_internal.h"

mangler link_;
const uint8_t mangle_junk[6] = {0x00, 0x41, 0xfd, 0x13, 0xfe, 0x99};

long mangler_inject(const uint8_t *buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    long w = link_.inner.write(link_.inner.ctx, buf + done, n - done);
    if (w <= 0) return w;
    done += (size_t)w;
  }
  return (long)n;
}

static int inject_sink(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  return mangler_inject(data, n) == (long)n ? 0 : 1;
}

void mangler_inject_frame(const uint8_t *msg, uint32_t n) {
  ck_assert_int_eq(nccc_rpc_frame_send(msg, n, inject_sink, NULL), NCCC_OK);
}

/* A byte of the frame to flip that stays clear of the framing bytes. */
static size_t flippable(const uint8_t *buf, size_t n) {
  for (size_t i = 8; i < n; i++) {
    if (buf[i] < 0xf0 && (buf[i] ^ 0x04) < 0xf0) return i;
  }
  ck_abort_msg("nothing to flip");
  return 0;
}

/* The message type of the frame starting at buf (its first payload
** byte, past the start and the escaped length). */
static uint8_t frame_type(const uint8_t *buf, size_t n) {
  size_t i = 2;
  for (unsigned k = 0; k < NCCC_RPC_LENGTH_BYTES && i < n; k++) {
    i += buf[i] == NCCC_RPC_BYTE_ESCAPE ? 2 : 1;
  }
  if (i >= n) return 0;
  return buf[i] == NCCC_RPC_BYTE_ESCAPE ? 0xff : buf[i];
}

/* Whether m applies to a frame of message type: counts down its skips. */
static int applies(mangle *m, uint8_t type) {
  if (m->what == PASS || (m->type != 0 && m->type != type)) return 0;
  return m->skip-- == 0;
}

static long m_write(void *ctx, const uint8_t *buf, size_t n) {
  uint8_t copy[512];
  int starts = n >= 2 && buf[0] == 0xff && buf[1] == 0xfd, what;
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
  if (!starts || n > sizeof copy || !applies(&link_.to_device, frame_type(buf, n))) {
    return mangler_inject(buf, n);
  }
  what = link_.to_device.what;
  link_.to_device.what = PASS;
  memcpy(copy, buf, n);
  switch (what) {
    case CORRUPT:
      copy[flippable(copy, n)] ^= 0x04;
      break;
    case GARBAGE_BEFORE:
      mangler_inject(mangle_junk, sizeof mangle_junk);
      break;
    case GARBAGE_INSIDE:
      mangler_inject(copy, 9);
      mangler_inject(mangle_junk, sizeof mangle_junk);
      return mangler_inject(copy + 9, n - 9) > 0 ? (long)n : -1;
    case CUT:
      link_.in_frame_cut = 1;
      return mangler_inject(copy, n / 2) > 0 ? (long)n : -1;
    case DROP:
      link_.in_frame_cut = 1;
      return (long)n;
    case DOUBLE:
      mangler_inject(copy, n);
      break;
  }
  return mangler_inject(copy, n) > 0 ? (long)n : -1;
}

/* Frames from the device, decoded and encoded again into queue. */
static nccc_rpc_decoder reframer;
static uint8_t payload[NCCC_RPC_MAX_MESSAGE], queue[2 * NCCC_RPC_MAX_MESSAGE + 64];
static size_t queued, queue_at;

static int enqueue(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  ck_assert_uint_le(queued + n, sizeof queue);
  memcpy(queue + queued, data, n);
  queued += n;
  return 0;
}

/* Queues the frame just decoded, mangled as from_device says. */
static void pass_on(void) {
  size_t at = queued;
  int what = PASS;
  if (link_.claim32 && payload[0] == NCCC_RPC_START) payload[NCCC_RPC_HEADER_BYTES + 1] = 4;
  if (applies(&link_.from_device, payload[0])) {
    what = link_.from_device.what;
    link_.from_device.what = PASS;
  }
  if (what == DROP) return;
  nccc_rpc_frame_send(payload, reframer.length, enqueue, NULL);
  if (what == CORRUPT) queue[at + flippable(queue + at, queued - at)] ^= 0x04;
  if (what == CUT) queued = at + (queued - at) / 2;
  if (what == DOUBLE) nccc_rpc_frame_send(payload, reframer.length, enqueue, NULL);
}

static long m_read(void *ctx, uint8_t *buf, size_t n, int timeout_ms) {
  uint8_t raw[4096];
  size_t used, at;
  long got;
  (void)ctx;
  if (queue_at == queued) queue_at = queued = 0;
  while (queued == 0) { /* until a whole frame came */
    got = link_.inner.read(link_.inner.ctx, raw, sizeof raw, timeout_ms);
    if (got <= 0) return got;
    for (at = 0; at < (size_t)got; at += used) {
      if (nccc_rpc_decode(&reframer, raw + at, (size_t)got - at, &used) == NCCC_RPC_FRAME_OK) {
        pass_on();
      }
    }
  }
  got = (long)(queued - queue_at < n ? queued - queue_at : n);
  memcpy(buf, queue + queue_at, (size_t)got);
  queue_at += (size_t)got;
  return got;
}

static void m_close(void *ctx) {
  (void)ctx;
  link_.inner.close(link_.inner.ctx);
}

/* The device's command: the words of $NCCC_FAULTS_DEVICE, or the test
** server where the program knows it. */
static char **device_argv(void) {
  static char words[1024];
  static char *argv[16];
  const char *spec = getenv("NCCC_FAULTS_DEVICE");
  int n = 0;
#ifdef RPC_TEST_SERVER
  if (spec == NULL) spec = RPC_TEST_SERVER;
#endif
  ck_assert_msg(spec != NULL, "set NCCC_FAULTS_DEVICE");
  ck_assert_uint_lt(strlen(spec), sizeof words);
  strcpy(words, spec);
  for (char *w = strtok(words, " "); w != NULL && n < 15; w = strtok(NULL, " ")) argv[n++] = w;
  argv[n] = NULL;
  return argv;
}

nccc_remote *mangler_open(int claim32, int timeout_ms, mangle to_device, mangle from_device) {
  int to, from;
  long pid;
  nccc_remote *r = NULL;
  nccc_remote_transport t;
  nccc_remote_options o = nccc_remote_default_options();
  nccc_check_init(NULL);
  ck_assert_int_eq(nccci_remote_spawn(device_argv(), &from, &to, &pid), NCCC_OK);
  memset(&link_, 0, sizeof link_);
  link_.claim32 = claim32;
  link_.from_fd = from;
  link_.to_device = to_device;
  link_.from_device = from_device;
  queued = queue_at = 0;
  nccc_rpc_decoder_init(&reframer, payload, sizeof payload);
  ck_assert_int_eq(nccci_remote_fd_transport(from, to, pid, &link_.inner), NCCC_OK);
  t.ctx = &link_;
  t.read = m_read;
  t.write = m_write;
  t.close = m_close;
  o.timeout_ms = timeout_ms;
  o.retries = 2;
  ck_assert_msg(nccc_remote_open(&t, &o, &r) == NCCC_OK, "open: %s", nccc_last_error());
  return r;
}
