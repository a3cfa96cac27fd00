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
**
** Each record keeps the token of its last claim as its key, with the low
** bit cleared unless it is a head that can be called: so the generation
** lives in the key, and "is ctx a callable head" is the one comparison
** key == ctx. Calls make that comparison without the lock (a sequence
** lock, see fast_head); everything that changes a record holds the lock,
** and clears the key's low bit before changing anything a call reads.
*/
#include "internal.h"

#define LOAD_ACQ NCCC_LOAD_ACQ
#define LOAD_RLX NCCC_LOAD_RLX
#define STORE_REL NCCC_STORE_REL
#define STORE_RLX NCCC_STORE_RLX
#define FENCE_ACQ NCCC_FENCE_ACQ
#define FENCE_REL NCCC_FENCE_REL
#define LOCK_FREE_CALLS NCCC_LOCK_FREE_CALLS
#if NCCC_LOCK_FREE_CALLS
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define COLD __attribute__((noinline, cold))
#else
#define LIKELY(x) (x)
#define COLD
#endif

/* Bits for a record index in a token: with 8, a decoded index is in
** range without a check for the default hosted pool (256). */
#if NCCC_MAX_CLOSURES <= 0x100
#define IDX_BITS 8u
#else
#define IDX_BITS 15u
#endif
#define IDX_MASK ((1u << IDX_BITS) - 1u)
/* Generation bits a token carries: all 32 on 64-bit targets. */
#define GEN_MASK ((uint32_t)(UINTPTR_MAX >> (IDX_BITS + 1u)))

enum { REC_FREE = 0, REC_HEAD, REC_MEMBER, REC_SPENT };

/* What a call reads first; 32 bytes on 64-bit targets, 24 on 32-bit. */
typedef struct rec {
  uintptr_t key;  /* the last claim's token; low bit set: a callable head */
  nccc_fn target;
  uint64_t env;
  uint16_t next;  /* head: next member + 1; free: next free + 1; 0 ends */
  uint16_t flags; /* scope | NCCC_CLOSURE_NOTIFY (head) */
  uint8_t state;
  uint8_t n;      /* head: members in the group */
  uint8_t final;  /* head: the member whose call ends an ASYNC group;
                  ** NO_FINAL for other scopes */
  uint8_t fast;   /* head: members below this are called without the
                  ** lock: n, or final for ASYNC (its call spends) */
} rec;

/* No member has this index (groups have at most 255 members). */
#define NO_FINAL 0xFFu

/* The generation a key (or token) carries. */
#define KEY_GEN(k) ((uint32_t)((k) >> (IDX_BITS + 1u)))

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

/* Makes r's key say "not callable" (its generation stays), and
** orders that before the changes that follow: a call reading the record
** meanwhile sees the key change when it checks again. Lock held. */
static void uncallable(rec *r) {
  STORE_RLX(&r->key, r->key & ~(uintptr_t)1u);
  FENCE_REL();
}

/* The head record ctx names if it is live (HEAD, or SPENT when
** allow_spent), else -1. Lock held. */
static int head_of(const void *ctx, int allow_spent) {
  uintptr_t t = (uintptr_t)ctx;
  uint32_t index = (uint32_t)(t >> 1) & IDX_MASK;
  const rec *r;
  if ((t & 1u) == 0 || index >= P.hwm) return -1;
  r = &P.r[index];
  if ((r->key | 1u) != t) return -1; /* another generation */
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
  uncallable(&P.r[i]);
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
  nccc_platform_lock();
  if ((unsigned)(NCCC_MAX_CLOSURES - P.in_use) < n) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "closure claim",
                     "all NCCC_MAX_CLOSURES records in use");
  }
  head = prev = 0;
  for (k = 0; k < n; k++) {
    uint16_t i = take();
    rec *r = &P.r[i];
    /* the next generation; callable (the low bit) once all is written */
    STORE_RLX(&r->key, (uintptr_t)token(i, KEY_GEN(r->key) + 1u) &
                           ~(uintptr_t)1u);
    r->target = targets[k];
    r->env = envs[k];
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
  if ((flags & ~NCCC_CLOSURE_NOTIFY) == NCCC_SCOPE_ASYNC) {
    P.r[head].final = (uint8_t)final_member;
    P.r[head].fast = (uint8_t)final_member;
  } else {
    P.r[head].final = (uint8_t)NO_FINAL;
    P.r[head].fast = (uint8_t)n;
  }
  *out_ctx = (void *)(P.r[head].key | 1u);
  STORE_REL(&P.r[head].key, (uintptr_t)*out_ctx);
  nccc_platform_unlock();
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
  nccc_platform_lock();
  head = head_of(ctx, 1);
  if (head < 0) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure release",
                     "not a live closure");
  }
  if (P.r[head].state == REC_SPENT) {
    nccc_platform_unlock(); /* its running final call releases it */
    return NCCC_OK;
  }
  n = free_group(head, notes);
  nccc_platform_unlock();
  send_notices(notes, n, ctx);
  return NCCC_OK;
}

void nccc_closure_end_call(void *ctx) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n = 0;
  int head;
  nccc_platform_lock();
  head = head_of(ctx, 0);
  if (head >= 0 &&
      (P.r[head].flags & ~NCCC_CLOSURE_NOTIFY) == NCCC_SCOPE_CALL) {
    n = free_group(head, notes);
  }
  nccc_platform_unlock();
  send_notices(notes, n, ctx);
}

/* Counts and records a call through a context that is not live. */
static void report_stale(const char *what) {
  nccc_platform_lock();
  P.stale++;
  nccc_platform_unlock();
  nccc_fail(NCCC_ERR_STALE_CLOSURE, what, "released, spent or never claimed");
}

void nccc_closure_destroy_notify(void *ctx) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n;
  int head;
  nccc_platform_lock();
  head = head_of(ctx, 1);
  if (head < 0) {
    nccc_platform_unlock();
    report_stale("destroy notify");
    return;
  }
  if (P.r[head].state == REC_SPENT) {
    nccc_platform_unlock();
    return;
  }
  n = free_group(head, notes);
  nccc_platform_unlock();
  send_notices(notes, n, ctx);
}

/* ---- calls ------------------------------------------------------------------ */

int nccci_closure_enter_locked(void *ctx, unsigned member,
                               nccc_cb_frame *frame) {
  int head = head_of(ctx, 0);
  rec *r;
  if (head < 0 || (r = member_of(head, member)) == NULL) return 0;
  frame->target = r->target;
  frame->env = r->env;
  frame->ctx = ctx;
  frame->member = member;
  frame->last = 0;
  if (member == P.r[head].final) { /* ASYNC only: see the claim */
    P.r[head].state = REC_SPENT; /* one call only, even if re-entered */
    uncallable(&P.r[head]);
    frame->last = 1;
  }
  return 1;
}

int nccci_closure_live_locked(void *ctx, unsigned member) {
  int head = head_of(ctx, 0);
  return head >= 0 && member_of(head, member) != NULL;
}

/*
** Calls without the lock. All calls but those of an ASYNC group's members
** from its final one on (rare; the final one spends the group) change
** nothing, and find their record under a sequence lock: the head's key
** is read before and after what the call needs, and every change to a
** record first clears its key's low bit (uncallable), so a record
** released, reclaimed or spent in between fails the second read, and the
** call takes the lock to decide. A key reads as ctx again only after the
** generations wrap (closure.h).
*/

/* The head t names if it is callable and member may be called without
** the lock; else NULL. */
static inline const rec *fast_head(uintptr_t t, unsigned member) {
#if LOCK_FREE_CALLS
  uint32_t index = (uint32_t)(t >> 1) & IDX_MASK;
  const rec *h;
  if ((t & 1u) == 0 || index >= NCCC_MAX_CLOSURES) return NULL;
  h = &P.r[index];
  if (LOAD_ACQ(&h->key) != t || member >= h->fast) return NULL;
  return h;
#else
  (void)t;
  (void)member;
  return NULL;
#endif
}

/* The target of r, a member of the group at h, and its env word in *env,
** if h's key is still t afterwards; else NULL (claims refuse NULL
** targets). */
static inline nccc_fn read_target(const rec *h, const rec *r, uintptr_t t,
                                  uint64_t *env) {
  nccc_fn target = r->target;
  *env = r->env;
  FENCE_ACQ();
  return LOAD_RLX(&h->key) == t ? target : NULL;
}

/* Fills *frame from r, a member of the group at h, if h's key is still t
** afterwards. */
static inline int fill(const rec *h, const rec *r, uintptr_t t,
                       unsigned member, nccc_cb_frame *frame) {
  uint64_t env;
  nccc_fn target = read_target(h, r, t, &env);
  if (target == NULL) return 0;
  frame->target = target;
  frame->env = env;
  frame->ctx = (void *)t;
  frame->member = member;
  frame->last = 0;
  return 1;
}

/* The locked path of nccc_closure_enter: ASYNC final calls, stale
** contexts, and calls that raced with a change to their record. */
static COLD int enter_locked_or_report(void *ctx, unsigned member,
                                       nccc_cb_frame *frame) {
  int ok;
  nccc_platform_lock();
  ok = nccci_closure_enter_locked(ctx, member, frame);
  if (!ok) P.stale++;
  nccc_platform_unlock();
  if (!ok) {
    nccc_fail(NCCC_ERR_STALE_CLOSURE, "callback through a stale closure",
              "not called");
  }
  return ok;
}

/* nccc_closure_enter for member k > 0 of the group at h, apart to keep
** the common call short. Each link is read once, so an index stays in
** range whatever a release wrote meanwhile. */
static COLD int enter_member(const rec *h, uintptr_t t, unsigned k,
                             nccc_cb_frame *frame) {
  const rec *r = h;
  unsigned j;
  for (j = k; j > 0; j--) {
    uint16_t next = LOAD_RLX(&r->next);
    if (next == 0 || next > NCCC_MAX_CLOSURES) break;
    r = &P.r[next - 1];
  }
  if (j == 0 && fill(h, r, t, k, frame)) return 1;
  return enter_locked_or_report((void *)t, k, frame);
}

int nccc_closure_enter(void *ctx, unsigned member, nccc_cb_frame *frame) {
  uintptr_t t = (uintptr_t)ctx;
  const rec *h = fast_head(t, member);
  if (LIKELY(h != NULL)) {
    if (member != 0) return enter_member(h, t, member, frame);
    if (LIKELY(fill(h, h, t, 0, frame))) return 1;
  }
  return enter_locked_or_report(ctx, member, frame);
}

/* Thunk slots are written by nccc_thunk_bind (thunk.c) under the lock:
** ctx cleared, a release fence, member, then ctx with a release store. */
static COLD int thunk_enter_locked(const nccc_thunk_pool *pool, unsigned i,
                                   nccc_cb_frame *frame) {
  int ok = 0;
  nccc_platform_lock();
  if (pool != NULL && i < pool->size && pool->slots[i].ctx != NULL) {
    ok = nccci_closure_enter_locked(pool->slots[i].ctx, pool->slots[i].member,
                                    frame);
  }
  if (!ok) P.stale++;
  nccc_platform_unlock();
  if (!ok) {
    nccc_fail(NCCC_ERR_STALE_CLOSURE, "callback through a stale thunk",
              pool != NULL ? pool->name : NULL);
  }
  return ok;
}

/* The head of the closure bound to thunk i of pool, for the paths that
** take no lock: *slot and *t (the slot's context) are set when it is
** not NULL. NULL (the locked path decides): no such thunk, a member
** other than 0, or a context that is not a callable head now. */
static inline const rec *thunk_fast_head(const nccc_thunk_pool *pool,
                                         unsigned i,
                                         const nccc_thunk_slot **slot,
                                         uintptr_t *t) {
  const nccc_thunk_slot *s;
  if (!LIKELY(pool != NULL && i < pool->size)) return NULL;
  s = &pool->slots[i];
  *t = (uintptr_t)LOAD_ACQ(&s->ctx);
  if (LOAD_RLX(&s->member) != 0) return NULL;
  *slot = s;
  return fast_head(*t, 0);
}

/* Here rather than in thunk.c, to share the inline lookup. A thunk bound
** to a member other than 0 takes the lock. */
int nccc_thunk_enter(const nccc_thunk_pool *pool, unsigned i,
                     nccc_cb_frame *frame) {
  const nccc_thunk_slot *s;
  uintptr_t t;
  const rec *h = thunk_fast_head(pool, i, &s, &t);
  /* fill's fence orders the slot's second read after member's: a
  ** rebinding meanwhile changed ctx */
  if (h != NULL && fill(h, h, t, 0, frame) && (uintptr_t)LOAD_RLX(&s->ctx) == t)
    return 1;
  return thunk_enter_locked(pool, i, frame);
}

void nccc_closure_leave(nccc_cb_frame *frame) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n = 0;
  int head;
  if (frame == NULL || !frame->last) return;
  frame->last = 0;
  nccc_platform_lock();
  head = head_of(frame->ctx, 1);
  if (head >= 0 && P.r[head].state == REC_SPENT) n = free_group(head, notes);
  nccc_platform_unlock();
  send_notices(notes, n, frame->ctx);
}

/* The rest of a call through frame f that nccc_closure_enter or
** nccc_thunk_enter filled (ok): what a wrapper using nccc_cb_begin and
** nccc_cb_call does. */
static void call_frame(int ok, nccc_cb_frame *f, uint64_t *in,
                       uint64_t *out) {
  if (!ok) return;
  in[0] = f->env;
  f->target(in, out);
  if (f->last) nccc_closure_leave(f);
}

/* nccc_closure_call and nccc_thunk_call where their fast paths do not
** apply; apart, so that those keep no frame of their own. */
static COLD void call_slow(void *ctx, unsigned member, uint64_t *in,
                           uint64_t *out) {
  nccc_cb_frame f;
  call_frame(nccc_closure_enter(ctx, member, &f), &f, in, out);
}

static COLD void thunk_call_slow(const nccc_thunk_pool *pool, unsigned i,
                                 uint64_t *in, uint64_t *out) {
  nccc_cb_frame f;
  call_frame(nccc_thunk_enter(pool, i, &f), &f, in, out);
}

void nccc_closure_call(void *ctx, unsigned member, uint64_t *in,
                       uint64_t *out) {
  uintptr_t t = (uintptr_t)ctx;
  const rec *h = fast_head(t, member);
  if (LIKELY(h != NULL && member == 0)) {
    nccc_fn target = h->target; /* read_target, one test shorter */
    uint64_t env = h->env;
    FENCE_ACQ();
    if (LIKELY(LOAD_RLX(&h->key) == t)) {
      in[0] = env;
      target(in, out); /* the last thing: a jump */
      return;
    }
  }
  call_slow(ctx, member, in, out);
}

void nccc_thunk_call(const nccc_thunk_pool *pool, unsigned i, uint64_t *in,
                     uint64_t *out) {
  const nccc_thunk_slot *s;
  uintptr_t t;
  const rec *h = thunk_fast_head(pool, i, &s, &t);
  if (h != NULL) {
    nccc_fn target = h->target;
    uint64_t env = h->env;
    /* the fence also orders the slot's second read (nccc_thunk_enter) */
    FENCE_ACQ();
    if (LIKELY(LOAD_RLX(&h->key) == t && (uintptr_t)LOAD_RLX(&s->ctx) == t)) {
      in[0] = env;
      target(in, out);
      return;
    }
  }
  thunk_call_slow(pool, i, in, out);
}

/* ---- queries ---------------------------------------------------------------- */

nccc_status nccc_closure_check(void *ctx) {
  int live;
#if LOCK_FREE_CALLS
  /* head_of(ctx, 0) >= 0 in one read: the key is ctx exactly for a live,
  ** unspent head (never-claimed records have key 0) */
  uintptr_t t = (uintptr_t)ctx;
  uint32_t index = (uint32_t)(t >> 1) & IDX_MASK;
  live = (t & 1u) != 0 && index < NCCC_MAX_CLOSURES &&
         LOAD_ACQ(&P.r[index].key) == t;
#else
  nccc_platform_lock();
  live = head_of(ctx, 0) >= 0;
  nccc_platform_unlock();
#endif
  if (!live) {
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure",
                     "released, spent or never claimed");
  }
  return NCCC_OK;
}

nccc_status nccc_closure_info(void *ctx, unsigned member, nccc_fn *out_target,
                              uint64_t *out_env, unsigned *out_flags) {
  int head;
  rec *r;
  nccc_platform_lock();
  head = head_of(ctx, 1);
  if (head < 0) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure info",
                     "not a live closure");
  }
  if ((r = member_of(head, member)) == NULL) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_INDEX_INVALID, "closure info", "no such member");
  }
  if (out_target != NULL) *out_target = r->target;
  if (out_env != NULL) *out_env = r->env;
  if (out_flags != NULL) *out_flags = P.r[head].flags;
  nccc_platform_unlock();
  return NCCC_OK;
}

void nccc_closure_get_stats(nccc_closure_stats *out) {
  if (out == NULL) return;
  nccc_platform_lock();
  out->capacity = NCCC_MAX_CLOSURES;
  out->in_use = P.in_use;
  out->stale_calls = P.stale;
  nccc_platform_unlock();
}

void nccc_closure_reset(void) {
  uint16_t i;
  nccc_platform_lock();
  /* Keep the generations: tokens of the old claims must stay stale. */
  for (i = 0; i < P.hwm; i++) {
    if (P.r[i].state != REC_FREE) give_back(i);
  }
  P.stale = 0;
  nccc_platform_unlock();
}
