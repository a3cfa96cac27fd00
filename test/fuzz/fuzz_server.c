/*
** fuzz_server.c — libFuzzer target of the server's request decoder
** (nccc_rpc_server_feed). After its first byte the input is cut into
** payloads (each a length byte, then that many bytes), each sent as a
** well-formed frame, so that the fuzzer reaches the messages behind the
** CRC (garbage and broken frames are fuzz_frame's); the stream is fed in
** pieces of 1 to 256 bytes, as the first byte says.
**
** A device trusts the addresses and functions it is given, as nccc_call
** trusts its caller (docs/RPC.md): so here device memory is a 64 KiB
** arena, which the alloc hook hands out (from its start again for each
** input; its last byte, which no request reaches, always 0), the read, write and strlen requests are pointed
** into it, a call of a built-in goes to the global registry instead, and
** the registry's functions add and split return arena addresses (a
** result the request asks back as a string is read there); call_host
** makes a nested call, whose answer (or whatever else comes) the frames
** that follow give. Answers go nowhere.
*/
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>

enum { ARENA = 1 << 16 };
static _Alignas(16) uint8_t arena[ARENA];
static size_t arena_used;

/* An address in the arena before its last byte. */
static uint64_t in_arena(uint64_t v) {
  return (uint64_t)(uintptr_t)(arena + v % (ARENA - 1));
}

static void add(const uint64_t *in, uint64_t *out) {
  out[0] = in_arena(in[0] + in[1]);
}

static void split(const uint64_t *in, uint64_t *out) {
  out[0] = in_arena(in[0] >> 32);
  out[1] = in_arena(in[0] & 0xffffffffu);
}

static nccc_rpc_server server;

/* A callback across the wire: a nested call of host handle in[0] with
** in[1] % 3 of the slots in[2], in[3] and one result, so that the frames
** after the request reach the server's nested states (its waits, the
** requests served one level deeper, copies, answers of other levels,
** giving up). out: the status, the result. */
static void call_host(const uint64_t *in, uint64_t *out) {
  out[0] = (uint64_t)nccc_rpc_server_call_host(&server, (nccc_handle)in[0], in + 2,
                                               (size_t)(in[1] % 3), out + 1, 1);
}

static void *arena_alloc(size_t size) {
  size_t at = (arena_used + 15) & ~(size_t)15;
  if (at >= ARENA - 1 || size > ARENA - 1 - at) return NULL;
  arena_used = at + size;
  return arena + at;
}

static void arena_free(void *p) { (void)p; }

static uint16_t builtin_module;

/* The payload p (n bytes) as the harness sends it: memory requests
** inside the arena, calls of built-ins sent to the global registry. */
static void confine(uint8_t *p, size_t n) {
  uint8_t type = n ? p[0] : 0;
  if ((type == NCCC_RPC_READ || type == NCCC_RPC_WRITE || type == NCCC_RPC_STRLEN) &&
      n >= 16) {
    uint32_t count = type != NCCC_RPC_STRLEN && n >= 20 ? nccc_rpc_get32(p + 16) : 0;
    uint64_t address = nccc_rpc_get64(p + 8);
    uint64_t offset = count < ARENA - 1 ? address % (ARENA - 1 - count) : 0;
    nccc_rpc_put64(p + 8, (uint64_t)(uintptr_t)(arena + offset));
  } else if (type == NCCC_RPC_CALL && n >= 12) {
    uint32_t handle = nccc_rpc_get32(p + 8);
    if (((handle >> 16) & 0x7fffu) == builtin_module) {
      handle = (handle & 0x8000ffffu) | ((uint32_t)NCCC_GLOBAL_MODULE << 16);
      nccc_rpc_put32(p + 8, handle);
    }
  }
}

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  static const nccc_rpc_transport io = {NULL, no_read, discard};
  static uint8_t payload[256];
  size_t piece;
  if (!ready) {
    nccc_platform hooks = {0};
    nccc_handle h;
    hooks.alloc = arena_alloc;
    hooks.free = arena_free;
    nccc_platform_set(&hooks);
    if (nccc_init(NULL, 0) != NCCC_OK ||
        nccc_register("add", add, "ll:p", 0, &h) != NCCC_OK ||
        nccc_register("split", split, "L:pp", 0, &h) != NCCC_OK ||
        nccc_register("call_host", call_host, "LLLL:iL", 0, &h) != NCCC_OK ||
        nccc_module_find("nccc", &builtin_module) != NCCC_OK) {
      abort();
    }
    ready = 1;
  }
  arena_used = 0;
  if (nccc_rpc_server_init(&server, &io) != NCCC_OK) abort();
  if (size == 0) return 0;
  piece = (size_t)data[0] + 1;
  stream_n = 0;
  for (size_t i = 1; i < size;) {
    size_t n = data[i++];
    if (n > size - i) n = size - i;
    memcpy(payload, data + i, n);
    confine(payload, n);
    if (nccc_rpc_frame_send(payload, (uint32_t)n, to_stream, NULL) != NCCC_OK) break;
    i += n;
  }
  for (size_t at = 0; at < stream_n; at += piece) {
    nccc_rpc_server_feed(&server, stream + at, stream_n - at < piece ? stream_n - at : piece);
  }
  return 0;
}
