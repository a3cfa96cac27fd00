/*
** callbacks_impl.c — the C side of test/stubgen/idl/cbk.idl.
*/
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

double reduce(const float *xs, size_t n, double init,
              double (*fn)(double, float, void *), void *ud) {
  size_t i;
  for (i = 0; i < n; i++) init = fn(init, xs[i], ud);
  return init;
}

int count_if(const char *s, bool (*pred)(char, const void *), const void *ud) {
  int n = 0;
  if (pred == NULL) return -1;
  for (; *s; s++) n += pred(*s, ud) ? 1 : 0;
  return n;
}

/* Reads values until the callback returns 0 or fails (errno from it). */
int read_all(int (*rd)(void *, int *, long *), void *cookie, int *sum) {
  long budget = 10;
  int v = 0, r;
  *sum = 0;
  while ((r = rd(cookie, &v, &budget)) > 0) *sum += v;
  return r < 0 ? r : (int)budget;
}

int tick_n(int n, void (*t)(int, int, int)) {
  int i;
  if (t == NULL) return -1;
  for (i = 0; i < n; i++) t(i, i * 10, i * 100);
  return n;
}

int name_both(const char *(*a)(int, void *), const char *(*b)(int, void *),
              void *ud, char *first) {
  const char *x = a(1, ud), *y = b(2, ud);
  *first = x != NULL ? x[0] : '?';
  return (int)((x ? strlen(x) : 0) * 10 + (y ? strlen(y) : 0));
}

static const char *(*sub_fn)(int, void *);
static void *sub_ud;
static void (*sub_done)(void *);

int subscribe(const char *(*fn)(int, void *), void *ud, void (*done)(void *)) {
  sub_fn = fn;
  sub_ud = ud;
  sub_done = done;
  return fn != NULL && done != NULL ? 1 : fn == NULL && done == NULL ? 0 : -1;
}

int notify(int id) {
  const char *s;
  if (sub_fn == NULL) return -1;
  s = sub_fn(id, sub_ud);
  return s != NULL ? (int)strlen(s) : -2;
}

void unsubscribe(void) {
  if (sub_done != NULL) sub_done(sub_ud);
  sub_fn = NULL;
  sub_done = NULL;
}

int apply(int x, void (*t)(int, int, int)) {
  t(x, x + 1, x + 2);
  return x * 2;
}
