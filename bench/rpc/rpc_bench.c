/*
** rpc_bench.c — remote calls per second through the client
** (nccc/remote.h) to a device serving module "wire"
** (test/remote/wire_device.c), the CPU time each call costs on both
** sides, and the bytes each round trip moves, so that pingpong.c can be
** run with the same counts.
**
**   rpc_bench pipe|tcp CALL SECONDS DEVICE COMMAND...
**
** CALL is "add" (2 slots in, 1 out) or "slab" (slab_turn: 64 in, 64
** out). The device is started here, so that its CPU time can be read:
** pipe gives it a pipe as stdin and one as stdout and opens the client on
** them (nccc_remote_open_fds); tcp starts it with "--tcp 0" and connects
** to the port it prints (nccc_remote_open_tcp). Either way the client
** reads with its own links (docs/RPC.md: poll and read on a pipe, a read
** under SO_RCVTIMEO on a socket). Calls go by handle with raw slots
** (nccc_remote_call). Prints "rpc <transport> <CALL> <request bytes>
** <response bytes>: <calls per second> <CPU microseconds per call, both
** sides>"; the byte counts are those of one call on the link, framing
** included (the remote's stats).
*/
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

#include "cpu_time.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what) {
  perror(what);
  exit(2);
}

/* Starts the device: command with "--tcp 0" appended (tcp, its stdout
** read here for the port), or with pipes as its stdin and stdout. */
static pid_t start_device(int tcp, char **command, int *from, int *to, int *port) {
  int down[2], up[2], n = 0;
  char **argv;
  while (command[n] != NULL) n++;
  argv = calloc((size_t)n + 3, sizeof *argv);
  memcpy(argv, command, (size_t)n * sizeof *argv);
  if (tcp) {
    argv[n] = "--tcp";
    argv[n + 1] = "0";
  }
  if (pipe(down) != 0 || pipe(up) != 0) die("pipe");
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid == 0) {
    if (!tcp) dup2(down[0], 0);
    dup2(up[1], 1);
    close(down[0]);
    close(down[1]);
    close(up[0]);
    close(up[1]);
    execvp(argv[0], argv);
    die("exec");
  }
  free(argv);
  close(down[0]);
  close(up[1]);
  *from = up[0];
  *to = down[1];
  if (tcp) {
    FILE *f = fdopen(up[0], "r");
    if (f == NULL || fscanf(f, "port %d", port) != 1) die("the device's port");
    fclose(f);
    close(down[1]);
  }
  return pid;
}

int main(int argc, char **argv) {
  nccc_remote *r;
  nccc_handle h;
  uint16_t n_in, n_out;
  uint64_t in[64], out[64];
  nccc_status st;
  int tcp, from, to, port = 0;
  if (argc < 5 || (strcmp(argv[1], "pipe") != 0 && strcmp(argv[1], "tcp") != 0) ||
      (strcmp(argv[2], "add") != 0 && strcmp(argv[2], "slab") != 0)) {
    fprintf(stderr, "usage: rpc_bench pipe|tcp add|slab SECONDS DEVICE COMMAND...\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  tcp = strcmp(argv[1], "tcp") == 0;
  pid_t device = start_device(tcp, argv + 4, &from, &to, &port);
  st = nccc_init(NULL, 0);
  if (st == NCCC_OK) {
    st = tcp ? nccc_remote_open_tcp((uint16_t)port, NULL, &r)
             : nccc_remote_open_fds(from, to, NULL, &r);
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
  double seconds = atof(argv[3]), cpu = cpu_self() + cpu_child(device);
  double start = now(), t = start;
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
  cpu = cpu_self() + cpu_child(device) - cpu;
  nccc_remote_close(r);
  waitpid(device, NULL, 0);
  printf("rpc %s %s %llu %llu: %.0f %.2f\n", argv[1], argv[2], sent, received,
         (double)calls / (t - start), cpu * 1e6 / (double)calls);
  return 0;
}
