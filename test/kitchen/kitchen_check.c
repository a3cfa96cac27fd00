/*
** kitchen_check.c — every function of idl/examples/tour.idl (every type,
** annotation and shim of the IDL) and of edges.idl, called the way a host
** calls them: through the runtime, by "MODULE.NAME", with checked calls of
** exactly the documented slot counts. Each result is asserted slot for
** slot, bit for bit, at the edges of its type.
*/
#define _POSIX_C_SOURCE 200809L /* SSIZE_MAX */

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <nccc/nccc.h>

#include "edges_nccc.h"
#include "tour_nccc.h"
#include "nccc_check.h"

/* ---- the C types of the two IDL files (their generated headers do not
** declare them) -------------------------------------------------------- */

struct point { int x; int y; };
typedef struct { double re, im; } complex_t;
union number { int64_t i; double d; unsigned char bytes[8]; };
struct record {
  char name[16];
  const char *label;
  int *items;
  size_t count;
  struct point where;
  void (*hook)(int);
};
enum color { RED, GREEN = 5, BLUE };
enum { FLAG_A = 1, FLAG_B = FLAG_A << 1, FLAG_AB = FLAG_A | FLAG_B };
typedef int (*binop)(int, int);
long negate_impl(long x); /* tour_impl.c: reached only through the shim */

struct triple { int32_t a, b, c; };
struct rgb { uint8_t r, g, b; };
union half { uint16_t h[2]; uint8_t b[4]; };

/* ---- the documented signatures and slot counts --------------------------- */

#define C NCCC_SIG_CHAR
#define LG NCCC_SIG_LONG
#define UL NCCC_SIG_ULONG
#define SZ NCCC_SIG_SIZE
#define SSZ NCCC_SIG_SSIZE
#define IP NCCC_SIG_INTPTR
#define UP NCCC_SIG_UINTPTR
#define PT NCCC_SLOTS(sizeof(struct point))
#define CX NCCC_SLOTS(sizeof(complex_t))
#define NB NCCC_SLOTS(sizeof(union number))
#define TR NCCC_SLOTS(sizeof(struct triple))
#define RG NCCC_SLOTS(sizeof(struct rgb))
#define HF NCCC_SLOTS(sizeof(union half))

typedef struct sig {
  const char *name, *signature;
  size_t n_in, n_out;
} sig;

static const sig sigs[] = {
    {"tour.echo_char", C ":" C, 1, 1},
    {"tour.echo_schar", "b:b", 1, 1},
    {"tour.echo_uchar", "B:B", 1, 1},
    {"tour.echo_short", "h:h", 1, 1},
    {"tour.echo_ushort", "H:H", 1, 1},
    {"tour.echo_int", "i:i", 1, 1},
    {"tour.echo_uint", "I:I", 1, 1},
    {"tour.echo_long", LG ":" LG, 1, 1},
    {"tour.echo_ulong", UL ":" UL, 1, 1},
    {"tour.echo_llong", "l:l", 1, 1},
    {"tour.echo_ullong", "L:L", 1, 1},
    {"tour.echo_i8", "b:b", 1, 1},
    {"tour.echo_u8", "B:B", 1, 1},
    {"tour.echo_i16", "h:h", 1, 1},
    {"tour.echo_u16", "H:H", 1, 1},
    {"tour.echo_i32", "i:i", 1, 1},
    {"tour.echo_u32", "I:I", 1, 1},
    {"tour.echo_i64", "l:l", 1, 1},
    {"tour.echo_u64", "L:L", 1, 1},
    {"tour.echo_size", SZ ":" SZ, 1, 1},
    {"tour.echo_ssize", SSZ ":" SSZ, 1, 1},
    {"tour.echo_intptr", IP ":" IP, 1, 1},
    {"tour.echo_uintptr", UP ":" UP, 1, 1},
    {"tour.echo_ptrdiff", IP ":" IP, 1, 1},
    {"tour.echo_bool", "?:?", 1, 1},
    {"tour.echo_float", "f:f", 1, 1},
    {"tour.echo_double", "d:d", 1, 1},
    {"tour.echo_color", "i:i", 1, 1},
    {"tour.echo_ulong_t", UL ":" UL, 1, 1},
    {"tour.add", "ll:l", 2, 1},
    {"tour.mix", "bHfdl" C ":d", 6, 1},
    {"tour.nothing", ":", 0, 0},
    {"tour.midpoint", "{point}{point}:{point}", 2 * PT, PT},
    {"tour.cmul", "{complex_t}{complex_t}:{complex_t}", 2 * CX, CX},
    {"tour.as_number", "d:{number}", 1, NB},
    {"tour.point_sum", "i{point}i:l", 2 + PT, 1},
    {"tour.divmod", "ii:ii", 2, 2},
    {"tour.bump", "ii:i", 2, 1},
    {"tour.move_point", "{point}i:{point}{point}", PT + 1, 2 * PT},
    {"tour.parse_int", "s:is", 1, 2},
    {"tour.text_length", "s:" SZ, 1, 1},
    {"tour.sum_ints", "p" SZ ":i", 2, 1},
    {"tour.dot3", "pp:d", 2, 1},
    {"tour.count_args", "p:i", 1, 1},
    {"tour.join", "ss:p", 2, 1},
    {"tour.release", "p:", 1, 0},
    {"tour.counter_new", "i:p", 1, 1},
    {"tour.counter_next", "p:i", 1, 1},
    {"tour.counter_free", "p:", 1, 0},
    {"tour.name_of_color", "i:s", 1, 1},
    {"tour.checked_div", "ii:ie", 2, 2},
    {"tour.pick_op", C ":F", 1, 1},
    {"tour.apply", "Fii:i", 3, 1},
    {"tour.negate", "F" LG ":" LG, 2, 1},
    {"tour.format_int", "p" SZ "si:i", 4, 1},
    {"tour.format_double", "p" SZ "sdf:i", 5, 1},
    {"tour.parse_long", "si:" LG "e", 2, 2},
    {"edges.triple_make", "iii:{triple}", 3, TR},
    {"edges.rgb_invert", "{rgb}:{rgb}", RG, RG},
    {"edges.half_of", "HH:{half}", 2, HF},
    {"edges.weigh", "B{triple}{rgb}b:l", 2 + TR + RG, 1},
    {"edges.spread", "i{triple}:ii{triple}{rgb}Be", 1 + TR, 4 + TR + RG},
    {"edges.float_outs", "fd:fd", 2, 2},
    {"edges.leave_errno", "i:ie", 1, 2},
    {"edges.raise_errno", "i:ie", 1, 2},
    {"edges.nonnull_sum", "spps:isie", 4, 4},
    {"edges.nonnull_calls", ":i", 0, 1},
    {"edges.nonnull_visit", "pc:i", 2, 1},
};
#define N_SIGS (sizeof sigs / sizeof sigs[0])
#define N_TOUR 57
#define N_EDGES 11

#define SENTINEL 0xA5A5A5A5A5A5A5A5u

static const sig *sig_of(const char *name) {
  size_t i;
  for (i = 0; i < N_SIGS; i++) {
    if (strcmp(sigs[i].name, name) == 0) return &sigs[i];
  }
  ck_abort_msg("%s is not in the signature table", name);
  return NULL;
}

/* Calls name through a checked call of n_in / n_out slots, which must be
** the documented counts; the registry must agree with the table. errno
** is 123 at the call and out[] full of SENTINEL. */
static void call(const char *name, const uint64_t *in, size_t n_in,
                 uint64_t *out, size_t n_out) {
  const sig *s = sig_of(name);
  nccc_handle h;
  size_t i;
  ck_assert_msg(n_in == s->n_in && n_out == s->n_out,
                "%s: the test passes %zu/%zu slots, documented %zu/%zu",
                name, n_in, n_out, s->n_in, s->n_out);
  h = nccc_check_find(name, s->signature, n_in, n_out);
  for (i = 0; i < n_out; i++) out[i] = SENTINEL;
  errno = 123;
  nccc_check_call_checked(h, name, in, n_in, out, n_out);
}

static void echo(const char *name, uint64_t in_slot, uint64_t want) {
  uint64_t in[1], out[1];
  in[0] = in_slot;
  call(name, in, 1, out, 1);
  ck_assert_msg(out[0] == want,
                "%s(0x%016" PRIx64 ") = 0x%016" PRIx64 ", want 0x%016" PRIx64,
                name, in_slot, out[0], want);
}

/* Checks that slot holds a pointer to the string want. strcmp is called
** through a volatile pointer: GCC 12 at -O2 otherwise takes a string
** reached through an integer slot to lie inside the (escaped) out buffer,
** and folds a comparison with a longer literal to "different". */
static int (*volatile str_compare)(const char *, const char *) = strcmp;

static void expect_string(uint64_t slot, const char *want) {
  const char *s = nccc_slot_to_ptr(slot);
  ck_assert_ptr_nonnull(s);
  ck_assert_msg(str_compare(s, want) == 0, "\"%s\", want \"%s\"", s, want);
}

static uint64_t float_slot_of_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return nccc_slot_from_float(f);
}

/* The byte at position i (memory order) of a slot buffer. */
static unsigned byte_at(const uint64_t *slots, size_t i) {
  unsigned char b;
  memcpy(&b, (const unsigned char *)slots + i, 1);
  return b;
}

static const nccc_module *module(const char *name) {
  uint16_t index = 0;
  ck_assert_int_eq(nccc_module_find(name, &index), NCCC_OK);
  return nccc_module_at(index);
}

static const nccc_type_layout *layout(const nccc_module *m, const char *n) {
  uint16_t i;
  for (i = 0; i < m->n_types; i++) {
    if (strcmp(m->types[i].name, n) == 0) return &m->types[i];
  }
  ck_abort_msg("no type %s in module %s", n, m->name);
  return NULL;
}

static void setup(void) {
  nccc_check_init(nccc_tour_register);
  ck_assert_int_eq(nccc_edges_register(), NCCC_OK);
}

/* ---- registry and signatures ------------------------------------------------ */

START_TEST(test_registry_holds_the_documented_functions) {
  const nccc_module *tour = module("tour"), *edges = module("edges");
  uint16_t i;
  char full[64];
  ck_assert_ptr_eq(tour, &nccc_tour_module);
  ck_assert_ptr_eq(edges, &nccc_edges_module);
  ck_assert_uint_eq(nccc_registry_count(tour->registry), N_TOUR);
  ck_assert_uint_eq(nccc_registry_count(edges->registry), N_EDGES);
  ck_assert_uint_eq(N_SIGS, N_TOUR + N_EDGES);
  /* every function of the registry is in the table, with its signature
  ** and counts, and is found by name at its own index */
  for (i = 0; i < N_TOUR + N_EDGES; i++) {
    const nccc_module *m = i < N_TOUR ? tour : edges;
    uint16_t index = (uint16_t)(i < N_TOUR ? i : i - N_TOUR), found = 0;
    const nccc_fn_info *info;
    const char *name;
    const sig *s;
    ck_assert_int_eq(nccc_registry_get(m->registry, index, NULL, &info, &name),
                     NCCC_OK);
    snprintf(full, sizeof full, "%s.%s", m->name, name);
    s = sig_of(full);
    ck_assert_str_eq(info->signature, s->signature);
    ck_assert_uint_eq(info->n_in, s->n_in);
    ck_assert_uint_eq(info->n_out, s->n_out);
    ck_assert_int_eq(nccc_registry_lookup(m->registry, name, &found), NCCC_OK);
    ck_assert_uint_eq(found, index);
  }
}
END_TEST

START_TEST(test_signatures_on_this_target) {
  /* the target-dependent codes spelled out for LP64 Linux */
#if LONG_MAX == 0x7fffffffffffffffL && CHAR_MIN < 0
  ck_assert_str_eq(sig_of("tour.mix")->signature, "bHfdlb:d");
  ck_assert_str_eq(sig_of("tour.parse_long")->signature, "si:le");
  ck_assert_str_eq(sig_of("tour.negate")->signature, "Fl:l");
  ck_assert_str_eq(sig_of("tour.format_double")->signature, "pLsdf:i");
  ck_assert_str_eq(sig_of("tour.echo_size")->signature, "L:L");
  ck_assert_str_eq(sig_of("tour.echo_ssize")->signature, "l:l");
#endif
  ck_assert_uint_eq(sig_of("tour.midpoint")->n_in, 2);
  ck_assert_uint_eq(sig_of("tour.cmul")->n_in, 4);
  ck_assert_uint_eq(sig_of("tour.cmul")->n_out, 2);
  ck_assert_uint_eq(sig_of("tour.move_point")->n_out, 2);
  ck_assert_uint_eq(sig_of("edges.spread")->n_in, 3);
  ck_assert_uint_eq(sig_of("edges.spread")->n_out, 7);
  ck_assert_uint_eq(sig_of("edges.weigh")->n_in, 5);
}
END_TEST

START_TEST(test_renamed_function_under_its_new_name_only) {
  nccc_handle h = 0;
  uint64_t in[1], out[1];
  const char *name = NULL;
  ck_assert_int_eq(nccc_lookup("tour.color_name", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(h, 0);
  ck_assert_int_eq(
      nccc_function(nccc_check_lookup("tour.name_of_color"), NULL, NULL, &name),
      NCCC_OK);
  ck_assert_str_eq(name, "name_of_color");
  in[0] = nccc_slot_from_i32(GREEN);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "green");
  in[0] = nccc_slot_from_i32(RED);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "red");
  in[0] = nccc_slot_from_i32(BLUE);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "blue");
  in[0] = nccc_slot_from_i32(-1);
  call("tour.name_of_color", in, 1, out, 1);
  expect_string(out[0], "?");
  /* prototypes and instantiations: the variadic one is not a function */
  ck_assert_int_eq(nccc_lookup("tour.snprintf", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_lookup("tour.negate_impl", &h), NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

START_TEST(test_checked_calls_refuse_other_counts) {
  size_t i;
  uint64_t in[16], out[16];
  memset(in, 0, sizeof in);
  for (i = 0; i < N_SIGS; i++) {
    const sig *s = &sigs[i];
    nccc_handle h = nccc_check_lookup(s->name);
    size_t k;
    for (k = 0; k < 16; k++) out[k] = SENTINEL;
    ck_assert_int_eq(nccc_call_checked(h, in, s->n_in + 1, out, s->n_out),
                     NCCC_ERR_NUM_ARGUMENTS);
    ck_assert_int_eq(nccc_call_checked(h, in, s->n_in, out, s->n_out + 1),
                     NCCC_ERR_NUM_ARGUMENTS);
    if (s->n_in > 0) {
      ck_assert_int_eq(nccc_call_checked(h, in, s->n_in - 1, out, s->n_out),
                       NCCC_ERR_NUM_ARGUMENTS);
      /* a NULL buffer with slots in it */
      ck_assert_int_eq(nccc_call_checked(h, NULL, s->n_in, out, s->n_out),
                       NCCC_ERR_NULL_POINTER);
    }
    if (s->n_out > 0) {
      ck_assert_int_eq(nccc_call_checked(h, in, s->n_in, out, s->n_out - 1),
                       NCCC_ERR_NUM_ARGUMENTS);
      ck_assert_int_eq(nccc_call_checked(h, in, s->n_in, NULL, s->n_out),
                       NCCC_ERR_NULL_POINTER);
    }
    /* nothing was called */
    for (k = 0; k < 16; k++) ck_assert_uint_eq(out[k], SENTINEL);
  }
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  /* no slots: NULL buffers are fine */
  ck_assert_int_eq(
      nccc_call_checked(nccc_check_lookup("tour.nothing"), NULL, 0, NULL, 0),
      NCCC_OK);
  /* handles that name no function */
  ck_assert_int_eq(nccc_call_checked(0, in, 0, out, 0), NCCC_ERR_BAD_HANDLE);
  {
    uint16_t index = 0;
    ck_assert_int_eq(nccc_module_find("tour", &index), NCCC_OK);
    ck_assert_int_eq(nccc_call_checked(nccc_handle_encode(index, N_TOUR), in,
                                       0, out, 0), NCCC_ERR_BAD_HANDLE);
  }
}
END_TEST

/* ---- scalars ----------------------------------------------------------------- */

START_TEST(test_echo_signed_integers) {
  /* sign-extended to 64 bits */
  echo("tour.echo_schar", nccc_slot_from_i8(SCHAR_MIN), 0xffffffffffffff80u);
  echo("tour.echo_schar", SCHAR_MAX, 0x7f);
  echo("tour.echo_schar", nccc_slot_from_i8(-1), 0xffffffffffffffffu);
  echo("tour.echo_schar", 0, 0);
  echo("tour.echo_short", nccc_slot_from_i16(SHRT_MIN), 0xffffffffffff8000u);
  echo("tour.echo_short", SHRT_MAX, 0x7fff);
  echo("tour.echo_short", nccc_slot_from_i16(-1), 0xffffffffffffffffu);
  echo("tour.echo_short", 0, 0);
  echo("tour.echo_int", nccc_slot_from_i32(INT_MIN), 0xffffffff80000000u);
  echo("tour.echo_int", INT_MAX, 0x7fffffff);
  echo("tour.echo_int", nccc_slot_from_i32(-1), 0xffffffffffffffffu);
  echo("tour.echo_int", 0, 0);
  echo("tour.echo_llong", nccc_slot_from_i64(LLONG_MIN), 0x8000000000000000u);
  echo("tour.echo_llong", LLONG_MAX, 0x7fffffffffffffffu);
  echo("tour.echo_llong", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_llong", 0, 0);
  echo("tour.echo_i8", nccc_slot_from_i8(INT8_MIN), 0xffffffffffffff80u);
  echo("tour.echo_i8", INT8_MAX, 0x7f);
  echo("tour.echo_i8", nccc_slot_from_i8(-1), 0xffffffffffffffffu);
  echo("tour.echo_i8", 0, 0);
  echo("tour.echo_i16", nccc_slot_from_i16(INT16_MIN), 0xffffffffffff8000u);
  echo("tour.echo_i16", INT16_MAX, 0x7fff);
  echo("tour.echo_i16", nccc_slot_from_i16(-1), 0xffffffffffffffffu);
  echo("tour.echo_i16", 0, 0);
  echo("tour.echo_i32", nccc_slot_from_i32(INT32_MIN), 0xffffffff80000000u);
  echo("tour.echo_i32", INT32_MAX, 0x7fffffff);
  echo("tour.echo_i32", nccc_slot_from_i32(-1), 0xffffffffffffffffu);
  echo("tour.echo_i32", 0, 0);
  echo("tour.echo_i64", nccc_slot_from_i64(INT64_MIN), 0x8000000000000000u);
  echo("tour.echo_i64", INT64_MAX, 0x7fffffffffffffffu);
  echo("tour.echo_i64", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_i64", 0, 0);
}
END_TEST

START_TEST(test_echo_unsigned_integers) {
  /* zero-extended */
  echo("tour.echo_uchar", UCHAR_MAX, 0xff);
  echo("tour.echo_uchar", 0x80, 0x80);
  echo("tour.echo_uchar", 0, 0);
  echo("tour.echo_ushort", USHRT_MAX, 0xffff);
  echo("tour.echo_ushort", 0x8000, 0x8000);
  echo("tour.echo_ushort", 0, 0);
  echo("tour.echo_uint", UINT_MAX, 0xffffffffu);
  echo("tour.echo_uint", 0x80000000u, 0x80000000u);
  echo("tour.echo_uint", 0, 0);
  echo("tour.echo_ullong", ULLONG_MAX, 0xffffffffffffffffu);
  echo("tour.echo_ullong", 0x8000000000000000u, 0x8000000000000000u);
  echo("tour.echo_ullong", 0, 0);
  echo("tour.echo_u8", UINT8_MAX, 0xff);
  echo("tour.echo_u8", 0, 0);
  echo("tour.echo_u16", UINT16_MAX, 0xffff);
  echo("tour.echo_u16", 0, 0);
  echo("tour.echo_u32", UINT32_MAX, 0xffffffffu);
  echo("tour.echo_u32", 0, 0);
  echo("tour.echo_u64", UINT64_MAX, 0xffffffffffffffffu);
  echo("tour.echo_u64", 0, 0);
}
END_TEST

START_TEST(test_echo_target_dependent_integers) {
  /* char: its signedness decides the extension */
  echo("tour.echo_char", nccc_slot_from_i64(CHAR_MIN),
       CHAR_MIN < 0 ? 0xffffffffffffff80u : 0);
  echo("tour.echo_char", (uint64_t)CHAR_MAX, CHAR_MIN < 0 ? 0x7fu : 0xffu);
  echo("tour.echo_char", nccc_slot_from_i64((char)-1),
       CHAR_MIN < 0 ? 0xffffffffffffffffu : 0xffu);
  echo("tour.echo_char", 'A', 0x41);
  echo("tour.echo_long", nccc_slot_from_i64(LONG_MIN),
       LONG_MAX > 0x7fffffffL ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_long", (uint64_t)LONG_MAX,
       LONG_MAX > 0x7fffffffL ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_long", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_long", 0, 0);
  echo("tour.echo_ulong", ULONG_MAX,
       LONG_MAX > 0x7fffffffL ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_ulong", 0, 0);
  echo("tour.echo_ulong_t", ULONG_MAX,
       LONG_MAX > 0x7fffffffL ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_ulong_t", 0, 0);
  echo("tour.echo_size", SIZE_MAX,
       SIZE_MAX > 0xffffffffu ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_size", 0, 0);
  echo("tour.echo_ssize", nccc_slot_from_i64(-SSIZE_MAX - 1),
       SIZE_MAX > 0xffffffffu ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_ssize", (uint64_t)SSIZE_MAX,
       SIZE_MAX > 0xffffffffu ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_ssize", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_ssize", 0, 0);
  echo("tour.echo_intptr", nccc_slot_from_i64(INTPTR_MIN),
       UINTPTR_MAX > 0xffffffffu ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_intptr", (uint64_t)INTPTR_MAX,
       UINTPTR_MAX > 0xffffffffu ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_intptr", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_intptr", 0, 0);
  echo("tour.echo_uintptr", UINTPTR_MAX,
       UINTPTR_MAX > 0xffffffffu ? 0xffffffffffffffffu : 0xffffffffu);
  echo("tour.echo_uintptr", 0, 0);
  echo("tour.echo_ptrdiff", nccc_slot_from_i64(PTRDIFF_MIN),
       UINTPTR_MAX > 0xffffffffu ? 0x8000000000000000u : 0xffffffff80000000u);
  echo("tour.echo_ptrdiff", (uint64_t)PTRDIFF_MAX,
       UINTPTR_MAX > 0xffffffffu ? 0x7fffffffffffffffu : 0x7fffffffu);
  echo("tour.echo_ptrdiff", nccc_slot_from_i64(-1), 0xffffffffffffffffu);
  echo("tour.echo_ptrdiff", 0, 0);
}
END_TEST

START_TEST(test_narrow_types_take_the_low_bits_of_a_slot) {
  /* a slot that is not what the forward conversion gives: the wrapper
  ** keeps the low bits, and the result slot is well formed again */
  echo("tour.echo_uchar", 0x1ff, 0xff);
  echo("tour.echo_uchar", 0xffffffffffffffffu, 0xff);
  echo("tour.echo_schar", 0x80, 0xffffffffffffff80u);
  echo("tour.echo_schar", 0xffffffffffffff7fu, 0x7f);
  echo("tour.echo_short", 0x12348000u, 0xffffffffffff8000u);
  echo("tour.echo_ushort", 0xffffffff0001u, 1);
  echo("tour.echo_int", 0x80000000u, 0xffffffff80000000u);
  echo("tour.echo_int", 0x100000005u, 5);
  echo("tour.echo_uint", 0xffffffff00000001u, 1);
  echo("tour.echo_i8", 0x180, 0xffffffffffffff80u);
  echo("tour.echo_u16", 0x10000, 0);
  echo("tour.echo_i32", 0xfedcba9876543210u, 0x76543210u);
}
END_TEST

START_TEST(test_echo_bool) {
  echo("tour.echo_bool", 0, 0);
  echo("tour.echo_bool", 1, 1);
  /* any other slot converts like C's conversion to _Bool
  ** (nccc_slot_to_bool): non-zero is true, and true comes back as 1 */
  echo("tour.echo_bool", 2, 1);
  echo("tour.echo_bool", 0x8000000000000000u, 1);
}
END_TEST

START_TEST(test_echo_float) {
  /* widened to double, by bits for NaNs */
  echo("tour.echo_float", nccc_slot_from_float(-1.5f), 0xbff8000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(0.0f), 0);
  echo("tour.echo_float", nccc_slot_from_float(-0.0f), 0x8000000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(FLT_MAX), 0x47efffffe0000000u);
  echo("tour.echo_float", nccc_slot_from_float(-FLT_MAX), 0xc7efffffe0000000u);
  echo("tour.echo_float", nccc_slot_from_float(FLT_MIN), 0x3810000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(FLT_TRUE_MIN),
       0x36a0000000000000u);
  echo("tour.echo_float", float_slot_of_bits(0x807fffffu), /* denormal */
       0xb80fffffc0000000u);
  echo("tour.echo_float", nccc_slot_from_float(INFINITY), 0x7ff0000000000000u);
  echo("tour.echo_float", nccc_slot_from_float(-INFINITY), 0xfff0000000000000u);
  /* NaNs: quiet with a payload, negative, signalling: all bits survive */
  echo("tour.echo_float", float_slot_of_bits(0x7fc01234u), 0x7ff8024680000000u);
  echo("tour.echo_float", float_slot_of_bits(0xffc00000u), 0xfff8000000000000u);
  echo("tour.echo_float", float_slot_of_bits(0x7f800001u), 0x7ff0000020000000u);
  echo("tour.echo_float", float_slot_of_bits(0x7fbfffffu), 0x7ff7ffffe0000000u);
  /* a double slot that is no float: rounded to float */
  echo("tour.echo_float", nccc_slot_from_double(0.1), 0x3fb99999a0000000u);
  echo("tour.echo_float", nccc_slot_from_double(1e300), 0x7ff0000000000000u);
  echo("tour.echo_float", nccc_slot_from_double(-1e-300), 0x8000000000000000u);
  /* a NaN whose payload lies below float's 23 bits stays a (quiet) NaN */
  echo("tour.echo_float", 0x7ff0000000000001u, 0x7ff8000000000000u);
}
END_TEST

START_TEST(test_echo_double) {
  echo("tour.echo_double", nccc_slot_from_double(-0.0), 0x8000000000000000u);
  echo("tour.echo_double", 0, 0);
  echo("tour.echo_double", nccc_slot_from_double(DBL_MAX), 0x7fefffffffffffffu);
  echo("tour.echo_double", nccc_slot_from_double(DBL_MIN), 0x0010000000000000u);
  echo("tour.echo_double", 1, 1); /* 2^-1074, the smallest denormal */
  echo("tour.echo_double", 0x800fffffffffffffu, 0x800fffffffffffffu);
  echo("tour.echo_double", 0x7ff0000000000000u, 0x7ff0000000000000u);
  echo("tour.echo_double", 0xfff0000000000000u, 0xfff0000000000000u);
  echo("tour.echo_double", 0x7ff8000000000123u, 0x7ff8000000000123u);
  echo("tour.echo_double", 0xfff8000000000000u, 0xfff8000000000000u);
  echo("tour.echo_double", 0x7ff0000000000001u, 0x7ff0000000000001u);
  echo("tour.echo_double", 0x7ff7ffffffffffffu, 0x7ff7ffffffffffffu);
}
END_TEST

START_TEST(test_echo_enum) {
  echo("tour.echo_color", RED, 0);
  echo("tour.echo_color", GREEN, 5);
  echo("tour.echo_color", BLUE, 6);
  echo("tour.echo_color", 7, 7);
  /* values that are no enumerator still travel as a sign-extended int */
  echo("tour.echo_color", nccc_slot_from_i32(-1), 0xffffffffffffffffu);
  echo("tour.echo_color", nccc_slot_from_i32(INT_MIN), 0xffffffff80000000u);
  echo("tour.echo_color", INT_MAX, 0x7fffffff);
}
END_TEST

START_TEST(test_add_mix_nothing) {
  uint64_t in[6], out[1];
  in[0] = nccc_slot_from_i64(-40);
  in[1] = nccc_slot_from_i64(-2);
  call("tour.add", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffd6u);
  in[0] = nccc_slot_from_i64(INT64_MAX);
  in[1] = nccc_slot_from_i64(INT64_MIN);
  call("tour.add", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);

  /* six types in one call, each converted from its own slot */
  in[0] = nccc_slot_from_i8(-128);
  in[1] = 0xffff;
  in[2] = nccc_slot_from_float(0.5f);
  in[3] = nccc_slot_from_double(-0.25);
  in[4] = nccc_slot_from_i64(-1000000);
  in[5] = nccc_slot_from_i64(CHAR_MIN);
  call("tour.mix", in, 6, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_double(CHAR_MIN < 0 ? -934720.75
                                                              : -934592.75));
  /* the same with the narrow slots carrying high garbage */
  in[0] = 0xabcdef80u;
  in[1] = 0x5550000ffffu;
  call("tour.mix", in, 6, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_double(CHAR_MIN < 0 ? -934720.75
                                                              : -934592.75));

  out[0] = SENTINEL;
  call("tour.nothing", NULL, 0, out, 0);
  ck_assert_uint_eq(out[0], SENTINEL);
}
END_TEST

/* ---- structs and unions by value -------------------------------------------- */

START_TEST(test_structs_by_value) {
  const nccc_module *m = module("tour");
  const nccc_type_layout *pl = layout(m, "point"), *cl = layout(m, "complex_t");
  struct point a = {-10, 7}, b = {4, -20}, want_p = {-3, -6};
  complex_t x = {1, 2}, y = {3, 4}, want_c = {-5, 10};
  uint64_t in[8], out[4], want[4];
  int32_t field;
  double d;

  nccc_slots_from_bytes(in, &a, sizeof a);
  nccc_slots_from_bytes(in + PT, &b, sizeof b);
  call("tour.midpoint", in, 2 * PT, out, PT);
  nccc_slots_from_bytes(want, &want_p, sizeof want_p);
  ck_assert_mem_eq(out, want, PT * 8);
  /* a host reads the fields at the layout table's offsets */
  memcpy(&field, (const char *)out + pl->fields[0].offset, sizeof field);
  ck_assert_int_eq(field, -3);
  memcpy(&field, (const char *)out + pl->fields[1].offset, sizeof field);
  ck_assert_int_eq(field, -6);

  a.x = INT_MAX;
  a.y = INT_MIN;
  b.x = -1;
  b.y = 1;
  nccc_slots_from_bytes(in, &a, sizeof a);
  nccc_slots_from_bytes(in + PT, &b, sizeof b);
  call("tour.midpoint", in, 2 * PT, out, PT);
  want_p.x = (INT_MAX - 1) / 2;
  want_p.y = (INT_MIN + 1) / 2;
  nccc_slots_from_bytes(want, &want_p, sizeof want_p);
  ck_assert_mem_eq(out, want, PT * 8);

  nccc_slots_from_bytes(in, &x, sizeof x);
  nccc_slots_from_bytes(in + CX, &y, sizeof y);
  call("tour.cmul", in, 2 * CX, out, CX);
  nccc_slots_from_bytes(want, &want_c, sizeof want_c);
  ck_assert_mem_eq(out, want, CX * 8);
  memcpy(&d, (const char *)out + cl->fields[1].offset, sizeof d);
  ck_assert(d == 10.0);
  /* (-0 + 0i)(1 + 0i) = -0 + 0i: the signs of zero travel */
  x.re = -0.0;
  x.im = 0.0;
  y.re = 1.0;
  y.im = 0.0;
  nccc_slots_from_bytes(in, &x, sizeof x);
  nccc_slots_from_bytes(in + CX, &y, sizeof y);
  call("tour.cmul", in, 2 * CX, out, CX);
  ck_assert_uint_eq(out[0], 0x8000000000000000u);
  ck_assert_uint_eq(out[1], 0);

  /* a union: its 8 bytes in one slot */
  in[0] = nccc_slot_from_double(-0.0);
  call("tour.as_number", in, 1, out, NB);
  ck_assert_uint_eq(out[0], 0x8000000000000000u);
  in[0] = 0x7ff8000000000123u;
  call("tour.as_number", in, 1, out, NB);
  ck_assert_uint_eq(out[0], 0x7ff8000000000123u);
  in[0] = nccc_slot_from_double(1.0);
  call("tour.as_number", in, 1, out, NB);
  ck_assert_uint_eq(out[0], 0x3ff0000000000000u);

  /* the slot after a struct: in[0] bias, in[1..PT] p, in[1+PT] scale */
  a.x = 1;
  a.y = 2;
  in[0] = nccc_slot_from_i32(INT_MIN);
  nccc_slots_from_bytes(in + 1, &a, sizeof a);
  in[1 + PT] = nccc_slot_from_i32(-1);
  call("tour.point_sum", in, 2 + PT, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffff7ffffffdu); /* INT_MIN - 3 */
  in[0] = nccc_slot_from_i32(100);
  a.x = 2;
  a.y = 10;
  nccc_slots_from_bytes(in + 1, &a, sizeof a);
  in[1 + PT] = nccc_slot_from_i32(3);
  call("tour.point_sum", in, 2 + PT, out, 1);
  ck_assert_uint_eq(out[0], 136);
}
END_TEST

START_TEST(test_records_that_leave_part_of_a_slot) {
  struct triple t = {INT32_MIN, -1, INT32_MAX}, t2;
  struct rgb c = {0, 128, 255}, c2;
  uint64_t in[8], out[8], want[4];
  size_t i;

  /* 12 bytes: two slots, the last 4 bytes of the second zero */
  in[0] = nccc_slot_from_i32(t.a);
  in[1] = nccc_slot_from_i32(t.b);
  in[2] = nccc_slot_from_i32(t.c);
  out[2] = SENTINEL;
  call("edges.triple_make", in, 3, out, TR);
  ck_assert_uint_eq(TR, 2);
  nccc_slots_from_bytes(want, &t, sizeof t);
  ck_assert_mem_eq(out, want, 16);
  for (i = 12; i < 16; i++) ck_assert_uint_eq(byte_at(out, i), 0);
  ck_assert_uint_eq(out[2], SENTINEL); /* nothing past the record */
  memcpy(&t2, out, sizeof t2);
  ck_assert_int_eq(t2.a, INT32_MIN);
  ck_assert_int_eq(t2.b, -1);
  ck_assert_int_eq(t2.c, INT32_MAX);

  /* 3 bytes in one slot; the wrapper reads only those 3 bytes of the in
  ** slot, whatever the other 5 hold, and zeroes them in the out slot */
  in[0] = 0xA5A5A5A5A5A5A5A5u;
  memcpy(in, &c, sizeof c);
  call("edges.rgb_invert", in, RG, out, RG);
  memcpy(&c2, out, sizeof c2);
  ck_assert_uint_eq(c2.r, 255);
  ck_assert_uint_eq(c2.g, 127);
  ck_assert_uint_eq(c2.b, 0);
  for (i = 3; i < 8; i++) ck_assert_uint_eq(byte_at(out, i), 0);

  /* a 4-byte union */
  in[0] = 0x1234;
  in[1] = 0xffff;
  call("edges.half_of", in, 2, out, HF);
  {
    union half h;
    memcpy(&h, out, sizeof h);
    ck_assert_uint_eq(h.h[0], 0x1234);
    ck_assert_uint_eq(h.h[1], 0xffff);
  }
  for (i = 4; i < 8; i++) ck_assert_uint_eq(byte_at(out, i), 0);

  /* slot positions after such records: tag, t (2), c (1), last */
  t.a = 1;
  t.b = 2;
  t.c = 3;
  c.r = 1;
  c.g = 2;
  c.b = 3;
  for (i = 0; i < 8; i++) in[i] = 0xA5A5A5A5A5A5A5A5u; /* garbage in padding */
  in[0] = 7;
  memcpy(in + 1, &t, sizeof t);
  memcpy(in + 1 + TR, &c, sizeof c);
  in[1 + TR + RG] = nccc_slot_from_i8(-1);
  call("edges.weigh", in, 2 + TR + RG, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(7000001002062));
}
END_TEST

/* ---- [out] and [inout] ---------------------------------------------------------- */

START_TEST(test_out_and_inout) {
  struct point p = {1, 2}, now, old;
  const char *text = "  42rest", *neg = "-7";
  uint64_t in[4], out[4];

  in[0] = nccc_slot_from_i32(-17);
  in[1] = nccc_slot_from_i32(5);
  call("tour.divmod", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xfffffffffffffffdu); /* quot -3 */
  ck_assert_uint_eq(out[1], 0xfffffffffffffffeu); /* rem -2 */
  in[0] = nccc_slot_from_i32(INT_MAX);
  in[1] = nccc_slot_from_i32(-2);
  call("tour.divmod", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xffffffffc0000001u); /* -1073741823 */
  ck_assert_uint_eq(out[1], 1);

  /* [inout]: the value goes in, the new value comes out */
  in[0] = nccc_slot_from_i32(41);
  in[1] = nccc_slot_from_i32(1);
  call("tour.bump", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 42);
  in[0] = nccc_slot_from_i32(-1);
  in[1] = nccc_slot_from_i32(INT_MIN + 1);
  call("tour.bump", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffff80000000u);

  /* out[]: the [inout] p first, then the [out] old, in parameter order */
  nccc_slots_from_bytes(in, &p, sizeof p);
  in[PT] = nccc_slot_from_i32(10);
  call("tour.move_point", in, PT + 1, out, 2 * PT);
  nccc_slots_to_bytes(&now, out, sizeof now);
  nccc_slots_to_bytes(&old, out + PT, sizeof old);
  ck_assert_int_eq(now.x, 11);
  ck_assert_int_eq(now.y, 2);
  ck_assert_int_eq(old.x, 1);
  ck_assert_int_eq(old.y, 2);

  /* return value first, then the [out] string */
  in[0] = nccc_slot_from_ptr(text);
  call("tour.parse_int", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(text + 4));
  expect_string(out[1], "rest");
  in[0] = nccc_slot_from_ptr(neg);
  call("tour.parse_int", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 0xfffffffffffffff9u);
  ck_assert_uint_eq(out[1], nccc_slot_from_ptr(neg + 2));
}
END_TEST

START_TEST(test_out_order_with_records_and_errno) {
  /* return, hi, t (2 slots), c (1 slot), lo, errno */
  struct triple t = {10, 20, 30}, t2;
  struct rgb c;
  uint64_t in[3], out[7];
  size_t i;
  in[0] = nccc_slot_from_i32(0x000500FF);
  nccc_slots_from_bytes(in + 1, &t, sizeof t);
  call("edges.spread", in, 1 + TR, out, 4 + TR + RG);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(-0x000500FF));
  ck_assert_uint_eq(out[0], 0xfffffffffffaff01u);
  ck_assert_uint_eq(out[1], 5);
  memcpy(&t2, out + 2, sizeof t2);
  ck_assert_int_eq(t2.a, 10 + 0x000500FF);
  ck_assert_int_eq(t2.b, 20 - 0x000500FF);
  ck_assert_int_eq(t2.c, -30);
  for (i = 12; i < 16; i++) ck_assert_uint_eq(byte_at(out + 2, i), 0);
  memcpy(&c, out + 2 + TR, sizeof c);
  ck_assert_uint_eq(c.r, 1);
  ck_assert_uint_eq(c.g, 2);
  ck_assert_uint_eq(c.b, 3);
  for (i = 3; i < 8; i++) ck_assert_uint_eq(byte_at(out + 2 + TR, i), 0);
  ck_assert_uint_eq(out[2 + TR + RG], 0xff); /* uint8_t: zero-extended */
  ck_assert_uint_eq(out[3 + TR + RG], nccc_slot_from_i32(ERANGE));
}
END_TEST

START_TEST(test_float_outs) {
  uint64_t in[2], out[2];
  in[0] = nccc_slot_from_float(-0.0f);
  in[1] = nccc_slot_from_double(1.5);
  call("edges.float_outs", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0);                   /* -(-0.0f) = +0 */
  ck_assert_uint_eq(out[1], 0x3ff8000000000000u); /* 1.5 + -0 */
  in[0] = nccc_slot_from_float(FLT_TRUE_MIN);
  in[1] = 0;
  call("edges.float_outs", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xb6a0000000000000u);
  ck_assert_uint_eq(out[1], 0x36a0000000000000u);
  in[0] = float_slot_of_bits(0x7fc01234u);
  call("edges.float_outs", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xfff8024680000000u); /* the sign flipped only */
}
END_TEST

/* ---- pointers: strings, arrays, ownership, nullability ------------------------- */

START_TEST(test_pointers) {
  static const int xs[] = {1, 2, 3, 4}, extremes[] = {INT_MAX, INT_MIN};
  static const double a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
  static const double z[3] = {-0.0, 0, 0}, e1[3] = {1, 0, 0};
  static const char *const argv[] = {"a", "b", "c", NULL}, *const none[] = {NULL};
  uint64_t in[2], out[1], counter;

  in[0] = nccc_slot_from_ptr("hello");
  call("tour.text_length", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 5);
  in[0] = nccc_slot_from_ptr("");
  call("tour.text_length", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);

  in[0] = nccc_slot_from_ptr(xs);
  in[1] = 4;
  call("tour.sum_ints", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 10);
  in[0] = 0; /* [length=n] with n 0: no element is read */
  in[1] = 0;
  call("tour.sum_ints", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  in[0] = nccc_slot_from_ptr(extremes);
  in[1] = 2;
  call("tour.sum_ints", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);

  in[0] = nccc_slot_from_ptr(a);
  in[1] = nccc_slot_from_ptr(b);
  call("tour.dot3", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0x4040000000000000u); /* 32.0 */
  in[0] = nccc_slot_from_ptr(z);
  in[1] = nccc_slot_from_ptr(e1);
  call("tour.dot3", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0); /* -0 + 0 + 0 = +0 */

  in[0] = nccc_slot_from_ptr(argv);
  call("tour.count_args", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 3);
  in[0] = nccc_slot_from_ptr(none);
  call("tour.count_args", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);

  /* [nullable] a, [owned(release)] result */
  in[0] = 0;
  in[1] = nccc_slot_from_ptr("tail");
  call("tour.join", in, 2, out, 1);
  expect_string(out[0], "tail");
  in[0] = out[0];
  call("tour.release", in, 1, out, 0);
  in[0] = nccc_slot_from_ptr("head-");
  in[1] = nccc_slot_from_ptr("tail");
  call("tour.join", in, 2, out, 1);
  expect_string(out[0], "head-tail");
  in[0] = out[0];
  call("tour.release", in, 1, out, 0);
  in[0] = 0;
  call("tour.release", in, 1, out, 0); /* [nullable] */
  /* [nonnull] b: NULL is refused by the wrapper, join does not run */
  in[0] = nccc_slot_from_ptr("head-");
  in[1] = 0;
  call("tour.join", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  ck_assert_str_eq(nccc_last_error(), "join: b is NULL ([nonnull])");

  /* an opaque handle, owned */
  in[0] = nccc_slot_from_i32(-1);
  call("tour.counter_new", in, 1, out, 1);
  ck_assert_uint_ne(out[0], 0);
  counter = out[0];
  in[0] = counter;
  call("tour.counter_next", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);
  call("tour.counter_next", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);
  call("tour.counter_next", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 1);
  call("tour.counter_free", in, 1, out, 0);
}
END_TEST

/* The number of calls of nonnull_sum that reached C. */
static int32_t nonnull_calls(void) {
  uint64_t out[1];
  call("edges.nonnull_calls", NULL, 0, out, 1);
  return nccc_slot_to_i32(out[0]);
}

START_TEST(test_nonnull_refused_before_c) {
  static const int32_t p = 40, q = 2;
  uint64_t in[4], good[4], out[4];
  int32_t before;
  size_t i, k;
  good[0] = nccc_slot_from_ptr("four");
  good[1] = nccc_slot_from_ptr(&p);
  good[2] = nccc_slot_from_ptr(&q);
  good[3] = nccc_slot_from_ptr("xy");

  /* all given: C runs */
  before = nonnull_calls();
  call("edges.nonnull_sum", good, 4, out, 4);
  ck_assert_int_eq(nonnull_calls(), before + 1);
  ck_assert_uint_eq(out[0], 42);
  expect_string(out[1], "y");
  ck_assert_uint_eq(out[2], 4);
  ck_assert_uint_eq(out[3], nccc_slot_from_i32(EDOM));

  /* q is not [nonnull]: NULL reaches C */
  memcpy(in, good, sizeof in);
  in[2] = 0;
  call("edges.nonnull_sum", in, 4, out, 4);
  ck_assert_int_eq(nonnull_calls(), before + 2);
  ck_assert_uint_eq(out[0], 140);

  /* NULL in each [nonnull] slot (s, p and the [inout] word): refused
  ** before C (nonnull_sum would dereference it), out[] zeroed, errno
  ** slot included, the last error naming function and parameter */
  for (k = 0; k < 4; k++) {
    static const char *const msgs[4] = {
        "nonnull_sum: s is NULL ([nonnull])",
        "nonnull_sum: p is NULL ([nonnull])", NULL,
        "nonnull_sum: word is NULL ([nonnull])"};
    if (msgs[k] == NULL) continue;
    memcpy(in, good, sizeof in);
    in[k] = 0;
    nccc_clear_error();
    call("edges.nonnull_sum", in, 4, out, 4);
    for (i = 0; i < 4; i++) ck_assert_uint_eq(out[i], 0);
    ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
    ck_assert_str_eq(nccc_last_error(), msgs[k]);
  }
  ck_assert_int_eq(nonnull_calls(), before + 2);

  /* all NULL: the first [nonnull] slot is named */
  memset(in, 0, sizeof in);
  call("edges.nonnull_sum", in, 4, out, 4);
  ck_assert_str_eq(nccc_last_error(), "nonnull_sum: s is NULL ([nonnull])");
  ck_assert_int_eq(nonnull_calls(), before + 2);

  /* a refusal leaves nothing behind: the next good call runs */
  call("edges.nonnull_sum", good, 4, out, 4);
  ck_assert_int_eq(nonnull_calls(), before + 3);
  ck_assert_uint_eq(out[0], 42);
}
END_TEST

/* The host side of visit_fn: out[0] = env + 2 * v. */
static void visit_target(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32((int32_t)in[0] + 2 * nccc_slot_to_i32(in[1]));
}

START_TEST(test_nonnull_refusal_releases_call_closures) {
  static const int32_t v = 20;
  uint64_t in[2], out[1];
  void *ctx = NULL;
  int32_t before = nonnull_calls();

  /* a finished call releases its CALL closure */
  ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_CALL, "i:i", &ctx),
                   NCCC_OK);
  in[0] = nccc_slot_from_ptr(&v);
  in[1] = nccc_slot_from_ptr(ctx);
  call("edges.nonnull_visit", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_int_eq(nonnull_calls(), before + 1);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);

  /* so does a refused one, and C never runs */
  ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_CALL, "i:i", &ctx),
                   NCCC_OK);
  in[0] = 0;
  in[1] = nccc_slot_from_ptr(ctx);
  call("edges.nonnull_visit", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  ck_assert_str_eq(nccc_last_error(), "nonnull_visit: v is NULL ([nonnull])");
  ck_assert_int_eq(nonnull_calls(), before + 1);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);

  /* a FOREVER closure stays */
  ck_assert_int_eq(
      nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_FOREVER, "i:i", &ctx), NCCC_OK);
  in[1] = nccc_slot_from_ptr(ctx);
  call("edges.nonnull_visit", in, 2, out, 1);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_OK);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
}
END_TEST

/* ---- shims -------------------------------------------------------------------- */

START_TEST(test_errno_shim) {
  uint64_t in[2], out[2];

  in[0] = nccc_slot_from_i32(7);
  in[1] = nccc_slot_from_i32(0);
  call("tour.checked_div", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(EDOM));
  in[0] = nccc_slot_from_i32(-7);
  in[1] = nccc_slot_from_i32(2);
  call("tour.checked_div", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xfffffffffffffffdu);
  ck_assert_uint_eq(out[1], 0);

  /* parse_long ([errno] by default) lets strtol alone touch errno, and
  ** strtol leaves it alone on success: the 123 call() puts there must
  ** have been cleared by the shim */
  in[0] = nccc_slot_from_ptr("123");
  in[1] = nccc_slot_from_i32(10);
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 123);
  ck_assert_uint_eq(out[1], 0);
  in[0] = nccc_slot_from_ptr("-ff");
  in[1] = nccc_slot_from_i32(16);
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xffffffffffffff01u);
  ck_assert_uint_eq(out[1], 0);
  in[0] = nccc_slot_from_ptr("99999999999999999999");
  in[1] = nccc_slot_from_i32(10);
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(LONG_MAX));
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(ERANGE));
  in[0] = nccc_slot_from_ptr("-99999999999999999999");
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(LONG_MIN));
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(ERANGE));

  /* a function that never touches errno reports 0, not the 123 before */
  in[0] = nccc_slot_from_i32(41);
  call("edges.leave_errno", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_uint_eq(out[1], 0);
  /* errno is an int slot like any other: sign-extended */
  in[0] = nccc_slot_from_i32(-5);
  call("edges.raise_errno", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);
  ck_assert_uint_eq(out[1], 0xfffffffffffffffbu);
  in[0] = nccc_slot_from_i32(EINVAL);
  call("edges.raise_errno", in, 1, out, 2);
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(EINVAL));
}
END_TEST

static long triple_it(long x) { return 3 * x; }
static int op_sub(int a, int b) { return a - b; }

START_TEST(test_function_pointer_shim) {
  uint64_t in[3], out[1];

  /* in[0] is the target, the arguments follow */
  in[0] = (uint64_t)(uintptr_t)negate_impl;
  in[1] = nccc_slot_from_i64(42);
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffd6u);
  in[1] = nccc_slot_from_i64(LONG_MIN + 1);
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(LONG_MAX));
  in[1] = 0;
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  /* another target, same wrapper */
  in[0] = (uint64_t)(uintptr_t)triple_it;
  in[1] = nccc_slot_from_i64(-5);
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xfffffffffffffff1u);
  /* a NULL target is not called: out zeroed, NCCC_ERR_NULL_POINTER */
  nccc_clear_error();
  in[0] = 0;
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
}
END_TEST

START_TEST(test_function_pointer_values) {
  uint64_t in[3], out[1], op;
  binop f;

  in[0] = nccc_slot_from_i64('*');
  call("tour.pick_op", in, 1, out, 1);
  op = out[0];
  ck_assert_uint_ne(op, 0);
  f = (binop)(uintptr_t)op;
  ck_assert_int_eq(f(6, 7), 42);
  in[0] = op;
  in[1] = nccc_slot_from_i32(6);
  in[2] = nccc_slot_from_i32(7);
  call("tour.apply", in, 3, out, 1);
  ck_assert_uint_eq(out[0], 42);

  in[0] = nccc_slot_from_i64('+');
  call("tour.pick_op", in, 1, out, 1);
  ck_assert_uint_ne(out[0], op);
  in[0] = out[0];
  call("tour.apply", in, 3, out, 1);
  ck_assert_uint_eq(out[0], 13);

  in[0] = (uint64_t)(uintptr_t)op_sub;
  call("tour.apply", in, 3, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);
}
END_TEST

START_TEST(test_variadic_instantiations) {
  char buf[64];
  uint64_t in[5], out[1];

  memset(buf, 'X', sizeof buf);
  in[0] = nccc_slot_from_ptr(buf);
  in[1] = sizeof buf;
  in[2] = nccc_slot_from_ptr("<%d>");
  in[3] = nccc_slot_from_i32(-12);
  call("tour.format_int", in, 4, out, 1);
  ck_assert_uint_eq(out[0], 5);
  ck_assert_str_eq(buf, "<-12>");
  in[2] = nccc_slot_from_ptr("%d");
  in[3] = nccc_slot_from_i32(INT_MIN);
  call("tour.format_int", in, 4, out, 1);
  ck_assert_uint_eq(out[0], 11);
  ck_assert_str_eq(buf, "-2147483648");
  /* truncated: the full length comes back */
  memset(buf, 'X', sizeof buf);
  in[1] = 3;
  in[3] = nccc_slot_from_i32(12345);
  call("tour.format_int", in, 4, out, 1);
  ck_assert_uint_eq(out[0], 5);
  ck_assert_str_eq(buf, "12");
  ck_assert_int_eq(buf[3], 'X');

  /* the float argument is promoted to double, exactly */
  in[1] = sizeof buf;
  in[2] = nccc_slot_from_ptr("%.2f %.1f");
  in[3] = nccc_slot_from_double(2.5);
  in[4] = nccc_slot_from_float(0.5f);
  call("tour.format_double", in, 5, out, 1);
  ck_assert_uint_eq(out[0], 8);
  ck_assert_str_eq(buf, "2.50 0.5");
  in[2] = nccc_slot_from_ptr("%g %a");
  in[3] = nccc_slot_from_double(-0.0);
  in[4] = nccc_slot_from_float(FLT_TRUE_MIN);
  call("tour.format_double", in, 5, out, 1);
  ck_assert_str_eq(buf, "-0 0x1p-149");
  ck_assert_uint_eq(out[0], 11);
}
END_TEST

/* ---- layout and constants tables ---------------------------------------------- */

static void check_field(const nccc_type_layout *t, uint16_t i,
                        const char *name, const char *code, size_t offset,
                        size_t size, size_t count) {
  ck_assert_uint_lt(i, t->n_fields);
  ck_assert_str_eq(t->fields[i].name, name);
  ck_assert_str_eq(t->fields[i].type, code);
  ck_assert_uint_eq(t->fields[i].offset, offset);
  ck_assert_uint_eq(t->fields[i].size, size);
  ck_assert_uint_eq(t->fields[i].count, count);
}

START_TEST(test_layout_tables) {
  const nccc_module *m = module("tour"), *e = module("edges");
  const nccc_type_layout *t;

  ck_assert_uint_eq(m->n_types, 6);
  t = layout(m, "point");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(t->size, sizeof(struct point));
  ck_assert_uint_eq(t->align, _Alignof(struct point));
  ck_assert_uint_eq(t->n_fields, 2);
  check_field(t, 0, "x", "i", offsetof(struct point, x), sizeof(int), 1);
  check_field(t, 1, "y", "i", offsetof(struct point, y), sizeof(int), 1);

  t = layout(m, "complex_t");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(t->size, sizeof(complex_t));
  ck_assert_uint_eq(t->align, _Alignof(complex_t));
  ck_assert_uint_eq(t->n_fields, 2);
  check_field(t, 0, "re", "d", offsetof(complex_t, re), sizeof(double), 1);
  check_field(t, 1, "im", "d", offsetof(complex_t, im), sizeof(double), 1);

  t = layout(m, "number");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_UNION);
  ck_assert_uint_eq(t->size, sizeof(union number));
  ck_assert_uint_eq(t->align, _Alignof(union number));
  ck_assert_uint_eq(t->n_fields, 3);
  check_field(t, 0, "i", "l", 0, 8, 1);
  check_field(t, 1, "d", "d", 0, 8, 1);
  check_field(t, 2, "bytes", "B", 0, 8, 8);

  t = layout(m, "record");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(t->size, sizeof(struct record));
  ck_assert_uint_eq(t->align, _Alignof(struct record));
  ck_assert_uint_eq(t->n_fields, 6);
  check_field(t, 0, "name", C, offsetof(struct record, name), 16, 16);
  check_field(t, 1, "label", "s", offsetof(struct record, label),
              sizeof(const char *), 1);
  check_field(t, 2, "items", "p", offsetof(struct record, items),
              sizeof(int *), 1);
  check_field(t, 3, "count", SZ, offsetof(struct record, count),
              sizeof(size_t), 1);
  check_field(t, 4, "where", "{point}", offsetof(struct record, where),
              sizeof(struct point), 1);
  check_field(t, 5, "hook", "F", offsetof(struct record, hook),
              sizeof(void (*)(int)), 1);

  t = layout(m, "counter");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_OPAQUE);
  ck_assert_uint_eq(t->size, 0);
  ck_assert_uint_eq(t->align, 0);
  ck_assert_uint_eq(t->n_fields, 0);
  t = layout(m, "handle_t");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_OPAQUE);
  ck_assert_uint_eq(t->size, 0);

  ck_assert_uint_eq(e->n_types, 3);
  t = layout(e, "triple");
  ck_assert_uint_eq(t->size, 12);
  ck_assert_uint_eq(t->align, _Alignof(struct triple));
  check_field(t, 2, "c", "i", offsetof(struct triple, c), 4, 1);
  t = layout(e, "rgb");
  ck_assert_uint_eq(t->size, 3);
  ck_assert_uint_eq(t->align, 1);
  check_field(t, 2, "b", "B", 2, 1, 1);
  t = layout(e, "half");
  ck_assert_uint_eq(t->kind, NCCC_TYPE_UNION);
  ck_assert_uint_eq(t->size, 4);
  ck_assert_uint_eq(t->align, _Alignof(union half));
  check_field(t, 0, "h", "H", 0, 4, 2);
  check_field(t, 1, "b", "B", 0, 4, 4);
}
END_TEST

START_TEST(test_constants_table) {
  static const struct {
    const char *name, *code;
    uint64_t value;
  } want[] = {
      {"RED", "i", RED},           {"GREEN", "i", GREEN},
      {"BLUE", "i", BLUE},         {"FLAG_A", "i", FLAG_A},
      {"FLAG_B", "i", FLAG_B},     {"FLAG_AB", "i", FLAG_AB},
      {"LIMIT", "i", 100},         {"ALL_ONES", "L", 0xffffffffffffffffULL},
      {"LETTER", C, 'A'}};
  const nccc_module *m = module("tour");
  size_t i;
  ck_assert_uint_eq(m->n_constants, sizeof want / sizeof want[0]);
  for (i = 0; i < m->n_constants; i++) {
    ck_assert_str_eq(m->constants[i].name, want[i].name);
    ck_assert_str_eq(m->constants[i].type, want[i].code);
    ck_assert_uint_eq(m->constants[i].value, want[i].value);
  }
  /* the numbers themselves, not only their agreement with the enum */
  ck_assert_uint_eq(m->constants[1].value, 5);
  ck_assert_uint_eq(m->constants[2].value, 6);
  ck_assert_uint_eq(m->constants[5].value, 3);
  ck_assert_uint_eq(m->constants[8].value, 0x41);
  ck_assert_uint_eq(module("edges")->n_constants, 0);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("kitchen");
  nccc_check_tcase(s, "registry", setup, NULL,
      NCCC_CHECK_TESTS(test_registry_holds_the_documented_functions,
                       test_signatures_on_this_target,
                       test_renamed_function_under_its_new_name_only,
                       test_checked_calls_refuse_other_counts));
  nccc_check_tcase(s, "values", setup, NULL,
      NCCC_CHECK_TESTS(test_echo_signed_integers, test_echo_unsigned_integers,
                       test_echo_target_dependent_integers,
                       test_narrow_types_take_the_low_bits_of_a_slot,
                       test_echo_bool, test_echo_float, test_echo_double,
                       test_echo_enum, test_add_mix_nothing,
                       test_structs_by_value,
                       test_records_that_leave_part_of_a_slot,
                       test_out_and_inout,
                       test_out_order_with_records_and_errno, test_float_outs,
                       test_pointers, test_nonnull_refused_before_c,
                       test_nonnull_refusal_releases_call_closures));
  nccc_check_tcase(s, "shims", setup, NULL,
                   NCCC_CHECK_TESTS(test_errno_shim, test_function_pointer_shim,
                                    test_function_pointer_values,
                                    test_variadic_instantiations));
  nccc_check_tcase(s, "tables", setup, NULL,
                   NCCC_CHECK_TESTS(test_layout_tables, test_constants_table));
  return s;
}
