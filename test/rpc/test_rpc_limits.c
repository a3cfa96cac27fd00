/*
** test_rpc_limits.c — the exact size limits of docs/RPC.md: a read of n
** bytes fits when its answer, 16 + n bytes, fits NCCC_RPC_MAX_MESSAGE; a
** string result fits when the answer so far plus 7 + its length does
** (the request's 8-byte address included when strings came in). A
** server in this process, fed frames (nccc_rpc_server_feed), its answers
** decoded as they are written.
*/
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>

#include "nccc_check.h"

static nccc_rpc_server server;
static nccc_rpc_decoder answers;
static uint8_t answer[NCCC_RPC_MAX_MESSAGE];
static uint32_t answer_n, next_id;
static uint16_t session;
static char text[NCCC_RPC_MAX_MESSAGE];

/* The last well-formed message the server wrote is kept in answer. */
static long take(void *ctx, const uint8_t *data, size_t n) {
  size_t used;
  (void)ctx;
  for (size_t at = 0; at < n; at += used) {
    if (nccc_rpc_decode(&answers, data + at, n - at, &used) == NCCC_RPC_FRAME_OK) {
      answer_n = answers.length;
    }
  }
  return (long)n;
}

static long no_read(void *ctx, uint8_t *buf, size_t n) {
  (void)ctx;
  (void)buf;
  (void)n;
  return 0;
}

static int to_server(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  return nccc_rpc_server_feed(&server, data, n) != NCCC_OK;
}

/* Sends msg (n bytes; its header's type set) as the next request. */
static void request(uint8_t *msg, uint32_t n) {
  nccc_rpc_header_put(msg, msg[0], session, ++next_id);
  answer_n = 0;
  ck_assert_int_eq(nccc_rpc_frame_send(msg, n, to_server, NULL), NCCC_OK);
  ck_assert_uint_ge(answer_n, 12);
  ck_assert_uint_eq(nccc_rpc_get32(answer + 4), next_id);
}

static uint32_t status(void) { return nccc_rpc_get32(answer + 8); }

/* "text" (slot 0): the string in text. */
static void f_text(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = (uint64_t)(uintptr_t)text;
}

static void setup(void) {
  static const nccc_rpc_transport io = {NULL, no_read, take};
  uint8_t hello[NCCC_RPC_HEADER_BYTES + 2];
  nccc_handle h;
  nccc_check_init(NULL);
  ck_assert_int_eq(nccc_register("limits.text", f_text, ":s", 0, &h), NCCC_OK);
  nccc_rpc_decoder_init(&answers, answer, sizeof answer);
  ck_assert_int_eq(nccc_rpc_server_init(&server, &io), NCCC_OK);
  nccc_rpc_header_put(hello, NCCC_RPC_HELLO, 0, 0);
  hello[NCCC_RPC_HEADER_BYTES] = NCCC_RPC_VERSION;
  hello[NCCC_RPC_HEADER_BYTES + 1] = 7;
  ck_assert_int_eq(nccc_rpc_frame_send(hello, sizeof hello, to_server, NULL), NCCC_OK);
  ck_assert_uint_eq(answer[0], NCCC_RPC_START);
  session = nccc_rpc_get16(answer + 2);
  next_id = 0;
}

/* read(text, n): the answer is 16 + n bytes, refused when over. */
START_TEST(test_read_fits_exactly) {
  uint8_t msg[20];
  uint32_t n = NCCC_RPC_MAX_MESSAGE - 16;
  msg[0] = NCCC_RPC_READ;
  nccc_rpc_put64(msg + 8, (uint64_t)(uintptr_t)text);
  nccc_rpc_put32(msg + 16, n);
  request(msg, sizeof msg);
  ck_assert_uint_eq(status(), NCCC_OK);
  ck_assert_uint_eq(answer_n, 16 + n);
  nccc_rpc_put32(msg + 16, n + 1);
  request(msg, sizeof msg);
  ck_assert_uint_eq(status(), NCCC_ERR_RPC_TOO_BIG);
}
END_TEST

/* A call of limits.text asking its result back as a string: length
** bytes fit when 16 + 8 (one out slot) + 7 + length <= the largest
** message; one byte more and the string is left out (the host reads it
** with strlen and read). */
static uint8_t strings_back(size_t length) {
  uint8_t msg[NCCC_RPC_HEADER_BYTES + 8 + 4];
  memset(text, 'x', length);
  text[length] = 0;
  msg[0] = NCCC_RPC_CALL;
  nccc_rpc_put32(msg + 8, nccc_check_lookup("limits.text"));
  nccc_rpc_put16(msg + 12, 0);
  nccc_rpc_put16(msg + 14, 1);
  msg[16] = 0; /* no strings in */
  msg[17] = 1; /* out slot 0 back as a string */
  nccc_rpc_put16(msg + 18, 0);
  request(msg, sizeof msg);
  ck_assert_uint_eq(status(), NCCC_OK);
  return answer[14];
}

START_TEST(test_string_result_fits_exactly) {
  size_t fits = NCCC_RPC_MAX_MESSAGE - 16 - 8 - 7;
  ck_assert_uint_eq(strings_back(fits), 1);
  ck_assert_uint_eq(answer_n, NCCC_RPC_MAX_MESSAGE);
  ck_assert_uint_eq(strings_back(fits + 1), 0);
  ck_assert_uint_eq(answer_n, 16 + 8);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("rpc_limits");
  nccc_check_tcase(s, "limits", setup, NULL,
                   NCCC_CHECK_TESTS(test_read_fits_exactly, test_string_result_fits_exactly));
  return s;
}
