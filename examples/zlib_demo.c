/*
** zlib_demo.c — the generator's output at work: idl/zlib.idl is turned
** into nccc wrappers at build time, and this program drives zlib only the
** way a host language would — by name through the registry, with slot
** buffers and checked calls — to compress a real file, decompress it and
** check both with crc32 and adler32.
**
**   zlib_demo FILE
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "zlib_nccc.h"

/* Calls MODULE.NAME with checked slot counts; exits with a message on any
** runtime error. */
static void call(const char *name, const uint64_t *in, size_t n_in,
                 uint64_t *out, size_t n_out) {
  nccc_handle h;
  if (nccc_lookup(name, &h) != NCCC_OK ||
      nccc_call_checked(h, in, n_in, out, n_out) != NCCC_OK) {
    fprintf(stderr, "zlib_demo: %s: %s\n", name, nccc_last_error());
    exit(1);
  }
}

/* A constant of the zlib module by name, from its constants table. */
static int64_t zconst(const char *name) {
  uint16_t i;
  for (i = 0; i < nccc_zlib_module.n_constants; i++) {
    if (strcmp(nccc_zlib_module.constants[i].name, name) == 0) {
      return nccc_slot_to_i64(nccc_zlib_module.constants[i].value);
    }
  }
  fprintf(stderr, "zlib_demo: no constant %s\n", name);
  exit(1);
}

static uint64_t checksum(const char *fn, const void *buf, size_t n) {
  uint64_t in[3], out[1];
  in[0] = 0; /* crc32 and adler32 of nothing ... */
  in[1] = 0;
  in[2] = 0;
  call(fn, in, 3, out, 1); /* ... give each function's start value */
  in[0] = out[0];
  in[1] = nccc_slot_from_ptr(buf);
  in[2] = nccc_slot_from_u32((uint32_t)n);
  call(fn, in, 3, out, 1);
  return out[0];
}

static char *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  char *buf;
  long size;
  if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
      fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "zlib_demo: cannot read %s\n", path);
    exit(1);
  }
  buf = malloc((size_t)size + 1);
  if (buf == NULL || fread(buf, 1, (size_t)size, f) != (size_t)size) {
    fprintf(stderr, "zlib_demo: cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  *n = (size_t)size;
  return buf;
}

int main(int argc, char **argv) {
  size_t n;
  char *text, *packed, *unpacked;
  int same;
  uint64_t in[5], out[2];
  uint64_t bound, packed_len, unpacked_len, crc_in, crc_out;

  if (argc != 2) {
    fprintf(stderr, "usage: zlib_demo FILE\n");
    return 2;
  }
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_zlib_register() != NCCC_OK) {
    fprintf(stderr, "zlib_demo: %s\n", nccc_last_error());
    return 1;
  }
  text = read_file(argv[1], &n);

  call("zlib.zlibVersion", in, 0, out, 1);
  printf("zlib %s through nccc (module zlib: %u functions, %u constants)\n",
         (const char *)nccc_slot_to_ptr(out[0]),
         (unsigned)nccc_registry_count(nccc_zlib_module.registry),
         (unsigned)nccc_zlib_module.n_constants);

  in[0] = nccc_slot_from_u64(n);
  call("zlib.compressBound", in, 1, out, 1);
  bound = out[0];
  packed = malloc(bound);

  /* compress2(dest, [inout] destLen, source, sourceLen, level):
  ** in = dest, destLen, source, sourceLen, level; out = status, destLen */
  in[0] = nccc_slot_from_ptr(packed);
  in[1] = bound;
  in[2] = nccc_slot_from_ptr(text);
  in[3] = nccc_slot_from_u64(n);
  in[4] = nccc_slot_from_i64(zconst("Z_BEST_COMPRESSION"));
  call("zlib.compress2", in, 5, out, 2);
  if (nccc_slot_to_i64(out[0]) != zconst("Z_OK")) return 1;
  packed_len = out[1];
  printf("compressed   %-24s %8zu bytes -> %8" PRIu64 " bytes (%.1f%%)\n",
         argv[1], n, packed_len, 100.0 * (double)packed_len / (double)n);

  unpacked = malloc(n + 1);
  in[0] = nccc_slot_from_ptr(unpacked);
  in[1] = nccc_slot_from_u64(n + 1);
  in[2] = nccc_slot_from_ptr(packed);
  in[3] = packed_len;
  call("zlib.uncompress", in, 4, out, 2);
  if (nccc_slot_to_i64(out[0]) != zconst("Z_OK")) return 1;
  unpacked_len = out[1];
  printf("decompressed %-24s %8" PRIu64 " bytes\n", "", unpacked_len);

  crc_in = checksum("zlib.crc32", text, n);
  crc_out = checksum("zlib.crc32", unpacked, (size_t)unpacked_len);
  printf("crc32   original %08" PRIx64 "  round trip %08" PRIx64 "  %s\n",
         crc_in, crc_out, crc_in == crc_out ? "match" : "MISMATCH");
  printf("adler32 original %08" PRIx64 "  round trip %08" PRIx64 "\n",
         checksum("zlib.adler32", text, n),
         checksum("zlib.adler32", unpacked, (size_t)unpacked_len));

  /* compared now: the corrupted stream below is inflated into unpacked */
  same = unpacked_len == n && memcmp(text, unpacked, n) == 0;

  /* corrupt one byte of the stream: zlib must notice */
  packed[packed_len / 2] ^= 0x55;
  in[0] = nccc_slot_from_ptr(unpacked);
  in[1] = nccc_slot_from_u64(n + 1);
  in[2] = nccc_slot_from_ptr(packed);
  in[3] = packed_len;
  call("zlib.uncompress", in, 4, out, 2);
  printf("corrupted stream: uncompress returns %" PRId64 " (Z_DATA_ERROR is %"
         PRId64 ")\n", nccc_slot_to_i64(out[0]), zconst("Z_DATA_ERROR"));

  free(text);
  free(packed);
  free(unpacked);
  return same && crc_in == crc_out ? 0 : 1;
}
