/*
** nccc/rpc_frame.h — frames of the remote-call protocol (docs/RPC.md,
** "Framing"): the CRC, a byte-at-a-time decoder that resynchronises after
** garbage, and an encoder that streams a frame through a write function.
** Shared by the device's server and the host's client; no allocation.
*/
#ifndef NCCC_RPC_FRAME_H
#define NCCC_RPC_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <nccc/rpc_wire.h>
#include <nccc/status.h>
#include <nccc/visibility.h>

/* CRC-16-CCITT of n bytes, continuing from crc (start with
** NCCC_RPC_CRC_INIT). */
NCCC_API uint16_t nccc_rpc_crc16(uint16_t crc, const uint8_t *data, size_t n);

/* What nccc_rpc_decode stopped at. */
typedef enum nccc_rpc_frame_event {
  NCCC_RPC_FRAME_MORE = 0,   /* every byte used, no frame ended */
  NCCC_RPC_FRAME_OK,         /* a whole frame: the payload is in buf */
  NCCC_RPC_FRAME_BAD_CRC,    /* a frame whose CRC did not match: dropped */
  NCCC_RPC_FRAME_CUT,        /* a frame cut short by a new start or a bad
                             ** escape: dropped */
  NCCC_RPC_FRAME_TOO_LONG    /* a length over the buffer: dropped at once */
} nccc_rpc_frame_event;

/* The decoder's state; buf and cap are the caller's payload buffer. */
typedef struct nccc_rpc_decoder {
  uint8_t *buf;
  uint32_t cap;
  uint32_t length;     /* of the payload being read (or just read) */
  uint32_t got;        /* bytes of the current field read so far */
  uint16_t crc;        /* running CRC over length and payload */
  uint16_t frame_crc;  /* the CRC bytes received */
  uint8_t state;
  uint8_t escaped;     /* the previous byte was NCCC_RPC_BYTE_ESCAPE */
  uint32_t garbage;    /* bytes seen outside any frame, for statistics */
} nccc_rpc_decoder;

/* Resets d to hunt for a frame start, with buf (cap bytes) for payloads. */
NCCC_API void nccc_rpc_decoder_init(nccc_rpc_decoder *d, uint8_t *buf, uint32_t cap);

/*
** Feeds n bytes of the stream to d and stops after the first byte that
** ends a frame, well formed or not; *used gets how many bytes it took.
** On NCCC_RPC_FRAME_OK the payload is d->buf[0 .. d->length). Any other
** event drops the frame and hunts for the next start; a frame start seen
** inside a frame cuts the old one and begins the new one. Never reads
** past data + n, never writes past buf + cap.
*/
NCCC_API nccc_rpc_frame_event nccc_rpc_decode(nccc_rpc_decoder *d, const uint8_t *data,
                                              size_t n, size_t *used);

/* Writes n bytes somewhere (a transport); returns 0 when all were
** written, non-zero on failure. */
typedef int (*nccc_rpc_sink)(void *ctx, const uint8_t *data, size_t n);

/* Sends payload (n bytes) as one frame through sink, escaping as it
** goes through a small buffer on the stack: NCCC_OK, or
** NCCC_ERR_RPC_TRANSPORT when sink fails. */
NCCC_API nccc_status nccc_rpc_frame_send(const uint8_t *payload, uint32_t n,
                                         nccc_rpc_sink sink, void *ctx);

/* ---- little-endian fields (the wire's byte order) ---- */

static inline uint16_t nccc_rpc_get16(const uint8_t *p) {
  return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t nccc_rpc_get32(const uint8_t *p) {
  return (uint32_t)nccc_rpc_get16(p) | ((uint32_t)nccc_rpc_get16(p + 2) << 16);
}
static inline uint64_t nccc_rpc_get64(const uint8_t *p) {
  return (uint64_t)nccc_rpc_get32(p) | ((uint64_t)nccc_rpc_get32(p + 4) << 32);
}
static inline void nccc_rpc_put16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void nccc_rpc_put32(uint8_t *p, uint32_t v) {
  nccc_rpc_put16(p, (uint16_t)v);
  nccc_rpc_put16(p + 2, (uint16_t)(v >> 16));
}
static inline void nccc_rpc_put64(uint8_t *p, uint64_t v) {
  nccc_rpc_put32(p, (uint32_t)v);
  nccc_rpc_put32(p + 4, (uint32_t)(v >> 32));
}

/* The 8-byte header every message starts with. */
typedef struct nccc_rpc_header {
  uint8_t type;     /* nccc_rpc_message */
  uint8_t depth;    /* a host's request: how many of the device's nested
                    ** calls the host is serving as it sends it; else 0 */
  uint16_t session;
  uint32_t id;
} nccc_rpc_header;

static inline void nccc_rpc_header_put(uint8_t *p, uint8_t type, uint16_t session,
                                       uint32_t id) {
  p[0] = type;
  p[1] = 0;
  nccc_rpc_put16(p + 2, session);
  nccc_rpc_put32(p + 4, id);
}
static inline nccc_rpc_header nccc_rpc_header_get(const uint8_t *p) {
  nccc_rpc_header h;
  h.type = p[0];
  h.depth = p[1];
  h.session = nccc_rpc_get16(p + 2);
  h.id = nccc_rpc_get32(p + 4);
  return h;
}

/* Whether id a was sent after id b (32-bit serial order: ids wrap). */
static inline int nccc_rpc_id_after(uint32_t a, uint32_t b) {
  return a != b && ((uint32_t)(a - b) >> 31) == 0;
}

#endif
