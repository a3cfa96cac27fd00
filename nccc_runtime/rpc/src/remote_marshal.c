/*
** remote_marshal.c — calls through a bound function: strings in go
** inside the call, strings out come back inside the result and are kept
** as local copies, pointers are checked against the device's word size
** (docs/RPC.md, "Calling through a bound module").
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "remote_internal.h"

/* ---- signatures ---- */

nccc_status nccci_remote_fn_init(nccci_remote_fn *fn, nccc_handle handle,
                                 const char *signature) {
  uint16_t n_in, n_out;
  const char *p;
  nccc_status st = nccc_signature_counts(signature, &n_in, &n_out);
  if (st != NCCC_OK) return st;
  memset(fn, 0, sizeof *fn);
  fn->handle = handle;
  fn->n_in = n_in & (uint16_t)~NCCC_SLOTS_VARIABLE;
  fn->n_out = n_out & (uint16_t)~NCCC_SLOTS_VARIABLE;
  fn->in_kind = malloc((size_t)fn->n_in + 1);
  fn->out_kind = malloc((size_t)fn->n_out + 1);
  if (fn->in_kind == NULL || fn->out_kind == NULL) {
    nccci_remote_fn_free(fn);
    return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  }
  p = nccci_remote_side_kinds(signature, fn->in_kind, &fn->variable);
  nccci_remote_side_kinds(p + 1, fn->out_kind, &fn->variable);
  return NCCC_OK;
}

void nccci_remote_fn_free(nccci_remote_fn *fn) {
  free(fn->in_kind);
  free(fn->out_kind);
  fn->in_kind = fn->out_kind = NULL;
}

/* ---- local copies of device strings ---- */

static const nccci_mirror *mirror_of(const nccc_remote *r, uint64_t local) {
  for (unsigned i = 0; local && i < NCCCI_REMOTE_MIRRORS; i++) {
    if ((uint64_t)(uintptr_t)r->mirrors[i].local == local) return &r->mirrors[i];
  }
  return NULL;
}

/* A local copy of len bytes (and a NUL) of the device's string at device;
** the oldest copy is freed to make room. */
static char *mirror_add(nccc_remote *r, uint64_t device, const uint8_t *bytes, size_t len) {
  nccci_mirror *m = &r->mirrors[r->next_mirror];
  char *copy = malloc(len + 1);
  if (copy == NULL) return NULL;
  memcpy(copy, bytes, len);
  copy[len] = 0;
  free(m->local);
  m->local = copy;
  m->device = device;
  r->next_mirror = (r->next_mirror + 1) % NCCCI_REMOTE_MIRRORS;
  return copy;
}

/* A local copy of the device string at device, read with strlen and
** read requests. */
static char *mirror_read(nccc_remote *r, uint64_t device) {
  char *text = nccci_remote_read_string(r, device);
  char *copy = text ? mirror_add(r, device, (const uint8_t *)text, strlen(text)) : NULL;
  if (text != NULL && copy == NULL) nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", "a string result");
  free(text);
  return copy;
}

/* ---- the call ---- */

/* The in slot's value as the device sees it: a local copy of a device
** string is the device's address again; pointers must fit. */
static nccc_status device_value(nccc_remote *r, uint64_t *v) {
  const nccci_mirror *m = mirror_of(r, *v);
  if (m != NULL) *v = m->device;
  if (r->device.pointer_bytes == 4 && *v > 0xffffffffu) {
    return nccc_fail(NCCC_ERR_RPC_WORD_SIZE, "rpc", "a pointer wider than the device's 32 bits");
  }
  return NCCC_OK;
}

/* Whether string slot v goes inside the call (not a copy of a device
** string, not NULL). */
static int attached(const nccc_remote *r, int kind, uint64_t v) {
  return kind == NCCCI_SLOT_STRING && v != 0 && mirror_of(r, v) == NULL;
}

/* The calling thread's last error, kept across work that may record
** others, and put back. */
static void error_keep(nccci_callback_error *e) {
  e->status = nccc_last_status();
  snprintf(e->text, sizeof e->text, "%s", nccc_last_error());
}

static void error_put_back(const nccci_callback_error *e) {
  if (e->status == NCCC_OK) {
    nccc_clear_error();
  } else {
    nccc_fail(e->status, e->text, NULL);
  }
}

/*
** The device's closures claimed for a call that then did not reach it
** (those of the first passed 'c' slots, whose device contexts are in
** msg): nothing on the device would release them before the next
** session, so they are released there now while the session lasts
** (docs/RPC.md, "Callbacks across the wire"); each release notice
** releases the host's closure.
*/
static void release_on_device(nccc_remote *r, const nccci_remote_fn *fn, const uint64_t *in,
                              const uint8_t *msg, uint16_t passed) {
  nccci_callback_error failure;
  nccc_handle release;
  error_keep(&failure);
  if (passed > 0 && r->open &&
      nccci_remote_builtin(r, NCCC_BUILTIN_CLOSURE_RELEASE, &release, NULL, 0) == NCCC_OK) {
    for (uint16_t i = 0; i < fn->n_in && passed > 0; i++) {
      uint64_t device_ctx[1], status[1];
      if (fn->in_kind[i] != NCCCI_SLOT_CLOSURE || in[i] == 0) continue;
      device_ctx[0] = nccc_rpc_get64(msg + NCCCI_RPC_CALL_FIXED + 8 * i);
      nccc_remote_call(r, release, device_ctx, 1, status, 1);
      passed--;
    }
  }
  error_put_back(&failure);
}

/*
** The host's closures of scope call go when the call returns, as a local
** forward wrapper releases them, whatever happened: the device's release
** notice released them already when it came (then nothing happens here),
** and here they go when it could not come: the call never reached the
** device, the notice would have gone past the device's depth, or the
** outcome is unknown. The call's last error stays.
*/
static void end_calls(const nccci_remote_fn *fn, const uint64_t *in) {
  nccci_callback_error kept;
  error_keep(&kept);
  for (uint16_t i = 0; i < fn->n_in; i++) {
    if (fn->in_kind[i] == NCCCI_SLOT_CLOSURE && in[i] != 0) {
      nccc_closure_end_call((void *)(uintptr_t)in[i]);
    }
  }
  error_put_back(&kept);
}

/* Passes the closures of the call on to the device (their device
** contexts into msg's slots); on a failure releases on the device those
** it passed. */
static nccc_status pass_closures(nccc_remote *r, const nccci_remote_fn *fn, const uint64_t *in,
                                 uint8_t *msg) {
  uint16_t passed = 0;
  for (uint16_t i = 0; i < fn->n_in; i++) {
    uint64_t v = in[i];
    nccc_status st;
    if (fn->in_kind[i] != NCCCI_SLOT_CLOSURE || v == 0) continue;
    st = nccci_remote_closure_out(r, &v);
    if (st != NCCC_OK) {
      release_on_device(r, fn, in, msg, passed);
      return st;
    }
    nccc_rpc_put64(msg + NCCCI_RPC_CALL_FIXED + 8 * i, v);
    passed++;
  }
  return NCCC_OK;
}

/* The call message: every slot checked first, the closures passed on
** last, so that nothing fails once the device holds a closure. */
static nccc_status build(nccc_remote *r, const nccci_remote_fn *fn, const uint64_t *in,
                         uint8_t **msg_out, uint32_t *n_out) {
  size_t extra = 0, n_str = 0, n_fetch = 0, at;
  uint8_t *msg;
  nccc_status st;
  for (uint16_t i = 0; i < fn->n_in; i++) {
    if (attached(r, fn->in_kind[i], in[i])) {
      extra += 7 + strlen((const char *)(uintptr_t)in[i]);
      n_str++;
    }
  }
  for (uint16_t i = 0; i < fn->n_out; i++) n_fetch += fn->out_kind[i] == NCCCI_SLOT_STRING;
  if (n_str > 255 || n_fetch > 255) return nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc", "over 255 strings");
  if (n_str || n_fetch) extra += 2 + 2 * n_fetch;
  at = NCCCI_RPC_CALL_FIXED + 8u * fn->n_in;
  if (at + extra > r->device.max_message) {
    return nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc", "the call is larger than the device's messages");
  }
  msg = malloc(at + extra);
  if (msg == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  msg[0] = NCCC_RPC_CALL;
  nccc_rpc_put32(msg + 8, fn->handle);
  nccc_rpc_put16(msg + 12, fn->n_in);
  nccc_rpc_put16(msg + 14, fn->n_out);
  for (uint16_t i = 0; i < fn->n_in; i++) {
    uint64_t v = in[i];
    int kind = fn->in_kind[i];
    int inside = attached(r, kind, v);
    st = inside || kind == NCCCI_SLOT_RAW || kind == NCCCI_SLOT_CLOSURE ? NCCC_OK
                                                                        : device_value(r, &v);
    if (st != NCCC_OK) {
      free(msg);
      return st;
    }
    nccc_rpc_put64(msg + NCCCI_RPC_CALL_FIXED + 8 * i, inside ? 0 : v);
  }
  if (n_str || n_fetch) {
    msg[at++] = (uint8_t)n_str;
    msg[at++] = (uint8_t)n_fetch;
  }
  for (uint16_t i = 0; i < fn->n_in; i++) {
    if (!attached(r, fn->in_kind[i], in[i])) continue;
    const char *s = (const char *)(uintptr_t)in[i];
    size_t len = strlen(s);
    nccc_rpc_put16(msg + at, i);
    nccc_rpc_put32(msg + at + 2, (uint32_t)len);
    memcpy(msg + at + 6, s, len + 1);
    at += 7 + len;
  }
  for (uint16_t i = 0; i < fn->n_out; i++) {
    if (fn->out_kind[i] != NCCCI_SLOT_STRING) continue;
    nccc_rpc_put16(msg + at, i);
    at += 2;
  }
  st = pass_closures(r, fn, in, msg);
  if (st != NCCC_OK) {
    free(msg);
    return st;
  }
  *msg_out = msg;
  *n_out = (uint32_t)at;
  return NCCC_OK;
}

/* Replaces each string out slot's device address by a local copy: from
** the result's strings section, else read from the device. */
static nccc_status take_strings(nccc_remote *r, const nccci_remote_fn *fn, const uint8_t *res,
                                uint64_t *out) {
  size_t at = nccci_result_tail(res, fn->n_out);
  const uint8_t *found[256] = {0};
  if (res[15] & NCCC_RPC_RESULT_RECORDED_ERROR) at += 6u + nccc_rpc_get16(res + at + 4);
  for (uint8_t k = 0; k < res[14]; k++) {
    uint16_t slot = nccc_rpc_get16(res + at);
    if (fn->out_kind[slot] == NCCCI_SLOT_STRING && slot < 256) found[slot] = res + at;
    at += 7u + nccc_rpc_get32(res + at + 2);
  }
  for (uint16_t i = 0; i < fn->n_out; i++) {
    char *copy;
    if (fn->out_kind[i] != NCCCI_SLOT_STRING || out[i] == 0) continue;
    if (i < 256 && found[i]) {
      copy = mirror_add(r, out[i], found[i] + 6, nccc_rpc_get32(found[i] + 2));
      if (copy == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", "a string result");
    } else {
      copy = mirror_read(r, out[i]);
      if (copy == NULL) return nccc_last_status();
    }
    out[i] = (uint64_t)(uintptr_t)copy;
  }
  return NCCC_OK;
}

/* An out pointer into a string the call sent in (strtol's end pointer)
** points into the caller's own string again, at the same offset: the
** result gave the device address of the request msg. */
static void take_pointers(const nccci_remote_fn *fn, const uint64_t *in, const uint8_t *msg,
                          const uint8_t *res, uint64_t *out) {
  size_t at = NCCCI_RPC_CALL_FIXED + 8u * fn->n_in;
  uint64_t base;
  uint8_t n_str;
  if (!(res[15] & NCCC_RPC_RESULT_REQUEST_BASE)) return;
  base = nccc_rpc_get64(res + NCCCI_RPC_CALL_FIXED + 8u * fn->n_out);
  n_str = msg[at];
  at += 2;
  for (uint8_t k = 0; k < n_str; k++) {
    uint16_t slot = nccc_rpc_get16(msg + at);
    uint32_t len = nccc_rpc_get32(msg + at + 2);
    uint64_t device = base + at + 6;
    for (uint16_t j = 0; j < fn->n_out; j++) {
      if (fn->out_kind[j] == NCCCI_SLOT_POINTER && out[j] >= device && out[j] - device <= len) {
        out[j] = in[slot] + (out[j] - device);
      }
    }
    at += 7u + len;
  }
}

/* The call once built: sent, its result taken apart. */
static nccc_status exchange(nccc_remote *r, const nccci_remote_fn *fn, const uint64_t *in,
                            uint8_t *msg, uint32_t n, uint64_t *out) {
  uint8_t *res = NULL;
  uint32_t res_n = 0, sent = r->stats.requests;
  nccc_status st, device;
  nccci_callback_error enclosing, from_callbacks;
  nccci_remote_callback_errors_begin(&enclosing);
  st = nccci_remote_exchange(r, msg, n, &res, &res_n);
  nccci_remote_callback_errors_end(&enclosing, &from_callbacks);
  if (st != NCCC_OK) {
    /* it never left, or the device refused it: nothing ran, so nothing
    ** on the device will release the closures claimed for it */
    if (r->stats.requests == sent || !nccc_remote_outcome_unknown(st)) {
      release_on_device(r, fn, in, msg, fn->n_in);
    }
    return st;
  }
  st = nccc_remote_decode_result(res, res_n, fn->n_out, &device, out);
  if (st == NCCC_OK) {
    take_pointers(fn, in, msg, res, out);
    st = take_strings(r, fn, res, out);
  }
  if (st == NCCC_OK) {
    /* the device's own error if it recorded one, else a host
    ** procedure's, as a local call would leave them */
    nccc_clear_error();
    nccci_remote_record_error(res, fn->n_out);
    if (nccc_last_status() == NCCC_OK && from_callbacks.status != NCCC_OK) {
      nccc_fail(from_callbacks.status, from_callbacks.text, NULL);
    }
    /* a callback the device could not send (past its depth) gave zeros
    ** in place of the host's results: the call's results are not the
    ** function's, so the call fails */
    if (nccc_last_status() == NCCC_ERR_RPC_DEPTH) st = NCCC_ERR_RPC_DEPTH;
  }
  free(res);
  return st;
}

static nccc_status invoke(nccc_remote *r, const nccci_remote_fn *fn, const uint64_t *in,
                          uint64_t *out) {
  uint8_t *msg = NULL;
  uint32_t n = 0;
  nccc_status st;
  if (fn->variable) {
    return nccc_fail(NCCC_ERR_NOT_IMPLEMENTED, "rpc",
                     "a signature with '*' is called with nccc_remote_call");
  }
  st = build(r, fn, in, &msg, &n);
  if (st == NCCC_OK) st = exchange(r, fn, in, msg, n, out);
  free(msg);
  end_calls(fn, in);
  return st;
}

nccc_status nccci_remote_invoke(nccc_remote *r, const nccci_remote_fn *fn, const uint64_t *in,
                                uint64_t *out) {
  nccc_status st;
  pthread_mutex_lock(&r->lock);
  st = invoke(r, fn, in, out);
  pthread_mutex_unlock(&r->lock);
  return st;
}
