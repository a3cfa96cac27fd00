/*
** closure_pool.h — the closure records, shared by closure.c (claims,
** releases, calls through a context) and thunk.c (bindings, calls
** through a thunk): the record layout, the pool, and the lookups a call
** makes without the lock, inline so that both call paths stay short.
** Only those two files include it.
*/
#ifndef NCCC_CLOSURE_POOL_H
#define NCCC_CLOSURE_POOL_H

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
#define APART __attribute__((noinline))
#else
#define LIKELY(x) (x)
#define COLD
#define APART
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

/* Set in check for NCCC_CLOSURE_THREAD claims: above every type. */
#define BOUND ((uint64_t)1 << 32)
/* Set in the head's check when its call spends the group (an ASYNC
** group whose final member is member 0): the one comparison of
** nccc_closure_call's fast path then fails, and the locked path decides
** (verdict ignores it). */
#define SPENDS ((uint64_t)1 << 33)
#define SCOPE_OF(flags) ((flags) & ~(NCCC_CLOSURE_NOTIFY | NCCC_CLOSURE_THREAD))

/* What a call reads first. Aligned to NCCC_CLOSURE_RECORD_ALIGN: 64 on
** hosted targets (it fills 48 on 64-bit ones), one cache line a record,
** and a power-of-two size makes the index of a context one shift. */
typedef struct rec {
  _Alignas(NCCC_CLOSURE_RECORD_ALIGN) uintptr_t key; /* the last claim's token; low bit set: a
                              ** callable head */
  nccc_fn target;
  uint64_t env;
  uint64_t check; /* the claim's type (nccc_closure_type), | BOUND */
  uintptr_t thread; /* the claiming thread of a BOUND claim */
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

/* Zero is a valid empty pool: no initialisation needed (closure.c
** defines it; P names it in both files). */
typedef struct nccci_closure_pool_t {
  rec r[NCCC_MAX_CLOSURES];
  uint16_t hwm;             /* records below this have been used */
  uint16_t free_head;       /* FIFO of released records, index + 1 */
  uint16_t free_tail;
  uint16_t in_use;
  uint64_t stale;
  uint64_t mismatched;
  uint64_t wrong_thread;
  /* each record's signature, for the message of a mismatch */
  char sig[NCCC_MAX_CLOSURES][NCCCI_CLOSURE_SIG_KEEP];
} nccci_closure_pool_t;

NCCC_INTERNAL extern nccci_closure_pool_t nccci_closure_pool;
#define P nccci_closure_pool

/* What becomes of a call: made, or refused and why. */
enum { ADMIT = 0, REFUSE_STALE, REFUSE_TYPE, REFUSE_THREAD };

/* The verdict on a live record whose check word is check for a wrapper
** of type want; thread: the record's claiming thread. */
static inline int verdict(uint64_t check, uintptr_t thread, uint32_t want) {
  check &= ~SPENDS;
  if (check == want) return ADMIT;
  if ((uint32_t)check != want) return REFUSE_TYPE;
  return thread == nccci_thread_id() ? ADMIT : REFUSE_THREAD;
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

/* The head t names if it is callable; else NULL. Whether member 0 may
** be called without the lock is then in its check word (SPENDS). */
static inline const rec *callable_head(uintptr_t t) {
#if LOCK_FREE_CALLS
  uint32_t index = (uint32_t)(t >> 1) & IDX_MASK;
  const rec *h;
  if ((t & 1u) == 0 || index >= NCCC_MAX_CLOSURES) return NULL;
  h = &P.r[index];
  return LOAD_ACQ(&h->key) == t ? h : NULL;
#else
  (void)t;
  return NULL;
#endif
}

/* The head t names if it is callable and member may be called without
** the lock; else NULL. */
static inline const rec *fast_head(uintptr_t t, unsigned member) {
  const rec *h = callable_head(t);
  return h != NULL && member < h->fast ? h : NULL;
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
** afterwards and a wrapper of type want may call it; else 0 (the locked
** path decides). */
static inline int fill(const rec *h, const rec *r, uintptr_t t,
                       unsigned member, uint32_t want, nccc_cb_frame *frame) {
  uint64_t env, check = r->check;
  uintptr_t thread = r->thread;
  nccc_fn target = read_target(h, r, t, &env);
  if (target == NULL || verdict(check, thread, want) != ADMIT) return 0;
  frame->target = target;
  frame->env = env;
  frame->ctx = (void *)t;
  frame->member = member;
  frame->last = 0;
  return 1;
}

/* Decides a call under the lock, filling *frame when admitted and
** spending an ASYNC group's final member; a type refusal copies the
** closure's signature into have (NCCCI_CLOSURE_SIG_KEEP bytes). */
NCCC_INTERNAL int nccci_closure_decide_locked(void *ctx, unsigned member, uint32_t want,
                                              nccc_cb_frame *frame, char *have);

/* 1 when member of ctx is not live or its type is type; else copies
** its signature into have, counts the mismatch, and gives 0. Lock held. */
NCCC_INTERNAL int nccci_closure_fits_locked(void *ctx, unsigned member, uint32_t type,
                                            char *have);

/* Counts a refused call (verdict v). Lock held. */
NCCC_INTERNAL void nccci_closure_count_locked(int v);

/* Records why a call was refused (stale: stale_what, stale_detail). */
NCCC_INTERNAL void nccci_closure_report(int v, const nccc_callback_type *type,
                                        const char *have, const char *stale_what,
                                        const char *stale_detail);

/* The rest of a call through frame f that nccc_closure_enter or
** nccc_thunk_enter filled (ok): what a wrapper using nccc_cb_begin and
** nccc_cb_call does. */
NCCC_INTERNAL void nccci_closure_call_frame(int ok, nccc_cb_frame *f, uint64_t *in,
                                            uint64_t *out);

#endif
