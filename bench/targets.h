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

#endif
