/*
** nccc/rpc_windows.h — serving the registry from a Windows process (a
** device run natively or under wine): the link is the process's standard
** input and output, as a pipe a host's client starts it on.
*/
#ifndef NCCC_RPC_WINDOWS_H
#define NCCC_RPC_WINDOWS_H

#include <nccc/rpc_server.h>
#include <nccc/visibility.h>

/*
** Serves with s on the standard input and output handles until the link
** is gone; args: none, or --stdio. The runtime must be initialised and
** the modules added (and nccc_rpc_server_serve_callbacks called, for
** callbacks: the server's initialisation keeps it). Returns 0 when the link closes, 2 for bad arguments,
** 1 when the server cannot start.
*/
NCCC_API int nccc_rpc_serve_windows(nccc_rpc_server *s, int argc, char **argv);

#endif
