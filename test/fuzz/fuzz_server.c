/*
** fuzz_server.c — libFuzzer target of the server's request decoder
** (nccc_rpc_server_feed): the input is fed to a server as the bytes of
** its link. When the first byte is odd the rest is cut into payloads
** (each a length byte, then that many bytes) and each is sent as a
** well-formed frame, so that the fuzzer reaches the messages behind the
** CRC; when it is even the rest is fed raw. The device's registry holds
** functions without pointers only (a device trusts the host's
** addresses, as nccc_call trusts its caller's), its alloc hook hands
** out a 64 KiB arena, emptied before each input (like a device's heap:
** a size past it fails), and answers go nowhere.
*/
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>

static void add(const uint64_t *in, uint64_t *out) {
  out[0] = in[0] + in[1];
}

static void split(const uint64_t *in, uint64_t *out) {
  out[0] = in[0] >> 32;
  out[1] = in[0] & 0xffffffffu;
}

static _Alignas(16) uint8_t arena[1 << 16];
static size_t arena_used;

static void *arena_alloc(size_t size) {
  size_t at = (arena_used + 15) & ~(size_t)15;
  if (size > sizeof arena - at) return NULL;
  arena_used = at + size;
  return arena + at;
}

static void arena_free(void *p) { (void)p; }

static long no_read(void *ctx, uint8_t *buf, size_t n) {
  (void)ctx;
  (void)buf;
  (void)n;
  return 0;
}

static long discard(void *ctx, const uint8_t *buf, size_t n) {
  (void)ctx;
  (void)buf;
  return (long)n;
}

/* Frames bound for the server, gathered before it sees them. */
static uint8_t stream[1 << 17];
static size_t stream_n;

static int to_stream(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  if (n > sizeof stream - stream_n) return 1;
  memcpy(stream + stream_n, data, n);
  stream_n += n;
  return 0;
}

static nccc_rpc_server server;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  static const nccc_rpc_transport io = {NULL, no_read, discard};
  if (!ready) {
    nccc_platform hooks = {0};
    nccc_handle h;
    hooks.alloc = arena_alloc;
    hooks.free = arena_free;
    nccc_platform_set(&hooks);
    if (nccc_init(NULL, 0) != NCCC_OK ||
        nccc_register("add", add, "ll:l", 0, &h) != NCCC_OK ||
        nccc_register("split", split, "L:II", 0, &h) != NCCC_OK) {
      abort();
    }
    ready = 1;
  }
  arena_used = 0;
  if (nccc_rpc_server_init(&server, &io) != NCCC_OK) abort();
  if (size == 0) return 0;
  if ((data[0] & 1) == 0) {
    nccc_rpc_server_feed(&server, data + 1, size - 1);
    return 0;
  }
  stream_n = 0;
  for (size_t i = 1; i < size;) {
    size_t n = data[i++];
    if (n > size - i) n = size - i;
    if (nccc_rpc_frame_send(data + i, (uint32_t)n, to_stream, NULL) != NCCC_OK) break;
    i += n;
  }
  nccc_rpc_server_feed(&server, stream, stream_n);
  return 0;
}
