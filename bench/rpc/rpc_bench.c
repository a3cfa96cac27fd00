/*
** rpc_bench.c — remote calls per second through the client
** (nccc/remote.h) to a device serving module "wire"
** (test/remote/wire_device.c), and the bytes each round trip moves, so
** that pingpong.c can be run with the same counts.
**
**   rpc_bench pipe CALL SECONDS DEVICE COMMAND...
**   rpc_bench tcp:PORT CALL SECONDS
**
** CALL is "add" (2 slots in, 1 out) or "slab" (slab_turn: 64 in, 64
** out). The links are the client's own: pipe starts DEVICE COMMAND...
** with its stdin and stdout as the link (nccc_remote_open_exec); tcp
** connects to a device already listening on 127.0.0.1:PORT
** (nccc_remote_open_tcp). Calls go by handle with raw slots
** (nccc_remote_call). Prints "rpc <transport> <CALL> <request bytes>
** <response bytes>: <calls per second>"; the byte counts are those of
** one call on the link, framing included (the remote's stats).
*/
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  nccc_remote *r;
  nccc_handle h;
  uint16_t n_in, n_out;
  uint64_t in[64], out[64];
  nccc_status st;
  if (argc < 4 || (strcmp(argv[1], "pipe") == 0 && argc < 5) ||
      (strcmp(argv[2], "add") != 0 && strcmp(argv[2], "slab") != 0)) {
    fprintf(stderr, "usage: rpc_bench pipe|tcp:PORT add|slab SECONDS [DEVICE COMMAND...]\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  /* the client's own links, as an application opens them */
  st = nccc_init(NULL, 0);
  if (st == NCCC_OK) {
    st = strncmp(argv[1], "tcp:", 4) == 0
             ? nccc_remote_open_tcp((uint16_t)atoi(argv[1] + 4), NULL, &r)
             : nccc_remote_open_exec(argv + 4, NULL, &r);
  }
  if (st != NCCC_OK ||
      nccc_remote_lookup(r, strcmp(argv[2], "add") == 0 ? "wire.add" : "wire.slab_turn",
                         &h, &n_in, &n_out, NULL, 0) != NCCC_OK) {
    fprintf(stderr, "rpc_bench: %s\n", nccc_last_error());
    return 1;
  }
  /* values without a 0xff byte: no escapes, every call the same size */
  for (int i = 0; i < 64; i++) in[i] = 0x0102030405060708u + (uint64_t)i;
  if (nccc_remote_call(r, h, in, n_in, out, n_out) != NCCC_OK) {
    fprintf(stderr, "rpc_bench: %s\n", nccc_last_error());
    return 1;
  }
  const nccc_remote_stats *stats = nccc_remote_stats_get(r);
  unsigned long long sent = stats->bytes_sent, received = stats->bytes_received;
  if (nccc_remote_call(r, h, in, n_in, out, n_out) != NCCC_OK) return 1;
  sent = stats->bytes_sent - sent;
  received = stats->bytes_received - received;
  double seconds = atof(argv[3]), start = now(), t = start;
  long calls = 0;
  while (t < start + seconds) {
    for (int i = 0; i < 64; i++, calls++) {
      if (nccc_remote_call(r, h, in, n_in, out, n_out) != NCCC_OK) {
        fprintf(stderr, "rpc_bench: %s\n", nccc_last_error());
        return 1;
      }
    }
    t = now();
  }
  nccc_remote_close(r);
  printf("rpc %s %s %llu %llu: %.0f\n", strncmp(argv[1], "tcp", 3) == 0 ? "tcp" : "pipe",
         argv[2], sent, received, (double)calls / (t - start));
  return 0;
}
