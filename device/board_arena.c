/*
** board_arena.c — the image's allocator: the platform's alloc and free
** (nccc/platform.h) over one fixed static arena of
** NCCC_DEVICE_ARENA_BYTES bytes in .bss (docs/DEVICE.md, "The arena").
** It serves the memory requests of the RPC server (alloc, free) and the
** nccc.alloc built-in; 0 bytes (the smallest configuration) leaves the
** runtime's bare-metal allocator, which always fails.
**
** First fit over blocks laid end to end, each behind an 8-byte header
** (its size, header included, and whether it is in use); a block's
** payload is 8-byte aligned. free marks the block unused; alloc joins
** each unused block with the unused blocks after it as it walks past,
** and splits off what a request does not need.
*/
#include <nccc/nccc.h>

#include "board_arena.h"

#if NCCC_DEVICE_ARENA_BYTES > 0

#define ARENA_ALIGN 8u

typedef struct {
  uint32_t size; /* the block's bytes, header included */
  uint32_t used;
} block_header;

_Static_assert(NCCC_DEVICE_ARENA_BYTES % ARENA_ALIGN == 0,
               "NCCC_DEVICE_ARENA_BYTES is a multiple of 8");
_Static_assert(sizeof(block_header) == ARENA_ALIGN, "a header keeps payloads aligned");

static union {
  uint64_t align;
  unsigned char bytes[NCCC_DEVICE_ARENA_BYTES];
} arena;
static int arena_ready;

static block_header *block_at(size_t offset) {
  return (block_header *)(void *)(arena.bytes + offset);
}

static void *arena_alloc(size_t n) {
  size_t need, offset = 0;
  if (!arena_ready) {
    block_at(0)->size = NCCC_DEVICE_ARENA_BYTES;
    block_at(0)->used = 0;
    arena_ready = 1;
  }
  if (n > NCCC_DEVICE_ARENA_BYTES - sizeof(block_header)) return NULL;
  need = (n + sizeof(block_header) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  while (offset < NCCC_DEVICE_ARENA_BYTES) {
    block_header *b = block_at(offset);
    if (!b->used) {
      while (offset + b->size < NCCC_DEVICE_ARENA_BYTES && !block_at(offset + b->size)->used) {
        b->size += block_at(offset + b->size)->size;
      }
      if (b->size >= need) {
        if (b->size - need >= 2 * ARENA_ALIGN) {
          block_header *rest = block_at(offset + need);
          rest->size = b->size - (uint32_t)need;
          rest->used = 0;
          b->size = (uint32_t)need;
        }
        b->used = 1;
        return b + 1;
      }
    }
    offset += b->size;
  }
  return NULL;
}

static void arena_free(void *p) {
  if (p != NULL) ((block_header *)p - 1)->used = 0;
}

void board_arena_install(void) {
  static const nccc_platform platform = {NULL, arena_alloc, arena_free, NULL, NULL, NULL, NULL};
  nccc_platform_set(&platform);
}

#else

void board_arena_install(void) {}

#endif
