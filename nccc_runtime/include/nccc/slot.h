/*
** nccc/slot.h — the slot ABI: one argument or result is one uint64_t.
**
** Signed integers (and enums, and char where char is signed) are
** sign-extended to 64 bits; unsigned integers and bool are zero-extended;
** pointers are (uint64_t)(uintptr_t)p; a double is its IEEE-754 binary64
** bit pattern; a float is widened to double and stored as that pattern.
** Every bit of every slot is defined, so slots can be compared, hashed and
** sent over a wire.
**
** Conversions *to* a narrower type take the low bits of the slot: a
** well-formed slot converts back exactly; nccc_slot_fits_* tell a checking
** caller whether a slot is well formed for a type.
**
** All functions here are static inline and use no library call that
** survives optimisation, so a generated wrapper compiles to moves.
*/
#ifndef NCCC_SLOT_H
#define NCCC_SLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>

/* The one shape every nccc function has. */
typedef void (*nccc_fn)(const uint64_t *in, uint64_t *out);

/* Slots taken by an object of n bytes passed by value. */
#define NCCC_SLOTS(nbytes) (((nbytes) + 7u) / 8u)

/* ---- integers ------------------------------------------------------ */

static inline uint64_t nccc_slot_from_i64(int64_t v) { return (uint64_t)v; }
static inline uint64_t nccc_slot_from_u64(uint64_t v) { return v; }
static inline uint64_t nccc_slot_from_i32(int32_t v) { return (uint64_t)(int64_t)v; }
static inline uint64_t nccc_slot_from_u32(uint32_t v) { return (uint64_t)v; }
static inline uint64_t nccc_slot_from_i16(int16_t v) { return (uint64_t)(int64_t)v; }
static inline uint64_t nccc_slot_from_u16(uint16_t v) { return (uint64_t)v; }
static inline uint64_t nccc_slot_from_i8(int8_t v) { return (uint64_t)(int64_t)v; }
static inline uint64_t nccc_slot_from_u8(uint8_t v) { return (uint64_t)v; }
static inline uint64_t nccc_slot_from_bool(bool v) { return v ? 1u : 0u; }

/* Two's-complement reinterpretation written without implementation-defined
** conversions; compilers reduce each to a single move or extension. */
static inline int64_t nccc_slot_to_i64(uint64_t s) {
  return s <= (uint64_t)INT64_MAX ? (int64_t)s : -(int64_t)(~s) - 1;
}
static inline uint64_t nccc_slot_to_u64(uint64_t s) { return s; }
static inline int32_t nccc_slot_to_i32(uint64_t s) {
  uint32_t u = (uint32_t)s;
  return u <= (uint32_t)INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
}
static inline uint32_t nccc_slot_to_u32(uint64_t s) { return (uint32_t)s; }
static inline int16_t nccc_slot_to_i16(uint64_t s) {
  uint16_t u = (uint16_t)s;
  return (int16_t)(u <= 0x7fffu ? (int)u : (int)u - 0x10000);
}
static inline uint16_t nccc_slot_to_u16(uint64_t s) { return (uint16_t)s; }
static inline int8_t nccc_slot_to_i8(uint64_t s) {
  uint8_t u = (uint8_t)s;
  return (int8_t)(u <= 0x7fu ? (int)u : (int)u - 0x100);
}
static inline uint8_t nccc_slot_to_u8(uint64_t s) { return (uint8_t)s; }
static inline bool nccc_slot_to_bool(uint64_t s) { return s != 0; }

/* Well-formedness: the slot is what from_<type> would have produced. */
static inline bool nccc_slot_fits_i32(uint64_t s) {
  return nccc_slot_from_i32(nccc_slot_to_i32(s)) == s;
}
static inline bool nccc_slot_fits_u32(uint64_t s) { return s <= UINT32_MAX; }
static inline bool nccc_slot_fits_i16(uint64_t s) {
  return nccc_slot_from_i16(nccc_slot_to_i16(s)) == s;
}
static inline bool nccc_slot_fits_u16(uint64_t s) { return s <= UINT16_MAX; }
static inline bool nccc_slot_fits_i8(uint64_t s) {
  return nccc_slot_from_i8(nccc_slot_to_i8(s)) == s;
}
static inline bool nccc_slot_fits_u8(uint64_t s) { return s <= UINT8_MAX; }
static inline bool nccc_slot_fits_bool(uint64_t s) { return s <= 1u; }

/* ---- pointers ------------------------------------------------------ */

static inline uint64_t nccc_slot_from_ptr(const void *p) {
  return (uint64_t)(uintptr_t)p;
}
static inline void *nccc_slot_to_ptr(uint64_t s) { return (void *)(uintptr_t)s; }
/* A slot holds a pointer of this target only if no bit above its width is set. */
static inline bool nccc_slot_fits_ptr(uint64_t s) {
  return (uint64_t)(uintptr_t)s == s;
}

/* ---- floating point ------------------------------------------------ */

static inline uint64_t nccc_slot_from_double(double v) {
  uint64_t s;
  memcpy(&s, &v, sizeof s);
  return s;
}
static inline double nccc_slot_to_double(uint64_t s) {
  double v;
  memcpy(&v, &s, sizeof v);
  return v;
}

/*
** float <-> slot by bits, not by the FPU: a hardware float->double
** conversion quiets a signalling NaN, and soft-float libraries differ in
** what they do with payloads. Widening by bits keeps sign, exponent and
** all 23 fraction bits of every float, NaNs included, which is exactly
** what the FPU gives for every non-NaN value.
*/
static inline uint64_t nccc_slot_from_float(float v) {
  uint32_t f;
  memcpy(&f, &v, sizeof f);
  if ((f & 0x7f800000u) == 0x7f800000u && (f & 0x007fffffu) != 0) {
    return ((uint64_t)(f & 0x80000000u) << 32) | 0x7ff0000000000000u |
           ((uint64_t)(f & 0x007fffffu) << 29);
  }
  return nccc_slot_from_double((double)v);
}
static inline float nccc_slot_to_float(uint64_t s) {
  if ((s & 0x7ff0000000000000u) == 0x7ff0000000000000u &&
      (s & 0x000fffffffffffffu) != 0) {
    /* NaN: keep sign and the top 23 fraction bits; a payload that lived
    ** only in the low bits would read as infinity, so force it quiet. */
    uint32_t frac = (uint32_t)((s >> 29) & 0x007fffffu);
    uint32_t f = (uint32_t)((s >> 32) & 0x80000000u) | 0x7f800000u |
                 (frac != 0 ? frac : 0x00400000u);
    float v;
    memcpy(&v, &f, sizeof v);
    return v;
  }
  return (float)nccc_slot_to_double(s);
}

/* ---- bytes (structs and unions by value) --------------------------- */

/* Copies an object of n bytes into NCCC_SLOTS(n) slots, zero-padding the
** last one, so every bit of every slot is defined. */
static inline void nccc_slots_from_bytes(uint64_t *slots, const void *obj,
                                         size_t n) {
  if (n == 0) return;
  slots[NCCC_SLOTS(n) - 1] = 0;
  memcpy(slots, obj, n);
}
static inline void nccc_slots_to_bytes(void *obj, const uint64_t *slots,
                                       size_t n) {
  memcpy(obj, slots, n);
}

/* ---- signature type codes that depend on the target ---------------- */

#if CHAR_MIN < 0
#define NCCC_SIG_CHAR "b"
#else
#define NCCC_SIG_CHAR "B"
#endif
#if LONG_MAX > 0x7fffffffL
#define NCCC_SIG_LONG "l"
#define NCCC_SIG_ULONG "L"
#else
#define NCCC_SIG_LONG "i"
#define NCCC_SIG_ULONG "I"
#endif
#if SIZE_MAX > 0xffffffffu
#define NCCC_SIG_SIZE "L"
#define NCCC_SIG_SSIZE "l"
#else
#define NCCC_SIG_SIZE "I"
#define NCCC_SIG_SSIZE "i"
#endif
#if UINTPTR_MAX > 0xffffffffu
#define NCCC_SIG_UINTPTR "L"
#define NCCC_SIG_INTPTR "l"
#else
#define NCCC_SIG_UINTPTR "I"
#define NCCC_SIG_INTPTR "i"
#endif

#endif
