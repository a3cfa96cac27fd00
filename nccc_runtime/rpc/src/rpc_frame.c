/*
** rpc_frame.c — CRC-16-CCITT, the frame decoder and the frame encoder
** (docs/RPC.md, "Framing").
*/
#include <string.h>

#include "rpc_internal.h"

#if NCCC_RPC_CRC_SMALL
/* The CRC of a 4-bit value n in the top of the register: four steps of
** the bitwise algorithm, as constant expressions, so that the table
** below is data in flash, computed by the compiler from the polynomial. */
#define CRC_STEP(c) ((((c) >> 15) ? (((c) << 1) ^ NCCC_RPC_CRC_POLY) : ((c) << 1)) & 0xffffu)
#define CRC_NIBBLE(n) CRC_STEP(CRC_STEP(CRC_STEP(CRC_STEP((unsigned)(n) << 12))))
static const uint16_t crc_nibbles[16] = {
    CRC_NIBBLE(0),  CRC_NIBBLE(1),  CRC_NIBBLE(2),  CRC_NIBBLE(3),
    CRC_NIBBLE(4),  CRC_NIBBLE(5),  CRC_NIBBLE(6),  CRC_NIBBLE(7),
    CRC_NIBBLE(8),  CRC_NIBBLE(9),  CRC_NIBBLE(10), CRC_NIBBLE(11),
    CRC_NIBBLE(12), CRC_NIBBLE(13), CRC_NIBBLE(14), CRC_NIBBLE(15)};

uint16_t nccc_rpc_crc16(uint16_t crc, const uint8_t *data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    crc ^= (uint16_t)(data[i] << 8);
    crc = (uint16_t)((crc << 4) ^ crc_nibbles[crc >> 12]);
    crc = (uint16_t)((crc << 4) ^ crc_nibbles[crc >> 12]);
  }
  return crc;
}
#else
/* NCCC_RPC_CRC_SLICES (16) bytes at a time from the tables rpc_wire.h
** generates from the polynomial (8 KiB): only the first two lookups wait
** for the register, the other fourteen go in parallel. */
#if NCCC_RPC_CRC_SLICES != 16
#error "nccc_rpc_crc16 below takes 16 bytes a step"
#endif
static const uint16_t crc_tables[NCCC_RPC_CRC_SLICES][256] = NCCC_RPC_CRC_TABLES;

uint16_t nccc_rpc_crc16(uint16_t crc, const uint8_t *data, size_t n) {
  const uint16_t(*t)[256] = crc_tables;
  size_t i = 0;
  for (; i + NCCC_RPC_CRC_SLICES <= n; i += NCCC_RPC_CRC_SLICES) {
    const uint8_t *d = data + i;
    uint16_t r = (uint16_t)(crc ^ (d[0] << 8 | d[1]));
    crc = (uint16_t)(t[15][r >> 8] ^ t[14][r & 0xff] ^ t[13][d[2]] ^ t[12][d[3]] ^
                     t[11][d[4]] ^ t[10][d[5]] ^ t[9][d[6]] ^ t[8][d[7]] ^ t[7][d[8]] ^
                     t[6][d[9]] ^ t[5][d[10]] ^ t[4][d[11]] ^ t[3][d[12]] ^ t[2][d[13]] ^
                     t[1][d[14]] ^ t[0][d[15]]);
  }
  for (; i < n; i++) crc = (uint16_t)((crc << 8) ^ t[0][(crc >> 8) ^ data[i]]);
  return crc;
}
#endif

/* Where the decoder is in a frame. */
enum { HUNT, LENGTH, PAYLOAD, CRC };

void nccc_rpc_decoder_init(nccc_rpc_decoder *d, uint8_t *buf, uint32_t cap) {
  d->buf = buf;
  d->cap = cap;
  d->length = 0;
  d->got = 0;
  d->crc = NCCC_RPC_CRC_INIT;
  d->frame_crc = 0;
  d->state = HUNT;
  d->escaped = 0;
  d->garbage = 0;
}

static void begin_frame(nccc_rpc_decoder *d) {
  d->state = LENGTH;
  d->length = 0;
  d->got = 0;
  d->crc = NCCC_RPC_CRC_INIT;
  d->frame_crc = 0;
}

/* One data byte (escapes already undone) of the frame being read. */
static nccc_rpc_frame_event data_byte(nccc_rpc_decoder *d, uint8_t b) {
  switch (d->state) {
    case LENGTH:
      d->crc = nccc_rpc_crc16(d->crc, &b, 1);
      d->length |= (uint32_t)b << (8 * d->got);
      if (++d->got < NCCC_RPC_LENGTH_BYTES) return NCCC_RPC_FRAME_MORE;
      d->got = 0;
      if (d->length > d->cap) {
        d->state = HUNT;
        return NCCC_RPC_FRAME_TOO_LONG;
      }
      d->state = d->length ? PAYLOAD : CRC;
      return NCCC_RPC_FRAME_MORE;
    case PAYLOAD:
      d->crc = nccc_rpc_crc16(d->crc, &b, 1);
      d->buf[d->got] = b;
      if (++d->got == d->length) {
        d->got = 0;
        d->state = CRC;
      }
      return NCCC_RPC_FRAME_MORE;
    default: /* CRC */
      d->frame_crc |= (uint16_t)(b << (8 * d->got));
      if (++d->got < NCCC_RPC_CRC_BYTES) return NCCC_RPC_FRAME_MORE;
      d->state = HUNT;
      return d->frame_crc == d->crc ? NCCC_RPC_FRAME_OK : NCCC_RPC_FRAME_BAD_CRC;
  }
}

/* A whole frame after its start, all in data[0 .. n) and with no escape
** byte in it (the common case): taken in one go, as the byte-by-byte path
** would. Returns the bytes it took, 0 to leave the frame to that path. */
static size_t whole_frame(nccc_rpc_decoder *d, const uint8_t *data, size_t n,
                          nccc_rpc_frame_event *ev) {
  uint32_t length;
  size_t total;
  if (n < NCCC_RPC_LENGTH_BYTES) return 0;
  length = nccc_rpc_get32(data);
  total = NCCC_RPC_LENGTH_BYTES + (size_t)length + NCCC_RPC_CRC_BYTES;
  if (length > d->cap || n < total || memchr(data, NCCC_RPC_BYTE_ESCAPE, total) != NULL) {
    return 0;
  }
  memcpy(d->buf, data + NCCC_RPC_LENGTH_BYTES, length);
  d->length = length;
  d->got = 0;
  d->state = HUNT;
  d->crc = nccc_rpc_crc16(NCCC_RPC_CRC_INIT, data, NCCC_RPC_LENGTH_BYTES + length);
  d->frame_crc = nccc_rpc_get16(data + total - NCCC_RPC_CRC_BYTES);
  *ev = d->frame_crc == d->crc ? NCCC_RPC_FRAME_OK : NCCC_RPC_FRAME_BAD_CRC;
  return total;
}

nccc_rpc_frame_event nccc_rpc_decode(nccc_rpc_decoder *d, const uint8_t *data,
                                     size_t n, size_t *used) {
  size_t i = 0;
  nccc_rpc_frame_event ev = NCCC_RPC_FRAME_MORE;
  while (i < n && ev == NCCC_RPC_FRAME_MORE) {
    uint8_t b;
    if (!d->escaped && d->state == LENGTH && d->got == 0) {
      size_t k = whole_frame(d, data + i, n - i, &ev);
      i += k;
      if (k) continue;
    }
    if (!d->escaped && (d->state == HUNT || d->state == PAYLOAD)) {
      /* a run without escapes: skipped as garbage, or payload in one go */
      size_t k = n - i;
      const uint8_t *esc;
      if (d->state == PAYLOAD && k > d->length - d->got) k = d->length - d->got;
      esc = memchr(data + i, NCCC_RPC_BYTE_ESCAPE, k);
      if (esc != NULL) k = (size_t)(esc - (data + i));
      if (d->state == HUNT) {
        d->garbage += (uint32_t)k;
      } else {
        memcpy(d->buf + d->got, data + i, k);
        d->crc = nccc_rpc_crc16(d->crc, data + i, k);
        d->got += (uint32_t)k;
        if (d->got == d->length) {
          d->got = 0;
          d->state = CRC;
        }
      }
      i += k;
      if (i == n) break;
    }
    b = data[i++];
    if (!d->escaped) {
      if (b == NCCC_RPC_BYTE_ESCAPE) {
        d->escaped = 1;
      } else if (d->state == HUNT) {
        d->garbage++;
      } else {
        ev = data_byte(d, b);
      }
      continue;
    }
    d->escaped = 0;
    if (b == NCCC_RPC_BYTE_NOP) continue;
    if (b == NCCC_RPC_BYTE_START) {
      /* A start inside a frame cuts it; the new frame begins either way. */
      if (d->state != HUNT) ev = NCCC_RPC_FRAME_CUT;
      begin_frame(d);
    } else if (b == NCCC_RPC_BYTE_DATA_FF && d->state != HUNT) {
      ev = data_byte(d, NCCC_RPC_BYTE_ESCAPE);
    } else {
      /* An escape that means nothing: outside a frame it is garbage, inside
      ** one the frame is lost. A second escape may begin a frame (a frame
      ** cut after a lone escape byte, then the next one's start). */
      if (d->state != HUNT) ev = NCCC_RPC_FRAME_CUT;
      else d->garbage += b == NCCC_RPC_BYTE_ESCAPE ? 1u : 2u;
      d->state = HUNT;
      d->escaped = b == NCCC_RPC_BYTE_ESCAPE;
    }
  }
  *used = i;
  return ev;
}

static void flush(nccci_rpc_out *o) {
  if (o->n && !o->failed && o->sink(o->ctx, o->bytes, o->n) != 0) o->failed = 1;
  o->n = 0;
}

static void put_raw(nccci_rpc_out *o, uint8_t b) {
  if (o->n == sizeof o->bytes) flush(o);
  o->bytes[o->n++] = b;
}

/* Data bytes: escaped, and counted in the CRC unless crc is 0. Runs
** without an escape byte are copied whole. */
static void put_data(nccci_rpc_out *o, const uint8_t *p, size_t n, int crc) {
  if (crc) o->crc = nccc_rpc_crc16(o->crc, p, n);
  while (n > 0) {
    const uint8_t *esc = memchr(p, NCCC_RPC_BYTE_ESCAPE, n);
    size_t run = esc ? (size_t)(esc - p) : n;
    while (run > 0) {
      size_t k = sizeof o->bytes - o->n;
      if (k == 0) {
        flush(o);
        k = sizeof o->bytes;
      }
      if (k > run) k = run;
      memcpy(o->bytes + o->n, p, k);
      o->n += k;
      p += k;
      n -= k;
      run -= k;
    }
    if (esc != NULL) {
      put_raw(o, NCCC_RPC_BYTE_ESCAPE);
      put_raw(o, NCCC_RPC_BYTE_DATA_FF);
      p++;
      n--;
    }
  }
}

void nccci_rpc_frame_open(nccci_rpc_out *o, uint32_t n, nccc_rpc_sink sink, void *ctx) {
  uint8_t field[NCCC_RPC_LENGTH_BYTES];
  o->n = 0;
  o->sink = sink;
  o->ctx = ctx;
  o->crc = NCCC_RPC_CRC_INIT;
  o->failed = 0;
  put_raw(o, NCCC_RPC_BYTE_ESCAPE);
  put_raw(o, NCCC_RPC_BYTE_START);
  nccc_rpc_put32(field, n);
  put_data(o, field, NCCC_RPC_LENGTH_BYTES, 1);
}

void nccci_rpc_frame_put(nccci_rpc_out *o, const uint8_t *p, size_t n) {
  put_data(o, p, n, 1);
}

nccc_status nccci_rpc_frame_close(nccci_rpc_out *o) {
  uint8_t field[NCCC_RPC_CRC_BYTES];
  nccc_rpc_put16(field, o->crc);
  put_data(o, field, NCCC_RPC_CRC_BYTES, 0);
  flush(o);
  return o->failed ? nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "write failed") : NCCC_OK;
}

nccc_status nccc_rpc_frame_send(const uint8_t *payload, uint32_t n,
                                nccc_rpc_sink sink, void *ctx) {
  nccci_rpc_out o;
  nccci_rpc_frame_open(&o, n, sink, ctx);
  nccci_rpc_frame_put(&o, payload, n);
  return nccci_rpc_frame_close(&o);
}
