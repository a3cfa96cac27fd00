/*
** signature.c — counting the slots a signature string describes.
*/
#include "internal.h"

/* One side of a signature, up to the separator or the end. Returns the position
** after it, or NULL if malformed. */
static const char *count_side(const char *p, char stop, uint16_t *out) {
  uint32_t n = 0;
  for (; *p != stop && *p != '\0'; p++) {
    switch (*p) {
      /* one slot per code, where its side allows it (errno: out only) */
#define NCCC_CODE_CASE(code, name, kind, bytes, is_signed, in_ok, out_ok) \
  case code:                                                              \
    if (!(stop == NCCC_ABI_SIG_SEPARATOR ? in_ok : out_ok)) return NULL;  \
    n++;                                                                  \
    break;
      NCCC_ABI_CODES(NCCC_CODE_CASE)
#undef NCCC_CODE_CASE
      case NCCC_ABI_SIG_VARIADIC:
        if (p[1] != stop && p[1] != '\0') return NULL;
        *out = (uint16_t)(n | NCCC_SLOTS_VARIABLE);
        return p + 1;
      case NCCC_ABI_SIG_RECORD_OPEN: {
        uint32_t slots = 0;
        int digits = 0;
        p++;
        if (*p == NCCC_ABI_SIG_RECORD_CLOSE || *p == NCCC_ABI_SIG_RECORD_COUNT) {
          return NULL; /* a struct needs a name */
        }
        while (*p != NCCC_ABI_SIG_RECORD_COUNT && *p != NCCC_ABI_SIG_RECORD_CLOSE &&
               *p != '\0') {
          p++;
        }
        if (*p != NCCC_ABI_SIG_RECORD_COUNT) return NULL; /* no count given */
        for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
          slots = slots * 10 + (uint32_t)(*p - '0');
          if (slots > NCCC_ABI_MAX_SLOTS) return NULL;
        }
        if (digits == 0 || slots == 0 || *p != NCCC_ABI_SIG_RECORD_CLOSE) {
          return NULL;
        }
        n += slots;
        break;
      }
      default:
        return NULL;
    }
    if (n > NCCC_ABI_MAX_SLOTS) return NULL;
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
  p = count_side(signature, NCCC_ABI_SIG_SEPARATOR, &n_in);
  if (p == NULL || *p != NCCC_ABI_SIG_SEPARATOR) {
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
