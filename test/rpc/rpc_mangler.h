/*
** rpc_mangler.h — the link of the fault tests (test_rpc_faults.c,
** test_rpc_faults_nested.c): it sits between the client and a device's
** pipes and, on request, corrupts, cuts, drops, duplicates and replays
** frames in either direction, chosen by the type of message they carry,
** and injects garbage.
*/
#ifndef RPC_MANGLER_H
#define RPC_MANGLER_H

#include <nccc/remote.h>

#include "nccc_check.h"

/* What the link does to a frame. */
enum { PASS, CORRUPT, GARBAGE_BEFORE, GARBAGE_INSIDE, CUT, DOUBLE, DROP };

/* One fault for one direction: `what` is done to the frame after `skip`
** frames carrying messages of type `type` (0: any type), once. */
typedef struct mangle {
  int what;
  uint8_t type;
  int skip;
} mangle;

typedef struct mangler {
  nccc_remote_transport inner;
  mangle to_device;       /* frames the client writes */
  mangle from_device;     /* frames the device writes */
  int claim32;            /* the device's start says 4-byte pointers */
  int in_frame_cut;       /* the rest of a cut frame is swallowed */
  uint8_t last[512];      /* the last frame written, for replays */
  size_t last_n;
  int from_fd;            /* the pipe the device writes */
} mangler;

extern mangler link_;

/* The client's timeout: PATIENT_MS where an answer must come however
** loaded the machine, SILENCE_MS where the test waits for silence. */
enum { PATIENT_MS = 10000, SILENCE_MS = 1500 };

/* The bytes GARBAGE_BEFORE and GARBAGE_INSIDE inject. */
extern const uint8_t mangle_junk[6];

/* Starts the device (the words of $NCCC_FAULTS_DEVICE, or the test
** server RPC_TEST_SERVER names) behind the link and opens a remote over it with timeout_ms
** and 2 retries; the mangles apply from the first frames (the hello,
** the device's start). */
nccc_remote *mangler_open(int claim32, int timeout_ms, mangle to_device, mangle from_device);

/* Writes bytes to the device past the link; returns n or <= 0. */
long mangler_inject(const uint8_t *buf, size_t n);

/* A frame of payload msg (n bytes) written to the device past the link. */
void mangler_inject_frame(const uint8_t *msg, uint32_t n);

#endif
