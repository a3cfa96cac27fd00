/*
** host.h — a host, written in C, the way every host provides callbacks:
** one dispatcher nccc function, and a table of host procedures indexed
** by the environment word. A release notice (out == NULL) drops the
** table entry, as a host drops its reference to a procedure.
*/
#ifndef CB_HOST_H
#define CB_HOST_H

#include <stdint.h>

/* A host procedure: args = the callback's slots (in[1..]), results =
** out[]; data is what the host keeps with it (a closure's upvalues). */
typedef void (*host_proc)(const uint64_t *args, uint64_t *results, void *data);

/* The dispatcher: in[0] = env; out == NULL is a release notice. */
void host_dispatch(const uint64_t *in, uint64_t *out);

/* Resets the table and the counters. */
void host_reset(void);

/* Adds a procedure; returns its env word (never 0). */
uint64_t host_ref(host_proc proc, void *data);

/* Claims a closure of callback signature sig on host_dispatch for a new
** procedure (host_ref) with flags (scope and NCCC_CLOSURE_NOTIFY); fails
** the test unless the claim succeeds. Returns the context and, unless
** env is NULL, the env word. */
void *host_claim(const char *sig, host_proc proc, void *data, unsigned flags,
                 uint64_t *env);

/* Is env's entry still held (no release notice yet)? */
int host_alive(uint64_t env);
/* Calls dispatched to env, notices received for env. */
int host_calls(uint64_t env);
int host_notices(uint64_t env);
/* The context and member of env's last notice. */
uint64_t host_notice_ctx(uint64_t env);
uint64_t host_notice_member(uint64_t env);
/* Dispatches that broke the protocol (unknown env, a call or a second
** notice after the notice): must stay 0. */
int host_errors(void);
/* Entries held now. */
int host_live(void);

/* A platform lock for the tests that use threads: an error-checking
** mutex, so that a nested lock (a deadlock in real use) fails loudly. */
void host_install_lock(void);
void host_remove_lock(void);
/* How often the lock was taken while already held by the same thread. */
int host_lock_errors(void);

#endif
