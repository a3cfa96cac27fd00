/*
** remote_internal.h — what the client's files share (not installed).
*/
#ifndef NCCC_REMOTE_INTERNAL_H
#define NCCC_REMOTE_INTERNAL_H

#include <pthread.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

#include "rpc_internal.h"

/* Local copies of strings the device returned, kept per remote so that
** passing a copy back (to free it, say) passes the device's address. */
#define NCCCI_REMOTE_MIRRORS 64

typedef struct nccci_mirror {
  char *local;
  uint64_t device;
} nccci_mirror;

/* How a bound function's slots are marshalled, one kind per slot. */
enum { NCCCI_SLOT_RAW, NCCCI_SLOT_POINTER, NCCCI_SLOT_STRING, NCCCI_SLOT_CLOSURE };

typedef struct nccci_remote_fn {
  nccc_handle handle;  /* on the device */
  uint16_t n_in, n_out;
  int variable;        /* a side ending in '*': not callable through a stub */
  uint8_t *in_kind, *out_kind;
} nccci_remote_fn;

struct nccci_bound; /* a module bound from the device (remote_bind.c) */

struct nccc_remote {
  nccc_remote_transport io;
  nccc_remote_options options;
  nccc_remote_device device;
  nccc_remote_stats stats;
  pthread_mutex_t lock;    /* recursive */
  int open;                /* a session is up */
  uint8_t nonce;
  char aborted[256];       /* the text of an abort log, until the restart */
  uint32_t next_id;
  nccc_rpc_decoder decoder;
  uint8_t *rx;
  uint32_t rx_cap;
  uint8_t chunk[4096];
  size_t chunk_at, chunk_n;
  /* nested requests from the device: the newest id run, the last answer */
  uint32_t device_highest;
  uint32_t device_cached_id;
  uint8_t *device_cache;
  uint32_t device_cache_n;
  uint8_t serving;         /* the device's nested calls being run */
  nccci_mirror mirrors[NCCCI_REMOTE_MIRRORS];
  unsigned next_mirror;
  struct nccci_bound *bound;
};

/* Sends request msg (n bytes; its type in msg[0], the rest of the header
** filled in here) and waits for its result, resending after silence
** (docs/RPC.md, "Faults"). On NCCC_OK *result (malloc'd; the caller
** frees it) holds the result message, *result_n its length, and its
** status is NCCC_OK; a refusal by the device is returned as its status
** with its text as the last error. */
NCCC_INTERNAL nccc_status nccci_remote_exchange(nccc_remote *r, uint8_t *msg, uint32_t n,
                                                uint8_t **result, uint32_t *result_n);

/* Where the error block (or the strings) of call result res with n_out
** slots begins: after the slots, and after the request's address when
** the result carries it. */
static inline size_t nccci_result_tail(const uint8_t *res, size_t n_out) {
  return NCCCI_RPC_CALL_FIXED + 8 * n_out +
         ((res[15] & NCCC_RPC_RESULT_REQUEST_BASE) ? 8u : 0u);
}

/* The NCCCI_SLOT_ kind of a signature code (-1: not a one-slot code). */
NCCC_INTERNAL int nccci_remote_kind(char code);

/* One side of a signature (already checked by nccc_signature_counts):
** a kind per slot into kinds; a record's slots are raw. Returns the
** position after the side; *variable set for a side ending in '*'. */
NCCC_INTERNAL const char *nccci_remote_side_kinds(const char *p, uint8_t *kinds, int *variable);

/* The remote whose device's nested call this thread runs now, NULL
** outside one (remote.c). */
NCCC_INTERNAL nccc_remote *nccci_remote_serving(void);

/* Parses a signature into per-slot kinds (malloc'd arrays in fn). */
NCCC_INTERNAL nccc_status nccci_remote_fn_init(nccci_remote_fn *fn, nccc_handle handle,
                                               const char *signature);
NCCC_INTERNAL void nccci_remote_fn_free(nccci_remote_fn *fn);

/* Calls fn with local slots: strings and mirrored pointers in, strings
** out (docs/RPC.md, "Calling through a bound module"). */
NCCC_INTERNAL nccc_status nccci_remote_invoke(nccc_remote *r, const nccci_remote_fn *fn,
                                              const uint64_t *in, uint64_t *out);

/* The device's string at device, read with strlen and read requests,
** in a malloc'd copy (NULL on failure, the error recorded). */
NCCC_INTERNAL char *nccci_remote_read_string(nccc_remote *r, uint64_t device);

/* Records as this thread's last error the error a device call recorded
** (the error block of result res of a call with n_out slots), if any. */
NCCC_INTERNAL void nccci_remote_record_error(const uint8_t *res, size_t n_out);

/* The device's handle (and signature, when sig is not NULL) of built-in
** index (NCCC_BUILTIN_*), looked up by its name (remote_requests.c). */
NCCC_INTERNAL nccc_status nccci_remote_builtin(nccc_remote *r, int index, nccc_handle *out,
                                               char *sig, size_t sig_size);

/* Closes r's link and frees r (remote.c); nccc_remote_close
** (remote_bind.c) unbinds its modules first. */
NCCC_INTERNAL void nccci_remote_free(nccc_remote *r);

/* The transports over file descriptors (remote_link.c): fd pairs, with
** an optional child process to end on close. */
NCCC_INTERNAL nccc_status nccci_remote_fd_transport(int read_fd, int write_fd, long child,
                                                    nccc_remote_transport *out);

/* Starts argv[0] (found on PATH) with its standard input and output on
** pipes: *read_fd reads its output, *write_fd writes its input, *child is
** its process id; SIGPIPE is ignored from then on (a device that exits
** must not end the host). */
NCCC_INTERNAL nccc_status nccci_remote_spawn(char *const argv[], int *read_fd, int *write_fd,
                                             long *child);

/* The error a host procedure recorded (nccc_fail) while the device ran a
** call through a bound module: status NCCC_OK for none. */
typedef struct nccci_callback_error {
  nccc_status status;
  char text[NCCC_ERROR_MESSAGE_BYTES];
} nccci_callback_error;

/* Around one call through a bound module (remote_callback.c): begin
** keeps the calling thread's record of an enclosing call in *saved and
** starts an empty one; end puts *saved back and returns in *mine the
** first error a host procedure recorded in between. */
NCCC_INTERNAL void nccci_remote_callback_errors_begin(nccci_callback_error *saved);
NCCC_INTERNAL void nccci_remote_callback_errors_end(const nccci_callback_error *saved,
                                                    nccci_callback_error *mine);

/* Passes the local closure whose context is in *slot on to the device
** (rpc.claim) and puts the device's context there (remote_callback.c;
** docs/RPC.md, "Callbacks across the wire"). NULL stays NULL. */
NCCC_INTERNAL nccc_status nccci_remote_closure_out(nccc_remote *r, uint64_t *slot);

#endif
