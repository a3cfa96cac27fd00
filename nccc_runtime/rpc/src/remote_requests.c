/*
** remote_requests.c — the client's requests: lookup, raw calls, remote
** memory (and a device string read whole), with the slot kinds of a
** signature that the layers above marshal by (docs/RPC.md).
*/
#include <stdlib.h>
#include <string.h>

#include "remote_internal.h"

#define LOCKED(r, expr)                 \
  do {                                  \
    nccc_status st_;                    \
    pthread_mutex_lock(&(r)->lock);     \
    st_ = (expr);                       \
    pthread_mutex_unlock(&(r)->lock);   \
    return st_;                         \
  } while (0)

/* ---- signatures ---- */

#define KIND_OF_BOOL NCCCI_SLOT_RAW
#define KIND_OF_INT NCCCI_SLOT_RAW
#define KIND_OF_FLOAT NCCCI_SLOT_RAW
#define KIND_OF_ERRNO NCCCI_SLOT_RAW
#define KIND_OF_POINTER NCCCI_SLOT_POINTER
#define KIND_OF_FUNCTION NCCCI_SLOT_POINTER
#define KIND_OF_CLOSURE NCCCI_SLOT_CLOSURE
#define KIND_OF_STRING NCCCI_SLOT_STRING

int nccci_remote_kind(char code) {
  switch (code) {
#define KIND_CASE(c, name, kind, bytes, is_signed, in_ok, out_ok) \
  case c:                                                         \
    return KIND_OF_##kind;
    NCCC_ABI_CODES(KIND_CASE)
#undef KIND_CASE
    default:
      return -1;
  }
}

const char *nccci_remote_side_kinds(const char *p, uint8_t *kinds, int *variable) {
  size_t k = 0;
  for (; *p && *p != NCCC_ABI_SIG_SEPARATOR; p++) {
    if (*p == NCCC_ABI_SIG_VARIADIC) {
      *variable = 1;
    } else if (*p == NCCC_ABI_SIG_RECORD_OPEN) {
      unsigned long slots;
      p = strchr(p, NCCC_ABI_SIG_RECORD_COUNT);
      slots = strtoul(p + 1, (char **)&p, 10);
      for (unsigned long j = 0; j < slots; j++) kinds[k++] = NCCCI_SLOT_RAW;
    } else {
      kinds[k++] = (uint8_t)nccci_remote_kind(*p);
    }
  }
  return p;
}

/* ---- the result of a call ---- */

/* Checks the strings section and error block of a call result after its
** slots (at); *strings gets where the strings start. */
static nccc_status check_tail(const uint8_t *p, size_t n, size_t at, size_t n_out,
                              size_t *strings) {
  if (p[15] & NCCC_RPC_RESULT_REQUEST_BASE) {
    if (n - at < 8) return NCCC_ERR_RPC_PROTOCOL;
    at += 8;
  }
  if (p[15] & NCCC_RPC_RESULT_RECORDED_ERROR) {
    if (n - at < 6 || nccc_rpc_get16(p + at + 4) > n - at - 6) return NCCC_ERR_RPC_PROTOCOL;
    at += 6u + nccc_rpc_get16(p + at + 4);
  }
  *strings = at;
  for (uint8_t k = 0; k < p[14]; k++) {
    uint32_t len;
    if (n - at < 7 || nccc_rpc_get16(p + at) >= n_out) return NCCC_ERR_RPC_PROTOCOL;
    len = nccc_rpc_get32(p + at + 2);
    if (len > n - at - 7 || p[at + 6 + len] != 0) return NCCC_ERR_RPC_PROTOCOL;
    at += 7u + len;
  }
  return at == n ? NCCC_OK : NCCC_ERR_RPC_PROTOCOL;
}

nccc_status nccc_remote_decode_result(const uint8_t *p, size_t n, size_t n_out,
                                      nccc_status *status, uint64_t *out) {
  size_t strings;
  if (p == NULL || status == NULL || (n_out && out == NULL)) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_decode_result", NULL);
  }
  if (n < NCCCI_RPC_RESULT_FIXED || p[0] != NCCC_RPC_RESULT) goto bad;
  *status = (nccc_status)nccc_rpc_get32(p + 8);
  if (*status != NCCC_OK) {
    if (n < 14 || nccc_rpc_get16(p + 12) != n - 14) goto bad;
    return NCCC_OK;
  }
  if (n < NCCCI_RPC_CALL_FIXED || nccc_rpc_get16(p + 12) != n_out ||
      (n - NCCCI_RPC_CALL_FIXED) / 8 < n_out ||
      check_tail(p, n, NCCCI_RPC_CALL_FIXED + 8 * n_out, n_out, &strings) != NCCC_OK) {
    goto bad;
  }
  for (size_t i = 0; i < n_out; i++) out[i] = nccc_rpc_get64(p + NCCCI_RPC_CALL_FIXED + 8 * i);
  return NCCC_OK;
bad:
  return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "malformed result");
}

/* ---- lookup and raw calls ---- */

static nccc_status lookup(nccc_remote *r, const char *name, nccc_handle *out, uint16_t *n_in,
                          uint16_t *n_out, char *sig, size_t sig_size) {
  size_t len = strlen(name);
  uint8_t *msg, *res = NULL;
  uint32_t res_n;
  nccc_status st;
  if (len > NCCC_RPC_MAX_NAME_BYTES) return nccc_fail(NCCC_ERR_BAD_NAME, "nccc_remote_lookup", name);
  msg = malloc(10 + len);
  if (msg == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  msg[0] = NCCC_RPC_LOOKUP;
  nccc_rpc_put16(msg + 8, (uint16_t)len);
  memcpy(msg + 10, name, len);
  st = nccci_remote_exchange(r, msg, (uint32_t)(10 + len), &res, &res_n);
  free(msg);
  if (st != NCCC_OK) return st;
  if (res_n < 22 || res_n != 22u + nccc_rpc_get16(res + 20)) {
    free(res);
    return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "malformed lookup result");
  }
  *out = nccc_rpc_get32(res + 12);
  if (n_in) *n_in = nccc_rpc_get16(res + 16);
  if (n_out) *n_out = nccc_rpc_get16(res + 18);
  if (sig && sig_size) {
    size_t k = nccc_rpc_get16(res + 20);
    if (k > sig_size - 1) k = sig_size - 1;
    memcpy(sig, res + 22, k);
    sig[k] = 0;
  }
  free(res);
  return NCCC_OK;
}

nccc_status nccc_remote_lookup(nccc_remote *r, const char *name, nccc_handle *out,
                               uint16_t *n_in, uint16_t *n_out, char *sig, size_t sig_size) {
  if (r == NULL || name == NULL || out == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_lookup", NULL);
  }
  LOCKED(r, lookup(r, name, out, n_in, n_out, sig, sig_size));
}

/* The name of built-in index, from the ABI's table. */
static const char *builtin_name(int index) {
  switch (index) {
#define NAME_CASE(INDEX, UPPER, name, SIGNATURE, N_IN, N_OUT, OFFSET) \
  case INDEX:                                                         \
    return #name;
    NCCC_ABI_BUILTINS(NAME_CASE)
#undef NAME_CASE
    default:
      return "";
  }
}

nccc_status nccci_remote_builtin(nccc_remote *r, int index, nccc_handle *out, char *sig,
                                 size_t sig_size) {
  char full[64] = "nccc.";
  strcat(full, builtin_name(index));
  return nccc_remote_lookup(r, full, out, NULL, NULL, sig, sig_size);
}

/* A call message with room for extra bytes after the slots. */
static uint8_t *call_message(nccc_handle handle, const uint64_t *in, size_t n_in,
                             size_t n_out, size_t extra) {
  uint8_t *msg = malloc(NCCCI_RPC_CALL_FIXED + 8 * n_in + extra);
  if (msg == NULL) return NULL;
  msg[0] = NCCC_RPC_CALL;
  nccc_rpc_put32(msg + 8, handle);
  nccc_rpc_put16(msg + 12, (uint16_t)n_in);
  nccc_rpc_put16(msg + 14, (uint16_t)n_out);
  for (size_t i = 0; i < n_in; i++) nccc_rpc_put64(msg + NCCCI_RPC_CALL_FIXED + 8 * i, in[i]);
  return msg;
}

/* Sends msg (n bytes) and decodes the result's slots into out; *res
** keeps the result for its strings (the caller frees it). */
static nccc_status call_exchange(nccc_remote *r, uint8_t *msg, uint32_t n, size_t n_out,
                                 uint64_t *out, uint8_t **res, uint32_t *res_n) {
  nccc_status st = nccci_remote_exchange(r, msg, n, res, res_n), device;
  if (st != NCCC_OK) return st;
  st = nccc_remote_decode_result(*res, *res_n, n_out, &device, out);
  if (st != NCCC_OK) {
    free(*res);
    *res = NULL;
  }
  return st;
}

/* The error the device's call recorded (docs/RPC.md: the result's error
** block), recorded here too, as a local call would have. */
void nccci_remote_record_error(const uint8_t *res, size_t n_out) {
  const uint8_t *b = res + nccci_result_tail(res, n_out);
  char text[NCCC_ERROR_MESSAGE_BYTES];
  size_t len;
  if (!(res[15] & NCCC_RPC_RESULT_RECORDED_ERROR)) return;
  len = nccc_rpc_get16(b + 4);
  if (len > sizeof text - 1) len = sizeof text - 1;
  memcpy(text, b + 6, len);
  text[len] = 0;
  nccc_fail((nccc_status)nccc_rpc_get32(b), text, NULL);
}

static nccc_status raw_call(nccc_remote *r, nccc_handle handle, const uint64_t *in,
                            size_t n_in, uint64_t *out, size_t n_out) {
  uint8_t *msg, *res = NULL;
  uint32_t res_n;
  nccc_status st;
  if (n_in > r->device.max_slots || n_out > r->device.max_slots) {
    return nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc", "more slots than the device takes");
  }
  msg = call_message(handle, in, n_in, n_out, 0);
  if (msg == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  st = call_exchange(r, msg, (uint32_t)(NCCCI_RPC_CALL_FIXED + 8 * n_in), n_out, out, &res,
                     &res_n);
  free(msg);
  if (st == NCCC_OK) {
    nccc_clear_error();
    nccci_remote_record_error(res, n_out);
  }
  free(res);
  return st;
}

nccc_status nccc_remote_call(nccc_remote *r, nccc_handle handle, const uint64_t *in,
                             size_t n_in, uint64_t *out, size_t n_out) {
  if (r == NULL || (n_in && in == NULL) || (n_out && out == NULL)) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_call", NULL);
  }
  LOCKED(r, raw_call(r, handle, in, n_in, out, n_out));
}

/* ---- remote memory ---- */

/* A memory request: address or size, then (read, write) a count and
** (write) the bytes; *res_out and *res_n (res_out may be NULL) get the
** result, NULL and 0 on failure: set on every path, which the callers'
** reads after a success rely on (and compilers can tell at every level
** of optimisation). */
static nccc_status memory(nccc_remote *r, uint8_t type, uint64_t word, const void *bytes,
                          uint32_t count, uint8_t **res_out, uint32_t *res_n) {
  int counted = type == NCCC_RPC_READ || type == NCCC_RPC_WRITE;
  uint32_t n = 16u + (counted ? 4u : 0u) + (type == NCCC_RPC_WRITE ? count : 0u);
  uint8_t *msg, *res = NULL;
  uint32_t got;
  nccc_status st;
  if (res_out) {
    *res_out = NULL;
    *res_n = 0;
  }
  if (type != NCCC_RPC_ALLOC && r->device.pointer_bytes == 4 && word > 0xffffffffu) {
    return nccc_fail(NCCC_ERR_RPC_WORD_SIZE, "rpc", "address wider than the device's pointers");
  }
  msg = malloc(n);
  if (msg == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  msg[0] = type;
  nccc_rpc_put64(msg + 8, word);
  if (counted) nccc_rpc_put32(msg + 16, count);
  if (type == NCCC_RPC_WRITE && count) memcpy(msg + 20, bytes, count);
  st = nccci_remote_exchange(r, msg, n, &res, &got);
  free(msg);
  if (st == NCCC_OK && res_out) {
    *res_out = res;
    *res_n = got;
    return NCCC_OK;
  }
  free(res);
  return st;
}

/* The 8-byte word answering an alloc or strlen. */
static nccc_status memory_word(nccc_remote *r, uint8_t type, uint64_t word, uint64_t *out) {
  uint8_t *res;
  uint32_t n;
  nccc_status st = memory(r, type, word, NULL, 0, &res, &n);
  if (st != NCCC_OK) return st;
  if (n != 20) st = nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "malformed memory result");
  else *out = nccc_rpc_get64(res + 12);
  free(res);
  return st;
}

/* The most bytes one read or write message carries. */
static uint32_t chunk_limit(const nccc_remote *r) {
  return r->device.max_message - 24u;
}

static nccc_status read_bytes(nccc_remote *r, uint64_t address, uint8_t *buf, size_t n) {
  while (n > 0) {
    uint32_t k = n > chunk_limit(r) ? chunk_limit(r) : (uint32_t)n;
    uint8_t *res;
    uint32_t got;
    nccc_status st = memory(r, NCCC_RPC_READ, address, NULL, k, &res, &got);
    if (st != NCCC_OK) return st;
    if (got != 16u + k || nccc_rpc_get32(res + 12) != k) {
      free(res);
      return nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "malformed read result");
    }
    memcpy(buf, res + 16, k);
    free(res);
    buf += k;
    address += k;
    n -= k;
  }
  return NCCC_OK;
}

static nccc_status write_bytes(nccc_remote *r, uint64_t address, const uint8_t *buf, size_t n) {
  do {
    uint32_t k = n > chunk_limit(r) ? chunk_limit(r) : (uint32_t)n;
    nccc_status st = memory(r, NCCC_RPC_WRITE, address, buf, k, NULL, NULL);
    if (st != NCCC_OK) return st;
    buf += k;
    address += k;
    n -= k;
  } while (n > 0);
  return NCCC_OK;
}

#define NEEDS(r, cond, what) \
  if ((r) == NULL || !(cond)) return nccc_fail(NCCC_ERR_NULL_POINTER, what, NULL)

nccc_status nccc_remote_alloc(nccc_remote *r, uint64_t size, uint64_t *out) {
  NEEDS(r, out != NULL, "nccc_remote_alloc");
  LOCKED(r, memory_word(r, NCCC_RPC_ALLOC, size, out));
}

nccc_status nccc_remote_free(nccc_remote *r, uint64_t address) {
  NEEDS(r, 1, "nccc_remote_free");
  LOCKED(r, memory(r, NCCC_RPC_FREE, address, NULL, 0, NULL, NULL));
}

nccc_status nccc_remote_strlen(nccc_remote *r, uint64_t address, uint64_t *out) {
  NEEDS(r, out != NULL, "nccc_remote_strlen");
  LOCKED(r, memory_word(r, NCCC_RPC_STRLEN, address, out));
}

nccc_status nccc_remote_read(nccc_remote *r, uint64_t address, void *buf, size_t n) {
  NEEDS(r, buf != NULL || n == 0, "nccc_remote_read");
  LOCKED(r, read_bytes(r, address, buf, n));
}

nccc_status nccc_remote_write(nccc_remote *r, uint64_t address, const void *buf, size_t n) {
  NEEDS(r, buf != NULL || n == 0, "nccc_remote_write");
  LOCKED(r, write_bytes(r, address, buf, n));
}

char *nccci_remote_read_string(nccc_remote *r, uint64_t device) {
  uint64_t len;
  char *bytes;
  if (nccc_remote_strlen(r, device, &len) != NCCC_OK) return NULL;
  bytes = len < SIZE_MAX ? malloc((size_t)len + 1) : NULL;
  if (bytes != NULL && nccc_remote_read(r, device, bytes, (size_t)len) == NCCC_OK) {
    bytes[len] = 0;
    return bytes;
  }
  free(bytes);
  return NULL;
}
