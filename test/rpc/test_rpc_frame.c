/*
** test_rpc_frame.c — the CRC, the frame encoder and the decoder's
** resynchronisation after garbage, bad CRCs, cut frames and lengths over
** the limit.
*/
#include <string.h>

#include <nccc/rpc_frame.h>

#include "nccc_check.h"

/* The encoder's output, collected. */
typedef struct wire {
  uint8_t bytes[4096];
  size_t n;
} wire;

static int collect(void *ctx, const uint8_t *data, size_t n) {
  wire *w = ctx;
  ck_assert_uint_le(w->n + n, sizeof w->bytes);
  memcpy(w->bytes + w->n, data, n);
  w->n += n;
  return 0;
}

static void encode(wire *w, const uint8_t *payload, uint32_t n) {
  ck_assert_int_eq(nccc_rpc_frame_send(payload, n, collect, w), NCCC_OK);
}

static uint8_t buf[64];
static nccc_rpc_decoder dec;

static void setup(void) { nccc_rpc_decoder_init(&dec, buf, sizeof buf); }

/* Decodes all of w; returns the events in order ("O" ok, "C" bad CRC,
** "X" cut, "L" too long) and leaves the last good payload in buf. */
static const char *events(const wire *w) {
  static char seen[32];
  size_t at = 0, k = 0;
  while (at < w->n) {
    size_t used;
    nccc_rpc_frame_event ev = nccc_rpc_decode(&dec, w->bytes + at, w->n - at, &used);
    at += used;
    if (ev != NCCC_RPC_FRAME_MORE && k < sizeof seen - 1) seen[k++] = " OCXL"[ev];
  }
  seen[k] = 0;
  return seen;
}

START_TEST(test_crc_check_value) {
  ck_assert_uint_eq(nccc_rpc_crc16(NCCC_RPC_CRC_INIT, (const uint8_t *)"123456789", 9),
                    NCCC_RPC_CRC_CHECK);
  ck_assert_uint_eq(NCCC_RPC_CRC_CHECK, 0x29b1);
}
END_TEST

/* The CRC bit by bit, as docs/RPC.md defines it. */
static uint16_t crc_bitwise(uint16_t crc, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    crc ^= (uint16_t)(p[i] << 8);
    for (int b = 0; b < 8; b++) {
      crc = (uint16_t)(crc & 0x8000 ? (unsigned)(crc << 1) ^ NCCC_RPC_CRC_POLY : (unsigned)(crc << 1));
    }
  }
  return crc;
}

START_TEST(test_crc_any_length) {
  /* the table-driven CRC (sixteen bytes a step on hosted builds, then
  ** byte by byte) against the definition, at every length and start
  ** around the step, and in pieces */
  uint8_t data[600];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)(i * 151 + 7);
  for (size_t at = 0; at < 17; at++) {
    for (size_t n = 0; at + n <= sizeof data; n += n < 40 ? 1 : 37) {
      ck_assert_uint_eq(nccc_rpc_crc16(NCCC_RPC_CRC_INIT, data + at, n),
                        crc_bitwise(NCCC_RPC_CRC_INIT, data + at, n));
    }
  }
  ck_assert_uint_eq(nccc_rpc_crc16(nccc_rpc_crc16(NCCC_RPC_CRC_INIT, data, 21), data + 21, 500),
                    crc_bitwise(NCCC_RPC_CRC_INIT, data, 521));
}
END_TEST

START_TEST(test_frame_bytes) {
  /* one payload byte 0xff: escaped in the body (0xff 0xfc); length 1
  ** little-endian */
  const uint8_t payload[1] = {0xff};
  uint8_t crc_in[5] = {1, 0, 0, 0, 0xff};
  uint16_t crc = nccc_rpc_crc16(NCCC_RPC_CRC_INIT, crc_in, 5);
  wire w = {{0}, 0};
  encode(&w, payload, 1);
  ck_assert_uint_ge(w.n, 10);
  ck_assert_uint_eq(w.bytes[0], 0xff);
  ck_assert_uint_eq(w.bytes[1], 0xfd);
  ck_assert_uint_eq(w.bytes[2], 1);
  ck_assert_uint_eq(w.bytes[5], 0);
  ck_assert_uint_eq(w.bytes[6], 0xff);
  ck_assert_uint_eq(w.bytes[7], NCCC_RPC_BYTE_DATA_FF);
  /* the CRC follows, escaped where a byte is 0xff */
  ck_assert_uint_eq(w.bytes[8], crc & 0xff);
}
END_TEST

START_TEST(test_round_trip_every_byte) {
  uint8_t payload[48];
  wire w = {{0}, 0};
  for (size_t i = 0; i < sizeof payload; i++) payload[i] = (uint8_t)(0xf0 + i);
  encode(&w, payload, sizeof payload);
  ck_assert_str_eq(events(&w), "O");
  ck_assert_uint_eq(dec.length, sizeof payload);
  ck_assert_mem_eq(buf, payload, sizeof payload);
  ck_assert_uint_eq(dec.garbage, 0);
}
END_TEST

START_TEST(test_byte_by_byte) {
  const uint8_t payload[5] = {1, 0xfd, 0xfe, 0xff, 5};
  wire w = {{0}, 0};
  int ok = 0;
  encode(&w, payload, 5);
  for (size_t i = 0; i < w.n; i++) {
    size_t used;
    nccc_rpc_frame_event ev = nccc_rpc_decode(&dec, w.bytes + i, 1, &used);
    ck_assert_uint_eq(used, 1);
    if (ev == NCCC_RPC_FRAME_OK) ok++;
    else ck_assert_int_eq(ev, NCCC_RPC_FRAME_MORE);
  }
  ck_assert_int_eq(ok, 1);
  ck_assert_mem_eq(buf, payload, 5);
}
END_TEST

START_TEST(test_garbage_before_and_between) {
  const uint8_t junk[] = {0x00, 0xfd, 0x13, 0xff, 0x42, 0xfe, 0x77};
  const uint8_t a[3] = {1, 2, 3}, b[2] = {9, 8};
  wire w = {{0}, 0};
  memcpy(w.bytes, junk, sizeof junk);
  w.n = sizeof junk;
  encode(&w, a, 3);
  memcpy(w.bytes + w.n, junk, sizeof junk);
  w.n += sizeof junk;
  encode(&w, b, 2);
  ck_assert_str_eq(events(&w), "OO");
  ck_assert_mem_eq(buf, b, 2);
  ck_assert_uint_eq(dec.garbage, 2 * sizeof junk);
}
END_TEST

START_TEST(test_garbage_ending_in_escape) {
  /* garbage ending in 0xff (one or two) must not swallow the next start */
  const uint8_t a[2] = {4, 2};
  for (int tail = 1; tail <= 3; tail++) {
    wire w = {{0}, 0};
    w.bytes[w.n++] = 0x10;
    for (int k = 0; k < tail; k++) w.bytes[w.n++] = 0xff;
    encode(&w, a, 2);
    nccc_rpc_decoder_init(&dec, buf, sizeof buf);
    ck_assert_str_eq(events(&w), "O");
    ck_assert_uint_eq(dec.garbage, 1 + tail);
  }
}
END_TEST

START_TEST(test_nop_inside_frame_ignored) {
  const uint8_t a[4] = {1, 2, 3, 4};
  wire w = {{0}, 0}, x = {{0}, 0};
  encode(&w, a, 4);
  /* put escape + no-op between every byte after the start */
  memcpy(x.bytes, w.bytes, 2);
  x.n = 2;
  for (size_t i = 2; i < w.n; i++) {
    x.bytes[x.n++] = 0xff;
    x.bytes[x.n++] = 0xfe;
    x.bytes[x.n++] = w.bytes[i];
  }
  ck_assert_str_eq(events(&x), "O");
  ck_assert_mem_eq(buf, a, 4);
}
END_TEST

START_TEST(test_bad_crc_then_good) {
  const uint8_t a[3] = {1, 2, 3};
  wire w = {{0}, 0};
  encode(&w, a, 3);
  w.bytes[6] ^= 0x40; /* a payload byte changed on the wire */
  encode(&w, a, 3);
  ck_assert_str_eq(events(&w), "CO");
  ck_assert_mem_eq(buf, a, 3);
}
END_TEST

START_TEST(test_cut_frame_then_good) {
  const uint8_t a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  wire w = {{0}, 0};
  encode(&w, a, 8);
  w.n -= 5; /* cut inside the payload */
  encode(&w, a, 8);
  ck_assert_str_eq(events(&w), "XO");
  ck_assert_mem_eq(buf, a, 8);
}
END_TEST

START_TEST(test_bad_escape_cuts) {
  const uint8_t a[4] = {1, 2, 3, 4};
  wire w = {{0}, 0};
  encode(&w, a, 4);
  w.bytes[7] = 0xff; /* escape then payload byte 3: means nothing */
  encode(&w, a, 4);
  ck_assert_str_eq(events(&w), "XO");
}
END_TEST

START_TEST(test_cut_after_lone_escape) {
  /* a frame cut right after an escape byte: the next frame's start
  ** (0xff 0xfd) still begins the next frame, which arrives whole */
  const uint8_t a[6] = {1, 2, 0xff, 4, 5, 6};
  wire w = {{0}, 0};
  encode(&w, a, 6);
  ck_assert_uint_eq(w.bytes[8], 0xff);
  w.n = 9; /* ends in the lone escape of payload byte 2 */
  encode(&w, a, 6);
  ck_assert_str_eq(events(&w), "XO");
  ck_assert_mem_eq(buf, a, 6);
}
END_TEST

START_TEST(test_too_long_dropped_at_once) {
  /* a length of 1000 > 64: dropped after the length, the rest is
  ** garbage until the next start */
  uint8_t big[100];
  const uint8_t a[2] = {7, 7};
  wire w = {{0}, 0};
  memset(big, 0x11, sizeof big);
  w.bytes[0] = 0xff;
  w.bytes[1] = 0xfd;
  w.bytes[2] = 0xe8;
  w.bytes[3] = 0x03;
  w.bytes[4] = 0;
  w.bytes[5] = 0;
  memcpy(w.bytes + 6, big, sizeof big);
  w.n = 6 + sizeof big;
  encode(&w, a, 2);
  ck_assert_str_eq(events(&w), "LO");
  ck_assert_uint_eq(dec.garbage, sizeof big);
  ck_assert_mem_eq(buf, a, 2);
}
END_TEST

START_TEST(test_empty_payload) {
  wire w = {{0}, 0};
  encode(&w, NULL, 0);
  ck_assert_str_eq(events(&w), "O");
  ck_assert_uint_eq(dec.length, 0);
}
END_TEST

START_TEST(test_little_endian_fields) {
  uint8_t p[8];
  nccc_rpc_put64(p, 0x0102030405060708u);
  ck_assert_uint_eq(p[0], 8);
  ck_assert_uint_eq(p[7], 1);
  ck_assert_uint_eq(nccc_rpc_get64(p), 0x0102030405060708u);
  ck_assert(nccc_rpc_id_after(1, 0));
  ck_assert(!nccc_rpc_id_after(5, 5));
  ck_assert(!nccc_rpc_id_after(4, 5));
  ck_assert(nccc_rpc_id_after(2, 0xfffffffeu)); /* ids wrap */
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("rpc_frame");
  nccc_check_tcase(s, "frames", setup, NULL,
                   NCCC_CHECK_TESTS(test_crc_check_value, test_crc_any_length, test_frame_bytes,
                                    test_round_trip_every_byte, test_byte_by_byte,
                                    test_garbage_before_and_between,
                                    test_garbage_ending_in_escape,
                                    test_nop_inside_frame_ignored, test_bad_crc_then_good,
                                    test_cut_frame_then_good, test_bad_escape_cuts, test_cut_after_lone_escape,
                                    test_too_long_dropped_at_once, test_empty_payload,
                                    test_little_endian_fields));
  return s;
}
