/* greet.h — the C library of the install test's module "greet": one
** plain function and one that calls back with a context. */
#ifndef GREET_H
#define GREET_H

#include <stdint.h>

int64_t greet_add(int64_t a, int64_t b);
/* step(acc, i, ctx) for i = 1..n, from acc = 0; returns the last acc. */
int greet_fold(int n, int (*step)(int acc, int i, void *ctx), void *ctx);

#endif
