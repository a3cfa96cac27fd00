/*
** demo_lib.c — the C side of the Lua and Scheme demos (examples/demo.lua,
** examples/demo.scm): a shared library holding the nccc runtime and the
** wrappers generated from idl/zlib.idl and idl/sqlite3.idl. A host binds
** nccc_root, calls nccc_demo_open through its one primitive (signature
** ":i", out[0] = status, 0 when both modules are present, also after a
** second call), and finds every zlib and SQLite function by name.
*/
#include <stdint.h>

#include <nccc/nccc.h>

#include "sqlite3_nccc.h"
#include "zlib_nccc.h"

void nccc_demo_open(const uint64_t *in, uint64_t *out);

void nccc_demo_open(const uint64_t *in, uint64_t *out) {
  nccc_status st = nccc_ensure_init();
  uint16_t index;
  (void)in;
  /* a second open finds both modules there: nothing to add */
  if (st == NCCC_OK && nccc_module_find("zlib", &index) != NCCC_OK) {
    st = nccc_zlib_register();
  }
  if (st == NCCC_OK && nccc_module_find("sqlite3", &index) != NCCC_OK) {
    st = nccc_sqlite3_register();
  }
  /* the failed finds above are not this call's error */
  if (st == NCCC_OK) nccc_clear_error();
  out[0] = (uint64_t)st;
}
