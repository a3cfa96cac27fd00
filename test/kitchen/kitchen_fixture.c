/*
** kitchen_fixture.c — the documented signatures of tour.idl and
** edges.idl, and the checked call through the runtime that every kitchen
** test makes.
*/
#include "kitchen.h"

const sig sigs[] = {
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
    {"edges.visit_both", "cc:i", 2, 1},
};
const size_t n_sigs = sizeof sigs / sizeof sigs[0];

const sig *sig_of(const char *name) {
  size_t i;
  for (i = 0; i < N_SIGS; i++) {
    if (strcmp(sigs[i].name, name) == 0) return &sigs[i];
  }
  ck_abort_msg("%s is not in the signature table", name);
  return NULL;
}

void call(const char *name, const uint64_t *in, size_t n_in,
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

void echo(const char *name, uint64_t in_slot, uint64_t want) {
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

void expect_string(uint64_t slot, const char *want) {
  const char *s = nccc_slot_to_ptr(slot);
  ck_assert_ptr_nonnull(s);
  ck_assert_msg(str_compare(s, want) == 0, "\"%s\", want \"%s\"", s, want);
}

uint64_t float_slot_of_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return nccc_slot_from_float(f);
}

unsigned byte_at(const uint64_t *slots, size_t i) {
  unsigned char b;
  memcpy(&b, (const unsigned char *)slots + i, 1);
  return b;
}

const nccc_module *module(const char *name) {
  uint16_t index = 0;
  ck_assert_int_eq(nccc_module_find(name, &index), NCCC_OK);
  return nccc_module_at(index);
}

const nccc_type_layout *layout(const nccc_module *m, const char *n) {
  uint16_t i;
  for (i = 0; i < m->n_types; i++) {
    if (strcmp(m->types[i].name, n) == 0) return &m->types[i];
  }
  ck_abort_msg("no type %s in module %s", n, m->name);
  return NULL;
}

void setup(void) {
  nccc_check_init(nccc_tour_register);
  ck_assert_int_eq(nccc_edges_register(), NCCC_OK);
}

