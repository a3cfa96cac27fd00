/* greet_device.c — the install test's device: module greet served by the
** remote-call server on this process's stdin and stdout (nccc::rpc_posix). */
#include <stdio.h>

#include <nccc/nccc.h>
#include <nccc/rpc_posix.h>

#include "greet_nccc.h"

static nccc_rpc_server server;

int main(int argc, char **argv) {
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_greet_register() != NCCC_OK) {
    fprintf(stderr, "greet_device: %s\n", nccc_last_error());
    return 1;
  }
  return nccc_rpc_serve_posix(&server, argc, argv);
}
