/*
** wire_device.c — the test device: the modules "wire" (wire.idl),
** "libc" (idl/libc.idl), "keep" (keep.idl) and "cdata"
** (test/cdata/cdata.idl) served by the remote-call
** server, the same program on x86-64 and, built by test/cross/, on
** 32-bit ARM and big-endian MIPS under qemu-user. The link is chosen by
** the arguments of nccc_rpc_serve_posix (nccc/rpc_posix.h): none for
** stdin/stdout, --tcp PORT, --pty. It serves the host's closures as
** callbacks (rpc.claim), for keep's closure sets and callbacks. Built for
** Windows (test/cross/ with cmake/NcccWindowsToolchain.cmake, run under
** wine) it also serves the module "win32" (test/windows/win32.idl), on
** stdin/stdout only (nccc_rpc_serve_windows).
*/
#include <stdio.h>

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>
#ifdef _WIN32
#include <nccc/rpc_windows.h>

#include "win32_nccc.h"
#else
#include <nccc/rpc_posix.h>
#endif

#include "cdata_nccc.h"
#include "keep_nccc.h"
#include "libc_nccc.h"
#include "wire_nccc.h"

/* The server and its buffers: static, as on a device. */
static nccc_rpc_server server;

int main(int argc, char **argv) {
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_wire_register() != NCCC_OK ||
      nccc_libc_register() != NCCC_OK || nccc_keep_register() != NCCC_OK ||
      nccc_cdata_register() != NCCC_OK ||
      nccc_rpc_server_serve_callbacks(&server) != NCCC_OK) {
    fprintf(stderr, "wire_device: %s\n", nccc_last_error());
    return 1;
  }
#ifdef _WIN32
  if (nccc_win32_register() != NCCC_OK) {
    fprintf(stderr, "wire_device: %s\n", nccc_last_error());
    return 1;
  }
  return nccc_rpc_serve_windows(&server, argc, argv);
#else
  return nccc_rpc_serve_posix(&server, argc, argv);
#endif
}
