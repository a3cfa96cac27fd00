/*
** closure.c — the closure pool: claims, scopes, groups, stale detection.
**
** Records live in one static array. A context is a token
** (generation << (IDX_BITS + 1)) | (index << 1) | 1: the low bit set
** keeps it non-NULL and tells it from an aligned pointer passed by
** mistake; the generation is bumped by every claim, so an old token
** never matches a record claimed again. Free records form a FIFO (oldest
** released first) after the never-used ones, which spreads reuse out and
** keeps a stale token's record unclaimed as long as possible.
*/
#include "internal.h"

/* Bits for a record index in a token. */
#if NCCC_MAX_CLOSURES < 0x100
#define IDX_BITS 8u
#else
#define IDX_BITS 15u
#endif
#define IDX_MASK ((1u << IDX_BITS) - 1u)
/* Generation bits a token carries: all 32 on 64-bit targets. */
#define GEN_MASK ((uint32_t)(UINTPTR_MAX >> (IDX_BITS + 1u)))

enum { REC_FREE = 0, REC_HEAD, REC_MEMBER, REC_SPENT };

typedef struct rec {
  nccc_fn target;
  uint64_t env;
  uint32_t gen;   /* bumped by each claim; the token must match it */
  uint16_t next;  /* head: next member + 1; free: next free + 1; 0 ends */
  uint16_t flags; /* scope | NCCC_CLOSURE_NOTIFY (head) */
  uint8_t state;
  uint8_t n;      /* head: members in the group */
  uint8_t final;  /* head: the member whose call ends an ASYNC group */
} rec;

/* Zero is a valid empty pool: no initialisation needed. */
static struct {
  rec r[NCCC_MAX_CLOSURES];
  uint16_t hwm;             /* records below this have been used */
  uint16_t free_head;       /* FIFO of released records, index + 1 */
  uint16_t free_tail;
  uint16_t in_use;
  uint64_t stale;
} P;

/* ---- tokens -------------------------------------------------------------- */

static void *token(uint16_t index, uint32_t gen) {
  uintptr_t t = ((uintptr_t)(gen & GEN_MASK) << (IDX_BITS + 1u)) |
                ((uintptr_t)index << 1) | 1u;
  return (void *)t;
}

/* The head record ctx names if it is live (HEAD, or SPENT when
** allow_spent), else -1. Lock held. */
static int head_of(const void *ctx, int allow_spent) {
  uintptr_t t = (uintptr_t)ctx;
  uint32_t index = (uint32_t)(t >> 1) & IDX_MASK;
  const rec *r;
  if ((t & 1u) == 0 || index >= P.hwm) return -1;
  r = &P.r[index];
  if ((uint32_t)(t >> (IDX_BITS + 1u)) != (r->gen & GEN_MASK)) return -1;
  if (r->state == REC_HEAD || (allow_spent && r->state == REC_SPENT)) {
    return (int)index;
  }
  return -1;
}

/* The record of member k of the group at head, or NULL. Lock held. */
static rec *member_of(int head, unsigned k) {
  rec *r = &P.r[head];
  if (k >= r->n) return NULL;
  while (k-- > 0) r = &P.r[r->next - 1];
  return r;
}

/* ---- the free list ------------------------------------------------------- */

static uint16_t take(void) {
  uint16_t i;
  if (P.hwm < NCCC_MAX_CLOSURES) {
    i = P.hwm++;
  } else {
    i = (uint16_t)(P.free_head - 1);
    P.free_head = P.r[i].next;
    if (P.free_head == 0) P.free_tail = 0;
  }
  P.in_use++;
  return i;
}

static void give_back(uint16_t i) {
  P.r[i].state = REC_FREE;
  P.r[i].next = 0;
  P.r[i].target = NULL;
  P.r[i].env = 0;
  if (P.free_tail != 0) {
    P.r[P.free_tail - 1].next = (uint16_t)(i + 1);
  } else {
    P.free_head = (uint16_t)(i + 1);
  }
  P.free_tail = (uint16_t)(i + 1);
  P.in_use--;
}

/* ---- claims ---------------------------------------------------------------- */

static int flags_ok(unsigned flags) {
  unsigned scope = flags & ~NCCC_CLOSURE_NOTIFY;
  return scope >= NCCC_SCOPE_CALL && scope <= NCCC_SCOPE_FOREVER;
}

nccc_status nccc_closure_claim_group(unsigned n, const nccc_fn *targets,
                                     const uint64_t *envs, unsigned flags,
                                     unsigned final_member, void **out_ctx) {
  uint16_t head, prev;
  unsigned k;
  if (targets == NULL || envs == NULL || out_ctx == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "closure claim", NULL);
  }
  if (n == 0 || n > NCCC_CLOSURE_GROUP_MAX) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "closure claim",
                     "group size not in 1..NCCC_CLOSURE_GROUP_MAX");
  }
  if (!flags_ok(flags)) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "closure claim", "unknown scope");
  }
  if ((flags & ~NCCC_CLOSURE_NOTIFY) == NCCC_SCOPE_ASYNC && final_member >= n) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "closure claim",
                     "final member out of range");
  }
  for (k = 0; k < n; k++) {
    if (targets[k] == NULL) {
      return nccc_fail(NCCC_ERR_NULL_POINTER, "closure claim", "NULL target");
    }
  }
  nccc_state_lock();
  if ((unsigned)(NCCC_MAX_CLOSURES - P.in_use) < n) {
    nccc_state_unlock();
    return nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "closure claim",
                     "all NCCC_MAX_CLOSURES records in use");
  }
  head = prev = 0;
  for (k = 0; k < n; k++) {
    uint16_t i = take();
    rec *r = &P.r[i];
    r->target = targets[k];
    r->env = envs[k];
    r->gen++;
    r->next = 0;
    r->state = k == 0 ? REC_HEAD : REC_MEMBER;
    if (k == 0) {
      head = i;
    } else {
      P.r[prev].next = (uint16_t)(i + 1);
    }
    prev = i;
  }
  P.r[head].flags = (uint16_t)flags;
  P.r[head].n = (uint8_t)n;
  P.r[head].final = (uint8_t)final_member;
  *out_ctx = token(head, P.r[head].gen);
  nccc_state_unlock();
  return NCCC_OK;
}

nccc_status nccc_closure_claim(nccc_fn target, uint64_t env, unsigned flags,
                               void **out_ctx) {
  if (target == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "closure claim", "NULL target");
  }
  return nccc_closure_claim_group(1, &target, &env, flags, 0, out_ctx);
}

/* ---- releases -------------------------------------------------------------- */

typedef struct notice {
  nccc_fn target;
  uint64_t env;
} notice;

/* Frees the group at head, filling notes (when the claim asked for
** notices); returns how many. Lock held. */
static unsigned free_group(int head, notice *notes) {
  rec *h = &P.r[head];
  unsigned n = h->n, want = (h->flags & NCCC_CLOSURE_NOTIFY) != 0, k;
  uint16_t i = (uint16_t)head;
  for (k = 0; k < n; k++) {
    uint16_t next = P.r[i].next;
    if (want) {
      notes[k].target = P.r[i].target;
      notes[k].env = P.r[i].env;
    }
    give_back(i);
    i = (uint16_t)(next - 1);
  }
  return want ? n : 0;
}

/* Sends the notices of a released group: out == NULL marks them. Called
** without the lock, so targets may do anything. */
static void send_notices(const notice *notes, unsigned n, void *ctx) {
  unsigned k;
  for (k = 0; k < n; k++) {
    uint64_t in[3];
    in[0] = notes[k].env;
    in[1] = nccc_slot_from_ptr(ctx);
    in[2] = k;
    notes[k].target(in, NULL);
  }
}

nccc_status nccc_closure_release(void *ctx) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n;
  int head;
  nccc_state_lock();
  head = head_of(ctx, 1);
  if (head < 0) {
    nccc_state_unlock();
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure release",
                     "not a live closure");
  }
  if (P.r[head].state == REC_SPENT) {
    nccc_state_unlock(); /* its running final call releases it */
    return NCCC_OK;
  }
  n = free_group(head, notes);
  nccc_state_unlock();
  send_notices(notes, n, ctx);
  return NCCC_OK;
}

void nccc_closure_end_call(void *ctx) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n = 0;
  int head;
  nccc_state_lock();
  head = head_of(ctx, 0);
  if (head >= 0 &&
      (P.r[head].flags & ~NCCC_CLOSURE_NOTIFY) == NCCC_SCOPE_CALL) {
    n = free_group(head, notes);
  }
  nccc_state_unlock();
  send_notices(notes, n, ctx);
}

/* Counts and records a call through a context that is not live. */
static void report_stale(const char *what) {
  nccc_state_lock();
  P.stale++;
  nccc_state_unlock();
  nccc_fail(NCCC_ERR_STALE_CLOSURE, what, "released, spent or never claimed");
}

void nccc_closure_destroy_notify(void *ctx) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n;
  int head;
  nccc_state_lock();
  head = head_of(ctx, 1);
  if (head < 0) {
    nccc_state_unlock();
    report_stale("destroy notify");
    return;
  }
  if (P.r[head].state == REC_SPENT) {
    nccc_state_unlock();
    return;
  }
  n = free_group(head, notes);
  nccc_state_unlock();
  send_notices(notes, n, ctx);
}

/* ---- calls ------------------------------------------------------------------ */

int nccc_closure_enter_locked(void *ctx, unsigned member,
                              nccc_cb_frame *frame) {
  int head = head_of(ctx, 0);
  rec *r;
  if (head < 0 || (r = member_of(head, member)) == NULL) return 0;
  frame->target = r->target;
  frame->env = r->env;
  frame->ctx = ctx;
  frame->member = member;
  frame->last = 0;
  if ((P.r[head].flags & ~NCCC_CLOSURE_NOTIFY) == NCCC_SCOPE_ASYNC &&
      member == P.r[head].final) {
    P.r[head].state = REC_SPENT; /* one call only, even if re-entered */
    frame->last = 1;
  }
  return 1;
}

int nccc_closure_live_locked(void *ctx, unsigned member) {
  int head = head_of(ctx, 0);
  return head >= 0 && member_of(head, member) != NULL;
}

void nccc_closure_count_stale(void) {
  P.stale++;
}

int nccc_closure_enter(void *ctx, unsigned member, nccc_cb_frame *frame) {
  int ok;
  nccc_state_lock();
  ok = nccc_closure_enter_locked(ctx, member, frame);
  if (!ok) P.stale++;
  nccc_state_unlock();
  if (!ok) {
    nccc_fail(NCCC_ERR_STALE_CLOSURE, "callback through a stale closure",
              "not called");
  }
  return ok;
}

void nccc_closure_leave(nccc_cb_frame *frame) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n = 0;
  int head;
  if (frame == NULL || !frame->last) return;
  frame->last = 0;
  nccc_state_lock();
  head = head_of(frame->ctx, 1);
  if (head >= 0 && P.r[head].state == REC_SPENT) n = free_group(head, notes);
  nccc_state_unlock();
  send_notices(notes, n, frame->ctx);
}

/* ---- queries ---------------------------------------------------------------- */

nccc_status nccc_closure_check(void *ctx) {
  int head;
  nccc_state_lock();
  head = head_of(ctx, 0);
  nccc_state_unlock();
  if (head < 0) {
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure",
                     "released, spent or never claimed");
  }
  return NCCC_OK;
}

nccc_status nccc_closure_info(void *ctx, unsigned member, nccc_fn *out_target,
                              uint64_t *out_env, unsigned *out_flags) {
  int head;
  rec *r;
  nccc_state_lock();
  head = head_of(ctx, 1);
  if (head < 0) {
    nccc_state_unlock();
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure info",
                     "not a live closure");
  }
  if ((r = member_of(head, member)) == NULL) {
    nccc_state_unlock();
    return nccc_fail(NCCC_ERR_INDEX_INVALID, "closure info", "no such member");
  }
  if (out_target != NULL) *out_target = r->target;
  if (out_env != NULL) *out_env = r->env;
  if (out_flags != NULL) *out_flags = P.r[head].flags;
  nccc_state_unlock();
  return NCCC_OK;
}

void nccc_closure_get_stats(nccc_closure_stats *out) {
  if (out == NULL) return;
  nccc_state_lock();
  out->capacity = NCCC_MAX_CLOSURES;
  out->in_use = P.in_use;
  out->stale_calls = P.stale;
  nccc_state_unlock();
}

void nccc_closure_reset(void) {
  uint16_t i;
  nccc_state_lock();
  /* Keep the generations: tokens of the old claims must stay stale. */
  for (i = 0; i < P.hwm; i++) {
    if (P.r[i].state != REC_FREE) give_back(i);
  }
  P.stale = 0;
  nccc_state_unlock();
}
