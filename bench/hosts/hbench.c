/*
** hbench.c — nccc_hbench_open: adds the bench module to the runtime of
** libnccc_hbench.so. A host binds nccc_root, calls this through its
** primitive (signature ":i": out[0] = status), then finds bench.add and
** bench.fold by name.
*/
#include <stdint.h>

#include <nccc/nccc.h>

#include "bench_nccc.h"

void nccc_hbench_open(const uint64_t *in, uint64_t *out);

void nccc_hbench_open(const uint64_t *in, uint64_t *out) {
  uint16_t index;
  nccc_status st = nccc_ensure_init();
  (void)in;
  /* a second open finds the module there already */
  if (st == NCCC_OK && nccc_module_find(nccc_bench_module.name, &index) != NCCC_OK) {
    st = nccc_module_add(&nccc_bench_module, NULL);
  }
  if (st == NCCC_OK) nccc_clear_error();
  out[0] = (uint64_t)st;
}
