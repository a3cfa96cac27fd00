/*
** main.c — calls the #![no_std] Rust staticlib (lib.rs), which binds the
** generated tour module over a pool on its stack and calls tour.add.
** Exits 0 when both sums are right.
*/
#include <inttypes.h>
#include <stdio.h>

uint32_t nostd_add(int64_t a, int64_t b, int64_t *sum);

int main(void) {
  int64_t first = 0, second = 0;
  uint32_t s1 = nostd_add(40, 2, &first);
  uint32_t s2 = nostd_add(-5, 3, &second);
  printf("nostd_add(40, 2): status %" PRIu32 ", sum %" PRId64 "\n", s1, first);
  printf("nostd_add(-5, 3): status %" PRIu32 ", sum %" PRId64 "\n", s2, second);
  return s1 == 0 && first == 42 && s2 == 0 && second == -2 ? 0 : 1;
}
