/*
** rpc_memory.c — the remote-memory requests: alloc, free, read, write,
** strlen (docs/RPC.md, "Remote memory"). Blocks from alloc are kept in
** a table so that free, read, write and strlen refuse a freed one.
*/
#include <string.h>

#include "rpc_internal.h"

#if NCCC_WITH_REMOTE_MEMORY

/* The block of the table holding address (live first, then freed), or
** NULL. */
static nccc_rpc_block *block_at(nccc_rpc_server *s, uintptr_t address) {
  nccc_rpc_block *freed = NULL;
  for (size_t i = 0; i < NCCC_RPC_MAX_ALLOCS; i++) {
    nccc_rpc_block *b = &s->blocks[i];
    if (b->state == 0 || address < b->address ||
        address - b->address >= (b->size ? b->size : 1)) {
      continue;
    }
    if (b->state == 1) return b;
    freed = b;
  }
  return freed;
}

void nccci_rpc_free_all(nccc_rpc_server *s) {
  const nccc_platform *pl = nccc_platform_get();
  for (size_t i = 0; i < NCCC_RPC_MAX_ALLOCS; i++) {
    if (s->blocks[i].state == 1) pl->free((void *)s->blocks[i].address);
    s->blocks[i].state = 0;
  }
}

/* An address from the wire as a device pointer: it must fit. */
static nccc_status address_of(uint64_t wire, uintptr_t *out) {
  if (wire > (uint64_t)UINTPTR_MAX) {
    return nccc_fail(NCCC_ERR_RPC_WORD_SIZE, "rpc", "address wider than a device pointer");
  }
  *out = (uintptr_t)wire;
  return NCCC_OK;
}

/* Refuses an address inside a freed block that no live block holds. */
static nccc_status not_freed(nccc_rpc_server *s, uintptr_t address) {
  nccc_rpc_block *b = block_at(s, address);
  if (b != NULL && b->state == 2) {
    return nccc_fail(NCCC_ERR_RPC_FREED, "rpc", "the remote block was freed");
  }
  return NCCC_OK;
}

static nccc_status do_alloc(nccc_rpc_server *s, uint64_t size, uintptr_t *out) {
  nccc_rpc_block *slot = NULL;
  void *p;
  if (size > (uint64_t)SIZE_MAX) {
    return nccc_fail(NCCC_ERR_RPC_WORD_SIZE, "rpc", "size wider than the device's size_t");
  }
  /* reuse an unused entry first, then the oldest memory of a freed one */
  for (size_t i = 0; i < NCCC_RPC_MAX_ALLOCS && slot == NULL; i++) {
    if (s->blocks[i].state == 0) slot = &s->blocks[i];
  }
  for (size_t i = 0; i < NCCC_RPC_MAX_ALLOCS && slot == NULL; i++) {
    if (s->blocks[i].state == 2) slot = &s->blocks[i];
  }
  if (slot == NULL) {
    return nccc_fail(NCCC_ERR_POOL_EXHAUSTED, "rpc",
                     "NCCC_RPC_MAX_ALLOCS blocks are live");
  }
  p = nccc_platform_get()->alloc(size ? (size_t)size : 1);
  if (p == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", "alloc failed");
  slot->address = (uintptr_t)p;
  slot->size = (size_t)size;
  slot->state = 1;
  *out = (uintptr_t)p;
  return NCCC_OK;
}

static nccc_status do_free(nccc_rpc_server *s, uintptr_t address) {
  nccc_rpc_block *b = block_at(s, address);
  if (b == NULL || b->address != address) {
    return nccc_fail(NCCC_ERR_RPC_FREED, "rpc", "not a block from the alloc message");
  }
  if (b->state == 2) return nccc_fail(NCCC_ERR_RPC_FREED, "rpc", "the block was freed already");
  nccc_platform_get()->free((void *)address);
  b->state = 2;
  return NCCC_OK;
}

uint32_t nccci_rpc_memory(nccc_rpc_server *s, uint8_t type, const uint8_t *p,
                          uint32_t n, uint8_t *r) {
  const uint32_t body = NCCC_RPC_HEADER_BYTES;
  const uint32_t room = NCCC_RPC_MAX_MESSAGE - NCCCI_RPC_RESULT_FIXED;
  uintptr_t address = 0;
  uint32_t len = NCCCI_RPC_RESULT_FIXED;
  nccc_status st;
  uint32_t count = 0;
  if (n < body + 8) return nccci_rpc_refusal(r, nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "short memory request"));
  st = type == NCCC_RPC_ALLOC ? do_alloc(s, nccc_rpc_get64(p + body), &address)
                              : address_of(nccc_rpc_get64(p + body), &address);
  if (st == NCCC_OK && (type == NCCC_RPC_READ || type == NCCC_RPC_WRITE)) {
    count = n >= body + 12 ? nccc_rpc_get32(p + body + 8) : 0;
    if (n != body + 12 + (type == NCCC_RPC_WRITE ? (uint64_t)count : 0)) {
      st = nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "memory request of the wrong length");
    } else if (type == NCCC_RPC_READ && count > room - 4) {
      st = nccc_fail(NCCC_ERR_RPC_TOO_BIG, "rpc", "read larger than a message");
    }
  } else if (st == NCCC_OK && n != body + 8) {
    st = nccc_fail(NCCC_ERR_RPC_PROTOCOL, "rpc", "memory request of the wrong length");
  }
  if (st == NCCC_OK && type != NCCC_RPC_ALLOC && type != NCCC_RPC_FREE) {
    st = not_freed(s, address);
    if (st == NCCC_OK && count > 1) st = not_freed(s, address + count - 1);
  }
  if (st == NCCC_OK && type == NCCC_RPC_FREE) st = do_free(s, address);
  if (st != NCCC_OK) return nccci_rpc_refusal(r, st);
  switch (type) {
    case NCCC_RPC_ALLOC:
      nccc_rpc_put64(r + len, (uint64_t)address);
      len += 8;
      break;
    case NCCC_RPC_READ:
      nccc_rpc_put32(r + len, count);
      if (count) memcpy(r + len + 4, (const void *)address, count);
      len += 4 + count;
      break;
    case NCCC_RPC_WRITE:
      if (count) memcpy((void *)address, p + body + 12, count);
      break;
    case NCCC_RPC_STRLEN:
      nccc_rpc_put64(r + len, (uint64_t)strlen((const char *)address));
      len += 8;
      break;
    default: /* free: done above */
      break;
  }
  nccc_rpc_put32(r + NCCC_RPC_HEADER_BYTES, NCCC_OK);
  return len;
}

#endif /* NCCC_WITH_REMOTE_MEMORY */
