/*
** signature.c — counting the slots a signature string describes.
*/
#include "internal.h"

/* One side of a signature, up to ':' or the end. Returns the position
** after it, or NULL if malformed. */
static const char *count_side(const char *p, char stop, uint16_t *out) {
  uint32_t n = 0;
  for (; *p != stop && *p != '\0'; p++) {
    switch (*p) {
      case '?': case 'b': case 'B': case 'h': case 'H': case 'i': case 'I':
      case 'l': case 'L': case 'f': case 'd': case 'p': case 's': case 'F':
      case 'c': /* a closure context (docs/CALLBACKS.md) */
        n++;
        break;
      case 'e':
        if (stop == ':') return NULL; /* errno is an out slot only */
        n++;
        break;
      case '*':
        if (p[1] != stop && p[1] != '\0') return NULL;
        *out = (uint16_t)(n | NCCC_SLOTS_VARIABLE);
        return p + 1;
      case '{': {
        uint32_t slots = 0;
        int digits = 0;
        p++;
        if (*p == '}' || *p == ':') return NULL; /* a struct needs a name */
        while (*p != ':' && *p != '}' && *p != '\0') p++;
        if (*p != ':') return NULL; /* no explicit count: cannot count */
        for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
          slots = slots * 10 + (uint32_t)(*p - '0');
          if (slots > 0x7fff) return NULL;
        }
        if (digits == 0 || slots == 0 || *p != '}') return NULL;
        n += slots;
        break;
      }
      default:
        return NULL;
    }
    if (n > 0x7fff) return NULL;
  }
  *out = (uint16_t)n;
  return p;
}

nccc_status nccc_signature_counts(const char *signature, uint16_t *out_n_in,
                                  uint16_t *out_n_out) {
  const char *p;
  uint16_t n_in, n_out;
  if (signature == NULL || out_n_in == NULL || out_n_out == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "signature", NULL);
  }
  p = count_side(signature, ':', &n_in);
  if (p == NULL || *p != ':') {
    return nccc_fail(NCCC_ERR_BAD_SIGNATURE, "malformed signature", signature);
  }
  p = count_side(p + 1, '\0', &n_out);
  if (p == NULL || *p != '\0') {
    return nccc_fail(NCCC_ERR_BAD_SIGNATURE, "malformed signature", signature);
  }
  *out_n_in = n_in;
  *out_n_out = n_out;
  return NCCC_OK;
}
