/*
** tour_impl.c — the C side of idl/examples/tour.idl, for the generator's
** tests. The IDL has no #include, so this file repeats its types.
*/
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef unsigned long ulong_t;
struct point { int x; int y; };
typedef struct point point_t;
typedef struct { double re, im; } complex_t;
union number { int64_t i; double d; unsigned char bytes[8]; };
struct counter { int next; };
enum color { RED, GREEN = 5, BLUE };

#define ECHO(name, T) \
  T name(T x);        \
  T name(T x) { return x; }
ECHO(echo_char, char)
ECHO(echo_schar, signed char)
ECHO(echo_uchar, unsigned char)
ECHO(echo_short, short)
ECHO(echo_ushort, unsigned short)
ECHO(echo_int, int)
ECHO(echo_uint, unsigned)
ECHO(echo_long, long)
ECHO(echo_ulong, unsigned long)
ECHO(echo_llong, long long)
ECHO(echo_ullong, unsigned long long)
ECHO(echo_i8, int8_t)
ECHO(echo_u8, uint8_t)
ECHO(echo_i16, int16_t)
ECHO(echo_u16, uint16_t)
ECHO(echo_i32, int32_t)
ECHO(echo_u32, uint32_t)
ECHO(echo_i64, int64_t)
ECHO(echo_u64, uint64_t)
ECHO(echo_size, size_t)
ECHO(echo_ssize, ssize_t)
ECHO(echo_intptr, intptr_t)
ECHO(echo_uintptr, uintptr_t)
ECHO(echo_ptrdiff, ptrdiff_t)
ECHO(echo_bool, bool)
ECHO(echo_float, float)
ECHO(echo_double, double)
ECHO(echo_color, enum color)
ECHO(echo_ulong_t, ulong_t)

int64_t add(int64_t a, int64_t b);
int64_t add(int64_t a, int64_t b) { return a + b; }

double mix(int8_t a, uint16_t b, float c, double d, int64_t e, char f);
double mix(int8_t a, uint16_t b, float c, double d, int64_t e, char f) {
  return a + b + c + d + (double)e + f;
}

void nothing(void);
void nothing(void) {}

struct point midpoint(struct point a, point_t b);
struct point midpoint(struct point a, point_t b) {
  struct point r;
  r.x = (a.x + b.x) / 2;
  r.y = (a.y + b.y) / 2;
  return r;
}

complex_t cmul(complex_t a, complex_t b);
complex_t cmul(complex_t a, complex_t b) {
  complex_t r;
  r.re = a.re * b.re - a.im * b.im;
  r.im = a.re * b.im + a.im * b.re;
  return r;
}

union number as_number(double d);
union number as_number(double d) {
  union number n;
  n.d = d;
  return n;
}

int64_t point_sum(int bias, struct point p, int scale);
int64_t point_sum(int bias, struct point p, int scale) {
  return (int64_t)bias + (int64_t)scale * (p.x + p.y);
}

void divmod(int a, int b, int *quot, int *rem);
void divmod(int a, int b, int *quot, int *rem) {
  *quot = a / b;
  *rem = a % b;
}

void bump(int *counter, int by);
void bump(int *counter, int by) { *counter += by; }

void move_point(struct point *p, struct point *old, int dx);
void move_point(struct point *p, struct point *old, int dx) {
  *old = *p;
  p->x += dx;
}

int parse_int(const char *text, const char **rest);
int parse_int(const char *text, const char **rest) {
  char *end;
  long v = strtol(text, &end, 10);
  *rest = end;
  return (int)v;
}

size_t text_length(const char *s);
size_t text_length(const char *s) { return strlen(s); }

int sum_ints(const int *xs, size_t n);
int sum_ints(const int *xs, size_t n) {
  int s = 0;
  size_t i;
  for (i = 0; i < n; i++) s += xs[i];
  return s;
}

double dot3(const double *a, const double *b);
double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

int count_args(const char *const *argv);
int count_args(const char *const *argv) {
  int n = 0;
  while (argv[n] != NULL) n++;
  return n;
}

char *join(const char *a, const char *b);
char *join(const char *a, const char *b) {
  size_t la = a != NULL ? strlen(a) : 0, lb = strlen(b);
  char *r = malloc(la + lb + 1);
  if (r == NULL) return NULL;
  if (la) memcpy(r, a, la);
  memcpy(r + la, b, lb + 1);
  return r;
}

void release(void *p);
void release(void *p) { free(p); }

struct counter *counter_new(int start);
struct counter *counter_new(int start) {
  struct counter *c = malloc(sizeof *c);
  if (c != NULL) c->next = start;
  return c;
}

int counter_next(struct counter *c);
int counter_next(struct counter *c) { return c->next++; }

void counter_free(struct counter *c);
void counter_free(struct counter *c) { free(c); }

const char *color_name(enum color c);
const char *color_name(enum color c) {
  return c == RED ? "red" : c == GREEN ? "green" : c == BLUE ? "blue" : "?";
}

int checked_div(int a, int b);
int checked_div(int a, int b) {
  if (b == 0) {
    errno = EDOM;
    return 0;
  }
  errno = 0;
  return a / b;
}

typedef int (*binop)(int, int);
static int op_add(int a, int b) { return a + b; }
static int op_mul(int a, int b) { return a * b; }
binop pick_op(char which);
binop pick_op(char which) { return which == '*' ? op_mul : op_add; }

int apply(binop op, int a, int b);
int apply(binop op, int a, int b) { return op(a, b); }

/* Not called by name: hosts reach it through [function_pointer]. */
long negate_impl(long x);
long negate_impl(long x) { return -x; }

long parse_long(const char *text, int base);
long parse_long(const char *text, int base) { return strtol(text, NULL, base); }
