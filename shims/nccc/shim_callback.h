/*
** nccc/shim_callback.h — what generated wrappers use for callbacks.
**
** Backward wrappers (C calls the host): a static C function with the
** callback's own C signature; it packs its arguments into in[1..] and
** calls nccc_cb_run, which resolves the context (or its thunk slot),
** checks that the closure is of the wrapper's callback type (an
** nccc_callback_type, static data), puts the environment word into
** in[0] and calls the target. A stale context, a closure of another
** type or one bound to another thread is reported by the runtime and
** nothing is called: the wrapper then converts its zeroed out[] (0,
** NULL, false, 0.0).
**
**   static const nccc_callback_type cmp_type = {0xc421ea74u, "cmp", "pp:i"};
**   static int cmp_back(const void *a, const void *b, void *ctx) {
**     uint64_t in[3], out[1] = {0};
**     in[1] = nccc_slot_from_ptr(a);
**     in[2] = nccc_slot_from_ptr(b);
**     nccc_cb_run(ctx, 0, in, out, &cmp_type);
**     return nccc_slot_to_i32(out[0]);
**   }
**
** (the hash is nccc_closure_type("pp:i"); the generator computes it.)
**
** A callback with [out]/[inout] parameters or errno to set stores results
** only when the call was made: it resolves the context into a frame
** first (nccc_cb_begin, nccc_cb_begin_thunk) and, if that succeeds,
** packs and calls nccc_cb_call.
**
** Forward wrappers (the host calls C): a callback parameter takes one in
** slot holding a closure context the host claimed; NCCC_CB_REQUIRE
** refuses a stale one before C sees it, and after the call
** nccc_closure_end_call releases it if its scope is CALL. The C function
** gets the backward wrapper (or a thunk, NCCC_CB_THUNK) as the function
** pointer and the context as its context argument.
**
** errno: nccc_cb_call and nccc_cb_run save errno (and the Win32 last
** error) before the host runs and restore it after, so what the host
** does inside a callback cannot change the errno the forward wrapper's
** errno shim reports. A callback type whose C contract is to set errno (a cookie
** read function) passes the host's errno back in an out slot, and the
** wrapper stores it with NCCC_CB_SET_ERRNO after nccc_cb_call.
*/
#ifndef NCCC_SHIM_CALLBACK_H
#define NCCC_SHIM_CALLBACK_H

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <nccc/closure.h>
#include <nccc/slot.h>
#include <nccc/status.h>

#ifdef _WIN32
#include <windows.h>
#endif

/* ---- backward wrappers -------------------------------------------------- */

/*
** The value for this target of six, one per target the generator
** computes a callback type for where its signature differs by target
** (stubgen/model/lower.py, TARGETS): the LP64, ILP32 and LLP64 data
** models, each with plain char signed, then unsigned. The same tests as
** the NCCC_SIG_* codes of nccc/slot.h.
*/
#if LONG_MAX > 0x7fffffffL
#define NCCC_CB_DATA_MODEL_(lp64, ilp32, llp64) lp64
#elif SIZE_MAX > 0xffffffffu
#define NCCC_CB_DATA_MODEL_(lp64, ilp32, llp64) llp64
#else
#define NCCC_CB_DATA_MODEL_(lp64, ilp32, llp64) ilp32
#endif
#if CHAR_MIN < 0
#define NCCC_CB_CHAR_(if_signed, if_unsigned) if_signed
#else
#define NCCC_CB_CHAR_(if_signed, if_unsigned) if_unsigned
#endif
#define NCCC_CB_BY_TARGET(lp64_s, lp64_u, ilp32_s, ilp32_u, llp64_s, llp64_u) \
  NCCC_CB_DATA_MODEL_(NCCC_CB_CHAR_(lp64_s, lp64_u), NCCC_CB_CHAR_(ilp32_s, ilp32_u), \
                      NCCC_CB_CHAR_(llp64_s, llp64_u))

/* errno (and the Win32 last error) as they were before the host ran. */
typedef struct nccc_cb_errno {
  int err;
#ifdef _WIN32
  DWORD last_error;
#endif
} nccc_cb_errno;

static inline nccc_cb_errno nccc_cb_errno_save(void) {
  nccc_cb_errno saved;
  saved.err = errno;
#ifdef _WIN32
  saved.last_error = GetLastError();
#endif
  return saved;
}

static inline void nccc_cb_errno_restore(nccc_cb_errno saved) {
#ifdef _WIN32
  SetLastError(saved.last_error);
#endif
  errno = saved.err;
}

/* Member member of the closure behind ctx, called as type; 0
** (reported) when stale, of another type or bound to another thread. */
static inline int nccc_cb_begin(nccc_cb_frame *f, void *ctx, unsigned member,
                                const nccc_callback_type *type) {
  return nccc_closure_enter(ctx, member, type, f);
}

/* Thunk i of pool (callbacks without a context); 0 when unbound/stale. */
static inline int nccc_cb_begin_thunk(nccc_cb_frame *f,
                                      const nccc_thunk_pool *pool,
                                      unsigned i) {
  return nccc_thunk_enter(pool, i, f);
}

/* Calls the target with in[0] = env; errno survives the host's code; an
** ASYNC closure's final call releases it afterwards (notices included). */
static inline void nccc_cb_call(nccc_cb_frame *f, uint64_t *in,
                                uint64_t *out) {
  nccc_cb_errno saved = nccc_cb_errno_save();
  in[0] = f->env;
  f->target(in, out);
  if (f->last) nccc_closure_leave(f);
  nccc_cb_errno_restore(saved);
}

/* nccc_cb_begin and nccc_cb_call in one, for callbacks whose only result
** is their return value (the wrapper need not know whether the call was
** made): in[0] = env, the target runs on in and out, errno survives;
** nothing runs (reported, out untouched) when nccc_cb_begin would
** refuse the call. */
static inline void nccc_cb_run(void *ctx, unsigned member, uint64_t *in,
                               uint64_t *out, const nccc_callback_type *type) {
  nccc_cb_errno saved = nccc_cb_errno_save();
  if (member == 0) /* a constant in every wrapper: one call remains */
    nccc_closure_call_first(in, out, ctx, type);
  else
    nccc_closure_call(in, out, ctx, member, type);
  nccc_cb_errno_restore(saved);
}

/* The same for thunk i of pool. */
static inline void nccc_cb_run_thunk(const nccc_thunk_pool *pool, unsigned i,
                                     uint64_t *in, uint64_t *out) {
  nccc_cb_errno saved = nccc_cb_errno_save();
  nccc_thunk_call(in, out, pool, i);
  nccc_cb_errno_restore(saved);
}

/* For callback types whose contract is to set errno: after nccc_cb_call,
** set errno from the out slot the host filled. */
#define NCCC_CB_SET_ERRNO(slot) (errno = (int)nccc_slot_to_i32(slot))

/*
** One thunk of a pool, generated once per index i. The per-type body
** (written once) takes the index first and starts with
** nccc_cb_begin_thunk(&f, &pool, i):
**   #define CMP_THUNK(i) NCCC_THUNK_DEFINE(cmp, i, int, \
**       (const void *a, const void *b), (i, a, b))
**   CMP_THUNK(0) CMP_THUNK(1) ...
** defines static int cmp_thunk_0(const void *a, const void *b)
** { return cmp_thunk_body(0, a, b); } and so on.
*/
#define NCCC_THUNK_DEFINE(prefix, i, ret, params, body_args) \
  static ret prefix##_thunk_##i params { return prefix##_thunk_body body_args; }
/* The same for callbacks returning void: (void) and (i) for atexit. */
#define NCCC_THUNK_DEFINE_VOID(prefix, i, params, body_args) \
  static void prefix##_thunk_##i params { prefix##_thunk_body body_args; }
/* Thunk i as an entry of the pool's table. */
#define NCCC_THUNK_ENTRY(prefix, i) ((nccc_thunk_fn)prefix##_thunk_##i)

/* ---- forward wrappers --------------------------------------------------- */

/* Zeroes the n_out out slots of a refused call (out may be NULL when
** n_out is 0). */
#define NCCC_CB_ZERO_OUT_(out, n_out)                               \
  do {                                                              \
    if ((size_t)(n_out) != 0)                                       \
      memset((out), 0, sizeof(uint64_t) * (size_t)(n_out));        \
  } while (0)

/* Refuses a callback slot that is not a live closure: zeroes n_out slots
** of out, runs end (the wrapper's NCCC_CB_END_CALL of its other closure
** slots: a refused call releases its CALL-scoped closures, as a finished
** call does) and returns from the wrapper (the last error says why). */
#define NCCC_CB_REQUIRE_END(ctx, out, n_out, end)                 \
  do {                                                            \
    if (nccc_closure_check(ctx) != NCCC_OK) {                     \
      NCCC_CB_ZERO_OUT_(out, n_out);                              \
      end;                                                        \
      return;                                                     \
    }                                                             \
  } while (0)

/* The same with nothing else to release. */
#define NCCC_CB_REQUIRE(ctx, out, n_out) NCCC_CB_REQUIRE_END(ctx, out, n_out, (void)0)

/* The same for a [nullable] callback: a NULL context is let through
** (pass NCCC_CB_FN's NULL function pointer to C). */
#define NCCC_CB_REQUIRE_OR_NULL_END(ctx, out, n_out, end)         \
  do {                                                            \
    if ((ctx) != NULL) NCCC_CB_REQUIRE_END(ctx, out, n_out, end); \
  } while (0)
#define NCCC_CB_REQUIRE_OR_NULL(ctx, out, n_out) \
  NCCC_CB_REQUIRE_OR_NULL_END(ctx, out, n_out, (void)0)

/* The function pointer to give C: the backward wrapper, or NULL when the
** context is NULL (a [nullable] callback left out). */
#define NCCC_CB_FN(ctx, back) ((ctx) != NULL ? (back) : NULL)

/*
** For a callback without a context parameter: binds ctx's member to a
** thunk of pool and assigns it, cast to fn_type (the callback's pointer
** type), to fn_var; on failure zeroes n_out slots of out and returns
** from the wrapper.
*/
#if NCCC_WITH_THUNKS
#define NCCC_CB_THUNK_END(pool, ctx, member, fn_type, fn_var, out, n_out, end) \
  do {                                                                  \
    nccc_thunk_fn nccc_t_;                                              \
    if (nccc_thunk_bind((pool), (ctx), (member), &nccc_t_) != NCCC_OK) { \
      NCCC_CB_ZERO_OUT_(out, n_out);                                    \
      end;                                                              \
      return;                                                           \
    }                                                                   \
    (fn_var) = (fn_type)nccc_t_;                                        \
  } while (0)
#else
/* Thunks left out (nccc/config.h): a wrapper that needs one says so when
** it is compiled rather than when it is linked. */
#define NCCC_CB_THUNK_END(pool, ctx, member, fn_type, fn_var, out, n_out, end) \
  _Static_assert(NCCC_WITH_THUNKS, "this wrapper takes a callback without a " \
                                   "context parameter: build with "           \
                                   "NCCC_WITH_THUNKS 1 (nccc/config.h)")
#endif
/* The same with nothing to release on a refusal (end: NCCC_CB_REQUIRE_END). */
#define NCCC_CB_THUNK(pool, ctx, member, fn_type, fn_var, out, n_out) \
  NCCC_CB_THUNK_END(pool, ctx, member, fn_type, fn_var, out, n_out, (void)0)

/* After the C call: releases a CALL-scoped closure (nothing otherwise). */
#define NCCC_CB_END_CALL(ctx) nccc_closure_end_call(ctx)

/* The destroy notify to give C for a [scope=notified] callback. */
#define NCCC_CB_DESTROY nccc_closure_destroy_notify

#endif
