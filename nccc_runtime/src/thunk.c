/*
** thunk.c — pools of generated static thunks for callbacks that have no
** context parameter. A slot is free when its closure is not live, so
** releasing a closure (by any route) frees its thunk without the closure
** pool knowing about thunks.
*/
#include "closure_pool.h"

#if NCCC_WITH_THUNKS

/* Bind order, for reusing the slot bound longest ago. Lock held. */
static uint32_t bind_clock;

static int slot_live(const nccc_thunk_slot *s) {
  return s->ctx != NULL && nccci_closure_live_locked(s->ctx, s->member);
}

nccc_status nccc_thunk_bind(const nccc_thunk_pool *pool, void *ctx,
                            unsigned member, nccc_thunk_fn *out_fn) {
  char have[NCCCI_CLOSURE_SIG_KEEP];
  uint32_t i, pick = UINT32_MAX;
  if (pool == NULL || out_fn == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "thunk bind", NULL);
  }
  nccc_platform_lock();
  if (!nccci_closure_live_locked(ctx, 0)) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_STALE_CLOSURE, "thunk bind",
                     "not a live closure");
  }
  if (!nccci_closure_live_locked(ctx, member)) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_INDEX_INVALID, "thunk bind", "no such member");
  }
  if (!nccci_closure_fits_locked(ctx, member, pool->type->hash, have)) {
    nccc_platform_unlock();
    return nccci_closure_type_mismatch(have, pool->type);
  }
  for (i = 0; i < pool->size; i++) {
    nccc_thunk_slot *s = &pool->slots[i];
    if (s->ctx == ctx && s->member == member) { /* bound already */
      pick = i;
      break;
    }
    if (slot_live(s)) continue;
    /* unused slots have stamp 0 and go first; then the oldest binding */
    if (pick == UINT32_MAX || s->stamp < pool->slots[pick].stamp) pick = i;
  }
  if (pick == UINT32_MAX) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "thunk pool exhausted",
                     pool->type->name);
  }
  if (pool->slots[pick].ctx != ctx || pool->slots[pick].member != member) {
    nccc_thunk_slot *s = &pool->slots[pick];
    /* thunks read the slot without the lock (nccc_thunk_enter): clear ctx
    ** first so that none pairs the old ctx with the new member */
    NCCC_STORE_RLX(&s->ctx, NULL);
    NCCC_FENCE_REL();
    s->member = member;
    s->stamp = ++bind_clock;
    NCCC_STORE_REL(&s->ctx, ctx);
  }
  *out_fn = pool->thunks[pick];
  nccc_platform_unlock();
  return NCCC_OK;
}

uint32_t nccc_thunk_in_use(const nccc_thunk_pool *pool) {
  uint32_t i, n = 0;
  if (pool == NULL) return 0;
  nccc_platform_lock();
  for (i = 0; i < pool->size; i++) n += (uint32_t)slot_live(&pool->slots[i]);
  nccc_platform_unlock();
  return n;
}

/* ---- calls through a thunk -------------------------------------------- */

/* Thunk slots are written by nccc_thunk_bind (thunk.c) under the lock:
** ctx cleared, a release fence, member, then ctx with a release store. */
static COLD int thunk_enter_locked(const nccc_thunk_pool *pool, unsigned i,
                                   nccc_cb_frame *frame) {
  char have[NCCCI_CLOSURE_SIG_KEEP];
  int v = REFUSE_STALE;
  nccc_platform_lock();
  if (pool != NULL && i < pool->size && pool->slots[i].ctx != NULL) {
    v = nccci_closure_decide_locked(pool->slots[i].ctx, pool->slots[i].member, pool->type->hash,
                                    frame, have);
  }
  nccci_closure_count_locked(v);
  nccc_platform_unlock();
  nccci_closure_report(v, pool != NULL ? pool->type : NULL, have,
         "callback through a stale thunk", pool != NULL ? pool->type->name : NULL);
  return v == ADMIT;
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

/* A thunk bound to a member other than 0 takes the lock. */
int nccc_thunk_enter(const nccc_thunk_pool *pool, unsigned i,
                     nccc_cb_frame *frame) {
  const nccc_thunk_slot *s;
  uintptr_t t;
  const rec *h = thunk_fast_head(pool, i, &s, &t);
  /* fill's fence orders the slot's second read after member's: a
  ** rebinding meanwhile changed ctx */
  if (h != NULL && fill(h, h, t, 0, pool->type->hash, frame) &&
      (uintptr_t)LOAD_RLX(&s->ctx) == t)
    return 1;
  return thunk_enter_locked(pool, i, frame);
}

/* nccc_thunk_call where its fast path does not apply. */
static COLD void thunk_call_slow(uint64_t *in, uint64_t *out,
                                 const nccc_thunk_pool *pool, unsigned i) {
  nccc_cb_frame f;
  nccci_closure_call_frame(nccc_thunk_enter(pool, i, &f), &f, in, out);
}

void nccc_thunk_call(uint64_t *in, uint64_t *out, const nccc_thunk_pool *pool,
                     unsigned i) {
  const nccc_thunk_slot *s;
  uintptr_t t;
  const rec *h = thunk_fast_head(pool, i, &s, &t);
  if (h != NULL) {
    nccc_fn target = h->target;
    uint64_t env = h->env, check = h->check;
    /* the fence also orders the slot's second read (nccc_thunk_enter) */
    FENCE_ACQ();
    /* the type was checked when the closure was bound to the slot (and a
    ** record keeps it for the claim): only a BOUND closure, whose thread
    ** is to be checked, goes the slow way */
    if (LIKELY(LOAD_RLX(&h->key) == t && (uintptr_t)LOAD_RLX(&s->ctx) == t &&
               (check & BOUND) == 0)) {
      in[0] = env;
      target(in, out);
      return;
    }
  }
  thunk_call_slow(in, out, pool, i);
}

#endif /* NCCC_WITH_THUNKS */
