/*
** edges_impl.c — the C side of test/kitchen/edges.idl. The IDL has no
** #include, so this file repeats its types.
*/
#include <errno.h>
#include <stdint.h>
#include <string.h>

struct triple { int32_t a, b, c; };
struct rgb { uint8_t r, g, b; };
union half { uint16_t h[2]; uint8_t b[4]; };

struct triple triple_make(int32_t a, int32_t b, int32_t c);
struct triple triple_make(int32_t a, int32_t b, int32_t c) {
  struct triple t;
  t.a = a;
  t.b = b;
  t.c = c;
  return t;
}

struct rgb rgb_invert(struct rgb c);
struct rgb rgb_invert(struct rgb c) {
  c.r = (uint8_t)(255 - c.r);
  c.g = (uint8_t)(255 - c.g);
  c.b = (uint8_t)(255 - c.b);
  return c;
}

union half half_of(uint16_t lo, uint16_t hi);
union half half_of(uint16_t lo, uint16_t hi) {
  union half u;
  u.h[0] = lo;
  u.h[1] = hi;
  return u;
}

int64_t weigh(uint8_t tag, struct triple t, struct rgb c, int8_t last);
int64_t weigh(uint8_t tag, struct triple t, struct rgb c, int8_t last) {
  return (int64_t)tag * 1000000000000 + (int64_t)t.a * 1000000 +
         (int64_t)t.b * 1000 + t.c + (c.r + c.g + c.b) * 10 + last;
}

int32_t spread(int32_t v, int32_t *hi, struct triple *t, struct rgb *c,
               uint8_t *lo);
int32_t spread(int32_t v, int32_t *hi, struct triple *t, struct rgb *c,
               uint8_t *lo) {
  *hi = v >> 16;
  t->a += v;
  t->b -= v;
  t->c = -t->c;
  c->r = 1;
  c->g = 2;
  c->b = 3;
  *lo = (uint8_t)v;
  errno = ERANGE;
  return -v;
}

void float_outs(float x, float *neg, double *acc);
void float_outs(float x, float *neg, double *acc) {
  *neg = -x;
  *acc += x;
}

int32_t leave_errno(int32_t v);
int32_t leave_errno(int32_t v) { return v + 1; }

int32_t raise_errno(int32_t e);
int32_t raise_errno(int32_t e) {
  errno = e;
  return -1;
}

/* Dereferences every [nonnull] pointer without a check: a NULL that got
** past the wrapper would crash here. */
static int32_t nonnull_count;

int32_t nonnull_sum(const char *s, const int32_t *p, const int32_t *q,
                    const char **word, int32_t *len);
int32_t nonnull_sum(const char *s, const int32_t *p, const int32_t *q,
                    const char **word, int32_t *len) {
  nonnull_count++;
  *len = (int32_t)strlen(s);
  if (**word != '\0') (*word)++;
  errno = EDOM;
  return *p + (q != NULL ? *q : 100);
}

int32_t nonnull_calls(void);
int32_t nonnull_calls(void) { return nonnull_count; }

typedef int32_t visit_fn(int32_t v, void *ctx);
int32_t nonnull_visit(const int32_t *v, visit_fn *fn, void *ctx);
int32_t nonnull_visit(const int32_t *v, visit_fn *fn, void *ctx) {
  nonnull_count++;
  return fn(*v, ctx);
}

int32_t visit_both(visit_fn *a, void *ca, visit_fn *b, void *cb);
int32_t visit_both(visit_fn *a, void *ca, visit_fn *b, void *cb) {
  nonnull_count++;
  return a(1, ca) + b(10, cb);
}
