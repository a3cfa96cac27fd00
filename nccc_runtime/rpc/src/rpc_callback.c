/*
** rpc_callback.c — host procedures as device callbacks (docs/RPC.md,
** "Callbacks across the wire"), the device's side.
**
** The host passes a callback by calling the global function "rpc.claim"
** (NCCC_RPC_CLAIM_NAME): it claims a device closure of the host closure's
** scope and signature whose target is forward() below. When C on the
** device calls back, forward() sends a nested call to the host's runner
** (a host function whose handle came with the claim) with the host
** closure's context, member and the callback's slots, and waits for the
** answer while serving the host; when the device closure is released
** (the end of its call, its async call, the destroy notify, an explicit
** release), forward() tells the host with a nested call of n_out 0, so
** that the host releases its own closure.
*/
#include <string.h>

#include "rpc_internal.h"

#if NCCC_WITH_CLOSURES

/* One member of a claimed device closure: its env word is its index + 1. */
typedef struct callback {
  uint64_t host_ctx;    /* the host closure's context */
  void *ctx;            /* the device closure's context */
  nccc_handle runner;   /* the host function that runs it */
  uint16_t n_in, n_out; /* the callback's slots (after env) */
  uint8_t member, used; /* used: FREE, LIVE or ENDING */
} callback;

/* An entry is ENDING while a new session releases its closure: no
** notice goes to the host of the session that is over. */
enum { FREE, LIVE, ENDING };

static callback callbacks[NCCC_MAX_CLOSURES];
static nccc_rpc_server *serving;

/* Slots of rpc.claim before its members, and per member: the host
** context, then the signature's bytes. */
#define CLAIM_FIXED 4u
#define CLAIM_MEMBER (1u + NCCC_CLOSURE_SIGNATURE_KEPT / 8u)

static void forward(const uint64_t *in, uint64_t *out) {
  uint64_t call[2 + NCCC_RPC_CALLBACK_SLOTS];
  callback *cb = &callbacks[in[0] - 1];
  call[0] = cb->host_ctx;
  call[1] = cb->member;
  if (out == NULL) { /* a release notice, one per member */
    int tell = cb->used == LIVE && cb->member == 0;
    if (cb->used == LIVE) cb->used = FREE;
    /* the host releases its whole closure on member 0's notice */
    call[1] |= NCCC_RPC_CALLBACK_RELEASED;
    if (tell) nccc_rpc_server_call_host(serving, cb->runner, call, 2, NULL, 0);
    return;
  }
  memcpy(call + 2, in + 1, 8u * cb->n_in);
  /* a refusal (too deep, the host's own error) stays recorded as the
  ** last error, which the result of the call in progress carries */
  nccc_rpc_server_call_host(serving, cb->runner, call, 2u + cb->n_in, out, cb->n_out);
}

/* Fills n free entries from the members of a claim; returns the status
** and leaves their indices in taken (entries stay free until claimed). */
static nccc_status members(const uint64_t *in, unsigned n, int *taken,
                           char sigs[][NCCC_CLOSURE_SIGNATURE_KEPT]) {
  int next = 0;
  for (unsigned k = 0; k < n; k++) {
    const uint64_t *m = in + CLAIM_FIXED + CLAIM_MEMBER * k;
    uint16_t n_in, n_out;
    nccc_status st;
    while (next < NCCC_MAX_CLOSURES && callbacks[next].used != FREE) next++;
    if (next == NCCC_MAX_CLOSURES) {
      return nccc_fail(NCCC_ERR_POOL_EXHAUSTED, NCCC_RPC_CLAIM_NAME, "every closure is in use");
    }
    /* the bytes in the wire's order of the slots' values (the host laid
    ** them out in its memory, little-endian), whatever the device's */
    for (unsigned j = 0; j < NCCC_CLOSURE_SIGNATURE_KEPT / 8u; j++) {
      nccc_rpc_put64((uint8_t *)sigs[k] + 8u * j, m[1 + j]);
    }
    sigs[k][NCCC_CLOSURE_SIGNATURE_KEPT - 1] = '\0';
    st = nccc_signature_counts(sigs[k], &n_in, &n_out);
    if (st != NCCC_OK) return st;
    if (n_in > NCCC_RPC_CALLBACK_SLOTS || ((n_in | n_out) & NCCC_SLOTS_VARIABLE) != 0) {
      return nccc_fail(NCCC_ERR_RPC_TOO_BIG, NCCC_RPC_CLAIM_NAME,
                       "a callback with '*' or over NCCC_RPC_CALLBACK_SLOTS in slots");
    }
    callbacks[next] = (callback){m[0], NULL, (nccc_handle)in[0], n_in, n_out, (uint8_t)k, FREE};
    taken[k] = next++;
  }
  return NCCC_OK;
}

/* rpc.claim: runner, flags, final, n, then the members; out: status,
** the device context. */
static void claim(const uint64_t *in, uint64_t *out) {
  char sigs[NCCC_CLOSURE_GROUP_MAX][NCCC_CLOSURE_SIGNATURE_KEPT];
  const char *sig_of[NCCC_CLOSURE_GROUP_MAX];
  nccc_fn targets[NCCC_CLOSURE_GROUP_MAX];
  uint64_t envs[NCCC_CLOSURE_GROUP_MAX];
  int taken[NCCC_CLOSURE_GROUP_MAX];
  void *ctx = NULL;
  nccc_status st;
  unsigned n = in[3] <= NCCC_CLOSURE_GROUP_MAX ? (unsigned)in[3] : 0;
  if (n == 0 || in[1] > UINT32_MAX || in[2] > UINT32_MAX) {
    out[0] = nccc_fail(NCCC_ERR_INVALID_ARG, NCCC_RPC_CLAIM_NAME,
                       "group size or flags out of range");
    return;
  }
  st = members(in, n, taken, sigs);
  for (unsigned k = 0; st == NCCC_OK && k < n; k++) {
    targets[k] = forward;
    envs[k] = (uint64_t)taken[k] + 1;
    sig_of[k] = sigs[k];
  }
  if (st == NCCC_OK) {
    st = nccc_closure_claim_group_typed(n, targets, envs, sig_of,
                                        (unsigned)in[1] | NCCC_CLOSURE_NOTIFY,
                                        (unsigned)in[2], &ctx);
  }
  for (unsigned k = 0; st == NCCC_OK && k < n; k++) {
    callbacks[taken[k]].ctx = ctx;
    callbacks[taken[k]].used = LIVE;
  }
  out[0] = st;
  if (st == NCCC_OK) out[1] = nccc_slot_from_ptr(ctx);
}

/* Releases every device closure made for the host when a hello ends
** the session (the server's session_ended), telling no host. */
static void end_session(void) {
  int i;
  for (i = 0; i < NCCC_MAX_CLOSURES; i++) {
    if (callbacks[i].used == LIVE) callbacks[i].used = ENDING;
  }
  for (i = 0; i < NCCC_MAX_CLOSURES; i++) {
    if (callbacks[i].used != ENDING) continue;
    callbacks[i].used = FREE;
    if (callbacks[i].member == 0) nccc_closure_release(callbacks[i].ctx);
  }
}

nccc_status nccc_rpc_server_serve_callbacks(nccc_rpc_server *s) {
  nccc_handle h;
  if (s == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_rpc_server_serve_callbacks", NULL);
  serving = s;
  s->session_ended = end_session;
  memset(callbacks, 0, sizeof callbacks);
  return nccc_register(NCCC_RPC_CLAIM_NAME, claim, NCCC_RPC_CLAIM_SIGNATURE, 1, &h);
}

#endif /* NCCC_WITH_CLOSURES */
