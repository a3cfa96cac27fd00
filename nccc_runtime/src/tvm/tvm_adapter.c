/*
** tvm_adapter.c — nccc functions as global packed functions.
**
** TVM's registry hands a global function no context (resource_handle is
** NULL), and nothing here may make code at run time, so the bridge holds
** a pool of NCCC_PACKED_MAX_ADAPTERS static adapters: ordinary packed
** functions made by the preprocessor, adapter k bound to pool entry k
** (the nccc function and its parsed packed signature).
**
** Whether an adapter is in use is read from the TVM global registry
** itself: it is, while the registry entry it was registered as still
** holds it. So re-initialising the TVM runtime, or registering another
** function under its name, frees it without any bookkeeping here, and a
** stale pointer to a freed adapter is refused instead of being run.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/call.h>
#include <nccc/packed.h>
#include <nccc/platform.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/func_registry.h>

#include "tvm_internal.h"
#include "tvm_packed_internal.h"

#if NCCC_WITH_TVM

#if NCCC_PACKED_MAX_ADAPTERS < 1 || NCCC_PACKED_MAX_ADAPTERS > 4095
#error "NCCC_PACKED_MAX_ADAPTERS must be 1..4095"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* FREE: may be taken. RESERVED: filled, being registered (in use).
** BOUND: registered as entry `index` of the global registry, in use
** while that entry holds this adapter. */
enum { FREE = 0, RESERVED = 1, BOUND = 2 };

typedef struct adapter_entry {
  nccc_fn fn;
  uint64_t env;     /* in[0] of every call when has_env */
  const char *name; /* in the global registry's names blob (messages) */
  uint16_t index;
  uint8_t state;
  uint8_t flags;
  uint8_t has_env;
  nccci_psig sig;
} adapter_entry;

static adapter_entry pool[NCCC_PACKED_MAX_ADAPTERS];
static const TVMBackendPackedCFunc adapters[NCCC_PACKED_MAX_ADAPTERS];

static int in_use(unsigned k) {
  const adapter_entry *e = &pool[k];
  const TVMFuncRegistry *reg;
  if (e->state == RESERVED) return 1;
  if (e->state != BOUND) return 0;
  reg = nccci_tvm_global_registry();
  return e->index < TVMFuncRegistry_GetNumFuncs(reg) &&
         reg->funcs[e->index] == adapters[k];
}

/* ---- calls ------------------------------------------------------------------ */

/* The one routine behind every adapter: check, convert, call, convert. */
static NOINLINE int adapt(unsigned k, TVMValue *args, int *type_codes,
                          int num_args, TVMValue *ret, int *ret_code) {
  const adapter_entry *e = &pool[k];
  uint64_t in[NCCC_PACKED_MAX_ARGS + 1], out[2], result;
  uint64_t *slots = in + e->has_env; /* the arguments, after env */
  const char *who;
  unsigned i;
  int err;
  if (!in_use(k)) {
    return nccci_tvm_fail(kTvmErrorFunctionCallNotImplemented,
                          "packed adapter called after its registration "
                          "ended", NULL);
  }
  who = e->name != NULL ? e->name : "packed function";
  if (ret == NULL || ret_code == NULL ||
      (num_args > 0 && (args == NULL || type_codes == NULL))) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, who, NULL);
  }
  if (num_args != (int)e->sig.n_args) {
    return nccci_packed_fail_count(who, e->sig.n_args, num_args);
  }
  for (i = 0; i < e->sig.n_args; i++) {
    err = nccci_packed_from_value(e->sig.codes[i], type_codes[i], &args[i],
                                  &slots[i]);
    if (err != 0) {
      return nccci_packed_fail_value(err, who, (int)i, e->sig.codes[i],
                                     type_codes[i]);
    }
  }
  if (e->has_env) in[0] = e->env;
  out[0] = out[1] = 0;
  if (e->flags & NCCC_PACKED_STATUS) {
    /* so that a failure without a message of its own gets one below */
    nccc_clear_error();
    e->fn(in, out);
    err = nccc_slot_to_i32(out[0]);
    if (err != 0) {
      if (nccc_last_status() == NCCC_OK) {
        nccci_tvm_fail((tvm_crt_error_t)err, who, "failed");
      }
      return err;
    }
    result = out[1];
  } else {
    e->fn(in, out);
    result = out[0];
  }
  if (e->sig.ret != 0) {
    nccci_packed_to_value(e->sig.ret, result, ret, ret_code);
  } else {
    ret->v_handle = NULL;
    *ret_code = kTVMNullptr;
  }
  return 0;
}

/*
** The pool's functions, made by the preprocessor: for each set bit b of
** the count, a block of 2^b functions whose names spell their path in
** binary (ad3_010), with indices after the blocks of the higher bits.
*/
#define AD_DEFINE(id, index)                                                \
  static int id(TVMValue *args, int *type_codes, int num_args,             \
                TVMValue *ret, int *ret_code, void *resource_handle) {     \
    (void)resource_handle;                                                  \
    return adapt((unsigned)(index), args, type_codes, num_args, ret,       \
                 ret_code);                                                 \
  }
#define AD_ENTRY(id, index) [index] = id,

#define A1(M, id, ix, base) M(id, (base) + (ix))
#define A2(M, id, ix, base) A1(M, id##0, (ix)*2, base) A1(M, id##1, (ix)*2 + 1, base)
#define A4(M, id, ix, base) A2(M, id##0, (ix)*2, base) A2(M, id##1, (ix)*2 + 1, base)
#define A8(M, id, ix, base) A4(M, id##0, (ix)*2, base) A4(M, id##1, (ix)*2 + 1, base)
#define A16(M, id, ix, base) A8(M, id##0, (ix)*2, base) A8(M, id##1, (ix)*2 + 1, base)
#define A32(M, id, ix, base) A16(M, id##0, (ix)*2, base) A16(M, id##1, (ix)*2 + 1, base)
#define A64(M, id, ix, base) A32(M, id##0, (ix)*2, base) A32(M, id##1, (ix)*2 + 1, base)
#define A128(M, id, ix, base) A64(M, id##0, (ix)*2, base) A64(M, id##1, (ix)*2 + 1, base)
#define A256(M, id, ix, base) A128(M, id##0, (ix)*2, base) A128(M, id##1, (ix)*2 + 1, base)
#define A512(M, id, ix, base) A256(M, id##0, (ix)*2, base) A256(M, id##1, (ix)*2 + 1, base)
#define A1024(M, id, ix, base) A512(M, id##0, (ix)*2, base) A512(M, id##1, (ix)*2 + 1, base)
#define A2048(M, id, ix, base) A1024(M, id##0, (ix)*2, base) A1024(M, id##1, (ix)*2 + 1, base)

#define NAD NCCC_PACKED_MAX_ADAPTERS
/* Index of the first function of the block for bit b. */
#define BASE(b) ((NAD >> ((b) + 1)) << ((b) + 1))

#if NAD & 0x800
#define BLOCK11(M) A2048(M, ad11_, 0, BASE(11))
#else
#define BLOCK11(M)
#endif
#if NAD & 0x400
#define BLOCK10(M) A1024(M, ad10_, 0, BASE(10))
#else
#define BLOCK10(M)
#endif
#if NAD & 0x200
#define BLOCK9(M) A512(M, ad9_, 0, BASE(9))
#else
#define BLOCK9(M)
#endif
#if NAD & 0x100
#define BLOCK8(M) A256(M, ad8_, 0, BASE(8))
#else
#define BLOCK8(M)
#endif
#if NAD & 0x80
#define BLOCK7(M) A128(M, ad7_, 0, BASE(7))
#else
#define BLOCK7(M)
#endif
#if NAD & 0x40
#define BLOCK6(M) A64(M, ad6_, 0, BASE(6))
#else
#define BLOCK6(M)
#endif
#if NAD & 0x20
#define BLOCK5(M) A32(M, ad5_, 0, BASE(5))
#else
#define BLOCK5(M)
#endif
#if NAD & 0x10
#define BLOCK4(M) A16(M, ad4_, 0, BASE(4))
#else
#define BLOCK4(M)
#endif
#if NAD & 0x8
#define BLOCK3(M) A8(M, ad3_, 0, BASE(3))
#else
#define BLOCK3(M)
#endif
#if NAD & 0x4
#define BLOCK2(M) A4(M, ad2_, 0, BASE(2))
#else
#define BLOCK2(M)
#endif
#if NAD & 0x2
#define BLOCK1(M) A2(M, ad1_, 0, BASE(1))
#else
#define BLOCK1(M)
#endif
#if NAD & 0x1
#define BLOCK0(M) A1(M, ad0_, 0, BASE(0))
#else
#define BLOCK0(M)
#endif

#define ALL_ADAPTERS(M)                                                      \
  BLOCK11(M) BLOCK10(M) BLOCK9(M) BLOCK8(M) BLOCK7(M) BLOCK6(M) BLOCK5(M)    \
  BLOCK4(M) BLOCK3(M) BLOCK2(M) BLOCK1(M) BLOCK0(M)

ALL_ADAPTERS(AD_DEFINE)

/* Designated initialisers: -Woverride-init (in -Wextra) would reject an
** index made twice. */
static const TVMBackendPackedCFunc adapters[NCCC_PACKED_MAX_ADAPTERS] = {
    ALL_ADAPTERS(AD_ENTRY)};

/* ---- registration ------------------------------------------------------------ */

unsigned nccc_packed_capacity(void) { return NCCC_PACKED_MAX_ADAPTERS; }

unsigned nccc_packed_available(void) {
  unsigned k, n = 0;
  nccc_platform_lock();
  for (k = 0; k < NCCC_PACKED_MAX_ADAPTERS; k++) n += !in_use(k);
  nccc_platform_unlock();
  return n;
}

/* Both registrations: has_env says whether env goes to in[0]. */
static nccc_status register_adapter(const char *name, nccc_fn fn,
                                    int has_env, uint64_t env,
                                    const char *psig, unsigned flags) {
  nccci_psig ps;
  nccc_status st;
  adapter_entry *e = NULL;
  const TVMFuncRegistry *reg;
  tvm_function_index_t index;
  void *as_handle;
  unsigned k;
  int err;

  if (name == NULL || fn == NULL || psig == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_packed_register", NULL);
  }
  if ((flags & ~(NCCC_PACKED_OVERRIDE | NCCC_PACKED_STATUS)) != 0) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "nccc_packed_register",
                     "unknown flag");
  }
  st = nccci_psig_parse(psig, &ps);
  if (st != NCCC_OK) return st;

  nccc_platform_lock();
  for (k = 0; k < NCCC_PACKED_MAX_ADAPTERS && e == NULL; k++) {
    if (!in_use(k)) e = &pool[k];
  }
  if (e == NULL) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_POOL_EXHAUSTED,
                     "packed adapter pool full: every one of the "
                     "NCCC_PACKED_MAX_ADAPTERS adapters is in use", name);
  }
  k = (unsigned)(e - pool);
  e->fn = fn;
  e->env = env;
  e->has_env = (uint8_t)has_env;
  e->sig = ps;
  e->flags = (uint8_t)flags;
  e->name = NULL;
  e->state = RESERVED;
  nccc_platform_unlock();

  /* Registered without the lock held: TVMFuncRegisterGlobal takes it. */
  memcpy(&as_handle, &adapters[k], sizeof as_handle);
  err = TVMFuncRegisterGlobal(name, as_handle,
                              (flags & NCCC_PACKED_OVERRIDE) != 0);
  nccc_platform_lock();
  reg = nccci_tvm_global_registry();
  if (err == 0 && nccci_tvm_find(reg, name, &index) &&
      reg->funcs[index] == adapters[k]) {
    e->index = index;
    e->name = nccc_names_get(reg->names, index);
    e->state = BOUND;
  } else {
    e->state = FREE;
  }
  nccc_platform_unlock();
  return err == 0 ? NCCC_OK : (nccc_status)err;
}

nccc_status nccc_packed_register(const char *name, nccc_fn fn,
                                 const char *psig, unsigned flags) {
  return register_adapter(name, fn, 0, 0, psig, flags);
}

nccc_status nccc_packed_register_env(const char *name, nccc_fn fn,
                                     uint64_t env, const char *psig,
                                     unsigned flags) {
  return register_adapter(name, fn, 1, env, psig, flags);
}

/* ---- registering what a handle names ------------------------------------------ */

/* A value TVM can carry: TVM has no type code for a function pointer. */
static int is_value_code(char c) {
  return c != '\0' && c != 'F' && strchr(NCCC_ABI_VALUE_CODES, c) != NULL;
}

static nccc_status bad_registry_sig(const char *why, const char *sig) {
  return nccc_fail(NCCC_ERR_BAD_SIGNATURE, why, sig);
}

/* The packed signature of an nccc registry signature, into buf (room for
** NCCC_PACKED_MAX_ARGS + 3 bytes). */
static nccc_status derive(const char *sig, int status_first, char *buf) {
  const char *c = sig;
  size_t n = 0;
  for (; *c != ':'; c++) {
    if (!is_value_code(*c)) {
      return bad_registry_sig(*c == '\0' ? "malformed signature"
                                         : "an argument of this signature "
                                           "has no TVM type code", sig);
    }
    if (n == NCCC_PACKED_MAX_ARGS) {
      return bad_registry_sig("more than NCCC_PACKED_MAX_ARGS arguments",
                              sig);
    }
    buf[n++] = *c;
  }
  buf[n++] = ':';
  c++;
  if (status_first) {
    if (*c != 'i') {
      return bad_registry_sig("NCCC_PACKED_STATUS needs out[0] of code i",
                              sig);
    }
    c++;
  }
  if (*c != '\0') {
    if (!is_value_code(*c) || c[1] != '\0') {
      return bad_registry_sig("a packed function has at most one result, "
                              "of a code TVM can take", sig);
    }
    buf[n++] = *c;
  }
  buf[n] = '\0';
  return NCCC_OK;
}

/* Whether packed code p may stand for registry code r. */
static int agrees(char p, char r) {
  if (p == r) return 1;
  return r == 'p' && p != '\0' && strchr("symkt", p) != NULL;
}

nccc_status nccc_packed_register_handle(const char *name, nccc_handle handle,
                                        const char *psig, unsigned flags) {
  char derived[NCCC_PACKED_MAX_ARGS + 4];
  const nccc_fn_info *info;
  nccci_psig want, have;
  nccc_fn fn;
  nccc_status st;
  unsigned i;

  if (name == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_packed_register_handle",
                     NULL);
  }
  st = nccc_function(handle, &fn, &info, NULL);
  if (st != NCCC_OK) return st;
  st = derive(info->signature, (flags & NCCC_PACKED_STATUS) != 0, derived);
  if (st != NCCC_OK) return st;
  if (psig != NULL) {
    st = nccci_psig_parse(psig, &want);
    if (st != NCCC_OK) return st;
    nccci_psig_parse(derived, &have);
    if (want.n_args != have.n_args || !agrees(want.ret, have.ret)) {
      return nccc_fail(NCCC_ERR_BAD_SIGNATURE,
                       "packed signature disagrees with the registry's",
                       info->signature);
    }
    for (i = 0; i < want.n_args; i++) {
      if (!agrees(want.codes[i], have.codes[i])) {
        return nccc_fail(NCCC_ERR_BAD_SIGNATURE,
                         "packed signature disagrees with the registry's",
                         info->signature);
      }
    }
  } else {
    psig = derived;
  }
  return nccc_packed_register(name, fn, psig, flags);
}

#endif /* NCCC_WITH_TVM */
