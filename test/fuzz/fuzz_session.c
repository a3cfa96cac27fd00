/*
** fuzz_session.c — libFuzzer target of the client's session: a remote
** over a scripted link whose device answers the hello with a start, then
** says what the input says while the client waits for one call. So the
** input reaches the client's waits, resends and nested states: results
** (of this call, of others, stale), notices, logs, starts of other
** sessions, and the device's nested calls, which the client runs on its
** own registry (h.add, and h.again, which calls the device again one
** level deeper), answers, and answers again from its last answer.
**
** After its first byte the input is cut into messages (a length byte,
** then that many bytes), each framed correctly for the client, with the
** session of the remote written into its header when its flag byte
** (byte 1) has bit 0 set, and the id of the client's newest request when
** it has bit 1 set (so that results and copies reach the client's
** rules); a nested call becomes a well-formed call of h.add or h.again
** (as its handle's low bit says: its in-slot count that of the slots it
** carries, one out slot), unless bit 2 of the flag byte keeps it as it
** is. The first byte is
** the low byte of the handle the client calls. The client waits with
** retries 0 and reads nothing once the script is spent: its wait ends
** at once.
*/
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

/* What the device says next, framed. */
static uint8_t script[1 << 17];
static size_t script_n, script_at;
/* The messages still to say, and what the client wrote last. */
static const uint8_t *input;
static size_t input_n, input_at;
static uint16_t session;
static uint32_t newest_id;
static nccc_remote *r;
static nccc_handle handles[2];
static int depth;

static int to_script(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  if (n > sizeof script - script_n) return 1;
  memcpy(script + script_n, data, n);
  script_n += n;
  return 0;
}

/* The next message of the input, fixed up and framed into the script. */
static void next_message(void) {
  uint8_t payload[256];
  size_t n;
  if (input_at >= input_n) return;
  n = input[input_at++];
  if (n > input_n - input_at) n = input_n - input_at;
  memcpy(payload, input + input_at, n);
  input_at += n;
  if (n >= 8 && (payload[1] & 1)) nccc_rpc_put16(payload + 2, session);
  if (n >= 8 && (payload[1] & 2)) nccc_rpc_put32(payload + 4, newest_id);
  if (n >= 16 && payload[0] == NCCC_RPC_CALL && !(payload[1] & 4)) {
    /* a well-formed call of h.add or h.again: as many in slots as it
    ** carries (whatever their count), one out slot */
    nccc_rpc_put32(payload + 8, handles[payload[8] & 1]);
    nccc_rpc_put16(payload + 12, (uint16_t)((n - 16) / 8));
    nccc_rpc_put16(payload + 14, 1);
    n = 16 + (n - 16) / 8 * 8;
  }
  nccc_rpc_frame_send(payload, (uint32_t)n, to_script, NULL);
}

/* The client's frames: a hello is answered with a start echoing its
** nonce; each request's id is kept. */
static nccc_rpc_decoder written;
static uint8_t written_payload[1 << 16];

static long link_write(void *ctx, const uint8_t *buf, size_t n) {
  size_t used;
  (void)ctx;
  for (size_t at = 0; at < n; at += used) {
    if (nccc_rpc_decode(&written, buf + at, n - at, &used) != NCCC_RPC_FRAME_OK) continue;
    if (written_payload[0] == NCCC_RPC_HELLO && written.length >= 10) {
      uint8_t start[20] = {0};
      session = (uint16_t)(written_payload[9] << 8 | 1);
      nccc_rpc_header_put(start, NCCC_RPC_START, session, 0);
      start[8] = NCCC_RPC_VERSION;
      start[9] = 8;
      start[11] = 2; /* max_depth */
      nccc_rpc_put32(start + 12, 4096);
      nccc_rpc_put16(start + 16, 64);
      start[18] = written_payload[9];
      nccc_rpc_frame_send(start, sizeof start, to_script, NULL);
    } else if (written.length >= 8 && written_payload[0] != NCCC_RPC_RESULT) {
      newest_id = nccc_rpc_get32(written_payload + 4);
    }
  }
  return (long)n;
}

static long link_read(void *ctx, uint8_t *buf, size_t n, int timeout_ms) {
  (void)ctx;
  (void)timeout_ms;
  if (script_at == script_n) {
    script_at = script_n = 0;
    next_message();
    if (script_n == 0) return 0; /* silence: the wait ends */
  }
  if (n > script_n - script_at) n = script_n - script_at;
  memcpy(buf, script + script_at, n);
  script_at += n;
  return (long)n;
}

static void h_add(const uint64_t *in, uint64_t *out) { out[0] = in[0] + in[1]; }

/* Calls the device again from inside its call, a few levels at most. */
static void h_again(const uint64_t *in, uint64_t *out) {
  if (depth < 3) {
    depth++;
    nccc_remote_call(r, (nccc_handle)in[0], in + 1, 1, out, 1);
    depth--;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  nccc_remote_transport t = {NULL, link_read, link_write, NULL};
  nccc_remote_options o = nccc_remote_default_options();
  uint64_t in[2] = {40, 2}, out[1];
  if (!ready) {
    if (nccc_init(NULL, 0) != NCCC_OK ||
        nccc_register("h.add", h_add, "LL:L", 0, &handles[0]) != NCCC_OK ||
        nccc_register("h.again", h_again, "LL:L", 0, &handles[1]) != NCCC_OK) {
      abort();
    }
    ready = 1;
  }
  if (size == 0) return 0;
  input = data + 1;
  input_n = size - 1;
  input_at = script_n = script_at = 0;
  newest_id = 0;
  depth = 0;
  nccc_rpc_decoder_init(&written, written_payload, sizeof written_payload);
  o.timeout_ms = 1000;
  o.retries = 0;
  if (nccc_remote_open(&t, &o, &r) != NCCC_OK) return 0;
  nccc_remote_call(r, (nccc_handle)(0x80008000u | data[0]), in, 2, out, 1);
  nccc_remote_close(r);
  r = NULL;
  return 0;
}
