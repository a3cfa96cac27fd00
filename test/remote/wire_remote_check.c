/*
** wire_remote_check.c — every function of the test module (wire.idl and
** idl/libc.idl) called on a device through the remote-call client and
** here, locally, with the same slots: the results must be equal, slot
** for slot (strings by their bytes). On a 32-bit device the functions
** of long, size_t and intptr_t have the device's 32-bit signatures (the
** host modules refuse wider values by them: test/remote/remote.lua and
** remote.sps), and a wider address is refused before anything is sent. The device is the link the
** environment variable NCCC_REMOTE_DEVICE names (nccc_remote_open_spec:
** "exec:qemu-mips -L /usr/mips-linux-gnu .../wire_device"); its modules
** are bound here as "rwire" and "rlibc". Arguments too wide for a
** 32-bit device must be refused before anything is sent. On the Windows
** device (NCCC_REMOTE_MARK=windows) its module win32 is bound as
** "rwin32" too, and its [lasterror] functions must give kernel32's
** values.
*/
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>

#include "libc_nccc.h"
#include "nccc_check.h"
#include "wire_nccc.h"

enum { MAX_SLOTS = 64 };

/* What a case needs besides slot-for-slot equality. */
enum {
  WIDE = 1,           /* an argument needs 64-bit words on the device */
  STRING_RESULT = 2,  /* out[0] is a string: compared by its bytes */
  SKIP_OUT1 = 4       /* out[1] is an address into the argument string */
};

typedef struct wire_case {
  const char *function; /* in module wire, or "libc.F" */
  unsigned flags;
  size_t n_in;
  uint64_t in[6];
} wire_case;

static nccc_remote *device;

static uint64_t f64(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static uint64_t ptr(const void *p) { return (uint64_t)(uintptr_t)p; }

static nccc_status register_local(void) {
  nccc_status st = nccc_wire_register();
  return st != NCCC_OK ? st : nccc_libc_register();
}

static void setup(void) {
  const char *spec = getenv("NCCC_REMOTE_DEVICE");
  ck_assert_msg(spec != NULL, "NCCC_REMOTE_DEVICE names the device");
  nccc_check_init(register_local);
  ck_assert_msg(nccc_remote_open_spec(spec, NULL, &device) == NCCC_OK,
                "open %s: %s", spec, nccc_last_error());
  ck_assert_int_eq(nccc_remote_bind(device, "wire", "rwire", NULL), NCCC_OK);
  ck_assert_int_eq(nccc_remote_bind(device, "libc", "rlibc", NULL), NCCC_OK);
}

static void teardown(void) {
  nccc_remote_close(device);
  device = NULL;
}

static int device_is_32bit(void) {
  return nccc_remote_device_info(device)->pointer_bytes == 4;
}

/* The local and the remote name of c's function. */
static void names(const wire_case *c, char *local, char *remote) {
  const char *dot = strchr(c->function, '.');
  if (dot == NULL) {
    snprintf(local, 64, "wire.%s", c->function);
    snprintf(remote, 64, "rwire.%s", c->function);
  } else {
    snprintf(local, 64, "%s", c->function);
    snprintf(remote, 64, "r%s", c->function);
  }
}

static void run_case(const wire_case *c) {
  char local[64], remote[64];
  const nccc_fn_info *info = NULL;
  uint64_t want[MAX_SLOTS], got[MAX_SLOTS];
  nccc_handle lh, rh;
  nccc_status st;
  names(c, local, remote);
  lh = nccc_check_lookup(local);
  rh = nccc_check_lookup(remote);
  ck_assert_int_eq(nccc_function(lh, NULL, &info, NULL), NCCC_OK);
  if (c->flags & WIDE) {
    const nccc_fn_info *there = NULL;
    ck_assert_int_eq(nccc_function(rh, NULL, &there, NULL), NCCC_OK);
    if (strcmp(there->signature, info->signature) != 0) {
      /* the device's signature is 32 bits wide where the value is not
      ** (long on a 32-bit device or on Windows) */
      ck_assert_msg(there->signature[0] == 'i' || there->signature[0] == 'I',
                    "%s has signature %s on the device", remote, there->signature);
      return;
    }
  }
  size_t n_out = info->n_out;
  memset(want, 0xa5, sizeof want);
  memset(got, 0x5a, sizeof got);
  nccc_check_call_checked(lh, local, c->in, c->n_in, want, n_out);
  st = nccc_call_checked(rh, c->in, c->n_in, got, n_out);
  ck_assert_msg(st == NCCC_OK, "%s: %s", remote, nccc_last_error());
  for (size_t k = 0; k < n_out; k++) {
    if (k == 0 && (c->flags & STRING_RESULT)) {
      const char *a = (const char *)(uintptr_t)want[0];
      const char *b = (const char *)(uintptr_t)got[0];
      ck_assert_msg((a == NULL) == (b == NULL), "%s: NULL", remote);
      if (a != NULL) ck_assert_str_eq(b, a);
    } else if (!(k == 1 && (c->flags & SKIP_OUT1))) {
      ck_assert_msg(got[k] == want[k], "%s out[%zu]: 0x%llx, locally 0x%llx",
                    remote, k, (unsigned long long)got[k],
                    (unsigned long long)want[k]);
    }
  }
}

#define CASE(fn, flags, ...) \
  {fn, flags, sizeof((uint64_t[]){__VA_ARGS__}) / 8, {__VA_ARGS__}}

/* ---- scalars at their edges -------------------------------------------- */

START_TEST(scalars) {
  const wire_case cases[] = {
      CASE("echo_bool", 0, 1), CASE("echo_bool", 0, 0),
      CASE("echo_i8", 0, (uint64_t)INT8_MIN), CASE("echo_i8", 0, INT8_MAX),
      CASE("echo_u8", 0, UINT8_MAX), CASE("echo_i16", 0, (uint64_t)INT16_MIN),
      CASE("echo_u16", 0, UINT16_MAX), CASE("echo_i32", 0, (uint64_t)INT32_MIN),
      CASE("echo_i32", 0, INT32_MAX), CASE("echo_u32", 0, UINT32_MAX),
      CASE("echo_i64", 0, (uint64_t)INT64_MIN), CASE("echo_i64", 0, INT64_MAX),
      CASE("echo_u64", 0, UINT64_MAX), CASE("echo_u64", 0, 0),
      CASE("echo_float", 0, f64(-0.0)), CASE("echo_float", 0, f64(3.4028234663852886e38)),
      CASE("echo_float", 0, f64(INFINITY)), CASE("echo_float", 0, 0x7ff8000020000000u),
      CASE("echo_double", 0, f64(-0.0)), CASE("echo_double", 0, f64(5e-324)),
      CASE("echo_double", 0, 0x7ff0000000000001u), CASE("echo_double", 0, f64(-INFINITY)),
      CASE("echo_char", 0, 'A'), CASE("echo_char", 0, 0),
      CASE("echo_long", 0, (uint64_t)(int64_t)INT32_MIN), CASE("echo_long", 0, INT32_MAX),
      CASE("echo_long", WIDE, (uint64_t)INT64_MIN), CASE("echo_long", WIDE, 1ull << 32),
      CASE("echo_ulong", 0, UINT32_MAX), CASE("echo_ulong", WIDE, UINT64_MAX),
      CASE("echo_size", 0, UINT32_MAX), CASE("echo_size", WIDE, 1ull << 32),
      CASE("echo_intptr", 0, (uint64_t)-1), CASE("echo_intptr", WIDE, (uint64_t)INT64_MAX),
      CASE("add", 0, (uint64_t)INT64_MAX - 1, 1), CASE("add", 0, (uint64_t)-40, 82),
      CASE("blend", 0, (uint64_t)-128, UINT16_MAX, (uint64_t)INT32_MIN, UINT64_MAX,
           f64(0.5), f64(-1e300)),
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
}
END_TEST

/* ---- records, [out], [inout], errno ------------------------------------ */

/* struct mixed {int8 a; int32 b; int16 c} and struct wide {uint8 tag;
** double d; uint64 u; float f} as slots, in the layout every device here
** shares (a at 0, b at 4, c at 8; tag 0, d 8, u 16, f 24). */
#define MIXED(a, b, c) ((uint64_t)(uint8_t)(a) | (uint64_t)(uint32_t)(b) << 32), (uint64_t)(uint16_t)(c)

static uint64_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

START_TEST(records) {
  const wire_case cases[] = {
      CASE("mixed_step", 0, MIXED(-128, INT32_MAX, -16384)),
      CASE("mixed_step", 0, MIXED(5, -1, 7)),
      CASE("wide_step", 0, 0xff, f64(1.5), UINT64_MAX, float_bits(-2.5f), f64(3.0)),
      CASE("bits_of", 0, f64(-1.0)),
      CASE("div_rem", 0, (uint64_t)-17, 5), CASE("div_rem", 0, 7, 0),
      CASE("bump_by", 0, (uint64_t)INT64_MAX, 1),
      CASE("split", 0, 200, f64(-0.25), 0x123456789abcdef0u, float_bits(1000.5f)),
      CASE("fail_with", 0, 34), CASE("fail_with", 0, 0),
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
}
END_TEST

START_TEST(slab) {
  uint64_t in[64], want[64], got[64];
  nccc_handle lh = nccc_check_lookup("wire.slab_turn");
  nccc_handle rh = nccc_check_lookup("rwire.slab_turn");
  for (int i = 0; i < 64; i++) in[i] = 0x0101010101010101u * (uint64_t)i ^ (1ull << 63);
  nccc_check_call_checked(lh, "wire.slab_turn", in, 64, want, 64);
  nccc_check_call_checked(rh, "rwire.slab_turn", in, 64, got, 64);
  ck_assert_mem_eq(got, want, sizeof want);
}
END_TEST

/* ---- strings ------------------------------------------------------------ */

START_TEST(strings) {
  const char *empty = "", *text = "a string that crosses the wire";
  const wire_case cases[] = {
      CASE("length", 0, ptr(empty)), CASE("length", 0, ptr(text)),
      CASE("compare", 0, ptr("abc"), ptr("abd")), CASE("compare", 0, ptr(text), ptr(text)),
      CASE("number_name", STRING_RESULT, 0), CASE("number_name", STRING_RESULT, 2),
      CASE("number_name", STRING_RESULT, 3),
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
}
END_TEST

/* ---- the C library --------------------------------------------------------- */

START_TEST(libc) {
  const char *text = "a string for strlen";
  const wire_case cases[] = {
      CASE("libc.strtol", SKIP_OUT1, ptr("  -2147483648xyz"), 10),
      CASE("libc.strtol", SKIP_OUT1, ptr("7fffffff"), 16),
      CASE("libc.strtoull", SKIP_OUT1, ptr("18446744073709551615"), 10),
      CASE("libc.strtoull", SKIP_OUT1, ptr("99999999999999999999"), 10),
      CASE("libc.frexp", 0, f64(-1536.0)), CASE("libc.modf", 0, f64(-2.75)),
      CASE("libc.ldexp", 0, f64(0.75), (uint64_t)-1074),
      CASE("libc.hypotf", 0, f64(3.0), f64(4.0)),
      CASE("libc.nextafterf", 0, f64(1.0), f64(INFINITY)),
      CASE("libc.snprintf_int", 0, 0, 0, ptr("<%d>"), (uint64_t)INT32_MIN),
      CASE("libc.snprintf_long_long", 0, 0, 0, ptr("%lld"), (uint64_t)INT64_MIN),
      CASE("libc.snprintf_double", 0, 0, 0, ptr("%.3f"), f64(-1.0 / 3.0)),
      CASE("libc.snprintf_string", 0, 0, 0, ptr("[%s]"), ptr("wire")),
      CASE("libc.getenv", STRING_RESULT, ptr("NCCC_REMOTE_MARK")),
      CASE("libc.getenv", STRING_RESULT, ptr("NCCC_NO_SUCH_VARIABLE")),
      CASE("libc.strlen", 0, ptr(text)),
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
}
END_TEST

/* Remote memory round trip; on a 32-bit device the same block's
** address plus 2^32 is refused before anything is sent. */
START_TEST(memory) {
  const char text[] = "bytes on the device";
  char back[sizeof text];
  uint64_t block;
  ck_assert_int_eq(nccc_remote_alloc(device, sizeof text, &block), NCCC_OK);
  ck_assert_int_eq(nccc_remote_write(device, block, text, sizeof text), NCCC_OK);
  ck_assert_int_eq(nccc_remote_read(device, block, back, sizeof back), NCCC_OK);
  ck_assert_str_eq(back, text);
  if (device_is_32bit()) {
    ck_assert_int_eq(nccc_remote_read(device, block + (1ull << 32), back, 1),
                     NCCC_ERR_RPC_WORD_SIZE);
  }
  ck_assert_int_eq(nccc_remote_free(device, block), NCCC_OK);
}
END_TEST

/* ---- [lasterror] on the Windows device ------------------------------------ */

/* winerror.h's values (this side is not Windows) */
enum { WIN_FILE_NOT_FOUND = 2, WIN_PATH_NOT_FOUND = 3, WIN_INVALID_HANDLE = 6 };

/* Calls win32.fn on the device with one argument: out[0], the result;
** out[1], GetLastError() right after the call there. */
static void win32_call(const char *fn, uint64_t arg, uint64_t *out) {
  char name[64];
  nccc_handle h;
  snprintf(name, sizeof name, "rwin32.%s", fn);
  ck_assert_int_eq(nccc_lookup(name, &h), NCCC_OK);
  out[0] = out[1] = 0x5a5a5a5a5a5a5a5aull;
  ck_assert_int_eq(nccc_call(h, &arg, out), NCCC_OK);
}

/* step_fn's host side: its step times 10, and the last error of env. */
static void host_step(const uint64_t *in, uint64_t *out) {
  out[0] = (uint64_t)((uint32_t)in[1] * 10u);
  out[1] = (uint64_t)(uint32_t)in[0];
}

/* The values windows_lasterror sees from the same wrappers on Windows. */
START_TEST(win32_lasterror) {
  uint64_t out[2];
  void *ctx = NULL;
  ck_assert_int_eq(nccc_remote_bind(device, "win32", "rwin32", NULL), NCCC_OK);
  win32_call("GetFileAttributesA", ptr("C:\\no\\such\\dir\\file.txt"), out);
  ck_assert_uint_eq(out[0], 0xffffffffu); /* INVALID_FILE_ATTRIBUTES */
  ck_assert_uint_eq(out[1], WIN_PATH_NOT_FOUND);
  win32_call("GetFileAttributesA", ptr("C:\\windows\\no-such-file.txt"), out);
  ck_assert_uint_eq(out[0], 0xffffffffu);
  ck_assert_uint_eq(out[1], WIN_FILE_NOT_FOUND);
  win32_call("GetFileAttributesA", ptr("C:\\windows"), out);
  ck_assert_uint_ne(out[0] & 0x10u, 0); /* FILE_ATTRIBUTE_DIRECTORY */
  ck_assert_uint_eq(out[1], 0);
  win32_call("CloseHandle", 0x12340, out);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[1], WIN_INVALID_HANDLE);
  /* a callback of the host, called by the device, sets the last error */
  ck_assert_int_eq(nccc_closure_claim_typed(host_step, 5, NCCC_SCOPE_CALL,
                                            "I:IW", &ctx), NCCC_OK);
  win32_call("after_step", ptr(ctx), out);
  ck_assert_uint_eq(out[0], 5);
  ck_assert_uint_eq(out[1], 5);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("remote wire");
  const char *mark = getenv("NCCC_REMOTE_MARK");
  TCase *tc = nccc_check_tcase(s, "wire", setup, teardown,
                               NCCC_CHECK_TESTS(scalars, records, slab, strings, libc, memory));
  tcase_set_timeout(tc, 120);
  if (mark != NULL && strcmp(mark, "windows") == 0) {
    tc = nccc_check_tcase(s, "win32", setup, teardown,
                          NCCC_CHECK_TESTS(win32_lasterror));
    tcase_set_timeout(tc, 120);
  }
  return s;
}
