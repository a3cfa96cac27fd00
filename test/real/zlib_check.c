/*
** zlib_check.c — idl/zlib.idl end to end: the generated wrappers called
** the way a host calls them, through the runtime (module registration,
** lookup by "zlib.NAME", checked calls with exact slot counts), and
** z_stream handled only through the module's layout table and the
** runtime's memory built-ins. Direct zlib calls are the reference.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include <nccc/nccc.h>

#include "zlib_nccc.h"
#include "nccc_check.h"

/* Signatures of the IDL on this target (uLong is a long). */
#define UL NCCC_SIG_ULONG
#define SIG_COMPRESS2 "p" UL "p" UL "i:i" UL
#define SIG_COMPRESS "p" UL "p" UL ":i" UL
#define SIG_CHECKSUM UL "pI:" UL

static const nccc_module *zmod;

static void setup(void) {
  uint16_t index = 0;
  nccc_check_init(nccc_zlib_register);
  ck_assert_int_eq(nccc_module_find("zlib", &index), NCCC_OK);
  zmod = nccc_module_at(index);
  ck_assert_ptr_eq(zmod, &nccc_zlib_module);
}

/* ---- calling through the registry ----------------------------------- */

static void call(const char *name, const char *sig, const uint64_t *in,
                 size_t n_in, uint64_t *out, size_t n_out) {
  nccc_check_call_checked(nccc_check_find(name, sig, n_in, n_out), name, in,
                          n_in, out, n_out);
}

/* The runtime's memory built-ins (module "nccc"), as a host uses them. */
static void *rt_alloc(size_t n) {
  uint64_t in[1] = {n}, out[2] = {1, 0};
  call("nccc.alloc", "L:ip", in, 1, out, 2);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_ne(out[1], 0);
  return nccc_slot_to_ptr(out[1]);
}

static void rt_free(void *p) {
  uint64_t in[1] = {nccc_slot_from_ptr(p)}, out[1] = {1};
  call("nccc.free", "p:i", in, 1, out, 1);
  ck_assert_uint_eq(out[0], NCCC_OK);
}

/* Zeroes n bytes at p with nccc.write (n <= 256). */
static void rt_zero(void *p, size_t n) {
  uint64_t in[2 + 32], out[1] = {1};
  ck_assert_uint_le(NCCC_SLOTS(n), 32);
  memset(in, 0, sizeof in);
  in[0] = nccc_slot_from_ptr(p);
  in[1] = n;
  /* a variable in side: at least 2 slots, then the bytes */
  ck_assert_int_eq(nccc_call_checked(nccc_check_find("nccc.write", "pL*:i",
                                          2 | NCCC_SLOTS_VARIABLE, 1),
                                     in, 2 + NCCC_SLOTS(n), out, 1),
                   NCCC_OK);
  ck_assert_uint_eq(out[0], NCCC_OK);
}

/* ---- z_stream through the layout table ---------------------------------- */

static const nccc_type_layout *layout(const char *name) {
  uint16_t i;
  for (i = 0; i < zmod->n_types; i++) {
    if (strcmp(zmod->types[i].name, name) == 0) return &zmod->types[i];
  }
  ck_abort_msg("no type %s in the layout table", name);
  return NULL;
}

static const nccc_field *field(const char *type, const char *name) {
  const nccc_type_layout *t = layout(type);
  uint16_t i;
  for (i = 0; i < t->n_fields; i++) {
    if (strcmp(t->fields[i].name, name) == 0) return &t->fields[i];
  }
  ck_abort_msg("no field %s.%s in the layout table", type, name);
  return NULL;
}

/* Reads / writes a z_stream field with nccc.peek / nccc.poke at the
** offset and with the type code the layout table gives. */
static uint64_t get(void *strm, const char *name) {
  const nccc_field *f = field("z_stream_s", name);
  uint64_t in[2], out[2] = {1, 0};
  in[0] = nccc_slot_from_ptr((char *)strm + f->offset);
  in[1] = (uint64_t)(unsigned char)f->type[0];
  call("nccc.peek", "pI:iL", in, 2, out, 2);
  ck_assert_uint_eq(out[0], NCCC_OK);
  return out[1];
}

static void set(void *strm, const char *name, uint64_t value) {
  const nccc_field *f = field("z_stream_s", name);
  uint64_t in[3], out[1] = {1};
  in[0] = nccc_slot_from_ptr((char *)strm + f->offset);
  in[1] = (uint64_t)(unsigned char)f->type[0];
  in[2] = value;
  call("nccc.poke", "pIL:i", in, 3, out, 1);
  ck_assert_uint_eq(out[0], NCCC_OK);
}

/* A zeroed z_stream of the size the layout table gives (Z_NULL zalloc,
** zfree and opaque: zlib's own allocator). */
static void *new_stream(void) {
  uint32_t size = layout("z_stream_s")->size;
  void *strm = rt_alloc(size);
  rt_zero(strm, size);
  return strm;
}

/* ---- test data ------------------------------------------------------------ */

/* This file's own text: several KB of real input. */
static unsigned char *read_source(size_t *len) {
  FILE *f = fopen(NCCC_REAL_SOURCE, "rb");
  unsigned char *buf;
  long n;
  ck_assert_msg(f != NULL, "cannot open %s", NCCC_REAL_SOURCE);
  ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
  n = ftell(f);
  ck_assert_int_gt(n, 4096);
  rewind(f);
  buf = malloc((size_t)n);
  ck_assert_ptr_nonnull(buf);
  ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *len = (size_t)n;
  return buf;
}

/* Compresses src through zlib.compress2; returns the buffer, *clen its
** length. */
static unsigned char *compress_via_registry(const unsigned char *src,
                                            size_t len, int level,
                                            size_t *clen) {
  uLong bound = compressBound((uLong)len);
  unsigned char *dst = malloc(bound);
  uint64_t in[5], out[2];
  ck_assert_ptr_nonnull(dst);
  in[0] = nccc_slot_from_ptr(dst);
  in[1] = bound;
  in[2] = nccc_slot_from_ptr(src);
  in[3] = len;
  in[4] = nccc_slot_from_i32(level);
  call("zlib.compress2", SIG_COMPRESS2, in, 5, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_OK));
  ck_assert_uint_gt(out[1], 0);
  ck_assert_uint_le(out[1], bound);
  *clen = (size_t)out[1];
  return dst;
}

/* ---- tests ------------------------------------------------------------------- */

START_TEST(test_version) {
  uint64_t out[1] = {0};
  const char *v;
  call("zlib.zlibVersion", ":s", NULL, 0, out, 1);
  v = nccc_slot_to_ptr(out[0]);
  ck_assert_ptr_eq(v, zlibVersion());
  ck_assert_str_eq(v, zlibVersion());
  /* the library and the header this test compiled with agree on the
  ** major version, as deflateInit requires */
  ck_assert_int_eq(v[0], ZLIB_VERSION[0]);
}
END_TEST

START_TEST(test_constants_come_from_the_header) {
  static const struct {
    const char *name;
    int value;
  } want[] = {
      {"Z_NO_FLUSH", Z_NO_FLUSH},       {"Z_PARTIAL_FLUSH", Z_PARTIAL_FLUSH},
      {"Z_SYNC_FLUSH", Z_SYNC_FLUSH},   {"Z_FULL_FLUSH", Z_FULL_FLUSH},
      {"Z_FINISH", Z_FINISH},           {"Z_BLOCK", Z_BLOCK},
      {"Z_TREES", Z_TREES},             {"Z_OK", Z_OK},
      {"Z_STREAM_END", Z_STREAM_END},   {"Z_NEED_DICT", Z_NEED_DICT},
      {"Z_ERRNO", Z_ERRNO},             {"Z_STREAM_ERROR", Z_STREAM_ERROR},
      {"Z_DATA_ERROR", Z_DATA_ERROR},   {"Z_MEM_ERROR", Z_MEM_ERROR},
      {"Z_BUF_ERROR", Z_BUF_ERROR},     {"Z_VERSION_ERROR", Z_VERSION_ERROR},
      {"Z_NO_COMPRESSION", Z_NO_COMPRESSION},
      {"Z_BEST_SPEED", Z_BEST_SPEED},
      {"Z_BEST_COMPRESSION", Z_BEST_COMPRESSION},
      {"Z_DEFAULT_COMPRESSION", Z_DEFAULT_COMPRESSION},
      {"Z_FILTERED", Z_FILTERED},       {"Z_HUFFMAN_ONLY", Z_HUFFMAN_ONLY},
      {"Z_RLE", Z_RLE},                 {"Z_FIXED", Z_FIXED},
      {"Z_DEFAULT_STRATEGY", Z_DEFAULT_STRATEGY},
      {"Z_BINARY", Z_BINARY},           {"Z_TEXT", Z_TEXT},
      {"Z_UNKNOWN", Z_UNKNOWN},         {"Z_DEFLATED", Z_DEFLATED}};
  size_t i;
  ck_assert_uint_eq(zmod->n_constants, sizeof want / sizeof want[0]);
  for (i = 0; i < sizeof want / sizeof want[0]; i++) {
    const nccc_constant *c = &zmod->constants[i];
    ck_assert_str_eq(c->name, want[i].name);
    ck_assert_str_eq(c->type, "i");
    ck_assert_uint_eq(c->value, nccc_slot_from_i32(want[i].value));
  }
  /* the negative ones are sign-extended slots */
  ck_assert_uint_eq(zmod->constants[14].value, (uint64_t)-5); /* Z_BUF_ERROR */
  ck_assert_uint_eq(zmod->constants[19].value, UINT64_MAX);   /* Z_DEFAULT_COMPRESSION */
}
END_TEST

/* The table is what the compiler says about the real z_stream (this is
** the only place the test uses offsetof: to check the table). */
START_TEST(test_layout_is_the_compilers) {
  static const struct {
    const char *name;
    const char *code;
    size_t offset, size;
  } want[] = {
      {"next_in", "p", offsetof(z_stream, next_in), sizeof(Bytef *)},
      {"avail_in", "I", offsetof(z_stream, avail_in), sizeof(uInt)},
      {"total_in", UL, offsetof(z_stream, total_in), sizeof(uLong)},
      {"next_out", "p", offsetof(z_stream, next_out), sizeof(Bytef *)},
      {"avail_out", "I", offsetof(z_stream, avail_out), sizeof(uInt)},
      {"total_out", UL, offsetof(z_stream, total_out), sizeof(uLong)},
      {"msg", "s", offsetof(z_stream, msg), sizeof(char *)},
      {"state", "p", offsetof(z_stream, state), sizeof(void *)},
      {"zalloc", "F", offsetof(z_stream, zalloc), sizeof(alloc_func)},
      {"zfree", "F", offsetof(z_stream, zfree), sizeof(free_func)},
      {"opaque", "p", offsetof(z_stream, opaque), sizeof(voidpf)},
      {"data_type", "i", offsetof(z_stream, data_type), sizeof(int)},
      {"adler", UL, offsetof(z_stream, adler), sizeof(uLong)},
      {"reserved", UL, offsetof(z_stream, reserved), sizeof(uLong)}};
  const nccc_type_layout *t = layout("z_stream_s"), *opaque;
  size_t i;
  ck_assert_uint_eq(t->kind, NCCC_TYPE_STRUCT);
  ck_assert_uint_eq(t->size, sizeof(z_stream));
  ck_assert_uint_eq(t->align, _Alignof(z_stream));
  ck_assert_uint_eq(t->n_fields, sizeof want / sizeof want[0]);
  for (i = 0; i < t->n_fields; i++) {
    ck_assert_str_eq(t->fields[i].name, want[i].name);
    ck_assert_str_eq(t->fields[i].type, want[i].code);
    ck_assert_uint_eq(t->fields[i].offset, want[i].offset);
    ck_assert_uint_eq(t->fields[i].size, want[i].size);
    ck_assert_uint_eq(t->fields[i].count, 1);
  }
  opaque = layout("internal_state");
  ck_assert_uint_eq(opaque->kind, NCCC_TYPE_OPAQUE);
  ck_assert_uint_eq(opaque->size, 0);
  ck_assert_uint_eq(zmod->n_types, 2);
}
END_TEST

START_TEST(test_checksums_known_values) {
  static const unsigned char digits[] = "123456789";
  uint64_t in[3], out[1];

  in[0] = 0;
  in[1] = nccc_slot_from_ptr(digits);
  in[2] = 9;
  call("zlib.crc32", SIG_CHECKSUM, in, 3, out, 1);
  ck_assert_uint_eq(out[0], 0xCBF43926u);
  in[0] = 1; /* adler32's initial value */
  call("zlib.adler32", SIG_CHECKSUM, in, 3, out, 1);
  ck_assert_uint_eq(out[0], 0x091E01DEu);

  /* buf NULL ([nullable]) gives the initial values */
  in[0] = 12345;
  in[1] = 0;
  in[2] = 0;
  call("zlib.crc32", SIG_CHECKSUM, in, 3, out, 1);
  ck_assert_uint_eq(out[0], 0);
  call("zlib.adler32", SIG_CHECKSUM, in, 3, out, 1);
  ck_assert_uint_eq(out[0], 1);

  /* an empty buffer leaves the running value alone */
  in[0] = 0xCBF43926u;
  in[1] = nccc_slot_from_ptr(digits);
  call("zlib.crc32", SIG_CHECKSUM, in, 3, out, 1);
  ck_assert_uint_eq(out[0], 0xCBF43926u);
}
END_TEST

START_TEST(test_checksums_match_zlib_and_chain) {
  size_t len, off;
  unsigned char *src = read_source(&len);
  uint64_t in[3], out[1], crc = 0, adler = 1;

  /* whole buffer, against direct calls */
  in[0] = 0;
  in[1] = nccc_slot_from_ptr(src);
  in[2] = len;
  call("zlib.crc32", SIG_CHECKSUM, in, 3, out, 1);
  ck_assert_uint_eq(out[0], crc32(0, src, (uInt)len));
  in[0] = 1;
  call("zlib.adler32", SIG_CHECKSUM, in, 3, out, 1);
  ck_assert_uint_eq(out[0], adler32(1, src, (uInt)len));

  /* in 333-byte pieces, each result fed back in: the same values */
  for (off = 0; off < len; off += 333) {
    size_t n = len - off < 333 ? len - off : 333;
    in[0] = crc;
    in[1] = nccc_slot_from_ptr(src + off);
    in[2] = n;
    call("zlib.crc32", SIG_CHECKSUM, in, 3, out, 1);
    crc = out[0];
    in[0] = adler;
    call("zlib.adler32", SIG_CHECKSUM, in, 3, out, 1);
    adler = out[0];
  }
  ck_assert_uint_eq(crc, crc32(0, src, (uInt)len));
  ck_assert_uint_eq(adler, adler32(1, src, (uInt)len));
  free(src);
}
END_TEST

START_TEST(test_compress_round_trip) {
  size_t len, clen, i;
  unsigned char *src = read_source(&len), *comp, *back;
  uint64_t in[5], out[2];
  uLongf direct_len = (uLongf)len;

  in[0] = len;
  call("zlib.compressBound", UL ":" UL, in, 1, out, 1);
  ck_assert_uint_eq(out[0], compressBound((uLong)len));
  ck_assert_uint_gt(out[0], len);

  comp = compress_via_registry(src, len, Z_BEST_COMPRESSION, &clen);
  ck_assert_uint_lt(clen, len / 2); /* C source compresses well */

  /* zlib itself inflates what the wrapper produced */
  back = malloc(len);
  ck_assert_ptr_nonnull(back);
  ck_assert_int_eq(uncompress(back, &direct_len, comp, (uLong)clen), Z_OK);
  ck_assert_uint_eq(direct_len, len);
  ck_assert_mem_eq(back, src, len);

  /* and the wrapper inflates it back: destLen is [inout] */
  memset(back, 0, len);
  in[0] = nccc_slot_from_ptr(back);
  in[1] = len;
  in[2] = nccc_slot_from_ptr(comp);
  in[3] = clen;
  call("zlib.uncompress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_OK));
  ck_assert_uint_eq(out[1], len);
  ck_assert_mem_eq(back, src, len);
  free(comp);

  /* every level gives zlib's own output, byte for byte */
  for (i = 0; i <= 9; i++) {
    uLongf dlen = compressBound((uLong)len);
    unsigned char *ref = malloc(dlen);
    ck_assert_ptr_nonnull(ref);
    ck_assert_int_eq(compress2(ref, &dlen, src, (uLong)len, (int)i), Z_OK);
    comp = compress_via_registry(src, len, (int)i, &clen);
    ck_assert_uint_eq(clen, dlen);
    ck_assert_mem_eq(comp, ref, clen);
    free(comp);
    free(ref);
  }
  free(back);
  free(src);
}
END_TEST

START_TEST(test_compress_default_level_and_generated_data) {
  /* 64 KiB of a repeating but non-trivial pattern */
  size_t len = 65536, i, clen;
  unsigned char *src = malloc(len), *comp, *back = malloc(len);
  uLongf bound = compressBound((uLong)len);
  uint64_t in[4], out[2];
  ck_assert_ptr_nonnull(src);
  ck_assert_ptr_nonnull(back);
  for (i = 0; i < len; i++) src[i] = (unsigned char)((i * 7) ^ (i >> 5));

  /* compress() without a level is compress2(..., Z_DEFAULT_COMPRESSION) */
  comp = malloc(bound);
  ck_assert_ptr_nonnull(comp);
  in[0] = nccc_slot_from_ptr(comp);
  in[1] = bound;
  in[2] = nccc_slot_from_ptr(src);
  in[3] = len;
  call("zlib.compress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], Z_OK);
  clen = (size_t)out[1];
  free(comp);
  comp = compress_via_registry(src, len, Z_DEFAULT_COMPRESSION, &i);
  ck_assert_uint_eq(i, clen);

  in[0] = nccc_slot_from_ptr(back);
  in[1] = len;
  in[2] = nccc_slot_from_ptr(comp);
  in[3] = clen;
  call("zlib.uncompress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], Z_OK);
  ck_assert_uint_eq(out[1], len);
  ck_assert_mem_eq(back, src, len);
  free(comp);
  free(back);
  free(src);
}
END_TEST

START_TEST(test_one_shot_errors) {
  size_t len, clen;
  unsigned char *src = read_source(&len), *comp, *back = malloc(len);
  unsigned char small[16];
  uint64_t in[5], out[2];
  uLongf dlen;
  ck_assert_ptr_nonnull(back);
  comp = compress_via_registry(src, len, Z_DEFAULT_COMPRESSION, &clen);

  /* too small a destination: Z_BUF_ERROR, destLen what zlib reports */
  in[0] = nccc_slot_from_ptr(back);
  in[1] = len / 2;
  in[2] = nccc_slot_from_ptr(comp);
  in[3] = clen;
  call("zlib.uncompress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_BUF_ERROR));
  ck_assert_uint_eq(out[0], UINT64_MAX - 4); /* -5, sign-extended */
  dlen = (uLongf)(len / 2);
  ck_assert_int_eq(uncompress(back, &dlen, comp, (uLong)clen), Z_BUF_ERROR);
  ck_assert_uint_eq(out[1], dlen);

  in[0] = nccc_slot_from_ptr(small);
  in[1] = sizeof small;
  in[2] = nccc_slot_from_ptr(src);
  in[3] = len;
  in[4] = nccc_slot_from_i32(Z_BEST_COMPRESSION);
  call("zlib.compress2", SIG_COMPRESS2, in, 5, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_BUF_ERROR));

  /* a level zlib does not know */
  in[4] = nccc_slot_from_i32(10);
  call("zlib.compress2", SIG_COMPRESS2, in, 5, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_STREAM_ERROR));

  /* a broken header */
  comp[0] ^= 0xff;
  in[0] = nccc_slot_from_ptr(back);
  in[1] = len;
  in[2] = nccc_slot_from_ptr(comp);
  in[3] = clen;
  call("zlib.uncompress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_DATA_ERROR));
  comp[0] ^= 0xff;

  /* a wrong trailing Adler-32 */
  comp[clen - 1] ^= 0x01;
  call("zlib.uncompress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_DATA_ERROR));
  comp[clen - 1] ^= 0x01;

  /* input cut short */
  in[3] = clen / 2;
  call("zlib.uncompress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_DATA_ERROR));

  /* intact again: Z_OK */
  in[3] = clen;
  call("zlib.uncompress", SIG_COMPRESS, in, 4, out, 2);
  ck_assert_uint_eq(out[0], Z_OK);
  ck_assert_uint_eq(out[1], len);
  free(comp);
  free(back);
  free(src);
}
END_TEST

START_TEST(test_wrong_slot_counts_are_refused) {
  uint64_t in[6] = {0}, out[3] = {0};
  nccc_handle h = nccc_check_find("zlib.compress2", SIG_COMPRESS2, 5, 2);
  ck_assert_int_eq(nccc_call_checked(h, in, 4, out, 2), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(h, in, 6, out, 2), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(h, in, 5, out, 1), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(nccc_call_checked(h, in, 5, out, 3), NCCC_ERR_NUM_ARGUMENTS);
  /* zlib functions the IDL does not bind are not in the module */
  ck_assert_int_eq(nccc_lookup("zlib.gzopen", &h), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_uint_eq(nccc_registry_count(zmod->registry), 15);
}
END_TEST

/* Deflates src in 100-byte input and 64-byte output chunks through the
** registry; returns the compressed bytes. use_macro picks deflateInit
** (the header's macro) over deflateInit_ with explicit arguments. */
static unsigned char *deflate_chunked(const unsigned char *src, size_t len,
                                      int use_macro, size_t *clen) {
  void *strm = new_stream();
  size_t cap = compressBound((uLong)len) + 64, n = 0, off = 0;
  unsigned char *dst = malloc(cap), chunk[64];
  uint64_t in[4], out[1], ver[1];
  int ret;
  ck_assert_ptr_nonnull(dst);

  in[0] = nccc_slot_from_ptr(strm);
  in[1] = nccc_slot_from_i32(Z_BEST_COMPRESSION);
  if (use_macro) {
    call("zlib.deflateInit", "pi:i", in, 2, out, 1);
  } else {
    /* what the macro passes: the version string and sizeof(z_stream),
    ** here from zlibVersion() and the layout table */
    call("zlib.zlibVersion", ":s", NULL, 0, ver, 1);
    in[2] = ver[0];
    in[3] = nccc_slot_from_i32((int32_t)layout("z_stream_s")->size);
    call("zlib.deflateInit_", "pisi:i", in, 4, out, 1);
  }
  ck_assert_uint_eq(out[0], Z_OK);
  ck_assert_uint_ne(get(strm, "state"), 0);
  ck_assert_uint_eq(get(strm, "msg"), 0);

  do {
    int flush;
    if (get(strm, "avail_in") == 0 && off < len) {
      size_t take = len - off < 100 ? len - off : 100;
      set(strm, "next_in", nccc_slot_from_ptr(src + off));
      set(strm, "avail_in", take);
      off += take;
    }
    flush = off == len ? Z_FINISH : Z_NO_FLUSH;
    set(strm, "next_out", nccc_slot_from_ptr(chunk));
    set(strm, "avail_out", sizeof chunk);
    in[0] = nccc_slot_from_ptr(strm);
    in[1] = nccc_slot_from_i32(flush);
    call("zlib.deflate", "pi:i", in, 2, out, 1);
    ret = nccc_slot_to_i32(out[0]);
    ck_assert_msg(ret == Z_OK || ret == Z_STREAM_END || ret == Z_BUF_ERROR,
                  "deflate returned %d", ret);
    {
      size_t produced = sizeof chunk - (size_t)get(strm, "avail_out");
      ck_assert_uint_le(n + produced, cap);
      memcpy(dst + n, chunk, produced);
      n += produced;
      /* next_out moved by exactly what was produced */
      ck_assert_uint_eq(get(strm, "next_out"),
                        nccc_slot_from_ptr(chunk + produced));
    }
  } while (ret != Z_STREAM_END);

  ck_assert_uint_eq(get(strm, "total_in"), len);
  ck_assert_uint_eq(get(strm, "total_out"), n);
  ck_assert_uint_eq(get(strm, "adler"), adler32(1, src, (uInt)len));
  in[0] = nccc_slot_from_ptr(strm);
  call("zlib.deflateEnd", "p:i", in, 1, out, 1);
  ck_assert_uint_eq(out[0], Z_OK);
  ck_assert_uint_eq(get(strm, "state"), 0);
  rt_free(strm);
  *clen = n;
  return dst;
}

/* Inflates comp in 37-byte input and 50-byte output chunks into dst
** (capacity cap); returns the length. */
static size_t inflate_chunked(const unsigned char *comp, size_t clen,
                              unsigned char *dst, size_t cap, int use_macro) {
  void *strm = new_stream();
  size_t n = 0, off = 0;
  uint64_t in[3], out[1], ver[1];
  int ret;

  in[0] = nccc_slot_from_ptr(strm);
  if (use_macro) {
    call("zlib.inflateInit", "p:i", in, 1, out, 1);
  } else {
    call("zlib.zlibVersion", ":s", NULL, 0, ver, 1);
    in[1] = ver[0];
    in[2] = nccc_slot_from_i32((int32_t)layout("z_stream_s")->size);
    call("zlib.inflateInit_", "psi:i", in, 3, out, 1);
  }
  ck_assert_uint_eq(out[0], Z_OK);
  do {
    size_t room = cap - n < 50 ? cap - n : 50;
    if (get(strm, "avail_in") == 0 && off < clen) {
      size_t take = clen - off < 37 ? clen - off : 37;
      set(strm, "next_in", nccc_slot_from_ptr(comp + off));
      set(strm, "avail_in", take);
      off += take;
    }
    set(strm, "next_out", nccc_slot_from_ptr(dst + n));
    set(strm, "avail_out", room);
    in[0] = nccc_slot_from_ptr(strm);
    in[1] = nccc_slot_from_i32(Z_NO_FLUSH);
    call("zlib.inflate", "pi:i", in, 2, out, 1);
    ret = nccc_slot_to_i32(out[0]);
    ck_assert_msg(ret == Z_OK || ret == Z_STREAM_END, "inflate returned %d",
                  ret);
    n += room - (size_t)get(strm, "avail_out");
  } while (ret != Z_STREAM_END);
  ck_assert_uint_eq(get(strm, "total_in"), clen);
  ck_assert_uint_eq(get(strm, "total_out"), n);
  in[0] = nccc_slot_from_ptr(strm);
  call("zlib.inflateEnd", "p:i", in, 1, out, 1);
  ck_assert_uint_eq(out[0], Z_OK);
  rt_free(strm);
  return n;
}

START_TEST(test_stream_round_trip) {
  size_t len, clen, n;
  unsigned char *src = read_source(&len), *comp, *back = malloc(len + 1);
  uLongf dlen = (uLongf)len;
  int variant;
  ck_assert_ptr_nonnull(back);
  for (variant = 0; variant < 2; variant++) {
    comp = deflate_chunked(src, len, variant, &clen);
    ck_assert_uint_lt(clen, len / 2);
    /* zlib's one-shot uncompress reads the stream */
    memset(back, 0, len);
    ck_assert_int_eq(uncompress(back, &dlen, comp, (uLong)clen), Z_OK);
    ck_assert_uint_eq(dlen, len);
    ck_assert_mem_eq(back, src, len);
    /* and so does the chunked inflate through the registry */
    memset(back, 0, len);
    n = inflate_chunked(comp, clen, back, len + 1, !variant);
    ck_assert_uint_eq(n, len);
    ck_assert_mem_eq(back, src, len);
    free(comp);
  }
  free(back);
  free(src);
}
END_TEST

START_TEST(test_stream_errors) {
  static const unsigned char garbage[] = "this is not a zlib stream";
  unsigned char sink[64];
  void *strm = new_stream();
  uint64_t in[4], out[1];
  const char *msg;

  /* a version of another major number, or another z_stream size, is
  ** refused before zlib touches the stream */
  in[0] = nccc_slot_from_ptr(strm);
  in[1] = nccc_slot_from_ptr("0.0.1");
  in[2] = nccc_slot_from_i32((int32_t)layout("z_stream_s")->size);
  call("zlib.inflateInit_", "psi:i", in, 3, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_VERSION_ERROR));
  in[1] = nccc_slot_from_ptr(zlibVersion());
  in[2] = nccc_slot_from_i32((int32_t)layout("z_stream_s")->size - 8);
  call("zlib.inflateInit_", "psi:i", in, 3, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_VERSION_ERROR));
  in[0] = nccc_slot_from_ptr(strm);
  in[1] = nccc_slot_from_i32(42); /* not a level */
  in[2] = nccc_slot_from_ptr(zlibVersion());
  in[3] = nccc_slot_from_i32((int32_t)layout("z_stream_s")->size);
  call("zlib.deflateInit_", "pisi:i", in, 4, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_STREAM_ERROR));

  /* inflate of data without a zlib header: Z_DATA_ERROR and a message in
  ** the msg field (a string: code "s") */
  in[0] = nccc_slot_from_ptr(strm);
  call("zlib.inflateInit", "p:i", in, 1, out, 1);
  ck_assert_uint_eq(out[0], Z_OK);
  set(strm, "next_in", nccc_slot_from_ptr(garbage));
  set(strm, "avail_in", sizeof garbage - 1);
  set(strm, "next_out", nccc_slot_from_ptr(sink));
  set(strm, "avail_out", sizeof sink);
  in[1] = nccc_slot_from_i32(Z_FINISH);
  call("zlib.inflate", "pi:i", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_DATA_ERROR));
  msg = nccc_slot_to_ptr(get(strm, "msg"));
  ck_assert_ptr_nonnull(msg);
  ck_assert_str_eq(msg, "incorrect header check");
  ck_assert_uint_eq(get(strm, "total_out"), 0);
  call("zlib.inflateEnd", "p:i", in, 1, out, 1);
  ck_assert_uint_eq(out[0], Z_OK);

  /* a stream that was never initialised (state NULL) */
  call("zlib.deflate", "pi:i", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_STREAM_ERROR));
  call("zlib.inflateEnd", "p:i", in, 1, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i32(Z_STREAM_ERROR));
  rt_free(strm);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("real_zlib");
  nccc_check_tcase(s, "zlib", setup, NULL,
      NCCC_CHECK_TESTS(test_version, test_constants_come_from_the_header,
                       test_layout_is_the_compilers,
                       test_checksums_known_values,
                       test_checksums_match_zlib_and_chain,
                       test_compress_round_trip,
                       test_compress_default_level_and_generated_data,
                       test_one_shot_errors, test_wrong_slot_counts_are_refused,
                       test_stream_round_trip, test_stream_errors));
  return s;
}
