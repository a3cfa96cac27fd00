/*
** rpc_message.c — what both sides do alike: write a whole buffer through
** a write-some function, and answer a refused request with a status
** block (docs/RPC.md, "result").
*/
#include <string.h>

#include "rpc_internal.h"

uint32_t nccci_rpc_refusal(uint8_t *r, nccc_status status) {
  const char *text = nccc_last_error();
  size_t len = strlen(text);
  if (len > NCCC_RPC_MAX_MESSAGE - NCCCI_RPC_RESULT_FIXED - 2) {
    len = NCCC_RPC_MAX_MESSAGE - NCCCI_RPC_RESULT_FIXED - 2;
  }
  nccc_rpc_put32(r + NCCC_RPC_HEADER_BYTES, (uint32_t)status);
  nccc_rpc_put16(r + NCCCI_RPC_RESULT_FIXED, (uint16_t)len);
  memcpy(r + NCCCI_RPC_RESULT_FIXED + 2, text, len);
  return NCCCI_RPC_RESULT_FIXED + 2 + (uint32_t)len;
}

int nccci_rpc_write_all(long (*write_some)(void *, const uint8_t *, size_t), void *ctx,
                        const uint8_t *data, size_t n) {
  while (n > 0) {
    long w = write_some(ctx, data, n);
    if (w <= 0) return 1;
    data += w;
    n -= (size_t)w;
  }
  return 0;
}
