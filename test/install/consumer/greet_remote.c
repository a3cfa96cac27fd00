/* greet_remote.c DEVICE — the install test's host (nccc::remote): starts
** DEVICE, binds its module greet as a local module and calls greet.add by
** its local handle. Prints "remote: 42". */
#include <stdio.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

int main(int argc, char **argv) {
  nccc_remote *r = NULL;
  nccc_handle add;
  uint64_t in[2] = {40, 2}, out[1] = {0};
  uint16_t index;
  if (argc != 2) {
    fprintf(stderr, "usage: greet_remote DEVICE\n");
    return 2;
  }
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_remote_open_exec(argv + 1, NULL, &r) != NCCC_OK ||
      nccc_remote_bind(r, "greet", NULL, &index) != NCCC_OK ||
      nccc_lookup("greet.add", &add) != NCCC_OK ||
      nccc_call_checked(add, in, 2, out, 1) != NCCC_OK) {
    fprintf(stderr, "greet_remote: %s\n", nccc_last_error());
    return 1;
  }
  printf("remote: %lld\n", (long long)out[0]);
  nccc_remote_close(r);
  return out[0] == 42 ? 0 : 1;
}
