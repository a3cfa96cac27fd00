/*
** fuzz_frame.c — libFuzzer target of the frame decoder (nccc_rpc_decode):
** any byte stream, fed in pieces whose sizes the input's first byte
** chooses. Besides the sanitizers' checks, every frame the decoder
** accepts must come back unchanged through the encoder and a fresh
** decoder, and the decoder must always make progress.
*/
#include <stdlib.h>
#include <string.h>

#include <nccc/rpc_frame.h>

enum { CAP = 256 };

typedef struct sink_buffer {
  uint8_t bytes[2 * CAP + 16];
  size_t n;
} sink_buffer;

static int to_buffer(void *ctx, const uint8_t *data, size_t n) {
  sink_buffer *b = ctx;
  if (n > sizeof b->bytes - b->n) abort(); /* an encoding longer than 2x */
  memcpy(b->bytes + b->n, data, n);
  b->n += n;
  return 0;
}

/* The frame just decoded, encoded again and decoded by a new decoder. */
static void round_trip(const uint8_t *payload, uint32_t length) {
  static sink_buffer encoded;
  static uint8_t again[CAP];
  nccc_rpc_decoder d;
  size_t used = 0;
  encoded.n = 0;
  if (nccc_rpc_frame_send(payload, length, to_buffer, &encoded) != NCCC_OK) abort();
  nccc_rpc_decoder_init(&d, again, CAP);
  if (nccc_rpc_decode(&d, encoded.bytes, encoded.n, &used) != NCCC_RPC_FRAME_OK ||
      used != encoded.n || d.length != length ||
      memcmp(again, payload, length) != 0) {
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t payload[CAP];
  nccc_rpc_decoder d;
  size_t piece;
  if (size == 0) return 0;
  piece = (size_t)data[0] % 17 + 1;
  data++;
  size--;
  nccc_rpc_decoder_init(&d, payload, CAP);
  while (size > 0) {
    size_t n = size < piece ? size : piece, used = 0;
    nccc_rpc_frame_event ev = nccc_rpc_decode(&d, data, n, &used);
    /* progress, and "more" only when every byte was used */
    if (used == 0 || used > n || (ev == NCCC_RPC_FRAME_MORE && used != n)) {
      abort();
    }
    if (ev == NCCC_RPC_FRAME_OK) {
      if (d.length > CAP) abort();
      round_trip(payload, d.length);
    }
    data += used;
    size -= used;
  }
  return 0;
}
