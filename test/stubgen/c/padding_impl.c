/* padding_impl.c — the functions of padding.h; every record starts as
** 0xAA bytes, so its padding is dirty unless the wrapper clears it. */
#include <string.h>

#include "padding.h"

struct pad pad_make(char c, double d, short s) {
  struct pad v;
  memset(&v, 0xAA, sizeof v);
  v.c = c;
  v.d = d;
  v.s = s;
  return v;
}

void pad_out(char c, double d, short s, struct pad *p) {
  memset(p, 0xAA, sizeof *p);
  p->c = c;
  p->d = d;
  p->s = s;
}

void pad_bump(struct pad *p) {
  struct pad v;
  memset(&v, 0xAA, sizeof v);
  v.c = (char)(p->c + 1);
  v.d = p->d * 2;
  v.s = (short)(p->s - 1);
  memcpy(p, &v, sizeof v);
}

struct outer outer_make(int seed) {
  struct outer v;
  int i, j;
  memset(&v, 0xAA, sizeof v);
  v.k = (char)seed;
  v.one.a = (char)(seed + 1);
  v.one.b = seed * 1000;
  for (i = 0; i < 2; i++) {
    for (j = 0; j < 2; j++) {
      v.two[i][j].a = (char)(seed + 10 * i + j);
      v.two[i][j].b = -seed - 100 * i - j;
    }
  }
  v.t = (short)-seed;
  return v;
}

union u3 u3_make(uint8_t x) {
  union u3 v;
  memset(&v, 0xAA, sizeof v);
  v.b[0] = x;
  v.b[1] = (uint8_t)(x + 1);
  v.b[2] = (uint8_t)(x + 2);
  return v;
}

void holder_out(uint8_t x, struct holder *h) {
  memset(h, 0xAA, sizeof *h);
  h->tag = 't';
  h->u.b[0] = x;
  h->u.b[1] = (uint8_t)(x ^ 0xff);
  h->u.b[2] = 7;
}
