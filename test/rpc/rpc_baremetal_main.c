/* The server on a Cortex-M3 (run under qemu-system-arm): a scripted
** host says hello and calls add(40, 2) through a byte-at-a-time link, as
** a UART delivers it; the program checks the answers the server wrote.
** It also proves that the server links without malloc, stdio or threads. */
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>

static uint8_t script[128], answers[256];
static size_t script_n, script_at, answers_n;

static int to_script(void *ctx, const uint8_t *data, size_t n) {
  (void)ctx;
  memcpy(script + script_n, data, n);
  script_n += n;
  return 0;
}

static long link_read(void *ctx, uint8_t *buf, size_t n) {
  (void)ctx;
  (void)n;
  if (script_at == script_n) return -1; /* the host is done */
  buf[0] = script[script_at++];
  return 1;
}

static long link_write(void *ctx, const uint8_t *buf, size_t n) {
  (void)ctx;
  if (answers_n + n > sizeof answers) return -1;
  memcpy(answers + answers_n, buf, n);
  answers_n += n;
  return (long)n;
}

static void add(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(nccc_slot_to_i64(in[0]) + nccc_slot_to_i64(in[1]));
}

static uint64_t registry_block[64];
static nccc_rpc_server server;

int main(void) {
  nccc_rpc_transport link = {0, link_read, link_write};
  uint8_t msg[32], payload[64];
  nccc_rpc_decoder d;
  nccc_handle h;
  size_t at = 0, used;
  int frames = 0;
  if (nccc_init(registry_block, sizeof registry_block) != NCCC_OK) return 1;
  if (nccc_register("add", add, "ll:l", 0, &h) != NCCC_OK) return 2;
  nccc_rpc_header_put(msg, NCCC_RPC_HELLO, 0, 0);
  msg[8] = NCCC_RPC_VERSION;
  msg[9] = 7; /* nonce: the session is 0x0701 */
  nccc_rpc_frame_send(msg, 10, to_script, NULL);
  nccc_rpc_header_put(msg, NCCC_RPC_CALL, 0x0701, 1);
  nccc_rpc_put32(msg + 8, h);
  nccc_rpc_put16(msg + 12, 2);
  nccc_rpc_put16(msg + 14, 1);
  nccc_rpc_put64(msg + 16, 40);
  nccc_rpc_put64(msg + 24, 2);
  nccc_rpc_frame_send(msg, 32, to_script, NULL);
  if (nccc_rpc_server_init(&server, &link) != NCCC_OK) return 3;
  if (nccc_rpc_server_run(&server) != NCCC_ERR_RPC_TRANSPORT) return 4;
  /* the answers: start of session 0, start of 0x0701, the result */
  nccc_rpc_decoder_init(&d, payload, sizeof payload);
  while (at < answers_n) {
    if (nccc_rpc_decode(&d, answers + at, answers_n - at, &used) == NCCC_RPC_FRAME_OK) {
      nccc_rpc_header hd = nccc_rpc_header_get(payload);
      frames++;
      if (frames == 1 && (hd.type != NCCC_RPC_START || hd.session != 0)) return 5;
      if (frames == 2 && (hd.type != NCCC_RPC_START || hd.session != 0x0701 ||
                          payload[9] != 4 || payload[10] != NCCC_RPC_ORDER_LITTLE)) {
        return 6;
      }
      if (frames == 3 && (hd.type != NCCC_RPC_RESULT || hd.id != 1 ||
                          nccc_rpc_get32(payload + 8) != NCCC_OK ||
                          nccc_rpc_get64(payload + 16) != 42)) {
        return 7;
      }
    }
    at += used;
  }
  return frames == 3 ? 0 : 8;
}
