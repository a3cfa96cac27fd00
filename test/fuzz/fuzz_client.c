/*
** fuzz_client.c — libFuzzer target of the client's response decoder
** (nccc_remote_decode_result): the input's first byte is the number of
** out slots the call expects (0..NCCC_RPC_MAX_SLOTS), the rest one
** result message. The out buffer is exactly that many slots on the heap,
** so a write past it is ASan's finding; on success the status must be
** one the decoder can return.
*/
#include <stdlib.h>

#include <nccc/remote.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  nccc_status status = NCCC_OK;
  size_t n_out;
  uint64_t *out;
  if (size == 0) return 0;
  n_out = data[0] % (NCCC_RPC_MAX_SLOTS + 1);
  out = malloc(n_out ? n_out * sizeof *out : 1);
  if (out == NULL) abort();
  nccc_status st = nccc_remote_decode_result(data + 1, size - 1, n_out, &status, out);
  if (st != NCCC_OK && st != NCCC_ERR_RPC_PROTOCOL) abort();
  free(out);
  return 0;
}
