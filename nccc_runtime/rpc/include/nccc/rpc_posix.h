/*
** nccc/rpc_posix.h — serving the registry from a POSIX process (a
** device emulated on Linux, under qemu-user or natively): the link is
** chosen by command-line arguments.
*/
#ifndef NCCC_RPC_POSIX_H
#define NCCC_RPC_POSIX_H

#include <nccc/rpc_server.h>
#include <nccc/visibility.h>

/*
** Serves with s on the link args name, until it is gone:
**   (none) or --stdio  standard input and output;
**   --tcp PORT         accepts one connection on 127.0.0.1:PORT (0: any
**                      free port), after printing "port N\n" to stdout;
**   --pty              makes a pseudo-terminal, prints "pty PATH\n" to
**                      stdout and serves its master side.
** The runtime must be initialised and the modules added. Returns 0 when
** the link closes, 2 for bad arguments, 1 when the link cannot be made.
*/
NCCC_API int nccc_rpc_serve_posix(nccc_rpc_server *s, int argc, char **argv);

#endif
