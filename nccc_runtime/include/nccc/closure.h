/*
** nccc/closure.h — callbacks without trampolines: closures, their
** lifetimes, and thunk pools for callbacks that have no context.
**
** A closure binds an nccc function (the target, usually a host's one
** dispatcher) to one host environment word. C libraries get, instead of a
** function made at run time, a *generated static* backward wrapper plus a
** context value that identifies the closure record; the wrapper packs the
** callback's arguments into slots and calls the target with in[0] = the
** environment word (docs/CALLBACKS.md has the whole protocol).
**
** Contexts. A context is an opaque non-NULL word, not an address: it
** encodes the record's index and the generation of the claim, so a
** context that outlives its claim is recognised as stale even after the
** record has been claimed again, and is reported instead of run. Records
** are reused oldest-released first, which makes an accidental match
** (a generation wrapping around) take 2^32 claims of one record on
** 64-bit targets and 2^(31 - index bits) on 32-bit ones.
**
** Scopes (GObject-Introspection's): a CALL closure is released by the
** forward wrapper when the C call returns; an ASYNC closure after its one
** call (the call of its final member, for a group); a NOTIFIED closure
** when the library calls the destroy notify (nccc_closure_destroy_notify);
** a FOREVER closure never on its own. nccc_closure_release releases any
** of them early.
**
** Groups. Several callbacks of one C function that share one context
** parameter are one group: one context, one record per member, each
** with its own target and environment word; the backward wrapper of the
** k-th callback asks for member k.
**
** Release notices. A closure claimed with NCCC_CLOSURE_NOTIFY tells its
** target when it is released, whatever released it: the target is called
** once per member with out == NULL and in[0] = env, in[1] = the context,
** in[2] = the member index. A host drops its reference to env then.
**
** Types. A closure claimed with its callback's signature (the _typed
** claims) records that signature's type, nccc_closure_type(signature);
** a generated backward wrapper calls only closures of its own callback
** type, so a context of one type handed to a wrapper of another is
** refused (NCCC_ERR_WRONG_ARG_TYPE, counted in type_mismatches) instead
** of reading arguments that are not there. The claims without a
** signature make untyped closures, which no generated wrapper calls.
**
** Threads. A closure claimed with NCCC_CLOSURE_THREAD is called only on
** the thread that claimed it (the platform's thread_id hook tells
** threads apart): a call from another thread is refused before the
** target runs (NCCC_ERR_WRONG_THREAD, counted in wrong_thread), and so is
** a release notice that would be sent there. Hosts whose interpreter
** cannot run on a thread it did not start claim every closure so.
**
** Storage: a static array of NCCC_MAX_CLOSURES records; nothing is
** allocated. Claims and releases take the platform lock when one is
** installed; the lookup of a call reads the record without it
** (docs/CALLBACKS.md, "Threads and storage"). No target is ever called
** with the lock held, so targets may claim, release and call back into C
** freely (reentrancy).
*/
#ifndef NCCC_CLOSURE_H
#define NCCC_CLOSURE_H

#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "slot.h"
#include "abi.h"
#include "status.h"
#include "visibility.h"

#if NCCC_MAX_CLOSURES < 1 || NCCC_MAX_CLOSURES > 32767
#error "NCCC_MAX_CLOSURES must be 1..32767"
#endif
#if NCCC_CLOSURE_GROUP_MAX < 1 || NCCC_CLOSURE_GROUP_MAX > 255
#error "NCCC_CLOSURE_GROUP_MAX must be 1..255"
#endif
#if NCCC_CLOSURE_RECORD_ALIGN < 8 || \
    (NCCC_CLOSURE_RECORD_ALIGN & (NCCC_CLOSURE_RECORD_ALIGN - 1)) != 0
#error "NCCC_CLOSURE_RECORD_ALIGN must be a power of two, at least 8"
#endif

/* Lifetimes (enum nccc_scope: call, async, notified, forever),
** NCCC_CLOSURE_NOTIFY, or'ed into a scope to send release notices to
** the targets, and NCCC_CLOSURE_THREAD, or'ed in to keep every call on
** the claiming thread (see above), are in nccc/abi.h: the closure_claim
** built-ins take their numbers. */

/* ---- callback types ------------------------------------------------------ */

/*
** The type a typed closure records for a callback signature (its slots
** after env, as "ii:i"): FNV-1a 32 over the string's bytes, with 0
** replaced by NCCC_CLOSURE_TYPE_ZERO_BECOMES (nccc/abi.h, docs/ABI.md).
** NULL gives NCCC_CLOSURE_UNTYPED. The generator computes the same
** number for every callback type at generation time.
*/
NCCC_API uint32_t nccc_closure_type(const char *signature);

/* What a backward wrapper or thunk pool is: the type it calls (the
** hash of signature) and, for messages, the callback type's name and
** signature. Generated as static constant data. */
typedef struct nccc_callback_type {
  uint32_t hash;
  const char *name;
  const char *signature;
} nccc_callback_type;

/* The type of untyped closures, for C code that calls them itself
** (nccc_closure_call, nccc_closure_enter). */
NCCC_API extern const nccc_callback_type nccc_callback_untyped;

/* ---- claiming and releasing ------------------------------------------- */

/*
** Claims one closure for a callback of the given signature (its slots
** after env, as "ii:i"): target called with in[0] = env. flags is an
** nccc_scope, optionally | NCCC_CLOSURE_NOTIFY | NCCC_CLOSURE_THREAD.
** *out_ctx gets the context to hand to C. Errors: NCCC_ERR_NULL_POINTER
** (target, signature or out_ctx NULL), NCCC_ERR_BAD_SIGNATURE (signature
** malformed), NCCC_ERR_INVALID_ARG (unknown scope or flag),
** NCCC_ERR_POOL_EXHAUSTED (all NCCC_MAX_CLOSURES records in use).
*/
NCCC_API nccc_status nccc_closure_claim_typed(nccc_fn target, uint64_t env,
                                              unsigned flags, const char *signature,
                                              void **out_ctx);

/* nccc_closure_claim_typed for an untyped closure (no signature): no
** generated backward wrapper or thunk calls it. For targets that C code
** calls itself through nccc_closure_call with an untyped
** nccc_callback_type (hash NCCC_CLOSURE_UNTYPED). Errors as above, less
** the signature's. */
NCCC_API nccc_status nccc_closure_claim(nccc_fn target, uint64_t env, unsigned flags,
                                        void **out_ctx);

/*
** Claims a group of n callbacks sharing one context: member k calls
** targets[k] with in[0] = envs[k]. For NCCC_SCOPE_ASYNC the group is
** released after the call of member final_member returns (the other
** members may be called any number of times before); other scopes
** ignore final_member. All or nothing: on failure no record is taken.
** Errors: NCCC_ERR_NULL_POINTER (targets, envs, out_ctx or a target
** NULL), NCCC_ERR_INVALID_ARG (n is 0 or over NCCC_CLOSURE_GROUP_MAX,
** final_member >= n for ASYNC, unknown scope or flag),
** NCCC_ERR_POOL_EXHAUSTED (fewer than n free records). Untyped: see
** nccc_closure_claim.
*/
NCCC_API nccc_status nccc_closure_claim_group(unsigned n, const nccc_fn *targets,
                                              const uint64_t *envs, unsigned flags,
                                              unsigned final_member, void **out_ctx);

/* nccc_closure_claim_group with member k typed by signatures[k].
** Errors as there, and NCCC_ERR_NULL_POINTER (signatures or one of them
** NULL), NCCC_ERR_BAD_SIGNATURE (one malformed). */
NCCC_API nccc_status nccc_closure_claim_group_typed(unsigned n, const nccc_fn *targets,
                                                    const uint64_t *envs,
                                                    const char *const *signatures,
                                                    unsigned flags, unsigned final_member,
                                                    void **out_ctx);

/*
** Releases the closure (the whole group) of ctx, whatever its scope;
** release notices go out after the lock is dropped. An ASYNC closure
** whose final call is running is released when that call returns: then
** this returns NCCC_OK and does nothing. Errors: NCCC_ERR_STALE_CLOSURE
** (ctx is not a live closure: released, never claimed, NULL).
*/
NCCC_API nccc_status nccc_closure_release(void *ctx);

/*
** For forward wrappers after the C call: releases ctx if it is a live
** NCCC_SCOPE_CALL closure; leaves anything else alone and records no
** error (the host may have released or re-scoped it on purpose).
*/
NCCC_API void nccc_closure_end_call(void *ctx);

/*
** A destroy notify in the C shape libraries take (GDestroyNotify):
** releases ctx's closure, whatever its scope. A ctx that is not live
** (a second notify) is reported like a stale call and otherwise ignored.
*/
NCCC_API void nccc_closure_destroy_notify(void *ctx);

/* NCCC_OK when ctx is a live closure that can still be called, else
** NCCC_ERR_STALE_CLOSURE (recorded as the last error). */
NCCC_API nccc_status nccc_closure_check(void *ctx);

/*
** What member of ctx's group calls: any out pointer may be NULL.
** *out_flags gets the claim's flags (scope | NCCC_CLOSURE_NOTIFY).
** Errors: NCCC_ERR_STALE_CLOSURE, NCCC_ERR_INDEX_INVALID (no such
** member). Outputs untouched on failure.
*/
NCCC_API nccc_status nccc_closure_info(void *ctx, unsigned member, nccc_fn *out_target,
                                       uint64_t *out_env, unsigned *out_flags);

/*
** The signature member of ctx was claimed for ("" for an untyped claim)
** into buf (size bytes, with its NUL), for code that passes the closure
** on to another runtime (a remote device). A record keeps at most
** NCCC_CLOSURE_SIGNATURE_KEPT - 1 bytes of it. Errors:
** NCCC_ERR_NULL_POINTER (buf), NCCC_ERR_STALE_CLOSURE,
** NCCC_ERR_INDEX_INVALID (no such member), NCCC_ERR_BUFFER_TOO_SMALL (it
** does not fit in size, or was longer than the record keeps). buf is
** untouched on failure.
*/
#define NCCC_CLOSURE_SIGNATURE_KEPT 24
NCCC_API nccc_status nccc_closure_signature(void *ctx, unsigned member, char *buf,
                                            size_t size);

typedef struct nccc_closure_stats {
  uint32_t capacity;       /* NCCC_MAX_CLOSURES */
  uint32_t in_use;         /* records claimed now (group members included) */
  uint64_t stale_calls;    /* stale calls and notifies reported so far */
  uint64_t type_mismatches; /* calls and thunk binds refused: wrong type */
  uint64_t wrong_thread;   /* calls and notices refused: not the claiming
                           ** thread of an NCCC_CLOSURE_THREAD closure */
} nccc_closure_stats;

/* A consistent snapshot of the pool (never fails). */
NCCC_API void nccc_closure_get_stats(nccc_closure_stats *out);

/* Frees every record without notices: all outstanding contexts become
** stale. nccc_init does this; not for use while callbacks may run. */
NCCC_API void nccc_closure_reset(void);

/* ---- the backward wrappers' side (via nccc/shim_callback.h) ----------- */

/* What one backward call needs, on the wrapper's own stack (no shared
** scratch state, so callbacks may nest and run on any thread). */
typedef struct nccc_cb_frame {
  nccc_fn target;
  uint64_t env;
  void *ctx;
  unsigned member;
  unsigned last; /* this call ends the closure (ASYNC final member) */
} nccc_cb_frame;

/*
** Resolves member of ctx into *frame for one call by a wrapper of
** callback type type (not NULL). Returns 1 when the target is to be
** called; 0 when it must not be, and the call is reported as the
** thread's last error and counted in the stats: ctx stale or without
** such a member (NCCC_ERR_STALE_CLOSURE, stale_calls), the member's type
** not type->hash (NCCC_ERR_WRONG_ARG_TYPE naming both signatures,
** type_mismatches), an NCCC_CLOSURE_THREAD closure on another thread
** (NCCC_ERR_WRONG_THREAD, wrong_thread). An ASYNC group's final member
** is spent by this: later calls are stale, and the wrapper must call
** nccc_closure_leave when frame->last is set.
*/
NCCC_API int nccc_closure_enter(void *ctx, unsigned member, const nccc_callback_type *type,
                                nccc_cb_frame *frame);

/* Releases the closure a frame->last call has spent (with notices). */
NCCC_API void nccc_closure_leave(nccc_cb_frame *frame);

/*
** nccc_closure_enter, the call and nccc_closure_leave in one (in and
** out first, where the target takes them: the call ends in a jump), for
** wrappers that need not know whether the call was made: sets in[0] to
** member's environment word and calls its target with in and out (an
** ASYNC group's final call releases the group afterwards). When
** nccc_closure_enter would refuse the call it is reported the same way,
** nothing is called, and in and out are untouched.
*/
NCCC_API void nccc_closure_call(uint64_t *in, uint64_t *out, void *ctx, unsigned member,
                                const nccc_callback_type *type);

/* nccc_closure_call for member 0, one argument and one test fewer: what
** nccc_cb_run calls for a callback that is not a group's later member
** (most of them). */
NCCC_API void nccc_closure_call_first(uint64_t *in, uint64_t *out, void *ctx,
                                      const nccc_callback_type *type);

/* ---- thunk pools: callbacks without a context parameter ----------------- */

/*
** A C callback type with no context parameter (bsearch's comparator,
** atexit, signal) gets a generated pool of N static thunks; thunk i finds
** its closure in slot i of the pool. Binding a closure to a thunk takes a
** free slot; a slot is free again as soon as its closure is released
** (scope end, destroy notify or explicit release), and the slot unused
** the longest is taken first. A thunk pointer kept by a library after its
** closure was released calls whatever closure the slot gets next (only a
** context can tell claims apart): keep such closures FOREVER or release
** them only once the library has let go of the pointer.
*/
typedef void (*nccc_thunk_fn)(void);

typedef struct nccc_thunk_slot {
  void *ctx;       /* bound closure, NULL if never bound */
  uint32_t member; /* its member */
  uint32_t stamp;  /* when it was bound: least recently bound reused first */
} nccc_thunk_slot;

typedef struct nccc_thunk_pool {
  const nccc_callback_type *type; /* the callback type its thunks call */
  uint32_t size;              /* number of thunks */
  const nccc_thunk_fn *thunks; /* thunks[i] is the C function of slot i */
  nccc_thunk_slot *slots;     /* size mutable slots (zero-initialised) */
} nccc_thunk_pool;

/*
** Defines a pool named ident of n thunks of the callback type *type (a
** static nccc_callback_type) whose C functions are listed in the array
** thunk_array (static const nccc_thunk_fn[n]).
*/
#define NCCC_THUNK_POOL(ident, type, n, thunk_array) \
  static nccc_thunk_slot ident##_slots[n];            \
  static const nccc_thunk_pool ident = {type, (n), thunk_array, ident##_slots}

/*
** Binds member of ctx to a thunk of pool and gives its C function pointer
** (cast it to the callback type). A closure already bound in this pool
** gets the same thunk again. Errors: NCCC_ERR_NULL_POINTER (pool or
** out_fn NULL), NCCC_ERR_STALE_CLOSURE (ctx not live),
** NCCC_ERR_INDEX_INVALID (no such member), NCCC_ERR_WRONG_ARG_TYPE (the
** member's type is not the pool's; counted in type_mismatches),
** NCCC_ERR_POOL_EXHAUSTED (every thunk of the pool holds a live closure).
*/
NCCC_API nccc_status nccc_thunk_bind(const nccc_thunk_pool *pool, void *ctx,
                                     unsigned member, nccc_thunk_fn *out_fn);

/* Thunks bound to live closures now (never fails; 0 for NULL). */
NCCC_API uint32_t nccc_thunk_in_use(const nccc_thunk_pool *pool);

/* nccc_closure_enter for thunk i of pool, with the pool's type: 0
** (reported) when the slot is unbound or the call refused. */
NCCC_API int nccc_thunk_enter(const nccc_thunk_pool *pool, unsigned i,
                              nccc_cb_frame *frame);

/* nccc_closure_call for thunk i of pool (in and out first likewise). */
NCCC_API void nccc_thunk_call(uint64_t *in, uint64_t *out, const nccc_thunk_pool *pool,
                              unsigned i);

#endif
