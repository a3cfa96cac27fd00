/*
** rpc_test_client.c — starting the test server for the client tests.
*/
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rpc_test_client.h"

nccc_remote *rpct_open(void) {
  char *argv[] = {RPC_TEST_SERVER, NULL};
  nccc_remote *r = NULL;
  nccc_status st = nccc_remote_open_exec(argv, NULL, &r);
  ck_assert_msg(st == NCCC_OK, "open: %s", nccc_last_error());
  return r;
}

nccc_handle rpct_lookup(nccc_remote *r, const char *name) {
  nccc_handle h = 0;
  nccc_status st = nccc_remote_lookup(r, name, &h, NULL, NULL, NULL, 0);
  ck_assert_msg(st == NCCC_OK, "lookup %s: %s", name, nccc_last_error());
  return h;
}

nccc_status rpct_call(nccc_remote *r, const char *name, const uint64_t *in, size_t n_in,
                      uint64_t *out, size_t n_out) {
  return nccc_remote_call(r, rpct_lookup(r, name), in, n_in, out, n_out);
}

uint64_t rpct_count(nccc_remote *r) {
  uint64_t out[1] = {0};
  ck_assert_msg(rpct_call(r, "rpct.count", NULL, 0, out, 1) == NCCC_OK, "count: %s",
                nccc_last_error());
  return out[0];
}

uint64_t rpct_stat(nccc_remote *r, int which) {
  uint64_t in[1] = {(uint64_t)which}, out[1] = {0};
  ck_assert_msg(rpct_call(r, "rpct.server_stat", in, 1, out, 1) == NCCC_OK, "server_stat: %s",
                nccc_last_error());
  return out[0];
}

long rpct_spawn(const char *arg, const char *value, char *line, size_t size) {
  int fds[2];
  pid_t pid;
  FILE *f;
  ck_assert_int_eq(pipe(fds), 0);
  pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    execl(RPC_TEST_SERVER, RPC_TEST_SERVER, arg, value, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  f = fdopen(fds[0], "r");
  ck_assert_ptr_nonnull(fgets(line, (int)size, f));
  fclose(f);
  line[strcspn(line, "\n")] = 0;
  return (long)pid;
}

void rpct_reap(long pid) {
  int status;
  kill((pid_t)pid, SIGTERM);
  waitpid((pid_t)pid, &status, 0);
}
