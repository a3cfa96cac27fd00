/*
** closure_type.c — callback types: the number a typed closure records
** (docs/ABI.md, "Closure types"), and the words a mismatch is reported in.
*/
#include "internal.h"

#if NCCC_WITH_CLOSURES

uint32_t nccc_closure_type(const char *signature) {
  uint32_t h;
  if (signature == NULL) return NCCC_CLOSURE_UNTYPED;
  h = nccci_fnv1a(signature);
  return h == NCCC_CLOSURE_UNTYPED ? NCCC_CLOSURE_TYPE_ZERO_BECOMES : h;
}

/* Appends src to buf (size bytes) at *pos, always NUL-terminated. */
static void append(char *buf, size_t size, size_t *pos, const char *src) {
  while (*src != '\0' && *pos + 1 < size) buf[(*pos)++] = *src++;
  buf[*pos] = '\0';
}

void nccci_closure_sig_keep(char *dst, const char *signature) {
  static const char cut[] = "...";
  size_t pos = 0;
  const char *sig = signature != NULL ? signature : "(untyped)";
  append(dst, NCCCI_CLOSURE_SIG_KEEP, &pos, sig);
  if (sig[pos] != '\0') { /* too long: end in "..." */
    memcpy(dst + NCCCI_CLOSURE_SIG_KEEP - sizeof cut, cut, sizeof cut);
  }
}

nccc_status nccci_closure_type_mismatch(const char *have,
                                        const nccc_callback_type *type) {
  char text[NCCC_ERROR_MESSAGE_BYTES];
  size_t pos = 0;
  append(text, sizeof text, &pos, "a closure of '");
  append(text, sizeof text, &pos, have);
  append(text, sizeof text, &pos, "' called as ");
  append(text, sizeof text, &pos, type->name != NULL ? type->name : "a callback");
  append(text, sizeof text, &pos, " '");
  append(text, sizeof text, &pos, type->signature != NULL ? type->signature : "?");
  append(text, sizeof text, &pos, "'; not called");
  return nccc_fail(NCCC_ERR_WRONG_ARG_TYPE, "callback type mismatch", text);
}

const nccc_callback_type nccc_callback_untyped = {NCCC_CLOSURE_UNTYPED, "untyped", NULL};

#endif /* NCCC_WITH_CLOSURES */
