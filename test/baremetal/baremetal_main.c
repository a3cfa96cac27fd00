/* A bare-metal program using the runtime core: proves that it links
** without malloc, stdio or threads on a Cortex-M3 with newlib. */
#include <nccc/nccc.h>

static void add(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(nccc_slot_to_i64(in[0]) + nccc_slot_to_i64(in[1]));
}

static uint64_t registry_block[64];

int main(void) {
  uint64_t in[2] = {40, 2}, out[1] = {0};
  nccc_handle h;
  if (nccc_init(registry_block, sizeof registry_block) != NCCC_OK) return 1;
  if (nccc_register("add", add, "ll:l", 0, &h) != NCCC_OK) return 2;
  if (nccc_lookup("add", &h) != NCCC_OK) return 3;
  if (nccc_call_checked(h, in, 2, out, 1) != NCCC_OK) return 4;
  return out[0] == 42 ? 0 : 5;
}
