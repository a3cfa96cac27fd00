/*
** tour_main.c — calls the generated wrappers of idl/examples/tour.idl the
** way a host does: through the runtime (module, lookup by "tour.NAME",
** checked calls with the slot counts of the registry), and checks every
** result slot bit for bit. The runner is harness.c.
*/
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <nccc/nccc.h>

#include "harness.h"
#include "tour_nccc.h"

struct point { int x; int y; };
typedef struct { double re, im; } complex_t;
long negate_impl(long x);

/* Calls tour.NAME (harness_call) and checks that its signature is sig. */
static void call(const char *name, const char *sig) {
  char full[64];
  const nccc_fn_info *info;
  snprintf(full, sizeof full, "tour.%s", name);
  info = harness_call(full);
  if (info != NULL && strcmp(info->signature, sig) != 0) {
    printf("  %s: signature %s, expected %s\n", name, info->signature, sig);
    CHECK(0);
  }
}

static void echo(const char *name, const char *sig, uint64_t slot) {
  in[0] = slot;
  call(name, sig);
  if (out[0] != slot) {
    printf("  %s: %016llx came back as %016llx\n", name,
           (unsigned long long)slot, (unsigned long long)out[0]);
    CHECK(0);
  }
}

static void scalars(void) {
  echo("echo_char", CHAR_MIN < 0 ? "b:b" : "B:B",
       CHAR_MIN < 0 ? UINT64_MAX : 0xff);
  echo("echo_schar", "b:b", nccc_slot_from_i8(-128));
  echo("echo_uchar", "B:B", 0xff);
  echo("echo_short", "h:h", nccc_slot_from_i16(-2));
  echo("echo_ushort", "H:H", 0xffff);
  echo("echo_int", "i:i", nccc_slot_from_i32(INT_MIN));
  echo("echo_uint", "I:I", 0xffffffffu);
  echo("echo_long", LONG_MAX > 0x7fffffffL ? "l:l" : "i:i",
       nccc_slot_from_i64(-3));
  echo("echo_ulong", LONG_MAX > 0x7fffffffL ? "L:L" : "I:I", ULONG_MAX);
  echo("echo_llong", "l:l", nccc_slot_from_i64(INT64_MIN));
  echo("echo_ullong", "L:L", UINT64_MAX);
  echo("echo_i8", "b:b", nccc_slot_from_i8(-1));
  echo("echo_u8", "B:B", 0x80);
  echo("echo_i16", "h:h", nccc_slot_from_i16(INT16_MIN));
  echo("echo_u16", "H:H", 0x8000);
  echo("echo_i32", "i:i", nccc_slot_from_i32(-7));
  echo("echo_u32", "I:I", 0x80000000u);
  echo("echo_i64", "l:l", nccc_slot_from_i64(-1));
  echo("echo_u64", "L:L", 0x8000000000000000u);
  echo("echo_size", SIZE_MAX > 0xffffffffu ? "L:L" : "I:I", SIZE_MAX);
  echo("echo_ssize", SIZE_MAX > 0xffffffffu ? "l:l" : "i:i",
       nccc_slot_from_i64(-5));
  echo("echo_intptr", UINTPTR_MAX > 0xffffffffu ? "l:l" : "i:i",
       nccc_slot_from_i64(-9));
  echo("echo_uintptr", UINTPTR_MAX > 0xffffffffu ? "L:L" : "I:I",
       UINTPTR_MAX);
  echo("echo_ptrdiff", UINTPTR_MAX > 0xffffffffu ? "l:l" : "i:i",
       nccc_slot_from_i64(-11));
  echo("echo_bool", "?:?", 1);
  echo("echo_float", "f:f", nccc_slot_from_float(-1.5f));
  echo("echo_float", "f:f", nccc_slot_from_float(-0.0f));
  echo("echo_double", "d:d", nccc_slot_from_double(-0.0));
  echo("echo_double", "d:d", 0x7ff8000000000123u); /* NaN with payload */
  echo("echo_color", "i:i", nccc_slot_from_i32(6));
  echo("echo_ulong_t", LONG_MAX > 0x7fffffffL ? "L:L" : "I:I", 12345);

  in[0] = nccc_slot_from_i64(40);
  in[1] = nccc_slot_from_i64(2);
  call("add", "ll:l");
  CHECK(nccc_slot_to_i64(out[0]) == 42);

  in[0] = nccc_slot_from_i8(-1);
  in[1] = nccc_slot_from_u16(2);
  in[2] = nccc_slot_from_float(0.5f);
  in[3] = nccc_slot_from_double(0.25);
  in[4] = nccc_slot_from_i64(1000);
  in[5] = nccc_slot_from_i64('A');
  call("mix", CHAR_MIN < 0 ? "bHfdlb:d" : "bHfdlB:d");
  CHECK(nccc_slot_to_double(out[0]) == -1 + 2 + 0.5 + 0.25 + 1000 + 65);

  call("nothing", ":");
}

static void records(void) {
  struct point a = {2, 10}, b = {4, -20}, r;
  complex_t x = {1, 2}, y = {3, 4}, z;

  nccc_slots_from_bytes(in, &a, sizeof a);
  nccc_slots_from_bytes(in + NCCC_SLOTS(sizeof a), &b, sizeof b);
  call("midpoint", "{point}{point}:{point}");
  nccc_slots_to_bytes(&r, out, sizeof r);
  CHECK(r.x == 3 && r.y == -5);

  nccc_slots_from_bytes(in, &x, sizeof x);
  nccc_slots_from_bytes(in + NCCC_SLOTS(sizeof x), &y, sizeof y);
  call("cmul", "{complex_t}{complex_t}:{complex_t}");
  nccc_slots_to_bytes(&z, out, sizeof z);
  CHECK(z.re == -5 && z.im == 10);

  in[0] = nccc_slot_from_double(1.0);
  call("as_number", "d:{number}");
  CHECK(out[0] == nccc_slot_from_double(1.0));

  in[0] = nccc_slot_from_i32(100);
  nccc_slots_from_bytes(in + 1, &a, sizeof a);
  in[1 + NCCC_SLOTS(sizeof a)] = nccc_slot_from_i32(3);
  call("point_sum", "i{point}i:l");
  CHECK(nccc_slot_to_i64(out[0]) == 100 + 3 * 12);
}

static void outs(void) {
  struct point p = {1, 2}, now, old;
  const char *text = "  42rest";

  in[0] = nccc_slot_from_i32(-17);
  in[1] = nccc_slot_from_i32(5);
  call("divmod", "ii:ii");
  CHECK(out[0] == nccc_slot_from_i32(-3) && out[1] == nccc_slot_from_i32(-2));

  in[0] = nccc_slot_from_i32(41);
  in[1] = nccc_slot_from_i32(1);
  call("bump", "ii:i");
  CHECK(out[0] == nccc_slot_from_i32(42));

  nccc_slots_from_bytes(in, &p, sizeof p);
  in[NCCC_SLOTS(sizeof p)] = nccc_slot_from_i32(10);
  call("move_point", "{point}i:{point}{point}");
  nccc_slots_to_bytes(&now, out, sizeof now);
  nccc_slots_to_bytes(&old, out + NCCC_SLOTS(sizeof now), sizeof old);
  CHECK(now.x == 11 && now.y == 2 && old.x == 1 && old.y == 2);

  in[0] = nccc_slot_from_ptr(text);
  call("parse_int", "s:is");
  CHECK(out[0] == 42 && nccc_slot_to_ptr(out[1]) == text + 4);
}

static void pointers(void) {
  static const int xs[] = {1, 2, 3, 4};
  static const double a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
  static const char *const argv[] = {"a", "b", "c", NULL};
  char *joined;
  uint64_t counter;

  in[0] = nccc_slot_from_ptr("hello");
  call("text_length", SIZE_MAX > 0xffffffffu ? "s:L" : "s:I");
  CHECK(out[0] == 5);

  in[0] = nccc_slot_from_ptr(xs);
  in[1] = 4;
  call("sum_ints", SIZE_MAX > 0xffffffffu ? "pL:i" : "pI:i");
  CHECK(out[0] == 10);

  in[0] = nccc_slot_from_ptr(a);
  in[1] = nccc_slot_from_ptr(b);
  call("dot3", "pp:d");
  CHECK(nccc_slot_to_double(out[0]) == 32);

  in[0] = nccc_slot_from_ptr(argv);
  call("count_args", "p:i");
  CHECK(out[0] == 3);

  in[0] = nccc_slot_from_ptr(NULL);
  in[1] = nccc_slot_from_ptr("tail");
  call("join", "ss:p");
  joined = nccc_slot_to_ptr(out[0]);
  CHECK(joined != NULL && strcmp(joined, "tail") == 0);
  in[0] = out[0];
  call("release", "p:");

  in[0] = nccc_slot_from_i32(7);
  call("counter_new", "i:p");
  counter = out[0];
  in[0] = counter;
  call("counter_next", "p:i");
  CHECK(out[0] == 7);
  call("counter_next", "p:i");
  CHECK(out[0] == 8);
  call("counter_free", "p:");

  in[0] = nccc_slot_from_i32(5);
  call("name_of_color", "i:s");
  CHECK(strcmp(nccc_slot_to_ptr(out[0]), "green") == 0);
}

static void shims(void) {
  char buf[64];
  uint64_t op;

  in[0] = nccc_slot_from_i32(7);
  in[1] = nccc_slot_from_i32(0);
  call("checked_div", "ii:ie");
  CHECK(out[0] == 0 && out[1] == nccc_slot_from_i32(EDOM));
  in[1] = nccc_slot_from_i32(2);
  call("checked_div", "ii:ie");
  CHECK(out[0] == 3 && out[1] == 0);

  in[0] = nccc_slot_from_i64('*');
  call("pick_op", CHAR_MIN < 0 ? "b:F" : "B:F");
  op = out[0];
  in[0] = op;
  in[1] = nccc_slot_from_i32(6);
  in[2] = nccc_slot_from_i32(7);
  call("apply", "Fii:i");
  CHECK(out[0] == 42);

  in[0] = (uint64_t)(uintptr_t)negate_impl;
  in[1] = nccc_slot_from_i64(42);
  call("negate", LONG_MAX > 0x7fffffffL ? "Fl:l" : "Fi:i");
  CHECK(nccc_slot_to_i64(out[0]) == -42);

  in[0] = nccc_slot_from_ptr(buf);
  in[1] = sizeof buf;
  in[2] = nccc_slot_from_ptr("<%d>");
  in[3] = nccc_slot_from_i32(-12);
  call("format_int", SIZE_MAX > 0xffffffffu ? "pLsi:i" : "pIsi:i");
  CHECK(out[0] == 5 && strcmp(buf, "<-12>") == 0);

  in[2] = nccc_slot_from_ptr("%.2f %.1f");
  in[3] = nccc_slot_from_double(2.5);
  in[4] = nccc_slot_from_float(0.5f);
  call("format_double", SIZE_MAX > 0xffffffffu ? "pLsdf:i" : "pIsdf:i");
  CHECK(strcmp(buf, "2.50 0.5") == 0);

  in[0] = nccc_slot_from_ptr("99999999999999999999999");
  in[1] = nccc_slot_from_i32(10);
  call("parse_long", LONG_MAX > 0x7fffffffL ? "si:le" : "si:ie");
  CHECK(out[0] == nccc_slot_from_i64(LONG_MAX) &&
        out[1] == nccc_slot_from_i32(ERANGE));
}

static const nccc_type_layout *layout(const nccc_module *m, const char *n) {
  uint16_t i;
  for (i = 0; i < m->n_types; i++) {
    if (strcmp(m->types[i].name, n) == 0) return &m->types[i];
  }
  return NULL;
}

static int constant(const nccc_module *m, const char *n, const char *code,
                    uint64_t value) {
  uint16_t i;
  for (i = 0; i < m->n_constants; i++) {
    if (strcmp(m->constants[i].name, n) == 0) {
      return strcmp(m->constants[i].type, code) == 0 &&
             m->constants[i].value == value;
    }
  }
  return 0;
}

static void tables(void) {
  uint16_t index, i, count;
  const nccc_module *m;
  const nccc_type_layout *t;
  const nccc_registry *reg;

  CHECK(nccc_module_find("tour", &index) == NCCC_OK);
  m = nccc_module_at(index);
  CHECK(m == &nccc_tour_module);
  if (m == NULL) return;

  t = layout(m, "point");
  CHECK(t != NULL && t->size == sizeof(struct point) && t->align == 4 &&
        t->kind == NCCC_TYPE_STRUCT && t->n_fields == 2);
  CHECK(t != NULL && strcmp(t->fields[1].name, "y") == 0 &&
        t->fields[1].offset == 4 && strcmp(t->fields[1].type, "i") == 0);
  t = layout(m, "record");
  CHECK(t != NULL && t->n_fields == 6);
  CHECK(t != NULL && t->fields[0].count == 16 && t->fields[0].size == 16);
  CHECK(t != NULL && strcmp(t->fields[1].type, "s") == 0);
  CHECK(t != NULL && strcmp(t->fields[4].type, "{point}") == 0);
  CHECK(t != NULL && strcmp(t->fields[5].type, "F") == 0);
  t = layout(m, "number");
  CHECK(t != NULL && t->kind == NCCC_TYPE_UNION && t->size == 8 &&
        t->fields[2].count == 8);
  t = layout(m, "counter");
  CHECK(t != NULL && t->kind == NCCC_TYPE_OPAQUE && t->size == 0);
  t = layout(m, "handle_t");
  CHECK(t != NULL && t->kind == NCCC_TYPE_OPAQUE);
  CHECK(layout(m, "complex_t") != NULL);

  CHECK(constant(m, "RED", "i", 0));
  CHECK(constant(m, "GREEN", "i", 5));
  CHECK(constant(m, "BLUE", "i", 6));
  CHECK(constant(m, "FLAG_AB", "i", 3));
  CHECK(constant(m, "LIMIT", "i", 100));
  CHECK(constant(m, "ALL_ONES", "L", UINT64_MAX));
  CHECK(constant(m, "LETTER", CHAR_MIN < 0 ? "b" : "B", 'A'));

  /* every name is found by binary search, at its own index */
  reg = m->registry;
  count = nccc_registry_count(reg);
  CHECK(count == 57);
  for (i = 0; i < count; i++) {
    const char *name;
    uint16_t found;
    CHECK(nccc_registry_get(reg, i, NULL, NULL, &name) == NCCC_OK);
    CHECK(nccc_registry_lookup(reg, name, &found) == NCCC_OK && found == i);
    if (i + 1 < count) {
      CHECK(strcmp(nccc_names_get(reg->names, reg->sorted[i]),
                   nccc_names_get(reg->names, reg->sorted[i + 1])) < 0);
    }
  }
  CHECK(nccc_registry_lookup(reg, "echo", &index) == NCCC_ERR_NAME_NOT_FOUND);
}

static void registration(void) {
  CHECK(nccc_tour_register() == NCCC_ERR_ALREADY_DEFINED);
}

nccc_status (*const harness_register)(void) = nccc_tour_register;
void (*const harness_tests[])(void) = {
  registration, scalars, records, outs, pointers, shims, tables, NULL,
};
