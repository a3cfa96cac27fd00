/*
** thunk.c — pools of generated static thunks for callbacks that have no
** context parameter. A slot is free when its closure is not live, so
** releasing a closure (by any route) frees its thunk without the closure
** pool knowing about thunks.
*/
#include "internal.h"

/* Bind order, for reusing the slot bound longest ago. Lock held. */
static uint32_t bind_clock;

static int slot_live(const nccc_thunk_slot *s) {
  return s->ctx != NULL && nccci_closure_live_locked(s->ctx, s->member);
}

nccc_status nccc_thunk_bind(const nccc_thunk_pool *pool, void *ctx,
                            unsigned member, nccc_thunk_fn *out_fn) {
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
                     pool->name);
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

/* nccc_thunk_enter is in closure.c, next to the lookup it shares. */
