/*
** rpc_internal.h — what the server's files share (not installed).
*/
#ifndef NCCC_RPC_INTERNAL_H
#define NCCC_RPC_INTERNAL_H

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>

/* Bytes before the slots of a call and of its result: header, then
** handle, n_in, n_out (call) or status, n_out, strings, flags (result). */
#define NCCCI_RPC_CALL_FIXED 16u
/* Bytes of a result before its body: header and status. */
#define NCCCI_RPC_RESULT_FIXED 12u
/* The result flags (rpc_wire.h, nccc_rpc_result_flag): an error block
** (status, text) follows the slots; the device address of the request's
** first byte follows the slots (before the error block), because
** strings came inside the request. */

/* A frame written in pieces (rpc_frame.c): open with the payload's
** length, put its bytes in order, close; escaped bytes go to the sink
** NCCC_RPC_IO_CHUNK at a time. */
typedef struct nccci_rpc_out {
  uint8_t bytes[NCCC_RPC_IO_CHUNK];
  size_t n;
  nccc_rpc_sink sink;
  void *ctx;
  uint16_t crc;
  int failed;
} nccci_rpc_out;

NCCC_INTERNAL void nccci_rpc_frame_open(nccci_rpc_out *o, uint32_t n, nccc_rpc_sink sink,
                                        void *ctx);
NCCC_INTERNAL void nccci_rpc_frame_put(nccci_rpc_out *o, const uint8_t *p, size_t n);
/* NCCC_OK, or NCCC_ERR_RPC_TRANSPORT when the sink failed. */
NCCC_INTERNAL nccc_status nccci_rpc_frame_close(nccci_rpc_out *o);

/* Writes the body of a failed result at r (after the header): status,
** then the text of this thread's last error. Returns the message's
** whole length. */
NCCC_INTERNAL uint32_t nccci_rpc_refusal(uint8_t *r, nccc_status status);

/* Serves s on io until the link is gone (nccc_rpc_server_init, then
** nccc_rpc_server_run): 0, or 1 when init refuses io. What the process
** servers (rpc_posix.c, rpc_windows.c) return for a served link. */
NCCC_INTERNAL int nccci_rpc_serve_link(nccc_rpc_server *s, const nccc_rpc_transport *io);

/* Writes all n bytes of data with write_some (which writes 1..n and
** returns how many, or <= 0 on failure): 0, or 1 on failure. */
NCCC_INTERNAL int nccci_rpc_write_all(long (*write_some)(void *, const uint8_t *, size_t),
                                      void *ctx, const uint8_t *data, size_t n);

#if NCCC_WITH_REMOTE_MEMORY
/* The result of an alloc, free, read, write or strlen request (type) of
** n payload bytes p, written at r (its header already there); returns
** its length. */
NCCC_INTERNAL uint32_t nccci_rpc_memory(nccc_rpc_server *s, uint8_t type,
                                        const uint8_t *p, uint32_t n, uint8_t *r);

/* Frees every live block of the alloc message (a new session). */
NCCC_INTERNAL void nccci_rpc_free_all(nccc_rpc_server *s);
#else
/* Left out (nccc/config.h): no block is ever handed out. */
static inline void nccci_rpc_free_all(nccc_rpc_server *s) { (void)s; }
#endif

/* The records among the n slots of one side of handle's call (out_side:
** the results), converted in place between the wire's order (each field
** little-endian, after the slots' own conversion) and the device's, on a
** big-endian device: before the call for the arguments, after it for the
** results (rpc_records.c). */
NCCC_INTERNAL void nccci_rpc_records(nccc_handle handle, uint64_t *slots, size_t n,
                                     int out_side);

#endif
