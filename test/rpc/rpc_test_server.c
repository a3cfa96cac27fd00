/*
** rpc_test_server.c — the device of the remote-call tests as a Linux
** process: the runtime with module "rpct", served on stdio, a TCP port
** or a pty (nccc_rpc_serve_posix).
*/
#include <nccc/rpc_posix.h>

#include "rpc_test_module.h"

int main(int argc, char **argv) {
  rpct_argv = argv;
  if (nccc_init(NULL, 0) != NCCC_OK || rpct_register() != NCCC_OK) return 1;
  return nccc_rpc_serve_posix(&rpct_server, argc, argv);
}
