/*
** remote_link.c — the client's transports: file descriptors, a child
** process on pipes, TCP on 127.0.0.1, a terminal device.
*/
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "remote_internal.h"

typedef struct fd_link {
  int in, out;
  pid_t child;    /* 0: none */
  int socket;     /* in is a socket: reads wait with SO_RCVTIMEO */
  int timeout_ms; /* the SO_RCVTIMEO in force; 0: none set */
} fd_link;

/* A socket's read waits at most its SO_RCVTIMEO, so a read is one system
** call where poll and read are two (docs/BENCHMARKS.md, "Remote calls");
** the option is set again only when the timeout asked for changes,
** which a wait does when it ends on a millisecond after it began. */
static long socket_read(fd_link *l, uint8_t *buf, size_t n, int timeout_ms) {
  if (timeout_ms < 1) timeout_ms = 1; /* 0 would mean no timeout */
  if (timeout_ms != l->timeout_ms) {
    struct timeval tv;
    tv.tv_sec = timeout_ms / 1000;
    tv.tv_usec = (suseconds_t)(timeout_ms % 1000) * 1000;
    if (setsockopt(l->in, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) return -1;
    l->timeout_ms = timeout_ms;
  }
  for (;;) {
    ssize_t got = read(l->in, buf, n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    return got > 0 ? (long)got : -1;
  }
}

static long fd_read(void *ctx, uint8_t *buf, size_t n, int timeout_ms) {
  fd_link *l = ctx;
  struct pollfd p;
  if (l->socket) return socket_read(l, buf, n, timeout_ms);
  p.fd = l->in;
  p.events = POLLIN;
  for (;;) {
    int ready = poll(&p, 1, timeout_ms);
    ssize_t got;
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return -1;
    if (ready == 0) return 0;
    got = read(l->in, buf, n);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    return got > 0 ? (long)got : -1;
  }
}

static long fd_write(void *ctx, const uint8_t *buf, size_t n) {
  fd_link *l = ctx;
  for (;;) {
    ssize_t w = write(l->out, buf, n);
    if (w < 0 && errno == EINTR) continue;
    return w > 0 ? (long)w : -1;
  }
}

static void fd_close(void *ctx) {
  fd_link *l = ctx;
  close(l->in);
  if (l->out != l->in) close(l->out);
  if (l->child > 0) {
    int status;
    kill(l->child, SIGTERM);
    while (waitpid(l->child, &status, 0) < 0 && errno == EINTR) {
    }
  }
  free(l);
}

nccc_status nccci_remote_fd_transport(int read_fd, int write_fd, long child,
                                      nccc_remote_transport *out) {
  fd_link *l = malloc(sizeof *l);
  int type;
  socklen_t type_size = sizeof type;
  if (l == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "rpc", NULL);
  l->in = read_fd;
  l->out = write_fd;
  l->child = (pid_t)child;
  l->socket = getsockopt(read_fd, SOL_SOCKET, SO_TYPE, &type, &type_size) == 0;
  l->timeout_ms = 0;
  out->ctx = l;
  out->read = fd_read;
  out->write = fd_write;
  out->close = fd_close;
  return NCCC_OK;
}

static nccc_status open_fd_pair(int read_fd, int write_fd, long child,
                                const nccc_remote_options *options, nccc_remote **out) {
  nccc_remote_transport t;
  nccc_status st = nccci_remote_fd_transport(read_fd, write_fd, child, &t);
  if (st != NCCC_OK) {
    close(read_fd);
    if (write_fd != read_fd) close(write_fd);
    return st;
  }
  return nccc_remote_open(&t, options, out);
}

nccc_status nccc_remote_open_fds(int read_fd, int write_fd, const nccc_remote_options *options,
                                 nccc_remote **out) {
  if (out == NULL || read_fd < 0 || write_fd < 0) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_open_fds", NULL);
  }
  return open_fd_pair(read_fd, write_fd, 0, options, out);
}

nccc_status nccci_remote_spawn(char *const argv[], int *read_fd, int *write_fd,
                               long *child) {
  int to_child[2], from_child[2];
  pid_t pid;
  if (pipe(to_child) != 0) return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "pipe", strerror(errno));
  if (pipe(from_child) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "pipe", strerror(errno));
  }
  pid = fork();
  if (pid == 0) {
    dup2(to_child[0], 0);
    dup2(from_child[1], 1);
    close(to_child[0]);
    close(to_child[1]);
    close(from_child[0]);
    close(from_child[1]);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  fcntl(to_child[1], F_SETFD, FD_CLOEXEC);
  fcntl(from_child[0], F_SETFD, FD_CLOEXEC);
  if (pid < 0) {
    close(to_child[1]);
    close(from_child[0]);
    return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "fork", strerror(errno));
  }
  signal(SIGPIPE, SIG_IGN);
  *read_fd = from_child[0];
  *write_fd = to_child[1];
  *child = (long)pid;
  return NCCC_OK;
}

nccc_status nccc_remote_open_exec(char *const argv[], const nccc_remote_options *options,
                                  nccc_remote **out) {
  int read_fd, write_fd;
  long child;
  nccc_status st;
  if (argv == NULL || argv[0] == NULL || out == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_open_exec", NULL);
  }
  st = nccci_remote_spawn(argv, &read_fd, &write_fd, &child);
  if (st != NCCC_OK) return st;
  return open_fd_pair(read_fd, write_fd, child, options, out);
}

nccc_status nccc_remote_open_tcp(uint16_t port, const nccc_remote_options *options,
                                 nccc_remote **out) {
  struct sockaddr_in addr;
  int timeout = options && options->timeout_ms > 0 ? options->timeout_ms : 2000;
  struct timespec pause = {0, 20 * 1000 * 1000};
  if (out == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_open_tcp", NULL);
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  signal(SIGPIPE, SIG_IGN);
  /* the server may still be starting: try until the timeout passes */
  for (int waited = 0;; waited += 20) {
    int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "socket", strerror(errno));
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) {
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return open_fd_pair(fd, fd, 0, options, out);
    }
    close(fd);
    if (waited >= timeout) return nccc_fail(NCCC_ERR_RPC_TRANSPORT, "connect", strerror(errno));
    nanosleep(&pause, NULL);
  }
}

nccc_status nccc_remote_open_pty(const char *path, const nccc_remote_options *options,
                                 nccc_remote **out) {
  struct termios tio;
  int fd;
  if (path == NULL || out == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_open_pty", NULL);
  fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return nccc_fail(NCCC_ERR_RPC_TRANSPORT, path, strerror(errno));
  if (tcgetattr(fd, &tio) == 0) {
    cfmakeraw(&tio);
    tcsetattr(fd, TCSANOW, &tio);
  }
  return open_fd_pair(fd, fd, 0, options, out);
}

/* "exec:PROGRAM ARG ...": the words of the command, in place. */
static nccc_status open_exec_words(char *words, const nccc_remote_options *options,
                                   nccc_remote **out) {
  char *argv[64], *save = NULL;
  int argc = 0;
  for (char *w = strtok_r(words, " ", &save); w && argc < 63; w = strtok_r(NULL, " ", &save)) {
    argv[argc++] = w;
  }
  argv[argc] = NULL;
  if (argc == 0) return nccc_fail(NCCC_ERR_INVALID_ARG, "nccc_remote_open_spec", "exec: no program");
  return nccc_remote_open_exec(argv, options, out);
}

nccc_status nccc_remote_open_spec(const char *spec, const nccc_remote_options *options,
                                  nccc_remote **out) {
  nccc_status st;
  char *copy;
  if (spec == NULL || out == NULL) return nccc_fail(NCCC_ERR_NULL_POINTER, "nccc_remote_open_spec", NULL);
  if (strncmp(spec, "tcp:", 4) == 0) {
    char *end;
    long port = strtol(spec + 4, &end, 10);
    if (*end != 0 || end == spec + 4 || port <= 0 || port > 65535) {
      return nccc_fail(NCCC_ERR_INVALID_ARG, "nccc_remote_open_spec", spec);
    }
    return nccc_remote_open_tcp((uint16_t)port, options, out);
  }
  if (strncmp(spec, "pty:", 4) == 0) return nccc_remote_open_pty(spec + 4, options, out);
  if (strncmp(spec, "exec:", 5) != 0) {
    return nccc_fail(NCCC_ERR_INVALID_ARG, "nccc_remote_open_spec",
                     "expected exec:COMMAND, tcp:PORT or pty:PATH");
  }
  copy = malloc(strlen(spec) + 1);
  if (copy == NULL) return nccc_fail(NCCC_ERR_NO_MEMORY, "nccc_remote_open_spec", NULL);
  strcpy(copy, spec + 5);
  st = open_exec_words(copy, options, out);
  free(copy);
  return st;
}
