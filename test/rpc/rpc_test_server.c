/*
** rpc_test_server.c — the device of the remote-call tests as a Linux
** process: the runtime with module "rpct" and the Cortex-M3 image's
** module "callbacks" (device/fixture, host procedures as its callbacks,
** rpc.claim), served on stdio, a TCP port or a pty
** (nccc_rpc_serve_posix).
*/
#include <stdlib.h>

#include <nccc/rpc_posix.h>

#include "callbacks_nccc.h"
#include "rpc_test_module.h"

/* With RPCT_FILTER set: no reads of device memory, no rpct.count. */
static int filter(void *ctx, uint8_t type, nccc_handle handle) {
  return type != NCCC_RPC_READ && handle != *(const nccc_handle *)ctx;
}

int main(int argc, char **argv) {
  static nccc_handle count;
  rpct_argv = argv;
  if (nccc_init(NULL, 0) != NCCC_OK || rpct_register() != NCCC_OK ||
      nccc_callbacks_register() != NCCC_OK ||
      nccc_rpc_server_serve_callbacks(&rpct_server) != NCCC_OK) {
    return 1;
  }
  if (getenv("RPCT_FILTER") != NULL && nccc_lookup("rpct.count", &count) == NCCC_OK) {
    nccc_rpc_server_filter(&rpct_server, filter, &count);
  }
  return nccc_rpc_serve_posix(&rpct_server, argc, argv);
}
