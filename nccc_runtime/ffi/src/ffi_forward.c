/*
** ffi_forward.c — libffi's dynamic forwarder: a pool of static nccc
** functions, each bound to one slot that holds a target and its prepared
** ffi_cif. Calls go through ffi_call only; nothing here makes code.
*/
#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ffi.h>

#include <nccc/ffi_forward.h>

#if NCCC_FFI_MAX_FORWARDERS < 1 || NCCC_FFI_MAX_FORWARDERS > 32767
#error "NCCC_FFI_MAX_FORWARDERS must be between 1 and 32767"
#endif
#if NCCC_FFI_MAX_ARGS < 1 || NCCC_FFI_MAX_ARGS > 255
#error "NCCC_FFI_MAX_ARGS must be between 1 and 255"
#endif

#define STR_(x) #x
#define STR(x) STR_(x)

#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* ---- the pool -------------------------------------------------------------- */

/* A slot is FREE (may be handed out), LIVE (forwards), or RELEASING (being
** unhooked from the registry: calls are refused, and it is not reused). */
enum { SLOT_FREE = 0, SLOT_LIVE = 1, SLOT_RELEASING = 2 };

typedef struct fwd_slot {
  atomic_uint state;
  /* Out slots a call writes; kept after release so that a stale call
  ** zeroes exactly what a live one would have written. */
  atomic_uint n_out;
  unsigned long released_at; /* release order: the oldest is reused first */
  nccc_ffi_target target;
  ffi_cif cif;
  ffi_type *types[NCCC_FFI_MAX_ARGS];
  char codes[NCCC_FFI_MAX_ARGS];
  unsigned char n_args;
  char ret;      /* result code, or 0 for void */
  bool errno_out; /* 'e' ends the out side */
} fwd_slot;

static fwd_slot pool[NCCC_FFI_MAX_FORWARDERS];
static unsigned long release_clock; /* guarded by the platform lock */

/* ---- calls ------------------------------------------------------------------- */

/* A call that must not reach its target: the out slots read as zero and
** the calling thread learns why. */
static void refuse_call(unsigned n_out, uint64_t *out) {
  unsigned i;
  for (i = 0; i < n_out; i++) out[i] = 0;
  nccc_fail(NCCC_ERR_BAD_HANDLE, "call through a released forwarder", NULL);
}

/* What released entries of the global registry point at, by out count. */
static void released0(const uint64_t *in, uint64_t *out) {
  (void)in;
  refuse_call(0, out);
}
static void released1(const uint64_t *in, uint64_t *out) {
  (void)in;
  refuse_call(1, out);
}
static void released2(const uint64_t *in, uint64_t *out) {
  (void)in;
  refuse_call(2, out);
}
static const nccc_fn released_stub[3] = {released0, released1, released2};

static bool is_released_stub(nccc_fn fn) {
  return fn == released0 || fn == released1 || fn == released2;
}

/* One argument as C sees it; libffi reads it from the union's start. */
typedef union fwd_value {
  bool q;
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  float f;
  double d;
  void *p;
} fwd_value;

/* Where libffi puts the result: an integer narrower than ffi_arg comes
** back widened to a whole ffi_arg, anything else as itself. */
typedef union fwd_result {
  ffi_arg a;
  uint64_t u64;
  float f;
  double d;
  void *p;
} fwd_result;

/* The bits of an integer or pointer result of size bytes. Narrow results
** are read as the ffi_arg value, not as its first bytes, which is right
** on either byte order; the slot conversions then take the low bits. */
static uint64_t int_result(const fwd_result *r, size_t size) {
  return size <= sizeof(ffi_arg) ? (uint64_t)r->a : r->u64;
}

static uint64_t result_slot(char code, const fwd_result *r) {
  switch (code) {
    case '?': {
      uint64_t bits = int_result(r, sizeof(bool));
      if (sizeof(bool) < sizeof(uint64_t)) {
        bits &= ((uint64_t)1 << (8 * sizeof(bool))) - 1;
      }
      return nccc_slot_from_bool(bits != 0);
    }
    case 'b': return nccc_slot_from_i8(nccc_slot_to_i8(int_result(r, 1)));
    case 'B': return nccc_slot_from_u8(nccc_slot_to_u8(int_result(r, 1)));
    case 'h': return nccc_slot_from_i16(nccc_slot_to_i16(int_result(r, 2)));
    case 'H': return nccc_slot_from_u16(nccc_slot_to_u16(int_result(r, 2)));
    case 'i': return nccc_slot_from_i32(nccc_slot_to_i32(int_result(r, 4)));
    case 'I': return nccc_slot_from_u32(nccc_slot_to_u32(int_result(r, 4)));
    case 'l': return nccc_slot_from_i64(nccc_slot_to_i64(int_result(r, 8)));
    case 'L': return nccc_slot_from_u64(int_result(r, 8));
    case 'f': return nccc_slot_from_float(r->f);
    case 'd': return nccc_slot_from_double(r->d);
    default: /* p s F */
      return nccc_slot_from_ptr(
          (void *)(uintptr_t)int_result(r, sizeof(void *)));
  }
}

/* libffi reads an integer argument as bytes of its width, so a signed
** and an unsigned code of one width store the same low bits. */
static void set_arg(fwd_value *v, char code, uint64_t slot) {
  switch (code) {
    case '?': v->q = nccc_slot_to_bool(slot); break;
    case 'b': case 'B': v->u8 = nccc_slot_to_u8(slot); break;
    case 'h': case 'H': v->u16 = nccc_slot_to_u16(slot); break;
    case 'i': case 'I': v->u32 = nccc_slot_to_u32(slot); break;
    case 'l': case 'L': v->u64 = slot; break;
    case 'f': v->f = nccc_slot_to_float(slot); break;
    case 'd': v->d = nccc_slot_to_double(slot); break;
    default: v->p = nccc_slot_to_ptr(slot); break; /* p s F */
  }
}

/* The one routine behind every forwarder. Kept out of line so that each
** of the pool's functions is a load of its index and a jump. */
static NOINLINE void forward(unsigned k, const uint64_t *in, uint64_t *out) {
  fwd_slot *s = &pool[k];
  fwd_value args[NCCC_FFI_MAX_ARGS];
  void *values[NCCC_FFI_MAX_ARGS];
  fwd_result r;
  unsigned i, o = 0;
  int err;

  if (atomic_load_explicit(&s->state, memory_order_acquire) != SLOT_LIVE) {
    refuse_call(atomic_load_explicit(&s->n_out, memory_order_relaxed), out);
    return;
  }
  for (i = 0; i < s->n_args; i++) {
    set_arg(&args[i], s->codes[i], in[i]);
    values[i] = &args[i];
  }
  memset(&r, 0, sizeof r);
  if (s->errno_out) errno = 0;
  ffi_call(&s->cif, s->target, &r, values);
  err = errno; /* before anything else can change it */
  if (s->ret != 0) out[o++] = result_slot(s->ret, &r);
  if (s->errno_out) out[o] = nccc_slot_from_i32(err);
}

/*
** The pool's functions, NCCC_FFI_MAX_FORWARDERS of them, made by the
** preprocessor: for each set bit b of the count, a block of 2^b functions
** whose names spell their path in binary (fwd3_010) and whose indices
** start after the blocks of the higher bits. Fn(M, id, ix, base) expands
** to n functions M(name, index) with indices base + ix*n ... .
*/
#define FWD_DEFINE(id, index)                           \
  static void id(const uint64_t *in, uint64_t *out) {  \
    forward((unsigned)(index), in, out);               \
  }
#define FWD_ENTRY(id, index) [index] = id,

#define F1(M, id, ix, base) M(id, (base) + (ix))
#define F2(M, id, ix, base) F1(M, id##0, (ix)*2, base) F1(M, id##1, (ix)*2 + 1, base)
#define F4(M, id, ix, base) F2(M, id##0, (ix)*2, base) F2(M, id##1, (ix)*2 + 1, base)
#define F8(M, id, ix, base) F4(M, id##0, (ix)*2, base) F4(M, id##1, (ix)*2 + 1, base)
#define F16(M, id, ix, base) F8(M, id##0, (ix)*2, base) F8(M, id##1, (ix)*2 + 1, base)
#define F32(M, id, ix, base) F16(M, id##0, (ix)*2, base) F16(M, id##1, (ix)*2 + 1, base)
#define F64(M, id, ix, base) F32(M, id##0, (ix)*2, base) F32(M, id##1, (ix)*2 + 1, base)
#define F128(M, id, ix, base) F64(M, id##0, (ix)*2, base) F64(M, id##1, (ix)*2 + 1, base)
#define F256(M, id, ix, base) F128(M, id##0, (ix)*2, base) F128(M, id##1, (ix)*2 + 1, base)
#define F512(M, id, ix, base) F256(M, id##0, (ix)*2, base) F256(M, id##1, (ix)*2 + 1, base)
#define F1024(M, id, ix, base) F512(M, id##0, (ix)*2, base) F512(M, id##1, (ix)*2 + 1, base)
#define F2048(M, id, ix, base) F1024(M, id##0, (ix)*2, base) F1024(M, id##1, (ix)*2 + 1, base)
#define F4096(M, id, ix, base) F2048(M, id##0, (ix)*2, base) F2048(M, id##1, (ix)*2 + 1, base)
#define F8192(M, id, ix, base) F4096(M, id##0, (ix)*2, base) F4096(M, id##1, (ix)*2 + 1, base)
#define F16384(M, id, ix, base) F8192(M, id##0, (ix)*2, base) F8192(M, id##1, (ix)*2 + 1, base)

#define NFWD NCCC_FFI_MAX_FORWARDERS
/* Index of the first function of the block for bit b. */
#define BASE(b) ((NFWD >> ((b) + 1)) << ((b) + 1))

#if NFWD & 0x4000
#define BLOCK14(M) F16384(M, fwd14_, 0, BASE(14))
#else
#define BLOCK14(M)
#endif
#if NFWD & 0x2000
#define BLOCK13(M) F8192(M, fwd13_, 0, BASE(13))
#else
#define BLOCK13(M)
#endif
#if NFWD & 0x1000
#define BLOCK12(M) F4096(M, fwd12_, 0, BASE(12))
#else
#define BLOCK12(M)
#endif
#if NFWD & 0x800
#define BLOCK11(M) F2048(M, fwd11_, 0, BASE(11))
#else
#define BLOCK11(M)
#endif
#if NFWD & 0x400
#define BLOCK10(M) F1024(M, fwd10_, 0, BASE(10))
#else
#define BLOCK10(M)
#endif
#if NFWD & 0x200
#define BLOCK9(M) F512(M, fwd9_, 0, BASE(9))
#else
#define BLOCK9(M)
#endif
#if NFWD & 0x100
#define BLOCK8(M) F256(M, fwd8_, 0, BASE(8))
#else
#define BLOCK8(M)
#endif
#if NFWD & 0x80
#define BLOCK7(M) F128(M, fwd7_, 0, BASE(7))
#else
#define BLOCK7(M)
#endif
#if NFWD & 0x40
#define BLOCK6(M) F64(M, fwd6_, 0, BASE(6))
#else
#define BLOCK6(M)
#endif
#if NFWD & 0x20
#define BLOCK5(M) F32(M, fwd5_, 0, BASE(5))
#else
#define BLOCK5(M)
#endif
#if NFWD & 0x10
#define BLOCK4(M) F16(M, fwd4_, 0, BASE(4))
#else
#define BLOCK4(M)
#endif
#if NFWD & 0x8
#define BLOCK3(M) F8(M, fwd3_, 0, BASE(3))
#else
#define BLOCK3(M)
#endif
#if NFWD & 0x4
#define BLOCK2(M) F4(M, fwd2_, 0, BASE(2))
#else
#define BLOCK2(M)
#endif
#if NFWD & 0x2
#define BLOCK1(M) F2(M, fwd1_, 0, BASE(1))
#else
#define BLOCK1(M)
#endif
#if NFWD & 0x1
#define BLOCK0(M) F1(M, fwd0_, 0, BASE(0))
#else
#define BLOCK0(M)
#endif

#define ALL_FORWARDERS(M)                                                  \
  BLOCK14(M) BLOCK13(M) BLOCK12(M) BLOCK11(M) BLOCK10(M) BLOCK9(M)         \
  BLOCK8(M) BLOCK7(M) BLOCK6(M) BLOCK5(M) BLOCK4(M) BLOCK3(M) BLOCK2(M)    \
  BLOCK1(M) BLOCK0(M)

ALL_FORWARDERS(FWD_DEFINE)

/* Designated initialisers: -Woverride-init (in -Wextra) would reject an
** index made twice. */
static const nccc_fn forwarders[NFWD] = {ALL_FORWARDERS(FWD_ENTRY)};

static int slot_of(nccc_fn fn) {
  int k;
  for (k = 0; k < NFWD; k++) {
    if (forwarders[k] == fn) return k;
  }
  return -1;
}

/* ---- signatures ----------------------------------------------------------- */

typedef struct parsed_sig {
  char codes[NCCC_FFI_MAX_ARGS];
  unsigned char n_args;
  char ret;
  bool errno_out;
} parsed_sig;

static bool is_scalar(char c) {
  return c != '\0' && strchr(NCCC_ABI_VALUE_CODES, c) != NULL;
}

static ffi_type *ffi_type_of(char c) {
  switch (c) {
    case '?':
      /* libffi has no bool; C's is an unsigned integer of its size */
      return sizeof(bool) == 1   ? &ffi_type_uint8
             : sizeof(bool) == 2 ? &ffi_type_uint16
             : sizeof(bool) == 4 ? &ffi_type_uint32
                                 : &ffi_type_uint64;
    case 'b': return &ffi_type_sint8;
    case 'B': return &ffi_type_uint8;
    case 'h': return &ffi_type_sint16;
    case 'H': return &ffi_type_uint16;
    case 'i': return &ffi_type_sint32;
    case 'I': return &ffi_type_uint32;
    case 'l': return &ffi_type_sint64;
    case 'L': return &ffi_type_uint64;
    case 'f': return &ffi_type_float;
    case 'd': return &ffi_type_double;
    default: return &ffi_type_pointer; /* p s F */
  }
}

static nccc_status bad_sig(const char *why, const char *signature) {
  return nccc_fail(NCCC_ERR_BAD_SIGNATURE, why, signature);
}

/* Why code c cannot appear where it does, for the codes every side
** refuses. */
static nccc_status refuse_code(char c, const char *signature) {
  if (c == '{' || c == '}') {
    return bad_sig("forwarder: a struct by value needs a layout the "
                   "forwarder does not have", signature);
  }
  if (c == '*') {
    return bad_sig("forwarder: '*' (a variable number of slots) cannot be "
                   "forwarded", signature);
  }
  return bad_sig("forwarder: unknown type code", signature);
}

static nccc_status parse_signature(const char *signature, parsed_sig *p) {
  const char *c = signature;
  uint16_t n_in, n_out;
  nccc_status st;

  memset(p, 0, sizeof *p);
  for (; *c != ':'; c++) {
    if (*c == '\0') {
      return bad_sig("forwarder: no ':' between in and out codes", signature);
    }
    if (*c == 'e') {
      return bad_sig("forwarder: 'e' (errno) is an out code", signature);
    }
    if (!is_scalar(*c)) return refuse_code(*c, signature);
    if (p->n_args == NCCC_FFI_MAX_ARGS) {
      return bad_sig("forwarder: more than " STR(NCCC_FFI_MAX_ARGS)
                     " arguments", signature);
    }
    p->codes[p->n_args++] = *c;
  }
  for (c++; *c != '\0'; c++) {
    if (p->errno_out) {
      return bad_sig("forwarder: 'e' must be the last out code", signature);
    }
    if (*c == 'e') {
      p->errno_out = true;
    } else if (is_scalar(*c)) {
      if (p->ret != 0) {
        return bad_sig("forwarder: out side must be the return value, then "
                       "optionally 'e'", signature);
      }
      p->ret = *c;
    } else {
      return refuse_code(*c, signature);
    }
  }
  /* What the forwarder accepts the registry must count the same way. */
  st = nccc_signature_counts(signature, &n_in, &n_out);
  if (st != NCCC_OK) return st;
  if (n_in != p->n_args || n_out != (unsigned)(p->ret != 0) + p->errno_out) {
    return bad_sig("forwarder: slot counts disagree with the registry's",
                   signature);
  }
  return NCCC_OK;
}

/* ---- creating and releasing ------------------------------------------------- */

nccc_status nccc_ffi_check_signature(const char *signature) {
  parsed_sig p;
  if (signature == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "forwarder signature", NULL);
  }
  return parse_signature(signature, &p);
}

/* The free slot released longest ago (never-used slots first), or -1. */
static int pick_free_slot(void) {
  int k, best = -1;
  for (k = 0; k < NFWD; k++) {
    if (atomic_load_explicit(&pool[k].state, memory_order_relaxed) !=
        SLOT_FREE) {
      continue;
    }
    if (best < 0 || pool[k].released_at < pool[best].released_at) best = k;
  }
  return best;
}

nccc_status nccc_ffi_create(nccc_ffi_target target, const char *signature,
                            nccc_fn *out_fn) {
  parsed_sig p;
  fwd_slot *s;
  unsigned i;
  int k;
  nccc_status st;

  if (target == NULL || signature == NULL || out_fn == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "forwarder create", NULL);
  }
  st = parse_signature(signature, &p);
  if (st != NCCC_OK) return st;

  nccc_platform_lock();
  k = pick_free_slot();
  if (k < 0) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_REGISTRY_FULL,
                     "forwarder pool full: all " STR(NCCC_FFI_MAX_FORWARDERS)
                     " forwarders in use", signature);
  }
  /* The slot is FREE while it is filled: a stale call through it reads
  ** only n_out, and only LIVE (stored last, with release order) lets a
  ** call read the rest. */
  s = &pool[k];
  for (i = 0; i < p.n_args; i++) {
    s->codes[i] = p.codes[i];
    s->types[i] = ffi_type_of(p.codes[i]);
  }
  s->n_args = p.n_args;
  s->ret = p.ret;
  s->errno_out = p.errno_out;
  s->target = target;
  if (ffi_prep_cif(&s->cif, FFI_DEFAULT_ABI, p.n_args,
                   p.ret != 0 ? ffi_type_of(p.ret) : &ffi_type_void,
                   s->types) != FFI_OK) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_PLATFORM_CHECK,
                     "forwarder: libffi refused the call interface", signature);
  }
  atomic_store_explicit(&s->n_out, (unsigned)(p.ret != 0) + p.errno_out,
                        memory_order_relaxed);
  atomic_store_explicit(&s->state, SLOT_LIVE, memory_order_release);
  nccc_platform_unlock();
  *out_fn = forwarders[k];
  return NCCC_OK;
}

/* Marks slot k free, newest in the reuse order. */
static void free_slot(int k) {
  nccc_platform_lock();
  pool[k].released_at = ++release_clock;
  atomic_store_explicit(&pool[k].state, SLOT_FREE, memory_order_release);
  nccc_platform_unlock();
}

/*
** Points every global registry entry whose function is fn at the released
** stub for n_out. The same signature string is passed back, so the
** override copies nothing and cannot run out of room. Walking the handles
** ends with a failed decode; the caller's last error is put back after.
*/
static nccc_status unhook(nccc_fn fn, unsigned n_out) {
  char saved_text[NCCC_ERROR_MESSAGE_BYTES];
  nccc_status saved = nccc_last_status(), st = NCCC_OK;
  uint16_t i;

  strncpy(saved_text, nccc_last_error(), sizeof saved_text - 1);
  saved_text[sizeof saved_text - 1] = '\0';
  for (i = 0; i < NCCC_REGISTRY_MAX_FUNCTIONS; i++) {
    nccc_fn f;
    const nccc_fn_info *info;
    const char *name;
    if (nccc_function(nccc_handle_encode(NCCC_GLOBAL_MODULE, i), &f, &info,
                      &name) != NCCC_OK) {
      break;
    }
    if (f == fn) {
      st = nccc_register(name, released_stub[n_out], info->signature, 1,
                         NULL);
      if (st != NCCC_OK) return st;
    }
  }
  if (saved == NCCC_OK) {
    nccc_clear_error();
  } else {
    nccc_fail(saved, saved_text, NULL);
  }
  return st;
}

nccc_status nccc_ffi_release(nccc_fn fn) {
  int k;
  nccc_status st;
  unsigned n_out;

  if (fn == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "forwarder release", NULL);
  }
  k = slot_of(fn);
  if (k < 0) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "forwarder release",
                     "not a forwarder");
  }
  nccc_platform_lock();
  if (atomic_load_explicit(&pool[k].state, memory_order_relaxed) !=
      SLOT_LIVE) {
    nccc_platform_unlock();
    return nccc_fail(NCCC_ERR_INVALID_ARG, "forwarder release",
                     "released already");
  }
  /* RELEASING: calls are refused from now on, and the slot cannot be
  ** handed out again while registry entries may still point at it. */
  atomic_store_explicit(&pool[k].state, SLOT_RELEASING, memory_order_release);
  n_out = atomic_load_explicit(&pool[k].n_out, memory_order_relaxed);
  nccc_platform_unlock();

  st = unhook(fn, n_out);
  if (st != NCCC_OK) {
    /* An entry may still point here: never reuse this slot. */
    return st;
  }
  free_slot(k);
  return NCCC_OK;
}

nccc_status nccc_ffi_register(const char *name, nccc_ffi_target target,
                              const char *signature, int override,
                              nccc_handle *out) {
  nccc_fn fn = NULL;
  nccc_handle h = 0;
  nccc_status st;

  if (name == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "forwarder register", NULL);
  }
  st = nccc_ffi_create(target, signature, &fn);
  if (st != NCCC_OK) return st;
  st = nccc_register(name, fn, signature, override, &h);
  if (st == NCCC_ERR_ALREADY_DEFINED) {
    /* A name left behind by a released forwarder is free to take. */
    nccc_handle old;
    nccc_fn old_fn;
    if (nccc_lookup(name, &old) == NCCC_OK &&
        nccc_function(old, &old_fn, NULL, NULL) == NCCC_OK &&
        is_released_stub(old_fn)) {
      st = nccc_register(name, fn, signature, 1, &h);
    } else {
      st = nccc_fail(NCCC_ERR_ALREADY_DEFINED, "function already defined",
                     name);
    }
  }
  if (st != NCCC_OK) {
    free_slot(slot_of(fn)); /* nothing points at it */
    return st;
  }
  if (out != NULL) *out = h;
  return NCCC_OK;
}

unsigned nccc_ffi_capacity(void) { return NFWD; }

unsigned nccc_ffi_available(void) {
  unsigned n = 0;
  int k;
  for (k = 0; k < NFWD; k++) {
    if (atomic_load_explicit(&pool[k].state, memory_order_relaxed) ==
        SLOT_FREE) {
      n++;
    }
  }
  return n;
}

/* ---- the module "nccc_ffi" -------------------------------------------------- */

static uint64_t status_slot(nccc_status st) { return (uint64_t)st; }

/* Whether a function pointer slot fits this target; fails out[0] if not. */
static bool fn_arg_ok(uint64_t slot, uint64_t *out) {
  if (nccc_slot_fits_ptr(slot)) return true;
  out[0] = status_slot(nccc_fail(NCCC_ERR_INVALID_ARG, "forwarder",
                                 "function pointer wider than the target"));
  return false;
}
#define ARG_FN(type, slot) ((type)(uintptr_t)(slot))
#define ARG_STR(slot) ((const char *)nccc_slot_to_ptr(slot))

static void m_available(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = NCCC_OK;
  out[1] = nccc_ffi_available();
  out[2] = nccc_ffi_capacity();
}

static void m_create(const uint64_t *in, uint64_t *out) {
  nccc_fn fn = NULL;
  nccc_status st;
  if (!fn_arg_ok(in[0], out)) return;
  st = nccc_ffi_create(ARG_FN(nccc_ffi_target, in[0]), ARG_STR(in[1]), &fn);
  out[0] = status_slot(st);
  if (st == NCCC_OK) out[1] = (uint64_t)(uintptr_t)fn;
}

static void m_register(const uint64_t *in, uint64_t *out) {
  nccc_handle h = 0;
  nccc_status st;
  if (!fn_arg_ok(in[1], out)) return;
  st = nccc_ffi_register(ARG_STR(in[0]), ARG_FN(nccc_ffi_target, in[1]),
                         ARG_STR(in[2]), nccc_slot_to_bool(in[3]), &h);
  out[0] = status_slot(st);
  if (st == NCCC_OK) out[1] = h;
}

static void m_release(const uint64_t *in, uint64_t *out) {
  if (!fn_arg_ok(in[0], out)) return;
  out[0] = status_slot(nccc_ffi_release(ARG_FN(nccc_fn, in[0])));
}

/* Names in strcmp order, so the sorted index is the identity. */
#define MN0 "available"
#define MN1 "create"
#define MN2 "register"
#define MN3 "release"
#define MOFF0 2u
#define MOFF1 (MOFF0 + sizeof MN0)
#define MOFF2 (MOFF1 + sizeof MN1)
#define MOFF3 (MOFF2 + sizeof MN2)

NCCC_NAMES_BLOB(module_names, 4, MN0 "\0" MN1 "\0" MN2 "\0" MN3 "\0");
static const nccc_fn module_funcs[4] = {m_available, m_create, m_register,
                                        m_release};
static const nccc_fn_info module_info[4] = {{":iII", 0, 3, MOFF0},
                                            {"Fs:iF", 2, 2, MOFF1},
                                            {"sFs?:iI", 4, 2, MOFF2},
                                            {"F:i", 1, 1, MOFF3}};
static const uint16_t module_sorted[4] = {0, 1, 2, 3};
static const nccc_registry module_registry = {
    (const char *)&module_names, module_funcs, module_info, module_sorted, NULL};
static const nccc_module ffi_module = {"nccc_ffi", &module_registry, NULL, 0,
                                       0, NULL};

nccc_status nccc_ffi_module_add(uint16_t *out_index) {
  return nccc_module_add(&ffi_module, out_index);
}
