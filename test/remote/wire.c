/*
** wire.c — the C side of module "wire" (wire.idl), the remote-call test
** module: trivial functions whose results show every slot conversion.
** The echo functions and add are test/stubgen/c/tour_impl.c's.
*/
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct mixed { int8_t a; int32_t b; int16_t c; };
struct wide { uint8_t tag; double d; uint64_t u; float f; };
union bits { uint32_t u; float f; uint8_t b[4]; };
struct slab { uint64_t v[64]; };

double blend(int8_t a, uint16_t b, int32_t c, uint64_t d, float e, double f) {
  return a + b * 2.0 + c * 4.0 + (double)d * 8.0 + e * 16.0 + f * 32.0;
}

struct mixed mixed_step(struct mixed m) {
  struct mixed r;
  r.a = (int8_t)-m.a;
  r.b = (int32_t)((uint32_t)m.b + 1u);
  r.c = (int16_t)(m.c * 2);
  return r;
}

struct wide wide_step(struct wide w, double k) {
  struct wide r;
  r.tag = (uint8_t)(w.tag + 1);
  r.d = w.d * k;
  r.u = ~w.u;
  r.f = -w.f;
  return r;
}

union bits bits_of(float f) {
  union bits r;
  r.f = f;
  return r;
}

struct slab slab_turn(struct slab s) {
  struct slab r;
  for (int i = 0; i < 64; i++) r.v[i] = s.v[63 - i] + 1u;
  return r;
}

void div_rem(int32_t a, int32_t b, int32_t *q, int32_t *r) {
  if (b == 0 || (a == INT32_MIN && b == -1)) {
    *q = *r = 0;
    return;
  }
  *q = a / b;
  *r = a % b;
}

int64_t bump_by(int64_t *counter, int64_t by) {
  int64_t old = *counter;
  *counter = (int64_t)((uint64_t)old + (uint64_t)by);
  return old;
}

void split(struct wide *w, struct mixed *m) {
  struct mixed from = {(int8_t)w->tag, (int32_t)w->u, (int16_t)w->f};
  *m = mixed_step(from);
  *w = wide_step(*w, 2.0);
}

int32_t fail_with(int32_t e) {
  if (e == 0) return 0;
  errno = e;
  return -1;
}

size_t length(const char *s) { return strlen(s); }

int32_t compare(const char *a, const char *b) {
  int c = strcmp(a, b);
  return (c > 0) - (c < 0);
}

uint32_t byte_sum(const unsigned char *data, size_t n) {
  uint32_t sum = 0;
  for (size_t k = 0; k < n; k++) sum += (uint32_t)(k + 1) * data[k];
  return sum;
}

const char *number_name(int32_t n) {
  static const char *const names[] = {"zero", "one", "two"};
  return n >= 0 && n < 3 ? names[n] : NULL;
}
