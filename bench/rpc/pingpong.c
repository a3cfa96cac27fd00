/*
** pingpong.c — the limit a remote call is measured against: round trips
** of fixed byte counts over a pipe or a TCP connection on 127.0.0.1,
** with nothing but read and write at either end.
**
**   pingpong pipe|tcp REQ RESP SECONDS [--poll] [PEER COMMAND...]
**
** sends REQ bytes, waits for RESP bytes back, for SECONDS, and prints
** "pingpong <transport> <REQ> <RESP>: <round trips per second> <CPU
** microseconds per round trip, both sides>". With
** --poll this side waits in poll before each read, as a client that must
** time out on a pipe does (a pipe has no receive timeout). The
** peer is a fork of this process, or PEER COMMAND... (a cross build of
** this program under qemu, say) run with the arguments
** "--peer pipe REQ RESP" (its stdin and stdout are the pipes) or
** "--peer tcp REQ RESP PORT" (it connects to 127.0.0.1:PORT).
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

#include "cpu_time.h"

enum { MAX_BYTES = 1 << 16 };
static unsigned char buffer[MAX_BYTES];

static void die(const char *what) {
  perror(what);
  exit(2);
}

/* This side polls before each read (--poll). */
static int polling;

/* Reads exactly n bytes; 0 at a clean end of stream before any byte. */
static int read_all(int fd, size_t n) {
  size_t got = 0;
  while (got < n) {
    struct pollfd p = {fd, POLLIN, 0};
    if (polling && poll(&p, 1, 2000) != 1) die("poll");
    ssize_t r = read(fd, buffer + got, n - got);
    if (r == 0 && got == 0) return 0;
    if (r <= 0) die("read");
    got += (size_t)r;
  }
  return 1;
}

static void write_all(int fd, size_t n) {
  size_t put = 0;
  while (put < n) {
    ssize_t w = write(fd, buffer + put, n - put);
    if (w <= 0) die("write");
    put += (size_t)w;
  }
}

static void no_delay(int fd) {
  int one = 1;
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) {
    die("setsockopt");
  }
}

/* The peer's side: answer every REQ bytes with RESP bytes until the end. */
static int serve(int in, int out, size_t req, size_t resp) {
  while (read_all(in, req)) write_all(out, resp);
  return 0;
}

static int peer_main(char **argv) {
  size_t req = strtoul(argv[1], NULL, 10), resp = strtoul(argv[2], NULL, 10);
  if (strcmp(argv[0], "pipe") == 0) return serve(0, 1, req, resp);
  struct sockaddr_in a = {0};
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)atoi(argv[3]));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) die("connect");
  no_delay(fd);
  return serve(fd, fd, req, resp);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Starts the peer: a fork running serve, or the command given. For a
** pipe, *to and *from become this side's ends; for TCP, port names the
** listening socket the peer connects to. */
static pid_t start_peer(const char *transport, char **args, char **command,
                        int *to, int *from, int port) {
  int down[2], up[2];
  int pipe_mode = strcmp(transport, "pipe") == 0;
  if (pipe_mode && (pipe(down) != 0 || pipe(up) != 0)) die("pipe");
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid == 0) {
    char port_text[16];
    if (pipe_mode) {
      dup2(down[0], 0);
      dup2(up[1], 1);
      close(down[1]);
      close(up[0]);
    }
    snprintf(port_text, sizeof port_text, "%d", port);
    if (command[0] == NULL) {
      char *peer_args[] = {(char *)transport, args[0], args[1], port_text};
      _exit(peer_main(peer_args));
    }
    int n = 0;
    while (command[n] != NULL) n++;
    char **argv = calloc((size_t)n + 6, sizeof *argv);
    memcpy(argv, command, (size_t)n * sizeof *argv);
    argv[n] = "--peer";
    argv[n + 1] = (char *)transport;
    argv[n + 2] = args[0];
    argv[n + 3] = args[1];
    argv[n + 4] = port_text;
    execvp(argv[0], argv);
    die("exec");
  }
  if (pipe_mode) {
    close(down[0]);
    close(up[1]);
    *to = down[1];
    *from = up[0];
  }
  return pid;
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "--peer") == 0) return peer_main(argv + 2);
  if (argc < 5 || (strcmp(argv[1], "pipe") != 0 && strcmp(argv[1], "tcp") != 0)) {
    fprintf(stderr, "usage: pingpong pipe|tcp REQ RESP SECONDS [--poll] [PEER COMMAND...]\n");
    return 2;
  }
  size_t req = strtoul(argv[2], NULL, 10), resp = strtoul(argv[3], NULL, 10);
  double seconds = atof(argv[4]);
  if (req == 0 || resp == 0 || req > MAX_BYTES || resp > MAX_BYTES) {
    fprintf(stderr, "pingpong: byte counts must be 1..%d\n", MAX_BYTES);
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  int to = -1, from = -1, listener = -1, port = 0;
  if (strcmp(argv[1], "tcp") == 0) {
    struct sockaddr_in a = {0};
    socklen_t len = sizeof a;
    listener = socket(AF_INET, SOCK_STREAM, 0);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (listener < 0 || bind(listener, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(listener, 1) != 0 ||
        getsockname(listener, (struct sockaddr *)&a, &len) != 0) {
      die("listen");
    }
    port = ntohs(a.sin_port);
  }
  char **command = argv + 5;
  if (command[0] != NULL && strcmp(command[0], "--poll") == 0) command++;
  pid_t pid = start_peer(argv[1], argv + 2, command, &to, &from, port);
  polling = command != argv + 5; /* the peer, forked above, never polls */
  if (listener >= 0) {
    to = from = accept(listener, NULL, NULL);
    if (to < 0) die("accept");
    no_delay(to);
  }
  long trips = 0;
  double cpu = cpu_self() + cpu_child(pid);
  double start = now(), end = start + seconds, t = start;
  while (t < end) {
    for (int i = 0; i < 64; i++, trips++) {
      write_all(to, req);
      if (!read_all(from, resp)) die("peer closed");
    }
    t = now();
  }
  cpu = cpu_self() + cpu_child(pid) - cpu;
  close(to);
  if (from != to) close(from);
  waitpid(pid, NULL, 0);
  printf("pingpong %s %zu %zu: %.0f %.2f\n", argv[1], req, resp,
         (double)trips / (t - start), cpu * 1e6 / (double)trips);
  return 0;
}
