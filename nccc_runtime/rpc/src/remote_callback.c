/*
** remote_callback.c — host procedures as device callbacks (docs/RPC.md,
** "Callbacks across the wire"), the host's side.
**
** A closure context in a 'c' slot of a call through a bound module is a
** closure of this process. Before the call goes out, it is passed on:
** rpc.claim on the device makes a device closure of the same scope and
** signatures whose calls come back as nested calls of run_callback()
** here, which calls the local closure; the device's release notices come
** back the same way and release it.
*/
#include <stdlib.h>
#include <string.h>

#include "remote_internal.h"

/* Slots of rpc.claim before its members, and per member: the host
** context, then the signature's bytes, NUL-padded. */
#define CLAIM_FIXED 4u
#define CLAIM_MEMBER (1u + NCCC_CLOSURE_SIGNATURE_KEPT / 8u)
#define MEMBER_MASK 0xffu

/* This thread's record of the first error a host procedure recorded
** during the call through a bound module in progress. */
static NCCC_THREAD_LOCAL nccci_callback_error recorded;

/* Keeps the error the procedure just run recorded, unless one is kept. */
static void keep_error(void) {
  const char *text = nccc_last_error();
  size_t len = strlen(text);
  if (recorded.status != NCCC_OK || nccc_last_status() == NCCC_OK) return;
  if (len > sizeof recorded.text - 1) len = sizeof recorded.text - 1;
  memcpy(recorded.text, text, len);
  recorded.text[len] = 0;
  recorded.status = nccc_last_status();
}

void nccci_remote_callback_errors_begin(nccci_callback_error *saved) {
  *saved = recorded;
  recorded.status = NCCC_OK;
}

void nccci_remote_callback_errors_end(const nccci_callback_error *saved,
                                      nccci_callback_error *mine) {
  *mine = recorded;
  recorded = *saved;
}

/* The string slots (code 's') among the n in slots of call (signature
** sig), device addresses, replaced by local copies read from the device
** of remote r (kept in copies, NULL for the others); NCCC_OK, or the
** failure of a read, recorded, with the copies made freed. */
static nccc_status strings_in(nccc_remote *r, const char *sig, uint64_t *call, uint16_t n,
                              char **copies) {
  uint8_t kinds[NCCC_RPC_CALLBACK_SLOTS];
  int variable = 0;
  memset(copies, 0, sizeof(char *) * n);
  nccci_remote_side_kinds(sig, kinds, &variable);
  for (uint16_t i = 0; r != NULL && i < n; i++) {
    if (kinds[i] != NCCCI_SLOT_STRING || call[i] == 0) continue;
    copies[i] = nccci_remote_read_string(r, call[i]);
    if (copies[i] == NULL) {
      for (uint16_t j = 0; j < i; j++) free(copies[j]);
      return nccc_last_status();
    }
    call[i] = (uint64_t)(uintptr_t)copies[i];
  }
  return NCCC_OK;
}

/* in[0] = the local context, in[1] = member (| NCCC_RPC_CALLBACK_RELEASED
** for a release notice), then the callback's slots; out its results.
** A string among them is read from the device for the call. */
static void run_callback(const uint64_t *in, uint64_t *out) {
  uint64_t call[1 + NCCC_RPC_CALLBACK_SLOTS];
  char *copies[NCCC_RPC_CALLBACK_SLOTS];
  char sig[NCCC_CLOSURE_SIGNATURE_KEPT];
  void *ctx = (void *)(uintptr_t)in[0];
  unsigned member = (unsigned)(in[1] & MEMBER_MASK);
  nccc_callback_type type;
  uint16_t n_in, n_out;
  if ((in[1] & NCCC_RPC_CALLBACK_RELEASED) != 0) {
    /* already gone when its own runtime released it first (an async
    ** closure after its call): nothing to do */
    if (nccc_closure_check(ctx) == NCCC_OK) nccc_closure_release(ctx);
    nccc_clear_error();
    return;
  }
  if (nccc_closure_signature(ctx, member, sig, sizeof sig) != NCCC_OK ||
      nccc_signature_counts(sig, &n_in, &n_out) != NCCC_OK || n_in > NCCC_RPC_CALLBACK_SLOTS) {
    keep_error(); /* stale: zero results, the error recorded, as for a local call */
    return;
  }
  type.hash = nccc_closure_type(sig);
  type.name = "a callback from the device";
  type.signature = sig;
  memcpy(call + 1, in + 2, 8u * n_in);
  nccc_clear_error();
  if (strings_in(nccci_remote_serving(), sig, call + 1, n_in, copies) != NCCC_OK) {
    keep_error(); /* zero results, the error recorded */
    return;
  }
  nccc_closure_call(call, out, ctx, member, &type);
  keep_error();
  for (uint16_t i = 0; i < n_in; i++) free(copies[i]);
}

/* The local handle of run_callback, registered on first use (again after
** nccc_init made a fresh runtime). */
static nccc_status runner(nccc_handle *out) {
  if (nccc_lookup(NCCC_RPC_RUNNER_NAME, out) == NCCC_OK) return NCCC_OK;
  return nccc_register(NCCC_RPC_RUNNER_NAME, run_callback, NCCC_RPC_RUNNER_SIGNATURE, 0, out);
}

nccc_status nccci_remote_closure_out(nccc_remote *r, uint64_t *slot) {
  uint64_t in[CLAIM_FIXED + CLAIM_MEMBER * NCCC_CLOSURE_GROUP_MAX], out[2] = {0, 0};
  void *ctx = (void *)(uintptr_t)*slot;
  unsigned flags, n = 0;
  nccc_handle claim, run;
  nccc_status st;
  if (ctx == NULL) return NCCC_OK; /* a [nullable] callback left out */
  st = nccc_closure_info(ctx, 0, NULL, NULL, &flags);
  if (st == NCCC_OK) st = runner(&run);
  if (st != NCCC_OK) return st;
  memset(in, 0, sizeof in);
  for (; n < NCCC_CLOSURE_GROUP_MAX; n++) {
    char sig[NCCC_CLOSURE_SIGNATURE_KEPT] = {0};
    uint64_t *m = in + CLAIM_FIXED + CLAIM_MEMBER * n;
    if (nccc_closure_info(ctx, n, NULL, NULL, NULL) != NCCC_OK) break;
    st = nccc_closure_signature(ctx, n, sig, sizeof sig);
    if (st != NCCC_OK) return st;
    m[0] = *slot;
    /* the bytes in order on the wire: little-endian slot values */
    for (unsigned j = 0; j < NCCC_CLOSURE_SIGNATURE_KEPT / 8u; j++) {
      m[1 + j] = nccc_rpc_get64((const uint8_t *)sig + 8u * j);
    }
  }
  nccc_clear_error();
  in[0] = run;
  in[1] = flags & ~(unsigned)(NCCC_CLOSURE_NOTIFY | NCCC_CLOSURE_THREAD);
  in[2] = n - 1; /* an async group ends with its last member's call */
  in[3] = n;
  st = nccc_remote_lookup(r, NCCC_RPC_CLAIM_NAME, &claim, NULL, NULL, NULL, 0);
  if (st == NCCC_OK) st = nccc_remote_call(r, claim, in, CLAIM_FIXED + CLAIM_MEMBER * n, out, 2);
  if (st == NCCC_OK && out[0] != NCCC_OK) {
    st = nccc_fail((nccc_status)out[0], "a callback for the device", nccc_last_error());
  }
  if (st == NCCC_OK) *slot = out[1];
  return st;
}
