/*
** rpc_windows.c — nccc_rpc_serve_windows: the server on a Windows
** process's standard handles (pipes, files or a console), read and
** written as bytes with ReadFile and WriteFile.
*/
#include <stdio.h>
#include <string.h>
#include <windows.h>

#include <nccc/rpc_windows.h>

#include "rpc_internal.h"

typedef struct handles {
  HANDLE in, out;
} handles;

/* A link of at most 2^31 - 1 bytes a call: what a long and a DWORD hold. */
static DWORD chunk(size_t n) { return n > 0x7fffffffu ? 0x7fffffffu : (DWORD)n; }

static long handles_read(void *ctx, uint8_t *buf, size_t n) {
  handles *h = ctx;
  DWORD got = 0;
  if (!ReadFile(h->in, buf, chunk(n), &got, NULL)) return -1;
  return (long)got;
}

static long handles_write(void *ctx, const uint8_t *buf, size_t n) {
  handles *h = ctx;
  DWORD put = 0;
  if (!WriteFile(h->out, buf, chunk(n), &put, NULL)) return -1;
  return (long)put;
}

int nccc_rpc_serve_windows(nccc_rpc_server *s, int argc, char **argv) {
  handles h;
  nccc_rpc_transport t;
  if (argc > 2 || (argc == 2 && strcmp(argv[1], "--stdio") != 0)) {
    fprintf(stderr, "usage: %s [--stdio]\n", argc ? argv[0] : "server");
    return 2;
  }
  h.in = GetStdHandle(STD_INPUT_HANDLE);
  h.out = GetStdHandle(STD_OUTPUT_HANDLE);
  if (h.in == INVALID_HANDLE_VALUE || h.out == INVALID_HANDLE_VALUE) return 1;
  t.ctx = &h;
  t.read = handles_read;
  t.write = handles_write;
  return nccci_rpc_serve_link(s, &t);
}
