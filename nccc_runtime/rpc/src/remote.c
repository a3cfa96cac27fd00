/*
** remote.c — the client's session: hello and start, request ids,
** timeouts and resends, nested requests from the device, and the plain
** requests (docs/RPC.md).
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "remote_internal.h"

#define INITIAL_RX 65536u

nccc_remote_options nccc_remote_default_options(void) {
  nccc_remote_options o;
  memset(&o, 0, sizeof o);
  o.timeout_ms = 2000;
  o.retries = 2;
  return o;
}

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* ---- sending and receiving frames ---- */

static int sink(void *ctx, const uint8_t *data, size_t n) {
  nccc_remote *r = ctx;
  r->stats.bytes_sent += n;
  return nccci_rpc_write_all(r->io.write, r->io.ctx, data, n);
}

static nccc_status send_frame(nccc_remote *r, const uint8_t *msg, uint32_t n) {
  return nccc_rpc_frame_send(msg, n, sink, r);
}

/* What receive found. */
enum { GOT_FRAME, GOT_NOTHING, GOT_BAD_FRAME, GOT_EOF };

/* Waits until deadline (ms, now_ms's clock) for the next frame: its
** payload is r->rx[0 .. *n). */
static int receive(nccc_remote *r, int64_t deadline, uint32_t *n) {
  for (;;) {
    size_t used;
    nccc_rpc_frame_event ev;
    if (r->chunk_at == r->chunk_n) {
      int64_t left = deadline - now_ms();
      long got;
      if (left <= 0) return GOT_NOTHING;
      got = r->io.read(r->io.ctx, r->chunk, sizeof r->chunk, (int)left);
      if (got == 0) return GOT_NOTHING;
      if (got < 0) return GOT_EOF;
      r->chunk_at = 0;
      r->chunk_n = (size_t)got;
      r->stats.bytes_received += (uint64_t)got;
    }
    ev = nccc_rpc_decode(&r->decoder, r->chunk + r->chunk_at, r->chunk_n - r->chunk_at, &used);
    r->chunk_at += used;
    r->stats.garbage = r->decoder.garbage;
    if (ev == NCCC_RPC_FRAME_OK) {
      *n = r->decoder.length;
      if (*n >= NCCC_RPC_HEADER_BYTES) return GOT_FRAME;
    } else if (ev != NCCC_RPC_FRAME_MORE) {
      r->stats.bad_frames++;
      return GOT_BAD_FRAME;
    }
  }
}

static void on_log(nccc_remote *r, const uint8_t *p, uint32_t n) {
  char text[256];
  uint16_t len;
  int level;
  r->stats.logs++;
  if (n < NCCCI_RPC_RESULT_FIXED + 2) return;
  len = nccc_rpc_get16(p + NCCCI_RPC_RESULT_FIXED);
  if (len > n - NCCCI_RPC_RESULT_FIXED - 2) len = (uint16_t)(n - NCCCI_RPC_RESULT_FIXED - 2);
  if (len > sizeof text - 1) len = sizeof text - 1;
  memcpy(text, p + NCCCI_RPC_RESULT_FIXED + 2, len);
  text[len] = 0;
  level = (int)nccc_rpc_get32(p + NCCC_RPC_HEADER_BYTES);
  /* the restart that follows an abort fails the request with its text */
  if (level == NCCC_RPC_LOG_ABORT) snprintf(r->aborted, sizeof r->aborted, "%s", text);
  if (r->options.log != NULL) r->options.log(r->options.log_ctx, level, text);
}

/* ---- the session ---- */

static nccc_status take_start(nccc_remote *r, const uint8_t *p, uint32_t n) {
  const uint8_t *b = p + NCCC_RPC_HEADER_BYTES;
  nccc_remote_device d;
  if (n < NCCC_RPC_HEADER_BYTES + 12) {
    return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "short start message");
  }
  if (b[0] != NCCC_RPC_VERSION) {
    return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "the device speaks another protocol version");
  }
  d.version = b[0];
  d.pointer_bytes = b[1];
  d.byte_order = b[2];
  d.max_depth = b[3];
  d.max_message = nccc_rpc_get32(b + 4);
  d.max_slots = nccc_rpc_get16(b + 8);
  d.session = nccc_rpc_get16(p + 2);
  if ((d.pointer_bytes != 4 && d.pointer_bytes != 8) || d.max_message < 256 ||
      d.max_message > NCCC_RPC_LARGEST_MESSAGE || d.session == 0) {
    return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "start message out of range");
  }
  if (d.max_message > r->rx_cap) {
    uint8_t *bigger = realloc(r->rx, d.max_message);
    if (bigger == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", "receive buffer");
    r->rx = bigger;
    r->rx_cap = d.max_message;
    r->decoder.buf = bigger;
    r->decoder.cap = d.max_message;
  }
  r->device = d;
  r->open = 1;
  r->next_id = 0;
  r->device_highest = 0;
  r->device_cache_n = 0;
  r->aborted[0] = 0;
  r->stats.sessions++;
  return NCCC_OK;
}

/* Says hello until a start message answers this hello's nonce. */
static nccc_status hello(nccc_remote *r) {
  for (int attempt = 0; attempt <= r->options.retries; attempt++) {
    uint8_t msg[NCCC_RPC_HEADER_BYTES + 2];
    int64_t deadline = now_ms() + r->options.timeout_ms;
    if (++r->nonce == 0) r->nonce = 1;
    nccc_rpc_header_put(msg, NCCC_RPC_HELLO, 0, 0);
    msg[NCCC_RPC_HEADER_BYTES] = NCCC_RPC_VERSION;
    msg[NCCC_RPC_HEADER_BYTES + 1] = r->nonce;
    if (send_frame(r, msg, sizeof msg) != NCCC_OK) {
      return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "could not send hello");
    }
    for (;;) {
      uint32_t n;
      int got = receive(r, deadline, &n);
      if (got == GOT_NOTHING) break;
      if (got == GOT_EOF) return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "the link closed");
      if (got != GOT_FRAME) continue;
      if (r->rx[0] == NCCC_RPC_START && n >= NCCC_RPC_HEADER_BYTES + 12 &&
          r->rx[NCCC_RPC_HEADER_BYTES + 10] == r->nonce) {
        return take_start(r, r->rx, n);
      }
      if (r->rx[0] == NCCC_RPC_LOG) on_log(r, r->rx, n);
    }
  }
  return nccc_fail(NCCC_ERR_RPC_TIMEOUT, "rpc", "the device did not answer hello");
}

/* ---- nested requests: the device calls the host ---- */

/* The remote whose nested call this thread runs (the innermost). */
static NCCC_THREAD_LOCAL nccc_remote *serving_now;

nccc_remote *nccci_remote_serving(void) { return serving_now; }

static void serve_device(nccc_remote *r, const uint8_t *p, uint32_t n) {
  nccc_rpc_header h = nccc_rpc_header_get(p);
  uint8_t *req, *ans;
  uint32_t len;
  nccc_status st = NCCC_OK;
  uint16_t n_in = 0, n_out = 0;
  if (h.session != r->device.session) return;
  if (r->device_cache_n && h.id == r->device_cached_id) {
    send_frame(r, r->device_cache, r->device_cache_n);
    return;
  }
  if (!nccc_rpc_id_after(h.id, r->device_highest)) return; /* replayed */
  r->device_highest = h.id;
  r->stats.served++;
  req = malloc(n);
  if (req == NULL) return;
  memcpy(req, p, n); /* the receive buffer is reused by calls made below */
  if (h.type != NCCC_RPC_CALL || n < NCCCI_RPC_CALL_FIXED) {
    st = nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "the host serves only calls");
  } else {
    n_in = nccc_rpc_get16(req + 12);
    n_out = nccc_rpc_get16(req + 14);
    if (n != NCCCI_RPC_CALL_FIXED + 8u * n_in ||
        NCCCI_RPC_CALL_FIXED + 8u * n_out > r->device.max_message) {
      st = nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "call of the wrong length");
    }
  }
  len = st == NCCC_OK ? NCCCI_RPC_CALL_FIXED + 8u * n_out : 0;
  ans = malloc(len > 256 ? len : 256);
  if (ans == NULL) {
    free(req);
    return;
  }
  nccc_rpc_header_put(ans, NCCC_RPC_RESULT, h.session, h.id);
  if (st == NCCC_OK) {
    uint64_t *in = calloc((size_t)n_in + 1, 8), *out = calloc((size_t)n_out + 1, 8);
    nccc_remote *outer = serving_now;
    for (uint16_t i = 0; in && i < n_in; i++) in[i] = nccc_rpc_get64(req + 16 + 8 * i);
    r->serving++; /* the depth of the requests the call makes */
    serving_now = r;
    st = in && out ? nccc_call_checked(nccc_rpc_get32(req + 8), in, n_in, out, n_out)
                   : nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
    serving_now = outer;
    r->serving--;
    for (uint16_t i = 0; st == NCCC_OK && i < n_out; i++) {
      nccc_rpc_put64(ans + 16 + 8 * i, out[i]);
    }
    free(in);
    free(out);
  }
  if (st == NCCC_OK) {
    nccc_rpc_put32(ans + 8, NCCC_OK);
    nccc_rpc_put16(ans + 12, n_out);
    ans[14] = ans[15] = 0;
  } else {
    len = nccci_rpc_refusal(ans, st);
  }
  free(req);
  free(r->device_cache);
  r->device_cache = ans;
  r->device_cache_n = len;
  r->device_cached_id = h.id;
  send_frame(r, ans, len);
}

/* ---- one request ---- */

/* A result for the request: OK, or a refusal's status with its text. */
static nccc_status take_result(nccc_remote *r, uint32_t n, uint8_t **result,
                               uint32_t *result_n) {
  nccc_status st = (nccc_status)nccc_rpc_get32(r->rx + 8);
  if (st != NCCC_OK) {
    char text[200];
    uint32_t len = n >= 14 ? nccc_rpc_get16(r->rx + 12) : 0;
    if (len > n - 14 || len > sizeof text - 1) len = n >= 14 ? n - 14 : 0;
    if (len > sizeof text - 1) len = sizeof text - 1;
    memcpy(text, r->rx + 14, len);
    text[len] = 0;
    return nccc_fail(st, "device", text);
  }
  *result = malloc(n);
  if (*result == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  memcpy(*result, r->rx, n);
  *result_n = n;
  return NCCC_OK;
}

/* What one wait for the answer ended with. */
enum { WAIT_DONE, WAIT_RESEND, WAIT_SILENT };

/*
** A start message of another session while a request waits: the device
** restarted (or another host began a session). If the request reached the
** new device, the device refuses its session at once and nothing ran, so
** the wait goes on, without resends, for that refusal; silence means the
** request reached the old device and may have run.
*/
static int wait_answer(nccc_remote *r, uint32_t id, int sends, nccc_status *st,
                       uint8_t **result, uint32_t *result_n) {
  int64_t deadline = now_ms() + r->options.timeout_ms;
  int restarted = 0;
  for (;;) {
    uint32_t n;
    nccc_rpc_header h;
    int got = receive(r, deadline, &n);
    if (got == GOT_NOTHING && restarted) {
      *st = r->aborted[0] != 0
                ? nccc_fail(NCCC_ERR_RPC_RESET, "the device aborted during the request", r->aborted)
                : nccc_fail(NCCC_ERR_RPC_RESET, "rpc",
                            "the device restarted during the request; its outcome is unknown");
      r->aborted[0] = 0;
      return WAIT_DONE;
    }
    if (got == GOT_NOTHING) return WAIT_SILENT;
    if (got == GOT_EOF) {
      *st = nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "the link closed during the request");
      r->open = 0;
      return WAIT_DONE;
    }
    if (got == GOT_BAD_FRAME) {
      if (!restarted) return WAIT_RESEND;
      continue;
    }
    h = nccc_rpc_header_get(r->rx);
    deadline = now_ms() + r->options.timeout_ms; /* the device is alive */
    if (h.type == NCCC_RPC_START && h.session == r->device.session) {
      continue; /* the device's answer to a copy of this session's hello */
    }
    if (h.type == NCCC_RPC_START) {
      r->stats.restarts++;
      r->open = 0;
      restarted = 1;
      continue;
    }
    if (h.type == NCCC_RPC_RESULT && h.id == id && n >= NCCCI_RPC_RESULT_FIXED) {
      *st = (nccc_status)nccc_rpc_get32(r->rx + 8);
      if (*st == NCCC_ERR_RPC_SESSION) {
        r->open = 0;
        if (sends > 1) {
          *st = nccc_fail(NCCC_ERR_RPC_RESET, "rpc",
                          "the device lost the session during the request; its outcome is unknown");
          return WAIT_DONE;
        }
      }
      if (h.session == r->device.session || *st == NCCC_ERR_RPC_SESSION) {
        *st = take_result(r, n, result, result_n);
        return WAIT_DONE;
      }
    }
    if (h.type == NCCC_RPC_RESULT) {
      r->stats.stale++;
    } else if (h.type == NCCC_RPC_NOTICE) {
      r->stats.notices++;
      if (nccc_rpc_get32(r->rx + 8) == NCCC_ERR_RPC_FRAME && !restarted) return WAIT_RESEND;
    } else if (h.type == NCCC_RPC_LOG) {
      on_log(r, r->rx, n);
    } else if (h.type == NCCC_RPC_CALL) {
      serve_device(r, r->rx, n);
      deadline = now_ms() + r->options.timeout_ms;
    }
  }
}

nccc_status nccci_remote_exchange(nccc_remote *r, uint8_t *msg, uint32_t n, uint8_t **result,
                                  uint32_t *result_n) {
  nccc_status st = NCCC_OK;
  int fresh_session = 0;
  if (!r->open) {
    st = hello(r);
    if (st != NCCC_OK) return st;
    fresh_session = 1;
  }
  if (n > r->device.max_message) {
    return nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc", "request larger than the device's messages");
  }
  for (;;) {
    uint32_t id = ++r->next_id;
    int sends = 0, outcome = WAIT_RESEND;
    nccc_rpc_header_put(msg, msg[0], r->device.session, id);
    msg[1] = r->serving;
    while (sends <= r->options.retries && outcome != WAIT_DONE) {
      if (sends) r->stats.resent++;
      if (send_frame(r, msg, n) != NCCC_OK) {
        r->open = 0;
        return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "could not send the request");
      }
      if (sends++ == 0) r->stats.requests++; /* it left: counted once */
      outcome = wait_answer(r, id, sends, &st, result, result_n);
    }
    if (outcome != WAIT_DONE) {
      return nccc_fail(outcome == WAIT_RESEND ? NCCC_ERR_RPC_FRAME : NCCC_ERR_RPC_TIMEOUT, "rpc",
                       outcome == WAIT_RESEND
                           ? "frames were dropped and no answer came; the outcome is unknown"
                           : "no answer from the device; the outcome is unknown");
    }
    /* A session the device does not know, refused on the first send:
    ** nothing ran, so a new session may carry it once. */
    if (st != NCCC_ERR_RPC_SESSION || fresh_session) return st;
    st = hello(r);
    if (st != NCCC_OK) return st;
    fresh_session = 1;
  }
}

/* ---- opening and closing ---- */

nccc_status nccc_remote_open(const nccc_remote_transport *transport,
                             const nccc_remote_options *options, nccc_remote **out) {
  nccc_remote *r;
  pthread_mutexattr_t attr;
  nccc_status st;
  if (transport == NULL || transport->read == NULL || transport->write == NULL || out == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_open", NULL);
  }
  r = calloc(1, sizeof *r);
  if (r != NULL) r->rx = malloc(INITIAL_RX);
  if (r == NULL || r->rx == NULL) {
    if (r) free(r);
    if (transport->close) transport->close(transport->ctx);
    return nccc_fail(NCCC_ERR_NO_MEMORY, "nccc_remote_open", NULL);
  }
  r->io = *transport;
  r->options = options ? *options : nccc_remote_default_options();
  if (r->options.timeout_ms <= 0) r->options.timeout_ms = 2000;
  if (r->options.retries < 0) r->options.retries = 0;
  r->rx_cap = INITIAL_RX;
  r->nonce = (uint8_t)(now_ms() ^ (int64_t)(uintptr_t)r);
  nccc_rpc_decoder_init(&r->decoder, r->rx, r->rx_cap);
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&r->lock, &attr);
  pthread_mutexattr_destroy(&attr);
  st = hello(r);
  if (st != NCCC_OK) {
    nccci_remote_free(r);
    return st;
  }
  *out = r;
  return NCCC_OK;
}

void nccci_remote_free(nccc_remote *r) {
  if (r->io.close) r->io.close(r->io.ctx);
  for (unsigned i = 0; i < NCCCI_REMOTE_MIRRORS; i++) free(r->mirrors[i].local);
  pthread_mutex_destroy(&r->lock);
  free(r->device_cache);
  free(r->rx);
  free(r);
}

const nccc_remote_device *nccc_remote_device_info(const nccc_remote *r) {
  return r ? &r->device : NULL;
}

const nccc_remote_stats *nccc_remote_stats_get(const nccc_remote *r) {
  return r ? &r->stats : NULL;
}

void nccc_remote_set_timeout(nccc_remote *r, int timeout_ms, int retries) {
  if (r == NULL) return;
  if (timeout_ms > 0) r->options.timeout_ms = timeout_ms;
  if (retries >= 0) r->options.retries = retries;
}

int nccc_remote_outcome_unknown(nccc_status status) {
  return status == NCCC_ERR_RPC_TIMEOUT || status == NCCC_ERR_RPC_RESET ||
         status == NCCC_ERR_RPC_FRAME || status == NCCC_ERR_RPC_TRANSPORT;
}
