/*
** rpc_test_client.h — what the client tests share: starting the test
** server (rpc_test_server) and opening a remote to it.
*/
#ifndef RPC_TEST_CLIENT_H
#define RPC_TEST_CLIENT_H

#include <nccc/remote.h>

#include "nccc_check.h"

/* A remote to a fresh test server on pipes; fails the test otherwise. */
nccc_remote *rpct_open(void);

/* The handle of device function name; fails the test otherwise. */
nccc_handle rpct_lookup(nccc_remote *r, const char *name);

/* Calls device function name with raw slots; returns the status. */
nccc_status rpct_call(nccc_remote *r, const char *name, const uint64_t *in, size_t n_in,
                      uint64_t *out, size_t n_out);

/* rpct.count: how often count (and sleep_ms, call_host) ran on the
** device, this call included; fails the test when the call fails. */
uint64_t rpct_count(nccc_remote *r);

/* rpct.server_stat(which): a counter of the device's server (RPCT_...),
** or its nesting level. */
uint64_t rpct_stat(nccc_remote *r, int which);

/* Starts the test server with arguments arg and value (--tcp 0, or --pty
** and NULL) and reads
** the line it prints ("port N" or "pty PATH") into line; returns its pid. */
long rpct_spawn(const char *arg, const char *value, char *line, size_t size);

/* Ends a server rpct_spawn started. */
void rpct_reap(long pid);

#endif
