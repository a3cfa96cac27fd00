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
** out). pipe starts DEVICE COMMAND... with its stdin and stdout as the
** link; tcp connects to a device already listening on 127.0.0.1:PORT.
** Calls go by handle with raw slots (nccc_remote_call). Prints
** "rpc <transport> <CALL> <request bytes> <response bytes>: <calls per
** second>"; the byte counts are those of the link, framing included.
*/
#define _POSIX_C_SOURCE 200809L

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

/* A link over two descriptors that counts the bytes each way. */
typedef struct counted {
  int in, out;
  pid_t child;
  unsigned long long sent, received;
} counted;

static long counted_read(void *ctx, uint8_t *buf, size_t n, int timeout_ms) {
  counted *c = ctx;
  struct pollfd p = {c->in, POLLIN, 0};
  int ready = poll(&p, 1, timeout_ms);
  if (ready == 0) return 0;
  long r = ready < 0 ? -1 : (long)read(c->in, buf, n);
  if (r <= 0) return -1;
  c->received += (unsigned long long)r;
  return r;
}

static long counted_write(void *ctx, const uint8_t *buf, size_t n) {
  counted *c = ctx;
  long w = (long)write(c->out, buf, n);
  if (w > 0) c->sent += (unsigned long long)w;
  return w;
}

static void counted_close(void *ctx) {
  counted *c = ctx;
  close(c->in);
  if (c->out != c->in) close(c->out);
  if (c->child > 0) waitpid(c->child, NULL, 0);
}

static void die(const char *what) {
  perror(what);
  exit(2);
}

static void start_child(counted *c, char **argv) {
  int down[2], up[2];
  if (pipe(down) != 0 || pipe(up) != 0) die("pipe");
  c->child = fork();
  if (c->child < 0) die("fork");
  if (c->child == 0) {
    dup2(down[0], 0);
    dup2(up[1], 1);
    close(down[1]);
    close(up[0]);
    execvp(argv[0], argv);
    die("exec");
  }
  close(down[0]);
  close(up[1]);
  c->out = down[1];
  c->in = up[0];
}

static void connect_to(counted *c, int port) {
  struct sockaddr_in a;
  int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int tries = 0; connect(fd, (struct sockaddr *)&a, sizeof a) != 0; tries++) {
    struct timespec pause = {0, 50000000};
    if (tries == 100) die("connect");
    nanosleep(&pause, NULL);
  }
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  c->in = c->out = fd;
  c->child = 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  static counted link;
  static nccc_remote_transport transport = {&link, counted_read, counted_write,
                                            counted_close};
  nccc_remote *r;
  nccc_handle h;
  uint16_t n_in, n_out;
  uint64_t in[64], out[64];
  if (argc < 4 || (strcmp(argv[1], "pipe") == 0 && argc < 5) ||
      (strcmp(argv[2], "add") != 0 && strcmp(argv[2], "slab") != 0)) {
    fprintf(stderr, "usage: rpc_bench pipe|tcp:PORT add|slab SECONDS [DEVICE COMMAND...]\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  if (strncmp(argv[1], "tcp:", 4) == 0) {
    connect_to(&link, atoi(argv[1] + 4));
  } else {
    start_child(&link, argv + 4);
  }
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_remote_open(&transport, NULL, &r) != NCCC_OK ||
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
  unsigned long long sent = link.sent, received = link.received;
  if (nccc_remote_call(r, h, in, n_in, out, n_out) != NCCC_OK) return 1;
  sent = link.sent - sent;
  received = link.received - received;
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
