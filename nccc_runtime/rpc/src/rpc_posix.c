/*
** rpc_posix.c — nccc_rpc_serve_posix: the server on a POSIX process's
** standard streams, a TCP port or a pseudo-terminal.
*/
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <nccc/rpc_posix.h>

#include "rpc_internal.h"

typedef struct fds {
  int in, out;
} fds;

static long fds_read(void *ctx, uint8_t *buf, size_t n) {
  fds *f = ctx;
  for (;;) {
    ssize_t got = read(f->in, buf, n);
    if (got < 0 && errno == EINTR) continue;
    return (long)got;
  }
}

static long fds_write(void *ctx, const uint8_t *buf, size_t n) {
  fds *f = ctx;
  for (;;) {
    ssize_t w = write(f->out, buf, n);
    if (w < 0 && errno == EINTR) continue;
    return (long)w;
  }
}

static int serve(nccc_rpc_server *s, int in, int out) {
  fds f;
  nccc_rpc_transport t;
  f.in = in;
  f.out = out;
  t.ctx = &f;
  t.read = fds_read;
  t.write = fds_write;
  return nccci_rpc_serve_link(s, &t);
}

static int serve_tcp(nccc_rpc_server *s, const char *port_text) {
  struct sockaddr_in addr;
  socklen_t len = sizeof addr;
  char *end;
  long port = strtol(port_text, &end, 10);
  int one = 1, fd, conn, status;
  if (*end != 0 || port < 0 || port > 65535) return 2;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 1) != 0 ||
      getsockname(fd, (struct sockaddr *)&addr, &len) != 0) {
    close(fd);
    return 1;
  }
  printf("port %u\n", (unsigned)ntohs(addr.sin_port));
  fflush(stdout);
  conn = accept(fd, NULL, NULL);
  close(fd);
  if (conn < 0) return 1;
  setsockopt(conn, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  status = serve(s, conn, conn);
  close(conn);
  return status;
}

static int serve_pty(nccc_rpc_server *s) {
  struct termios tio;
  const char *name;
  int status, slave, master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0 ||
      (name = ptsname(master)) == NULL) {
    return 1;
  }
  /* Our own hold on the terminal side: the master never sees a hang-up
  ** before the host opens it, or between two hosts. */
  slave = open(name, O_RDWR | O_NOCTTY);
  if (slave < 0) return 1;
  if (tcgetattr(slave, &tio) == 0) {
    cfmakeraw(&tio);
    tcsetattr(slave, TCSANOW, &tio);
  }
  printf("pty %s\n", name);
  fflush(stdout);
  status = serve(s, master, master);
  close(slave);
  close(master);
  return status;
}

int nccc_rpc_serve_posix(nccc_rpc_server *s, int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN); /* a host that leaves ends the link, not us */
  if (argc <= 1 || (argc == 2 && strcmp(argv[1], "--stdio") == 0)) return serve(s, 0, 1);
  if (argc == 3 && strcmp(argv[1], "--tcp") == 0) return serve_tcp(s, argv[2]);
  if (argc == 2 && strcmp(argv[1], "--pty") == 0) return serve_pty(s);
  fprintf(stderr, "usage: %s [--stdio | --tcp PORT | --pty]\n", argc ? argv[0] : "server");
  return 2;
}
