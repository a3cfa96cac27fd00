/* targets.h — the benchmarked C functions. */
#ifndef NCCC_BENCH_TARGETS_H
#define NCCC_BENCH_TARGETS_H

#include <stdint.h>

typedef struct bench_vec3 {
  double x, y, z;
} bench_vec3;

int64_t bench_add(int64_t a, int64_t b);
double bench_mix6(int32_t a, double b, int64_t c, float d, uint8_t e,
                  double f);
bench_vec3 bench_vec3_scale(bench_vec3 v, double k);
/* Only 32-bit integers and doubles: a + b + c + d. */
double bench_mix4(int32_t a, double b, int32_t c, double d);

/* acc = fn(acc, i, ctx) for i = 0 .. n-1, from acc = 0; returns acc. */
int64_t bench_fold(int64_t n, int64_t (*fn)(int64_t acc, int64_t i, void *ctx),
                   void *ctx);
/* The same with a callback that has no context. */
int64_t bench_fold_nc(int64_t n, int64_t (*fn)(int64_t acc, int64_t i));

#endif
