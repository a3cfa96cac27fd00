/*
** padding_main.c — records written to out[] by the wrappers of
** test/stubgen/idl/padding.idl: every byte of their slots that belongs to
** no field is 0 (docs/ABI.md, "Slots"), although the C functions leave
** 0xAA in the padding of the records they return or fill. The runner is
** harness.c.
*/
#include <stdio.h>
#include <string.h>

#include <nccc/nccc.h>

#include "harness.h"
#include "padding.h"
#include "padding_nccc.h"

#define MAX_BYTES 128

/* mask[i] != 0: byte i of the record being checked belongs to a field */
static unsigned char mask[MAX_BYTES];

static void fields_clear(void) { memset(mask, 0, sizeof mask); }
static void field(size_t offset, size_t n) { memset(mask + offset, 1, n); }

#define FIELD(T, base, m) field((base) + offsetof(T, m), sizeof(((T *)0)->m))

static void inner_fields(size_t base) {
  FIELD(struct inner, base, a);
  FIELD(struct inner, base, b);
}

/* The slots holding a record of size bytes: its field bytes equal those
** of want, all other bytes (padding, and the rest of the last slot) 0. */
static void check_record(const char *what, const uint64_t *slots,
                         const void *want, size_t size) {
  const unsigned char *got = (const unsigned char *)slots;
  const unsigned char *w = want;
  size_t i, n = NCCC_SLOTS(size) * 8, padding = 0;
  int bad = 0;
  for (i = 0; i < n; i++) {
    if (i < size && mask[i]) {
      if (got[i] != w[i]) bad++;
    } else {
      if (i < size) padding++;
      if (got[i] != 0) bad++;
    }
  }
  CHECK(padding > 0);   /* the record does have padding to check */
  if (bad) {
    printf("  %s: %d bad bytes:", what, bad);
    for (i = 0; i < n; i++) printf(" %02x", got[i]);
    printf("\n");
  }
  CHECK(bad == 0);
}

static void dirty_out(void) { memset(out, 0x55, sizeof out); }

static void pad_fields(void) {
  fields_clear();
  FIELD(struct pad, 0, c);
  FIELD(struct pad, 0, d);
  FIELD(struct pad, 0, s);
}

static struct pad pad_want(char c, double d, short s) {
  struct pad v;
  memset(&v, 0, sizeof v);
  v.c = c;
  v.d = d;
  v.s = s;
  return v;
}

static void test_pad(void) {
  struct pad direct, want = pad_want('q', -2.5, -300);
  size_t i, dirty = 0;
  pad_fields();
  /* the C function really leaves 0xAA in the padding */
  pad_out('q', -2.5, -300, &direct);
  for (i = 0; i < sizeof direct; i++) {
    if (!mask[i]) dirty += ((unsigned char *)&direct)[i] == 0xAA;
  }
  CHECK(dirty > 0);

  in[0] = nccc_slot_from_i8('q');
  in[1] = nccc_slot_from_double(-2.5);
  in[2] = nccc_slot_from_i16(-300);
  dirty_out();
  nccc_padding_pad_make(in, out);
  check_record("pad_make", out, &want, sizeof want);
  CHECK(out[NCCC_SLOTS(sizeof want)] == UINT64_C(0x5555555555555555));

  dirty_out();
  nccc_padding_pad_out(in, out);
  check_record("pad_out", out, &want, sizeof want);

  /* [inout]: the padding of the value going in is not read either */
  memset(&direct, 0x77, sizeof direct);
  direct.c = 'a';
  direct.d = 4.0;
  direct.s = 10;
  memset(in, 0, sizeof in);
  nccc_slots_from_bytes(in, &direct, sizeof direct);
  dirty_out();
  nccc_padding_pad_bump(in, out);
  want = pad_want('b', 8.0, 9);
  check_record("pad_bump", out, &want, sizeof want);
}

static void test_outer(void) {
  struct outer want;
  int i, j;
  fields_clear();
  FIELD(struct outer, 0, k);
  inner_fields(offsetof(struct outer, one));
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 2; j++) {
      inner_fields(offsetof(struct outer, two) +
                   (size_t)(2 * i + j) * sizeof(struct inner));
    }
  }
  FIELD(struct outer, 0, t);
  memset(&want, 0, sizeof want);
  want.k = 5;
  want.one.a = 6;
  want.one.b = 5000;
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 2; j++) {
      want.two[i][j].a = (char)(5 + 10 * i + j);
      want.two[i][j].b = -5 - 100 * i - j;
    }
  }
  want.t = -5;
  in[0] = nccc_slot_from_i32(5);
  dirty_out();
  nccc_padding_outer_make(in, out);
  check_record("outer_make", out, &want, sizeof want);
}

static void test_unions(void) {
  union u3 u;
  struct holder h;
  /* a union: the bytes of its largest member, then zeros */
  fields_clear();
  FIELD(union u3, 0, b);
  memset(&u, 0, sizeof u);
  u.b[0] = 0x10;
  u.b[1] = 0x11;
  u.b[2] = 0x12;
  in[0] = nccc_slot_from_u8(0x10);
  dirty_out();
  nccc_padding_u3_make(in, out);
  check_record("u3_make", out, &u, sizeof u);

  /* a union inside a struct: the same, at its offset */
  fields_clear();
  FIELD(struct holder, 0, tag);
  FIELD(union u3, offsetof(struct holder, u), b);
  memset(&h, 0, sizeof h);
  h.tag = 't';
  h.u.b[0] = 0x21;
  h.u.b[1] = 0x21 ^ 0xff;
  h.u.b[2] = 7;
  in[0] = nccc_slot_from_u8(0x21);
  dirty_out();
  nccc_padding_holder_out(in, out);
  check_record("holder_out", out, &h, sizeof h);
}

nccc_status (*const harness_register)(void) = nccc_padding_register;
void (*const harness_tests[])(void) = {test_pad, test_outer, test_unions,
                                       NULL};
