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
**
** Each record also keeps the word a call compares with its wrapper's
** callback type: the claim's type, with BOUND set for a closure kept on
** its claiming thread, so that one comparison admits the common call and
** everything else (another type, a bound closure) takes a colder path.
*/
#include "closure_pool.h"

#if NCCC_WITH_CLOSURES

nccci_closure_pool_t nccci_closure_pool;

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
  unsigned scope = SCOPE_OF(flags);
  return scope >= NCCC_SCOPE_CALL && scope <= NCCC_SCOPE_FOREVER;
}

/* The type of each member into types (signatures NULL: all untyped). */
static nccc_status member_types(unsigned n, const char *const *signatures,
                                uint32_t *types) {
  unsigned k;
  for (k = 0; k < n; k++) {
    uint16_t n_in, n_out;
    types[k] = NCCC_CLOSURE_UNTYPED;
    if (signatures == NULL) continue;
    if (signatures[k] == NULL) {
      return nccc_fail(NCCC_ERR_NULL_POINTER, "closure claim", "NULL signature");
    }
    if (nccc_signature_counts(signatures[k], &n_in, &n_out) != NCCC_OK) {
      return nccc_fail(NCCC_ERR_BAD_SIGNATURE, "closure claim: malformed signature",
                       signatures[k]);
    }
    types[k] = nccc_closure_type(signatures[k]);
  }
  return NCCC_OK;
}

/* Both claims: signatures NULL for untyped closures. */
static nccc_status claim(unsigned n, const nccc_fn *targets, const uint64_t *envs,
                         const char *const *signatures, unsigned flags,
                         unsigned final_member, void **out_ctx) {
  uint32_t types[NCCC_CLOSURE_GROUP_MAX];
  uint64_t bound;
  uintptr_t thread;
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
  if (SCOPE_OF(flags) == NCCC_SCOPE_ASYNC && final_member >= n) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "closure claim",
                     "final member out of range");
  }
  for (k = 0; k < n; k++) {
    if (targets[k] == NULL) {
      return nccc_fail(NCCC_ERR_NULL_POINTER, "closure claim", "NULL target");
    }
  }
  if (member_types(n, signatures, types) != NCCC_OK) return nccc_last_status();
  bound = (flags & NCCC_CLOSURE_THREAD) != 0 ? BOUND : 0;
  thread = bound ? nccci_thread_id() : 0;
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
    r->check = types[k] | bound;
    r->thread = thread;
    nccci_closure_sig_keep(P.sig[i], signatures != NULL ? signatures[k] : NULL);
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
  if (SCOPE_OF(flags) == NCCC_SCOPE_ASYNC) {
    P.r[head].final = (uint8_t)final_member;
    P.r[head].fast = (uint8_t)final_member;
    if (final_member == 0) P.r[head].check |= SPENDS;
  } else {
    P.r[head].final = (uint8_t)NO_FINAL;
    P.r[head].fast = (uint8_t)n;
  }
  *out_ctx = (void *)(P.r[head].key | 1u);
  STORE_REL(&P.r[head].key, (uintptr_t)*out_ctx);
  nccc_platform_unlock();
  return NCCC_OK;
}

nccc_status nccc_closure_claim_group(unsigned n, const nccc_fn *targets,
                                     const uint64_t *envs, unsigned flags,
                                     unsigned final_member, void **out_ctx) {
  return claim(n, targets, envs, NULL, flags, final_member, out_ctx);
}

nccc_status nccc_closure_claim_group_typed(unsigned n, const nccc_fn *targets,
                                           const uint64_t *envs,
                                           const char *const *signatures,
                                           unsigned flags, unsigned final_member,
                                           void **out_ctx) {
  if (signatures == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "closure claim", "NULL signatures");
  }
  return claim(n, targets, envs, signatures, flags, final_member, out_ctx);
}

nccc_status nccc_closure_claim(nccc_fn target, uint64_t env, unsigned flags,
                               void **out_ctx) {
  return claim(1, &target, &env, NULL, flags, 0, out_ctx);
}

nccc_status nccc_closure_claim_typed(nccc_fn target, uint64_t env, unsigned flags,
                                     const char *signature, void **out_ctx) {
  return nccc_closure_claim_group_typed(1, &target, &env, &signature, flags, 0,
                                        out_ctx);
}

/* ---- releases -------------------------------------------------------------- */

typedef struct notice {
  nccc_fn target;
  uint64_t env;
  uint64_t check; /* BOUND: sent only on thread */
  uintptr_t thread;
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
      notes[k].check = P.r[i].check;
      notes[k].thread = P.r[i].thread;
    }
    give_back(i);
    i = (uint16_t)(next - 1);
  }
  return want ? n : 0;
}

/* Sends the notices of a released group: out == NULL marks them. Called
** without the lock, so targets may do anything. A BOUND closure released
** on another thread gets none (counted): its host cannot run there. */
static void send_notices(const notice *notes, unsigned n, void *ctx) {
  unsigned k;
  for (k = 0; k < n; k++) {
    uint64_t in[3];
    if ((notes[k].check & BOUND) != 0 && notes[k].thread != nccci_thread_id()) {
      nccc_platform_lock();
      P.wrong_thread++;
      nccc_platform_unlock();
      continue;
    }
    in[0] = notes[k].env;
    in[1] = nccc_slot_from_ptr(ctx);
    in[2] = k;
    notes[k].target(in, NULL);
  }
}

/* Frees the group of ctx and sends its notices; 0 when ctx is not live.
** A spent group is left alone: its running final call releases it. */
static int release_live(void *ctx) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n = 0;
  int head;
  nccc_platform_lock();
  head = head_of(ctx, 1);
  if (head < 0) {
    nccc_platform_unlock();
    return 0;
  }
  if (P.r[head].state != REC_SPENT) n = free_group(head, notes);
  nccc_platform_unlock();
  send_notices(notes, n, ctx);
  return 1;
}

nccc_status nccc_closure_release(void *ctx) {
  if (!release_live(ctx)) {
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure release",
                     "not a live closure");
  }
  return NCCC_OK;
}

void nccc_closure_end_call(void *ctx) {
  notice notes[NCCC_CLOSURE_GROUP_MAX];
  unsigned n = 0;
  int head;
  nccc_platform_lock();
  head = head_of(ctx, 0);
  if (head >= 0 && SCOPE_OF(P.r[head].flags) == NCCC_SCOPE_CALL) {
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
  if (!release_live(ctx)) report_stale("destroy notify");
}

/* ---- calls ------------------------------------------------------------------ */

int nccci_closure_decide_locked(void *ctx, unsigned member, uint32_t want,
                        nccc_cb_frame *frame, char *have) {
  int head = head_of(ctx, 0), v;
  rec *r;
  if (head < 0 || (r = member_of(head, member)) == NULL) return REFUSE_STALE;
  v = verdict(r->check, r->thread, want);
  if (v == REFUSE_TYPE) {
    memcpy(have, P.sig[r - P.r], NCCCI_CLOSURE_SIG_KEEP);
  }
  if (v != ADMIT) return v;
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
  return ADMIT;
}

int nccci_closure_live_locked(void *ctx, unsigned member) {
  int head = head_of(ctx, 0);
  return head >= 0 && member_of(head, member) != NULL;
}

int nccci_closure_fits_locked(void *ctx, unsigned member, uint32_t type,
                              char *have) {
  int head = head_of(ctx, 0);
  const rec *r = head >= 0 ? member_of(head, member) : NULL;
  if (r == NULL || (uint32_t)r->check == type) return 1;
  memcpy(have, P.sig[r - P.r], NCCCI_CLOSURE_SIG_KEEP);
  P.mismatched++;
  return 0;
}

void nccci_closure_count_locked(int v) {
  if (v == REFUSE_STALE) P.stale++;
  if (v == REFUSE_TYPE) P.mismatched++;
  if (v == REFUSE_THREAD) P.wrong_thread++;
}

void nccci_closure_report(int v, const nccc_callback_type *type, const char *have,
                   const char *stale_what, const char *stale_detail) {
  if (v == REFUSE_STALE) {
    nccc_fail(NCCC_ERR_STALE_CLOSURE, stale_what, stale_detail);
  } else if (v == REFUSE_TYPE) {
    nccci_closure_type_mismatch(have, type);
  } else if (v == REFUSE_THREAD) {
    nccc_fail(NCCC_ERR_WRONG_THREAD, "callback from another thread",
              "the closure runs only on the thread that claimed it; not called");
  }
}

/* The locked path of nccc_closure_enter: ASYNC final calls, refusals,
** bound closures, and calls that raced with a change to their record. */
static COLD int enter_locked_or_report(void *ctx, unsigned member,
                                       const nccc_callback_type *type,
                                       nccc_cb_frame *frame) {
  char have[NCCCI_CLOSURE_SIG_KEEP];
  int v;
  nccc_platform_lock();
  v = nccci_closure_decide_locked(ctx, member, type->hash, frame, have);
  nccci_closure_count_locked(v);
  nccc_platform_unlock();
  nccci_closure_report(v, type, have, "callback through a stale closure", "not called");
  return v == ADMIT;
}

/* nccc_closure_enter for member k > 0 of the group at h, apart to keep
** the common call short. Each link is read once, so an index stays in
** range whatever a release wrote meanwhile. */
static COLD int enter_member(const rec *h, uintptr_t t, unsigned k,
                             const nccc_callback_type *type,
                             nccc_cb_frame *frame) {
  const rec *r = h;
  unsigned j;
  for (j = k; j > 0; j--) {
    uint16_t next = LOAD_RLX(&r->next);
    if (next == 0 || next > NCCC_MAX_CLOSURES) break;
    r = &P.r[next - 1];
  }
  if (j == 0 && fill(h, r, t, k, type->hash, frame)) return 1;
  return enter_locked_or_report((void *)t, k, type, frame);
}

int nccc_closure_enter(void *ctx, unsigned member, const nccc_callback_type *type,
                       nccc_cb_frame *frame) {
  uintptr_t t = (uintptr_t)ctx;
  const rec *h = fast_head(t, member);
  if (LIKELY(h != NULL)) {
    if (member != 0) return enter_member(h, t, member, type, frame);
    if (LIKELY(fill(h, h, t, 0, type->hash, frame))) return 1;
  }
  return enter_locked_or_report(ctx, member, type, frame);
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

void nccci_closure_call_frame(int ok, nccc_cb_frame *f, uint64_t *in,
                              uint64_t *out) {
  if (!ok) return;
  in[0] = f->env;
  f->target(in, out);
  if (f->last) nccc_closure_leave(f);
}

/* nccc_closure_call and nccc_closure_call_first where the fast path
** does not apply (a later member; a refusal, a race, a spending call);
** apart, so that they keep no frame of their own. */
static COLD void call_slow(uint64_t *in, uint64_t *out, void *ctx, unsigned member,
                           const nccc_callback_type *type) {
  nccc_cb_frame f;
  nccci_closure_call_frame(nccc_closure_enter(ctx, member, type, &f), &f, in, out);
}

/* nccc_closure_call_first's path for a thread-bound claim (every
** host's), on its own thread: still without the lock, the thread read
** under the same sequence check; the same parameters, so that reaching
** it is a jump. With the default thread word it calls nothing but the
** target (a platform's thread_id hook takes the locked path). */
static APART void call_bound(uint64_t *in, uint64_t *out, void *ctx,
                             const nccc_callback_type *type) {
  const rec *h = fast_head((uintptr_t)ctx, 0);
  if (LIKELY(h != NULL && nccci_thread_hook == NULL)) {
    nccc_fn target = h->target;
    uint64_t env = h->env, check = h->check;
    uintptr_t thread = h->thread;
    FENCE_ACQ();
    if (LIKELY(LOAD_RLX(&h->key) == (uintptr_t)ctx &&
               check == ((uint64_t)type->hash | BOUND) &&
               thread == (uintptr_t)&nccci_thread_tag)) {
      in[0] = env;
      target(in, out);
      return;
    }
  }
  call_slow(in, out, ctx, 0, type);
}

void nccc_closure_call_first(uint64_t *in, uint64_t *out, void *ctx,
                             const nccc_callback_type *type) {
  uintptr_t t = (uintptr_t)ctx;
  const rec *h = callable_head(t);
  if (LIKELY(h != NULL)) {
    /* read_target and verdict, shorter; fast_head's test is SPENDS */
    nccc_fn target = h->target;
    uint64_t env = h->env, check = h->check;
    FENCE_ACQ();
    if (LIKELY(LOAD_RLX(&h->key) == t && check == type->hash)) {
      in[0] = env;
      target(in, out); /* the last thing: a jump */
      return;
    }
    if (check == ((uint64_t)type->hash | BOUND)) {
      call_bound(in, out, ctx, type);
      return;
    }
  }
  call_slow(in, out, ctx, 0, type);
}

void nccc_closure_call(uint64_t *in, uint64_t *out, void *ctx, unsigned member,
                       const nccc_callback_type *type) {
  if (LIKELY(member == 0)) {
    nccc_closure_call_first(in, out, ctx, type);
    return;
  }
  call_slow(in, out, ctx, member, type);
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

nccc_status nccc_closure_signature(void *ctx, unsigned member, char *buf, size_t size) {
  static const char cut[] = "...";
  char kept[NCCCI_CLOSURE_SIG_KEEP];
  size_t len;
  int head, typed = 0;
  rec *r;
  if (buf == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "closure signature", "buf");
  nccc_platform_lock();
  head = head_of(ctx, 1);
  r = head < 0 ? NULL : member_of(head, member);
  if (r != NULL) {
    memcpy(kept, P.sig[r - P.r], sizeof kept);
    typed = (uint32_t)r->check != NCCC_CLOSURE_UNTYPED;
  }
  nccc_platform_unlock();
  if (head < 0) return nccc_fail(NCCC_ERR_STALE_CLOSURE, "closure signature", "not a live closure");
  if (r == NULL) return nccc_fail(NCCC_ERR_INDEX_INVALID, "closure signature", "no such member");
  if (!typed) kept[0] = '\0';
  len = strlen(kept);
  if (len + 1 > size || (len + 1 == sizeof kept && memcmp(kept + len + 1 - sizeof cut, cut,
                                                          sizeof cut) == 0)) {
    return nccc_fail(NCCC_ERR_BUFFER_TOO_SMALL, "closure signature",
                     len + 1 > size ? "buf too small" : "the signature was kept cut");
  }
  memcpy(buf, kept, len + 1);
  return NCCC_OK;
}

void nccc_closure_get_stats(nccc_closure_stats *out) {
  if (out == NULL) return;
  nccc_platform_lock();
  out->capacity = NCCC_MAX_CLOSURES;
  out->in_use = P.in_use;
  out->stale_calls = P.stale;
  out->type_mismatches = P.mismatched;
  out->wrong_thread = P.wrong_thread;
  nccc_platform_unlock();
}

void nccc_closure_reset(void) {
  uint16_t i;
  nccc_platform_lock();
  /* Keep the generations: tokens of the old claims must stay stale. */
  for (i = 0; i < P.hwm; i++) {
    if (P.r[i].state != REC_FREE) give_back(i);
  }
  P.stale = P.mismatched = P.wrong_thread = 0;
  nccc_platform_unlock();
}

#endif /* NCCC_WITH_CLOSURES */
