/*
** targets.c — the C functions the benchmarks call, in their own
** translation unit so no caller can inline them.
*/
#include "targets.h"

int64_t bench_add(int64_t a, int64_t b) { return a + b; }

double bench_mix6(int32_t a, double b, int64_t c, float d, uint8_t e,
                  double f) {
  return (double)a + b + (double)c + (double)d + (double)e + f;
}

double bench_mix4(int32_t a, double b, int32_t c, double d) {
  return (double)a + b + (double)c + d;
}

bench_vec3 bench_vec3_scale(bench_vec3 v, double k) {
  bench_vec3 r;
  r.x = v.x * k;
  r.y = v.y * k;
  r.z = v.z * k;
  return r;
}

/* The callback benchmarks: a library loop that calls back n times. */
int64_t bench_fold(int64_t n, int64_t (*fn)(int64_t, int64_t, void *),
                   void *ctx) {
  int64_t acc = 0, i;
  for (i = 0; i < n; i++) acc = fn(acc, i, ctx);
  return acc;
}

int64_t bench_fold_nc(int64_t n, int64_t (*fn)(int64_t, int64_t)) {
  int64_t acc = 0, i;
  for (i = 0; i < n; i++) acc = fn(acc, i);
  return acc;
}
