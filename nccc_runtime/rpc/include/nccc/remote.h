/*
** nccc/remote.h — the host side of remote calls (docs/RPC.md): a client
** that opens a link to a device serving its registry (nccc/rpc_server.h)
** and makes the device's modules look local.
**
** nccc_remote_bind registers a local module whose functions are ordinary
** nccc functions: calling one sends the call over the link, so every host
** (Lua, Scheme, ...) and every generated host module calls a remote
** function exactly as a local one. Calls are at most once: each request
** has an id that the device never runs twice, and a request whose outcome
** is unknown (the device went silent or restarted) fails with
** NCCC_ERR_RPC_TIMEOUT or NCCC_ERR_RPC_RESET and is never sent again.
**
** Hosted (POSIX) only. A remote is used by one thread at a time; the
** calls of other threads wait (a recursive lock, so that a callback from
** the device may call the device again).
*/
#ifndef NCCC_REMOTE_H
#define NCCC_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include <nccc/handle.h>
#include <nccc/rpc_frame.h>
#include <nccc/status.h>
#include <nccc/visibility.h>

typedef struct nccc_remote nccc_remote;

/* A byte stream to the device, with a timeout on reads. */
typedef struct nccc_remote_transport {
  void *ctx;
  /* Reads 1..n bytes; waits at most timeout_ms. Returns how many, 0 on
  ** timeout, < 0 when the link is gone. */
  long (*read)(void *ctx, uint8_t *buf, size_t n, int timeout_ms);
  /* Writes 1..n bytes; returns how many, or <= 0 on failure. */
  long (*write)(void *ctx, const uint8_t *buf, size_t n);
  /* Releases the link (may be NULL). */
  void (*close)(void *ctx);
} nccc_remote_transport;

typedef struct nccc_remote_options {
  int timeout_ms;     /* silence after which a request is sent again;
                      ** 0: 2000 */
  int retries;        /* sends after the first before giving up; < 0: 0,
                      ** and the default options use 2 */
  /* Called with each log message of the device (may be NULL). */
  void (*log)(void *ctx, int level, const char *text);
  void *log_ctx;
} nccc_remote_options;

/* The defaults: timeout 2000 ms, 2 retries, no log function. */
NCCC_API nccc_remote_options nccc_remote_default_options(void);

/* What the device announced when the session started. */
typedef struct nccc_remote_device {
  uint8_t version;
  uint8_t pointer_bytes;  /* 4 or 8 */
  uint8_t byte_order;     /* nccc_rpc_byte_order */
  uint8_t max_depth;      /* nested requests it serves */
  uint32_t max_message;   /* largest payload, bytes */
  uint16_t max_slots;     /* most slots on one side of a call */
  uint16_t session;
} nccc_remote_device;

/* What the client has seen since it opened. */
typedef struct nccc_remote_stats {
  uint32_t requests;     /* requests sent (first sends that left) */
  uint32_t resent;       /* sends again after silence or a dropped frame */
  uint32_t bad_frames;   /* frames from the device dropped (CRC, cut, long) */
  uint32_t garbage;      /* bytes outside any frame */
  uint32_t notices;      /* notices from the device (frames it dropped) */
  uint32_t stale;        /* answers to requests no longer waited for */
  uint32_t restarts;     /* start messages of a new or no session */
  uint32_t sessions;     /* sessions opened */
  uint32_t served;       /* nested requests from the device run here */
  uint32_t logs;         /* log messages */
  uint64_t bytes_sent;   /* bytes written to the link, framing included */
  uint64_t bytes_received; /* bytes read from the link */
} nccc_remote_stats;

/*
** Opening: each connects, says hello and waits for the device's start
** message, then *out is the remote. options may be NULL (the defaults).
** NCCC_OK, NCCC_ERR_NULL_POINTER, NCCC_ERR_RPC_TRANSPORT (could not
** open), NCCC_ERR_RPC_TIMEOUT (no start message), NCCC_ERR_RPC_PROTOCOL
** (another protocol version), NCCC_ERR_NO_MEMORY.
*/
/* a child process (argv[0] found on PATH) serving on its stdin/stdout */
NCCC_API nccc_status nccc_remote_open_exec(char *const argv[],
                                           const nccc_remote_options *options,
                                           nccc_remote **out);
/* a TCP server on 127.0.0.1:port (tried until the timeout passes) */
NCCC_API nccc_status nccc_remote_open_tcp(uint16_t port, const nccc_remote_options *options,
                                          nccc_remote **out);
/* a terminal device (a pty, a serial port), set to raw mode */
NCCC_API nccc_status nccc_remote_open_pty(const char *path,
                                          const nccc_remote_options *options,
                                          nccc_remote **out);
/* two file descriptors (the remote closes them) */
NCCC_API nccc_status nccc_remote_open_fds(int read_fd, int write_fd,
                                          const nccc_remote_options *options,
                                          nccc_remote **out);
/* any transport (the remote calls its close) */
NCCC_API nccc_status nccc_remote_open(const nccc_remote_transport *transport,
                                      const nccc_remote_options *options,
                                      nccc_remote **out);

/* The link a text names (a setting, an environment variable):
** "exec:PROGRAM ARG ..." (words split at spaces, no quoting),
** "tcp:PORT" or "pty:PATH". Also NCCC_ERR_INVALID_ARG for any other. */
NCCC_API nccc_status nccc_remote_open_spec(const char *spec,
                                           const nccc_remote_options *options,
                                           nccc_remote **out);

/* Removes the modules bound from r, closes the link (a child process is
** ended) and frees r. Local functions of r's modules fail afterwards. */
NCCC_API void nccc_remote_close(nccc_remote *r);

/* The device's announcement; NULL for NULL. */
NCCC_API const nccc_remote_device *nccc_remote_device_info(const nccc_remote *r);
/* The counters; NULL for NULL. */
NCCC_API const nccc_remote_stats *nccc_remote_stats_get(const nccc_remote *r);
/* Changes the timeout (ms, > 0) and retries (>= 0) of later requests. */
NCCC_API void nccc_remote_set_timeout(nccc_remote *r, int timeout_ms, int retries);

/* True for the statuses after which a call may or may not have run on
** the device (NCCC_ERR_RPC_TIMEOUT, NCCC_ERR_RPC_RESET,
** NCCC_ERR_RPC_FRAME, NCCC_ERR_RPC_TRANSPORT once sent). */
NCCC_API int nccc_remote_outcome_unknown(nccc_status status);

/*
** The requests, one round trip each; every one can also fail with the
** link's errors: NCCC_ERR_RPC_TIMEOUT, NCCC_ERR_RPC_RESET,
** NCCC_ERR_RPC_FRAME, NCCC_ERR_RPC_TRANSPORT, NCCC_ERR_RPC_TOO_BIG
** (over the device's limits: not sent), NCCC_ERR_RPC_PROTOCOL.
*/
/* A device function's handle and slot counts; sig (may be NULL) gets its
** signature, cut to sig_size bytes with a NUL. Device statuses:
** NCCC_ERR_NAME_NOT_FOUND, NCCC_ERR_BAD_NAME. */
NCCC_API nccc_status nccc_remote_lookup(nccc_remote *r, const char *name, nccc_handle *out,
                                        uint16_t *n_in, uint16_t *n_out, char *sig,
                                        size_t sig_size);
/* Calls a device function with raw slots (pointers are device
** addresses; nothing is marshalled). Device statuses:
** NCCC_ERR_BAD_HANDLE, NCCC_ERR_NUM_ARGUMENTS (nothing ran). */
NCCC_API nccc_status nccc_remote_call(nccc_remote *r, nccc_handle handle, const uint64_t *in,
                                      size_t n_in, uint64_t *out, size_t n_out);
/* Remote memory (device addresses as uint64_t). NCCC_ERR_RPC_FREED for
** a freed block (or, for free, one not from nccc_remote_alloc),
** NCCC_ERR_NO_MEMORY, NCCC_ERR_POOL_EXHAUSTED, NCCC_ERR_RPC_WORD_SIZE. */
NCCC_API nccc_status nccc_remote_alloc(nccc_remote *r, uint64_t size, uint64_t *out);
NCCC_API nccc_status nccc_remote_free(nccc_remote *r, uint64_t address);
NCCC_API nccc_status nccc_remote_read(nccc_remote *r, uint64_t address, void *buf, size_t n);
NCCC_API nccc_status nccc_remote_write(nccc_remote *r, uint64_t address, const void *buf,
                                       size_t n);
NCCC_API nccc_status nccc_remote_strlen(nccc_remote *r, uint64_t address, uint64_t *out);

/*
** Registers the device's module `module` locally as `local_name` (NULL:
** the same name): one local nccc function per device function, with the
** device's signatures (those of the device's word size), types and
** constants, so nccc_lookup("NAME.F"), the built-ins and generated host
** modules find them. Arguments and results are marshalled by the rules
** of docs/RPC.md ("Calling through a bound module"). *out_index (may be
** NULL) gets the local module index. NCCC_OK or the device's statuses
** (NCCC_ERR_NAME_NOT_FOUND ...), NCCC_ERR_ALREADY_DEFINED,
** NCCC_ERR_MODULES_FULL, NCCC_ERR_POOL_EXHAUSTED (more than
** NCCC_REMOTE_STUBS functions bound at once), the link's errors.
*/
NCCC_API nccc_status nccc_remote_bind(nccc_remote *r, const char *module,
                                      const char *local_name, uint16_t *out_index);

/*
** Registers a local module `name` whose functions reach r's memory, for
** hosts that cannot call the functions above (docs/RPC.md, "From a host
** language"): alloc (L:ip, size -> device address), free (p:i), read
** (pLp:i, device address, n, local buffer), write (pLp:i, device
** address, n, local buffer), strlen (p:iL). Each writes its status to
** out[0] as a built-in does. NCCC_OK, NCCC_ERR_ALREADY_DEFINED,
** NCCC_ERR_MODULES_FULL, NCCC_ERR_POOL_EXHAUSTED, NCCC_ERR_NO_MEMORY.
*/
NCCC_API nccc_status nccc_remote_bind_memory(nccc_remote *r, const char *name,
                                             uint16_t *out_index);

/*
** Binds `module` (unless a module of that name is present already) from
** the device that environment variable `variable` names with a link text
** (nccc_remote_open_spec), and the device's memory as module
** `module`_memory (nccc_remote_bind_memory); the link is opened once per
** text and kept for the process. Initialises the runtime when needed. Made for the
** nccc_M_open function of a library a host loads, which generated host
** modules call when they bind:
**   NCCC_API void nccc_libc_open(const uint64_t *in, uint64_t *out) {
**     (void)in; out[0] = (uint64_t)(int64_t)nccc_remote_bind_env("libc", "LIBC_DEVICE");
**   }
** NCCC_OK, NCCC_ERR_INVALID_ARG (the variable is not set), and the
** errors of nccc_remote_open_spec and nccc_remote_bind.
*/
NCCC_API nccc_status nccc_remote_bind_env(const char *module, const char *variable);

/*
** Decodes one result message (payload p of n bytes) of a call with
** n_out slots, as the client does: *status the device's status, out the
** slots (on success). NCCC_OK when the message is a well-formed result,
** NCCC_ERR_RPC_PROTOCOL otherwise. Never reads past p + n; the fuzz
** target of the client's decoder.
*/
NCCC_API nccc_status nccc_remote_decode_result(const uint8_t *p, size_t n, size_t n_out,
                                               nccc_status *status, uint64_t *out);

/* How many bound functions may exist at once (all remotes together). */
#define NCCC_REMOTE_STUBS 1024

#endif
