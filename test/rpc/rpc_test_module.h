/*
** rpc_test_module.h — the module "rpct" the test server serves, and the
** server object its callback function reaches.
*/
#ifndef RPC_TEST_MODULE_H
#define RPC_TEST_MODULE_H

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>

/* Adds module "rpct" to the runtime (NCCC_OK or the module_add error). */
nccc_status rpct_register(void);

/* The server the test server runs (rpct.call_host calls the host
** through it). */
extern nccc_rpc_server rpct_server;

/* The program's arguments, for rpct.restart. */
extern char **rpct_argv;

/* Indices of rpct.server_stat: the fields of nccc_rpc_server_stats, then
** the level the server serves at (0 between calls). */
enum { RPCT_FRAMES, RPCT_BAD_CRC, RPCT_CUT, RPCT_TOO_LONG, RPCT_GARBAGE, RPCT_REQUESTS,
       RPCT_RESENT, RPCT_REPLAYED, RPCT_STALE_SESSION, RPCT_PROTOCOL, RPCT_SESSIONS,
       RPCT_NESTED_RESENT, RPCT_GIVEN_UP, RPCT_DEPTH };

/* The slots of rpct.sum64. */
#define RPCT_SUM_SLOTS 64

#endif
