/*
** rpc_frame.c — CRC-16-CCITT, the frame decoder and the frame encoder
** (docs/RPC.md, "Framing").
*/
#include <nccc/rpc_frame.h>

uint16_t nccc_rpc_crc16(uint16_t crc, const uint8_t *data, size_t n) {
  for (size_t i = 0; i < n; i++) {
    crc ^= (uint16_t)(data[i] << 8);
    for (int bit = 0; bit < 8; bit++) {
      crc = (crc >> 15) ? (uint16_t)((crc << 1) ^ NCCC_RPC_CRC_POLY)
                            : (uint16_t)(crc << 1);
    }
  }
  return crc;
}

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

nccc_rpc_frame_event nccc_rpc_decode(nccc_rpc_decoder *d, const uint8_t *data,
                                     size_t n, size_t *used) {
  size_t i = 0;
  nccc_rpc_frame_event ev = NCCC_RPC_FRAME_MORE;
  while (i < n && ev == NCCC_RPC_FRAME_MORE) {
    uint8_t b = data[i++];
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
    } else if (b == NCCC_RPC_BYTE_ESCAPE && d->state != HUNT) {
      ev = data_byte(d, b);
    } else if (d->state != HUNT) {
      d->state = HUNT; /* an escape that means nothing: the frame is lost */
      ev = NCCC_RPC_FRAME_CUT;
    } else {
      d->garbage += 2;
    }
  }
  *used = i;
  return ev;
}

/* The encoder's staging buffer: escaped bytes go out in chunks. */
typedef struct out_chunk {
  uint8_t bytes[64];
  size_t n;
  nccc_rpc_sink sink;
  void *ctx;
  uint16_t crc;
  int failed;
} out_chunk;

static void flush(out_chunk *o) {
  if (o->n && !o->failed && o->sink(o->ctx, o->bytes, o->n) != 0) o->failed = 1;
  o->n = 0;
}

static void put_raw(out_chunk *o, uint8_t b) {
  if (o->n == sizeof o->bytes) flush(o);
  o->bytes[o->n++] = b;
}

/* Data bytes: escaped, and counted in the CRC unless crc is 0. */
static void put_data(out_chunk *o, const uint8_t *p, size_t n, int crc) {
  if (crc) o->crc = nccc_rpc_crc16(o->crc, p, n);
  for (size_t i = 0; i < n; i++) {
    if (p[i] == NCCC_RPC_BYTE_ESCAPE) put_raw(o, NCCC_RPC_BYTE_ESCAPE);
    put_raw(o, p[i]);
  }
}

nccc_status nccc_rpc_frame_send(const uint8_t *payload, uint32_t n,
                                nccc_rpc_sink sink, void *ctx) {
  out_chunk o;
  uint8_t field[NCCC_RPC_LENGTH_BYTES];
  o.n = 0;
  o.sink = sink;
  o.ctx = ctx;
  o.crc = NCCC_RPC_CRC_INIT;
  o.failed = 0;
  put_raw(&o, NCCC_RPC_BYTE_ESCAPE);
  put_raw(&o, NCCC_RPC_BYTE_START);
  nccc_rpc_put32(field, n);
  put_data(&o, field, NCCC_RPC_LENGTH_BYTES, 1);
  put_data(&o, payload, n, 1);
  nccc_rpc_put16(field, o.crc);
  put_data(&o, field, NCCC_RPC_CRC_BYTES, 0);
  flush(&o);
  return o.failed ? nccc_fail(NCCC_ERR_RPC_TRANSPORT, "rpc", "write failed")
                  : NCCC_OK;
}
