/*
** names.c — TVM's names blob: u16 count (native endian), then each name
** and its NUL, then one more NUL.
*/
#include <string.h>

#include "internal.h"

uint16_t nccc_names_count(const char *names) {
  uint16_t n;
  if (names == NULL) return 0;
  memcpy(&n, names, sizeof n); /* the blob has no alignment guarantee */
  return n;
}

const char *nccc_names_get(const char *names, uint16_t i) {
  const char *p;
  uint16_t k;
  if (i >= nccc_names_count(names)) return NULL;
  p = names + sizeof(uint16_t);
  for (k = 0; k < i; k++) p += strlen(p) + 1;
  return p;
}

size_t nccci_strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n <= max && s[n] != '\0') n++;
  return n;
}
