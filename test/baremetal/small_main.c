/* The runtime core built without trace, faults, thunks and the TVM layer
** (nccc/config.h) on a Cortex-M3: a registered function is called, and
** the built-ins of the left-out features keep their places but answer
** that they are not there. */
#include <nccc/nccc.h>

#if NCCC_WITH_TRACE || NCCC_WITH_FAULTS || NCCC_WITH_THUNKS || NCCC_WITH_TVM
#error "build with every NCCC_WITH_* switch 0"
#endif

static void add(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(nccc_slot_to_i64(in[0]) + nccc_slot_to_i64(in[1]));
}

static uint64_t registry_block[64];

/* Calls built-in name with zeroed in slots; returns its status slot. */
static uint64_t builtin_status(const char *name) {
  uint64_t in[8] = {0}, out[8] = {0};
  nccc_handle h;
  if (nccc_lookup(name, &h) != NCCC_OK) return ~(uint64_t)0;
  if (nccc_call(h, in, out) != NCCC_OK) return ~(uint64_t)0;
  return out[0];
}

int main(void) {
  uint64_t in[2] = {40, 2}, out[1] = {0};
  nccc_handle h;
  if (nccc_init(registry_block, sizeof registry_block) != NCCC_OK) return 1;
  if (nccc_register("add", add, "ll:l", 0, &h) != NCCC_OK) return 2;
  if (nccc_call_checked(h, in, 2, out, 1) != NCCC_OK || out[0] != 42) return 3;
  if (builtin_status("nccc.trace_clear") != NCCC_ERR_NOT_IMPLEMENTED) return 4;
  if (builtin_status("nccc.fault_disarm") != NCCC_ERR_NOT_IMPLEMENTED) return 5;
  if (builtin_status("nccc.closure_stats") != NCCC_OK) return 6;
  return 0;
}
