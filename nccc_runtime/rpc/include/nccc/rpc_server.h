/*
** nccc/rpc_server.h — the device side of remote calls (docs/RPC.md):
** serves the runtime's registry over a byte stream.
**
** The transport is two functions, read some bytes and write some bytes.
** Every buffer is in the nccc_rpc_server object, sized by nccc/config.h
** (NCCC_RPC_MAX_MESSAGE, NCCC_RPC_MAX_SLOTS, NCCC_RPC_MAX_DEPTH,
** NCCC_RPC_MAX_ALLOCS); nothing is allocated except the blocks the host
** asks for with the alloc message (through the platform's alloc hook).
** One server serves one link, from one thread.
*/
#ifndef NCCC_RPC_SERVER_H
#define NCCC_RPC_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include <nccc/config.h>
#include <nccc/handle.h>
#include <nccc/rpc_frame.h>
#include <nccc/status.h>
#include <nccc/visibility.h>

#if NCCC_RPC_MAX_MESSAGE % 8 != 0 || NCCC_RPC_MAX_MESSAGE < 256
#error "NCCC_RPC_MAX_MESSAGE must be a multiple of 8, at least 256"
#endif

typedef struct nccc_rpc_transport {
  void *ctx;
  /* Reads 1..n bytes into buf, waiting until at least one is there;
  ** returns how many, or <= 0 when the link is gone. */
  long (*read)(void *ctx, uint8_t *buf, size_t n);
  /* Writes 1..n bytes of buf; returns how many, or <= 0 on failure. */
  long (*write)(void *ctx, const uint8_t *buf, size_t n);
} nccc_rpc_transport;

/* What the server has seen since nccc_rpc_server_init. */
typedef struct nccc_rpc_server_stats {
  uint32_t frames;          /* well-formed frames received */
  uint32_t bad_crc;         /* frames dropped: CRC mismatch */
  uint32_t cut;             /* frames dropped: cut short */
  uint32_t too_long;        /* frames dropped: length over the limit */
  uint32_t garbage;         /* bytes outside any frame */
  uint32_t requests;        /* requests run */
  uint32_t resent;          /* duplicates answered from the last answer */
  uint32_t replayed;        /* old ids refused */
  uint32_t stale_session;   /* requests for another session refused */
  uint32_t protocol;        /* malformed messages refused */
  uint32_t sessions;        /* hello messages answered */
  uint32_t nested_resent;   /* nested calls sent again (docs/RPC.md, "Faults") */
  uint32_t given_up;        /* nested waits the host gave up */
} nccc_rpc_server_stats;

/* One block handed out by the alloc message. */
typedef struct nccc_rpc_block {
  uintptr_t address;
  size_t size;
  uint8_t state; /* 0 unused, 1 live, 2 freed (kept to recognise it) */
} nccc_rpc_block;

/* Whether the server may serve a request of type (nccc_rpc_message) for
** handle (calls; 0 for the others): non-zero to serve it. */
typedef int (*nccc_rpc_filter)(void *ctx, uint8_t type, nccc_handle handle);

/* The device's own nested call at one level, kept to send it again. */
typedef struct nccc_rpc_nested {
  const uint64_t *in;      /* the caller's slots, alive while it waits */
  nccc_handle handle;      /* on the host */
  uint32_t id;
  uint16_t n_in, n_out;
} nccc_rpc_nested;

typedef struct nccc_rpc_server {
  nccc_rpc_filter filter;  /* NULL: every request is served; first, as */
  void *filter_ctx;        /* nccc_rpc_server_init keeps what precedes io */
  void (*session_ended)(void); /* after a hello ended a session: the
                           ** callbacks' release (set by
                           ** nccc_rpc_server_serve_callbacks), or NULL */
  nccc_rpc_transport io;
  nccc_rpc_decoder decoder;
  uint16_t session;        /* 0: none yet */
  uint8_t sessions;        /* the device's half of the next session id */
  uint8_t depth;           /* nesting level being waited at */
  uint32_t highest_id;     /* the newest request id started this session */
  uint32_t running[NCCC_RPC_MAX_DEPTH + 1]; /* id served at each level */
  uint32_t next_id;        /* of the device's own (nested) requests */
  uint32_t resets;         /* hello messages seen: unwinds nested waits */
  nccc_rpc_nested nested[NCCC_RPC_MAX_DEPTH + 1]; /* sent at levels 1..depth */
  uint8_t unwinding;       /* the waits above level unwind_to give up */
  uint8_t unwind_to;
  uint8_t resend_there;    /* then resend that level's nested call */
  uint8_t held_level;      /* a frame for level unwind_to, in rx[held_level] */
  uint32_t held_n;         /* its length (0: none) */
  uint32_t cached_id, cached_length; /* the last answer, for a duplicate */
  uint16_t cached_session;
  uint8_t cached_level, cached;
  const uint8_t *pending;  /* bytes read but not yet decoded */
  size_t pending_n;
  int feeding;             /* nccc_rpc_server_feed: no reads */
  nccc_rpc_server_stats stats;
#if NCCC_WITH_REMOTE_MEMORY
  nccc_rpc_block blocks[NCCC_RPC_MAX_ALLOCS];
#endif
  uint8_t chunk[NCCC_RPC_IO_CHUNK];
  uint64_t rx[NCCC_RPC_MAX_DEPTH + 1][NCCC_RPC_MAX_MESSAGE / 8];
  uint64_t tx[NCCC_RPC_MAX_DEPTH + 1][NCCC_RPC_MAX_MESSAGE / 8];
} nccc_rpc_server;

/*
** Resets s (all but its filter and what nccc_rpc_server_serve_callbacks
** set, so the object must start zeroed, as a static one does) to serve io and announces the device with a start message of
** session 0 (so a host waiting on the link learns that the device
** restarted). The runtime must be initialised and the modules to serve
** added. NCCC_OK, NCCC_ERR_NULL_POINTER, NCCC_ERR_RPC_TRANSPORT.
*/
NCCC_API nccc_status nccc_rpc_server_init(nccc_rpc_server *s,
                                          const nccc_rpc_transport *io);

/*
** Serves only the requests filter allows (before or after
** nccc_rpc_server_init, which keeps it; NULL serves all): the others are refused with NCCC_ERR_NOT_IMPLEMENTED and
** nothing runs. For a device that serves part of its registry, and for a
** fuzz target, which must not reach functions that dereference any
** address they are given (the built-ins peek, poke, call, the read and
** write requests ...).
*/
NCCC_API void nccc_rpc_server_filter(nccc_rpc_server *s, nccc_rpc_filter filter, void *ctx);

/* Waits for the next frame and handles it (answers a request, refuses a
** bad frame with a notice). NCCC_OK, or NCCC_ERR_RPC_TRANSPORT when the
** link is gone. */
NCCC_API nccc_status nccc_rpc_server_poll(nccc_rpc_server *s);

/* Serves until the link is gone: returns NCCC_ERR_RPC_TRANSPORT. */
NCCC_API nccc_status nccc_rpc_server_run(nccc_rpc_server *s);

/*
** Decodes n bytes of the stream as if read from the link, handling every
** frame in them (answers go to the transport's write). Reads nothing;
** the decoder keeps a partial frame for the next call. Always NCCC_OK;
** the fuzz target of the server's decoders.
*/
NCCC_API nccc_status nccc_rpc_server_feed(nccc_rpc_server *s, const uint8_t *data,
                                          size_t n);

/*
** Calls handle on the host from inside a call the device is serving (a
** callback across the wire), serving the host's own requests meanwhile.
** n_in and n_out must be the host function's slot counts; in stays in
** use until it returns (the call is sent again from it when it is lost).
** On NCCC_OK the caller's last error is what it was before. NCCC_OK, or:
** NCCC_ERR_RPC_SESSION (no session), NCCC_ERR_RPC_DEPTH (past
** NCCC_RPC_MAX_DEPTH), NCCC_ERR_RPC_TOO_BIG, NCCC_ERR_RPC_RESET (the
** host began a new session), NCCC_ERR_RPC_TIMEOUT (the host gave the call
** up: its outcome is unknown), NCCC_ERR_RPC_TRANSPORT, or the host's
** refusal (NCCC_ERR_BAD_HANDLE, NCCC_ERR_NUM_ARGUMENTS, ...).
*/
NCCC_API nccc_status nccc_rpc_server_call_host(nccc_rpc_server *s, nccc_handle handle,
                                               const uint64_t *in, size_t n_in,
                                               uint64_t *out, size_t n_out);

/* Sends a log message (level: nccc_rpc_log_level) to the host. NCCC_OK
** or NCCC_ERR_RPC_TRANSPORT. */
NCCC_API nccc_status nccc_rpc_server_log(nccc_rpc_server *s, uint8_t level,
                                         const char *text);

/*
** Serves host procedures as the device's callbacks (docs/RPC.md,
** "Callbacks across the wire"): registers the global function rpc.claim
** (NCCC_RPC_CLAIM_NAME), through which a host's client makes device
** closures whose calls and release notices go back to the host over s.
** Call it once the runtime is initialised, before or after
** nccc_rpc_server_init (which keeps it, as the filter).
** NCCC_OK, NCCC_ERR_NULL_POINTER, or nccc_register's errors. Not defined
** in a build with NCCC_WITH_CLOSURES 0 (nccc/config.h).
*/
NCCC_API nccc_status nccc_rpc_server_serve_callbacks(nccc_rpc_server *s);

#endif
