/* greet.c — the C library the install test binds (greet.h). */
#include "greet.h"

int64_t greet_add(int64_t a, int64_t b) { return a + b; }

int greet_fold(int n, int (*step)(int acc, int i, void *ctx), void *ctx) {
  int acc = 0;
  for (int i = 1; i <= n; i++) acc = step(acc, i, ctx);
  return acc;
}
