/*
** rpc_server.c — the device's server: sessions, request ids, calls,
** lookups and nested requests (docs/RPC.md).
*/
#include <string.h>

#include "rpc_internal.h"

#define BYTES(buf) ((uint8_t *)(buf))

/* Whether the device makes nested calls at all: with NCCC_RPC_MAX_DEPTH 0
** it serves at level 0 only and never waits, so the code that sends a
** nested call again or gives a wait up goes from the image. */
enum { NESTS = NCCC_RPC_MAX_DEPTH > 0 };

/* ---- sending ---- */

static int sink(void *ctx, const uint8_t *data, size_t n) {
  nccc_rpc_server *s = ctx;
  return nccci_rpc_write_all(s->io.write, s->io.ctx, data, n);
}

static nccc_status send_msg(nccc_rpc_server *s, const uint8_t *msg, uint32_t n) {
  return nccc_rpc_frame_send(msg, n, sink, s);
}

/* A notice or log message (small: built on the stack, so that no buffer
** holding an answer is touched). */
static nccc_status send_short(nccc_rpc_server *s, uint8_t type, uint16_t session,
                              uint32_t id, uint32_t word, const char *text) {
  uint8_t msg[NCCC_RPC_HEADER_BYTES + 6 + 96];
  size_t len = strlen(text);
  if (len > 96) len = 96;
  nccc_rpc_header_put(msg, type, session, id);
  nccc_rpc_put32(msg + NCCC_RPC_HEADER_BYTES, word);
  nccc_rpc_put16(msg + NCCC_RPC_HEADER_BYTES + 4, (uint16_t)len);
  memcpy(msg + NCCC_RPC_HEADER_BYTES + 6, text, len);
  return send_msg(s, msg, (uint32_t)(NCCC_RPC_HEADER_BYTES + 6 + len));
}

/* The nested call of level (header, handle, counts, then its slots in
** the wire's order), framed as it goes: no buffer holds it, so that the
** answers of requests served while it waits cannot overwrite it. */
static nccc_status send_nested(nccc_rpc_server *s, uint8_t level) {
  const nccc_rpc_nested *c = &s->nested[level];
  uint8_t bytes[NCCCI_RPC_CALL_FIXED];
  nccci_rpc_out o;
  nccci_rpc_frame_open(&o, NCCCI_RPC_CALL_FIXED + 8u * c->n_in, sink, s);
  nccc_rpc_header_put(bytes, NCCC_RPC_CALL, s->session, c->id);
  nccc_rpc_put32(bytes + 8, c->handle);
  nccc_rpc_put16(bytes + 12, c->n_in);
  nccc_rpc_put16(bytes + 14, c->n_out);
  nccci_rpc_frame_put(&o, bytes, sizeof bytes);
  for (uint16_t i = 0; i < c->n_in; i++) {
    nccc_rpc_put64(bytes, c->in[i]);
    nccci_rpc_frame_put(&o, bytes, 8);
  }
  return nccci_rpc_frame_close(&o);
}

static nccc_status send_start(nccc_rpc_server *s, uint8_t nonce) {
  const uint16_t probe = 1;
  uint8_t msg[NCCC_RPC_HEADER_BYTES + 12];
  uint8_t *b = msg + NCCC_RPC_HEADER_BYTES;
  nccc_rpc_header_put(msg, NCCC_RPC_START, s->session, 0);
  b[0] = NCCC_RPC_VERSION;
  b[1] = (uint8_t)sizeof(void *);
  b[2] = *(const uint8_t *)&probe ? NCCC_RPC_ORDER_LITTLE : NCCC_RPC_ORDER_BIG;
  b[3] = NCCC_RPC_MAX_DEPTH;
  nccc_rpc_put32(b + 4, NCCC_RPC_MAX_MESSAGE);
  nccc_rpc_put16(b + 8, NCCC_RPC_MAX_SLOTS);
  b[10] = nonce;
  b[11] = 0;
  return send_msg(s, msg, sizeof msg);
}

/* ---- receiving ---- */

static void frame_fault(nccc_rpc_server *s, nccc_rpc_frame_event ev) {
  const char *what = "frame cut short";
  if (ev == NCCC_RPC_FRAME_BAD_CRC) {
    s->stats.bad_crc++;
    what = "frame dropped: bad CRC";
  } else if (ev == NCCC_RPC_FRAME_TOO_LONG) {
    s->stats.too_long++;
    what = "frame dropped: length over NCCC_RPC_MAX_MESSAGE";
  } else {
    s->stats.cut++;
  }
  send_short(s, NCCC_RPC_NOTICE, s->session, 0, NCCC_ERR_RPC_FRAME, what);
}

/* The waits above level `to` give up (docs/RPC.md, "Faults"): each
** returns to its device function, whose request then ends, until the
** server is back at level `to`; there it resends its nested call
** (resend), or handles the n bytes held in rx[depth] (a request or an
** answer for that level). */
static void unwind(nccc_rpc_server *s, uint8_t to, int resend, uint32_t held) {
  s->unwinding = 1;
  s->unwind_to = to;
  s->resend_there = (uint8_t)resend;
  s->held_level = s->depth;
  s->held_n = held;
}

/* The next well-formed frame's payload length, into rx[depth]; reads the
** link as needed. NCCC_ERR_RPC_TRANSPORT when it is gone, or (feeding)
** when the bytes given run out; NCCC_ERR_RPC_TIMEOUT for a wait the host
** gave up. */
static nccc_status next_frame(nccc_rpc_server *s, uint32_t *n) {
  if (NESTS && s->unwinding) {
    if (s->depth > s->unwind_to) {
      s->stats.given_up++;
      return nccc_fail(NCCC_ERR_RPC_TIMEOUT, "rpc", "the host gave up the call; its outcome is unknown");
    }
    s->unwinding = 0;
    if (s->resend_there) {
      s->stats.nested_resent++;
      send_nested(s, s->depth);
    }
    if (s->held_n) {
      *n = s->held_n;
      s->held_n = 0;
      memcpy(s->rx[s->depth], s->rx[s->held_level], *n);
      return NCCC_OK;
    }
  }
  for (;;) {
    size_t used;
    nccc_rpc_frame_event ev;
    if (s->pending_n == 0) {
      long r;
      if (s->feeding) return NCCC_ERR_RPC_TRANSPORT;
      r = s->io.read(s->io.ctx, s->chunk, sizeof s->chunk);
      if (r <= 0) return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "the link is gone");
      s->pending = s->chunk;
      s->pending_n = (size_t)r;
    }
    s->decoder.buf = BYTES(s->rx[s->depth]);
    ev = nccc_rpc_decode(&s->decoder, s->pending, s->pending_n, &used);
    s->pending += used;
    s->pending_n -= used;
    s->stats.garbage = s->decoder.garbage;
    if (ev == NCCC_RPC_FRAME_OK) {
      s->stats.frames++;
      *n = s->decoder.length;
      return NCCC_OK;
    }
    if (ev != NCCC_RPC_FRAME_MORE) frame_fault(s, ev);
  }
}

/* ---- requests ---- */

static void on_hello(nccc_rpc_server *s, const uint8_t *p, uint32_t n) {
  uint8_t nonce;
  if (n < NCCC_RPC_HEADER_BYTES + 2) {
    s->stats.protocol++;
    return;
  }
  nonce = p[NCCC_RPC_HEADER_BYTES + 1];
  if (s->session != 0 && nonce == s->session >> 8 && s->highest_id == 0 && s->depth == 0) {
    /* a copy of the hello of this session, which no request used yet */
    send_start(s, nonce);
    return;
  }
  if (++s->sessions == 0) s->sessions = 1;
  s->session = (uint16_t)(nonce << 8 | s->sessions);
  s->highest_id = 0;
  s->next_id = 0;
  s->cached = 0;
  s->resets++;
  s->stats.sessions++;
  nccci_rpc_free_all(s);
  if (s->session_ended != NULL) s->session_ended();
  send_start(s, nonce);
}

/* Writes the n slots at p (native) to the wire's order, in place. */
static void slots_to_wire(uint64_t *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    uint64_t v = p[i];
    nccc_rpc_put64(BYTES(&p[i]), v);
  }
}

static void slots_from_wire(uint64_t *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) p[i] = nccc_rpc_get64(BYTES(&p[i]));
}

/* The strings section of a call (docs/RPC.md, "call"): strings in are
** pointed to where they lie in the request; the out slots to send back
** as strings are left in *fetch. */
static nccc_status call_strings(uint8_t *p, uint32_t at, uint32_t n, uint64_t *in,
                                uint16_t n_in, uint16_t n_out, const uint8_t **fetch,
                                uint8_t *n_fetch) {
  uint8_t n_str;
  *n_fetch = 0;
  if (at == n) return NCCC_OK;
  if (n - at < 2) return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "call: cut strings section");
  n_str = p[at];
  *n_fetch = p[at + 1];
  at += 2;
  for (uint8_t k = 0; k < n_str; k++) {
    uint16_t slot;
    uint32_t len;
    if (n - at < 6) return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "call: cut string");
    slot = nccc_rpc_get16(p + at);
    len = nccc_rpc_get32(p + at + 2);
    if (slot >= n_in || len >= n - at - 6 || p[at + 6 + len] != 0) {
      return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "call: bad string in");
    }
    in[slot] = (uint64_t)(uintptr_t)(p + at + 6);
    at += 6 + len + 1;
  }
  *fetch = p + at;
  if (n - at != 2u * *n_fetch) return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "call: bad strings out");
  for (uint8_t k = 0; k < *n_fetch; k++) {
    if (nccc_rpc_get16(*fetch + 2 * k) >= n_out) {
      return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "call: string out past the slots");
    }
  }
  return NCCC_OK;
}

/* Appends the strings the request asked for (those that fit) and, when
** the call recorded an error, its block; returns the result's length. */
static uint32_t call_tail(uint8_t *r, uint32_t at, const uint64_t *out,
                          const uint8_t *request, const uint8_t *fetch, uint8_t n_fetch) {
  nccc_status recorded = nccc_last_status();
  uint8_t n_strings = 0;
  if (request != NULL) {
    r[15] |= NCCC_RPC_RESULT_REQUEST_BASE;
    nccc_rpc_put64(r + at, (uint64_t)(uintptr_t)request);
    at += 8;
  }
  if (recorded != NCCC_OK) {
    const char *text = nccc_last_error();
    size_t len = strlen(text);
    if (len > NCCC_RPC_MAX_MESSAGE - at - 6) len = NCCC_RPC_MAX_MESSAGE - at - 6;
    r[15] |= NCCC_RPC_RESULT_RECORDED_ERROR;
    nccc_rpc_put32(r + at, (uint32_t)recorded);
    nccc_rpc_put16(r + at + 4, (uint16_t)len);
    memcpy(r + at + 6, text, len);
    at += 6u + (uint32_t)len;
  }
  for (uint8_t k = 0; k < n_fetch; k++) {
    uint16_t slot = nccc_rpc_get16(fetch + 2 * k);
    const char *str = (const char *)(uintptr_t)out[slot];
    size_t len;
    if (str == NULL) continue;
    len = strlen(str);
    if (len > NCCC_RPC_MAX_MESSAGE - at || NCCC_RPC_MAX_MESSAGE - at - len < 7) continue;
    nccc_rpc_put16(r + at, slot);
    nccc_rpc_put32(r + at + 2, (uint32_t)len);
    memcpy(r + at + 6, str, len + 1);
    at += 7u + (uint32_t)len;
    n_strings++;
  }
  r[14] = n_strings;
  return at;
}

static uint32_t serve_call(uint8_t *p, uint32_t n, uint8_t *r) {
  uint64_t *in = (uint64_t *)(void *)(p + NCCCI_RPC_CALL_FIXED);
  uint64_t *out = (uint64_t *)(void *)(r + NCCCI_RPC_CALL_FIXED);
  const uint8_t *fetch = NULL;
  uint8_t n_fetch;
  nccc_handle handle;
  uint16_t n_in, n_out;
  nccc_status st;
  uint32_t at;
  if (n < NCCCI_RPC_CALL_FIXED) {
    return nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "short call"));
  }
  handle = nccc_rpc_get32(p + 8);
  n_in = nccc_rpc_get16(p + 12);
  n_out = nccc_rpc_get16(p + 14);
  if (n_in > NCCC_RPC_MAX_SLOTS || n_out > NCCC_RPC_MAX_SLOTS ||
      NCCCI_RPC_CALL_FIXED + 8u * n_out > NCCC_RPC_MAX_MESSAGE - 16) {
    return nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc",
                                          "more slots than NCCC_RPC_MAX_SLOTS"));
  }
  at = NCCCI_RPC_CALL_FIXED + 8u * n_in;
  if (at > n) return nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "call: cut slots"));
  slots_from_wire(in, n_in);
  nccci_rpc_records(handle, in, n_in, 0);
  st = call_strings(p, at, n, in, n_in, n_out, &fetch, &n_fetch);
  if (st != NCCC_OK) return nccci_rpc_refusal(r, st);
  memset(out, 0, 8u * n_out);
  nccc_clear_error();
  st = nccc_call_checked(handle, n_in ? in : NULL, n_in, n_out ? out : NULL, n_out);
  if (st != NCCC_OK) return nccci_rpc_refusal(r, st);
  nccc_rpc_put32(r + 8, NCCC_OK);
  nccc_rpc_put16(r + 12, n_out);
  r[14] = 0;
  r[15] = 0;
  at = call_tail(r, NCCCI_RPC_CALL_FIXED + 8u * n_out, out,
                 at < n && p[at] ? p : NULL, fetch, n_fetch);
  nccci_rpc_records(handle, out, n_out, 1);
  slots_to_wire(out, n_out);
  return at;
}

static uint32_t serve_lookup(uint8_t *p, uint32_t n, uint8_t *r) {
  uint16_t len = n >= 10 ? nccc_rpc_get16(p + 8) : 0;
  const nccc_fn_info *info;
  nccc_handle h;
  nccc_status st;
  size_t sig;
  if (n < 10 || n != 10u + len) {
    return nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "lookup of the wrong length"));
  }
  /* the name moves over its length field to make room for its NUL */
  memmove(p + 8, p + 10, len);
  p[8 + len] = 0;
  st = nccc_lookup((const char *)p + 8, &h);
  if (st == NCCC_OK) st = nccc_function(h, NULL, &info, NULL);
  if (st != NCCC_OK) return nccci_rpc_refusal(r, st);
  sig = strlen(info->signature);
  if (sig > NCCC_RPC_MAX_MESSAGE - 22) {
    return nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc", "signature too long"));
  }
  nccc_rpc_put32(r + 8, NCCC_OK);
  nccc_rpc_put32(r + 12, h);
  nccc_rpc_put16(r + 16, info->n_in);
  nccc_rpc_put16(r + 18, info->n_out);
  nccc_rpc_put16(r + 20, (uint16_t)sig);
  memcpy(r + 22, info->signature, sig);
  return 22u + (uint32_t)sig;
}

/* Whether this device serves request type (of n bytes p): the filter
** says, and a build without remote memory (nccc/config.h) serves only
** calls and lookups. */
static int served(nccc_rpc_server *s, uint8_t type, const uint8_t *p, uint32_t n) {
  if (!NCCC_WITH_REMOTE_MEMORY && type != NCCC_RPC_CALL && type != NCCC_RPC_LOOKUP) return 0;
  return s->filter == NULL ||
         s->filter(s->filter_ctx, type,
                   type == NCCC_RPC_CALL && n >= NCCCI_RPC_CALL_FIXED ? nccc_rpc_get32(p + 8) : 0);
}

static void on_request(nccc_rpc_server *s, nccc_rpc_header h, uint8_t *p, uint32_t n) {
  uint8_t level = NESTS ? s->depth : 0;
  uint8_t *r = BYTES(s->tx[level]);
  uint32_t len = 0;
  nccc_rpc_header_put(r, NCCC_RPC_RESULT, h.session, h.id);
  if (s->session == 0 || h.session != s->session) {
    s->stats.stale_session++;
    nccc_fail(NCCC_ERR_RPC_SESSION, "rpc", "no such session on the device");
    send_short(s, NCCC_RPC_RESULT, h.session, h.id, NCCC_ERR_RPC_SESSION, nccc_last_error());
    return;
  }
  if (s->cached && s->cached_id == h.id && s->cached_session == h.session) {
    s->stats.resent++;
    send_msg(s, BYTES(s->tx[s->cached_level]), s->cached_length);
    return;
  }
  for (uint8_t k = 0; k < level; k++) {
    /* Still running: its answer will come. The host sent it again, so it
    ** waits for nothing deeper: it lacks the nested call of level k + 1
    ** (or that call's answer was lost), which goes again. */
    if (s->running[k] == h.id) {
      if (k + 1 == level) {
        s->stats.nested_resent++;
        send_nested(s, level);
      } else {
        unwind(s, (uint8_t)(k + 1), 1, 0);
      }
      return;
    }
  }
  if (!nccc_rpc_id_after(h.id, s->highest_id)) {
    s->stats.replayed++;
    nccc_fail(NCCC_ERR_RPC_REPLAYED, "rpc", "request id older than the last one served");
    send_short(s, NCCC_RPC_RESULT, h.session, h.id, NCCC_ERR_RPC_REPLAYED, nccc_last_error());
    return;
  }
  if (h.depth < level) {
    /* sent from fewer of this device's nested calls than wait: the host
    ** gave up the deeper ones; the request is served at its own level */
    unwind(s, h.depth, 0, n);
    return;
  }
  s->highest_id = h.id;
  if (s->cached_level == level) s->cached = 0;
  s->running[level] = h.id;
  s->stats.requests++;
  if (h.depth > level) {
    len = nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc",
                                         "a request deeper than the device's nested calls"));
  } else if (!served(s, h.type, p, n)) {
    len = nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_NOT_IMPLEMENTED, "rpc",
                                         "the device does not serve this request"));
  } else if (h.type == NCCC_RPC_CALL) {
    len = serve_call(p, n, r);
  } else if (h.type == NCCC_RPC_LOOKUP) {
    len = serve_lookup(p, n, r);
  }
#if NCCC_WITH_REMOTE_MEMORY
  else {
    len = nccci_rpc_memory(s, h.type, p, n, r);
  }
#endif
  s->running[level] = 0;
  s->cached = 1;
  s->cached_id = h.id;
  s->cached_session = h.session;
  s->cached_level = level;
  s->cached_length = len;
  send_msg(s, r, len);
}

/* Handles one frame received at the current level; a result is left to
** the caller (nested waits), anything else is handled here. */
static void on_message(nccc_rpc_server *s, uint8_t *p, uint32_t n) {
  nccc_rpc_header h;
  if (n < NCCC_RPC_HEADER_BYTES) {
    s->stats.protocol++;
    return;
  }
  h = nccc_rpc_header_get(p);
  switch (h.type) {
    case NCCC_RPC_HELLO:
      on_hello(s, p, n);
      break;
    case NCCC_RPC_CALL: case NCCC_RPC_LOOKUP: case NCCC_RPC_ALLOC:
    case NCCC_RPC_FREE: case NCCC_RPC_READ: case NCCC_RPC_WRITE:
    case NCCC_RPC_STRLEN:
      on_request(s, h, p, n);
      break;
    case NCCC_RPC_RESULT: case NCCC_RPC_NOTICE: case NCCC_RPC_START: case NCCC_RPC_LOG:
      break; /* an answer nobody waits for any more; what only a device sends */
    default:
      s->stats.protocol++;
      if (h.session == s->session) {
        send_short(s, NCCC_RPC_NOTICE, s->session, h.id, NCCC_ERR_RPC_PROTOCOL,
                   "unknown message type");
      }
      break;
  }
}

/* ---- entry points ---- */

nccc_status nccc_rpc_server_init(nccc_rpc_server *s, const nccc_rpc_transport *io) {
  if (s == NULL || io == NULL || io->read == NULL || io->write == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_rpc_server_init", NULL);
  }
  /* everything but the filter, which may be set before */
  memset(&s->io, 0, offsetof(nccc_rpc_server, rx) - offsetof(nccc_rpc_server, io));
  s->io = *io;
  nccc_rpc_decoder_init(&s->decoder, BYTES(s->rx[0]), NCCC_RPC_MAX_MESSAGE);
  return send_start(s, 0);
}

void nccc_rpc_server_filter(nccc_rpc_server *s, nccc_rpc_filter filter, void *ctx) {
  s->filter = filter;
  s->filter_ctx = ctx;
}

nccc_status nccc_rpc_server_poll(nccc_rpc_server *s) {
  uint32_t n = 0;
  nccc_status st = next_frame(s, &n);
  if (st == NCCC_OK) on_message(s, BYTES(s->rx[s->depth]), n);
  return st;
}

nccc_status nccc_rpc_server_run(nccc_rpc_server *s) {
  nccc_status st;
  do {
    st = nccc_rpc_server_poll(s);
  } while (st == NCCC_OK);
  return st;
}

int nccci_rpc_serve_link(nccc_rpc_server *s, const nccc_rpc_transport *io) {
  if (nccc_rpc_server_init(s, io) != NCCC_OK) return 1;
  nccc_rpc_server_run(s);
  return 0;
}

nccc_status nccc_rpc_server_feed(nccc_rpc_server *s, const uint8_t *data, size_t n) {
  s->feeding = 1;
  s->pending = data;
  s->pending_n = n;
  while (nccc_rpc_server_poll(s) == NCCC_OK) {
  }
  s->feeding = 0;
  s->pending_n = 0;
  return NCCC_OK;
}

/* Waits at level s->depth for the result of the nested call sent there;
** fills out. */
static nccc_status await_result(nccc_rpc_server *s, uint64_t *out, size_t n_out) {
  uint32_t resets = s->resets;
  uint8_t level = s->depth;
  for (;;) {
    uint32_t n;
    uint8_t *p = BYTES(s->rx[level]);
    nccc_rpc_header h;
    nccc_status st = next_frame(s, &n);
    if (st != NCCC_OK) return st;
    h = nccc_rpc_header_get(p);
    if (n >= NCCCI_RPC_RESULT_FIXED && h.type == NCCC_RPC_RESULT && h.session == s->session) {
      if (h.id == s->nested[level].id) {
        st = (nccc_status)nccc_rpc_get32(p + 8);
        if (st != NCCC_OK) return nccc_fail(st, "rpc", "the host refused the call");
        if (n < NCCCI_RPC_CALL_FIXED + 8u * n_out || nccc_rpc_get16(p + 12) != n_out) {
          return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "result of the wrong size");
        }
        for (size_t i = 0; i < n_out; i++) {
          out[i] = nccc_rpc_get64(p + NCCCI_RPC_CALL_FIXED + 8 * i);
        }
        return NCCC_OK;
      }
      /* the answer of an outer nested call: the host gave up this one */
      for (uint8_t k = 1; k < level; k++) {
        if (h.id == s->nested[k].id) unwind(s, k, 0, n);
      }
      continue;
    }
    if (n >= NCCC_RPC_HEADER_BYTES) on_message(s, p, n);
    if (s->resets != resets) {
      return nccc_fail(NCCC_ERR_RPC_RESET, "rpc", "the host began a new session");
    }
  }
}

nccc_status nccc_rpc_server_call_host(nccc_rpc_server *s, nccc_handle handle,
                                      const uint64_t *in, size_t n_in, uint64_t *out,
                                      size_t n_out) {
  nccc_rpc_nested *c;
  nccc_status st, prior;
  char text[NCCC_ERROR_MESSAGE_BYTES];
  if (s == NULL || (n_in && in == NULL) || (n_out && out == NULL)) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_rpc_server_call_host", NULL);
  }
  if (s->session == 0) return nccc_fail(NCCC_ERR_RPC_SESSION, "rpc", "no session");
  if (s->depth + 1 > NCCC_RPC_MAX_DEPTH) { /* always, with NCCC_RPC_MAX_DEPTH 0 */
    return nccc_fail(NCCC_ERR_RPC_DEPTH, "rpc", "deeper than NCCC_RPC_MAX_DEPTH");
  }
  if (s->unwinding) {
    return nccc_fail(NCCC_ERR_RPC_TIMEOUT, "rpc", "the host gave up the call; its outcome is unknown");
  }
  if (n_in > NCCC_RPC_MAX_SLOTS || n_out > NCCC_RPC_MAX_SLOTS ||
      NCCCI_RPC_CALL_FIXED + 8 * (n_in > n_out ? n_in : n_out) > NCCC_RPC_MAX_MESSAGE) {
    return nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc", "more slots than NCCC_RPC_MAX_SLOTS");
  }
  /* what the requests served meanwhile record goes in their own results:
  ** the caller's last error is put back */
  prior = nccc_last_status();
  if (prior != NCCC_OK) memcpy(text, nccc_last_error(), sizeof text);
  c = &s->nested[++s->depth];
  c->in = in;
  c->handle = handle;
  c->id = ++s->next_id;
  c->n_in = (uint16_t)n_in;
  c->n_out = (uint16_t)n_out;
  st = send_nested(s, s->depth);
  if (st == NCCC_OK) st = await_result(s, out, n_out);
  c->id = 0;
  s->depth--;
  if (st == NCCC_OK && prior == NCCC_OK) nccc_clear_error();
  if (st == NCCC_OK && prior != NCCC_OK) nccc_fail(prior, text, NULL);
  return st;
}

nccc_status nccc_rpc_server_log(nccc_rpc_server *s, uint8_t level, const char *text) {
  if (s == NULL || text == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_rpc_server_log", NULL);
  return send_short(s, NCCC_RPC_LOG, s->session, 0, level, text);
}
