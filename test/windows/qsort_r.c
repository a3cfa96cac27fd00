/*
** qsort_r.c — glibc's qsort_r for the Windows build of the callback
** tests (test/callbacks/cbt.idl binds it; the C library of Windows has
** qsort_s, whose comparison takes its arguments in another order). An
** insertion sort: the tests sort a few elements.
*/
#include <stddef.h>

void qsort_r(void *base, size_t n, size_t size,
             int (*compar)(const void *, const void *, void *), void *arg);

static void swap(unsigned char *a, unsigned char *b, size_t size) {
  while (size-- > 0) {
    unsigned char t = *a;
    *a++ = *b;
    *b++ = t;
  }
}

void qsort_r(void *base, size_t n, size_t size,
             int (*compar)(const void *, const void *, void *), void *arg) {
  unsigned char *b = base;
  size_t i, j;
  for (i = 1; i < n; i++) {
    for (j = i; j > 0 && compar(b + (j - 1) * size, b + j * size, arg) > 0; j--) {
      swap(b + (j - 1) * size, b + j * size, size);
    }
  }
}
