/*
** test_device.c — the Cortex-M3 image on QEMU's mps2-an385, served over
** UART0, from C: the modules "m" and "dev" bound from the device through
** the remote-call client, every result compared with the same call made
** here; with closures (the full configuration), module "callbacks":
** callbacks from the device to C procedures in every scope, with an
** error inside one and nesting past the device's limit; with the TVM
** layer, its system library; then TVMPlatformAbort and a reset, each
** noticed and the session started again. The smallest configuration is
** checked to leave out what device/configurations.txt says.
**
** The environment names the image, its runner and its configuration:
** NCCC_DEVICE_RUN=device/run_qemu.sh, NCCC_DEVICE_IMAGE=firmware.elf,
** NCCC_DEVICE_CONFIG=smallest or full. The device is booted once for
** the whole program.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/remote.h>
#include <tvm/runtime/c_runtime_api.h>

#include "board_arena.h"
#include "nccc_check.h"

static nccc_remote *device;
static int tvm_bound; /* the image has the TVM layer */
static char logged[128]; /* the device's last log message */
static int logged_level = -1;

static void on_log(void *ctx, int level, const char *text) {
  (void)ctx;
  snprintf(logged, sizeof logged, "%s", text);
  logged_level = level;
}

static void close_device(void) { nccc_remote_close(device); }

/* The image is the smallest configuration (no closures, no TVM layer, no
** remote memory ...: device/configurations.txt). */
static int smallest(void) {
  const char *config = getenv("NCCC_DEVICE_CONFIG");
  return config != NULL && strcmp(config, "smallest") == 0;
}

/* Boots the image (once) and binds its modules under their own names. */
static void device_setup(void) {
  char *argv[5];
  nccc_remote_options options = nccc_remote_default_options();
  if (device != NULL) return;
  argv[0] = "bash";
  argv[1] = getenv("NCCC_DEVICE_RUN");
  argv[2] = "--link";
  argv[3] = getenv("NCCC_DEVICE_IMAGE");
  argv[4] = NULL;
  ck_assert_msg(argv[1] && argv[3], "set NCCC_DEVICE_RUN and NCCC_DEVICE_IMAGE");
  options.log = on_log;
  ck_assert_int_eq(nccc_init(NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_remote_open_exec(argv, &options, &device), NCCC_OK);
  atexit(close_device);
  ck_assert_int_eq(nccc_remote_bind(device, "m", NULL, NULL), NCCC_OK);
  ck_assert_int_eq(nccc_remote_bind(device, "dev", NULL, NULL), NCCC_OK);
  if (!smallest()) {
    ck_assert_int_eq(nccc_remote_bind(device, "callbacks", NULL, NULL), NCCC_OK);
  }
  tvm_bound = nccc_remote_bind(device, "tvm", NULL, NULL) == NCCC_OK;
}

/* Calls name with in, expecting success; out gets the results. */
static void call(const char *name, const uint64_t *in, uint64_t *out) {
  nccc_status st;
  nccc_clear_error();
  st = nccc_call(nccc_check_lookup(name), in, out);
  ck_assert_msg(st == NCCC_OK, "%s: %s", name, nccc_last_error());
}

static uint64_t d(double x) { return nccc_slot_from_double(x); }

/* The double a call of name with in gives, bit for bit. */
static void same_double(const char *name, const uint64_t *in, double local) {
  uint64_t out[2] = {0, 0};
  call(name, in, out);
  ck_assert_msg(out[0] == d(local), "%s: %a on the device, %a here", name,
                nccc_slot_to_double(out[0]), local);
}

/* ---- the libm subset, against the host's libm ----------------------------- */

START_TEST(test_math_equals_local_calls) {
  uint64_t out[2];
  int exp2 = 0;
  double whole = 0;
  same_double("m.sqrt", (uint64_t[]){d(2.0)}, sqrt(2.0));
  same_double("m.pow", (uint64_t[]){d(2.0), d(10.0)}, pow(2.0, 10.0));
  same_double("m.floor", (uint64_t[]){d(-2.5)}, floor(-2.5));
  same_double("m.fabs", (uint64_t[]){d(-0.125)}, fabs(-0.125));
  same_double("m.fmod", (uint64_t[]){d(7.5), d(2.0)}, fmod(7.5, 2.0));
  same_double("m.ldexp", (uint64_t[]){d(0.75), nccc_slot_from_i32(4)}, ldexp(0.75, 4));
  same_double("m.exp", (uint64_t[]){d(0.0)}, exp(0.0));
  same_double("m.log", (uint64_t[]){d(1.0)}, log(1.0));
  same_double("m.sin", (uint64_t[]){d(0.0)}, sin(0.0));
  same_double("m.cos", (uint64_t[]){d(0.0)}, cos(0.0));
  same_double("m.atan2", (uint64_t[]){d(1.0), d(1.0)}, atan2(1.0, 1.0));
  /* [out] results */
  call("m.frexp", (uint64_t[]){d(48.0)}, out);
  ck_assert_uint_eq(out[0], d(frexp(48.0, &exp2)));
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), exp2);
  call("m.modf", (uint64_t[]){d(-3.25)}, out);
  ck_assert_uint_eq(out[0], d(modf(-3.25, &whole)));
  ck_assert_uint_eq(out[1], d(whole));
  /* float widened to double in its slot */
  call("m.hypotf", (uint64_t[]){nccc_slot_from_float(3.0f), nccc_slot_from_float(4.0f)}, out);
  ck_assert_uint_eq(out[0], nccc_slot_from_float(hypotf(3.0f, 4.0f)));
}
END_TEST

/* ---- structs by value and [out], errno ------------------------------------- */

START_TEST(test_structs_and_errno) {
  uint64_t out[3];
  call("dev.norm", (uint64_t[]){d(3.0), d(4.0)}, out);
  ck_assert_uint_eq(out[0], d(5.0));
  call("dev.midpoint", (uint64_t[]){d(1.0), d(-2.0), d(4.0), d(8.0)}, out);
  ck_assert_uint_eq(out[0], d(2.5));
  ck_assert_uint_eq(out[1], d(3.0));
  call("dev.split", (uint64_t[]){d(-2.75)}, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -1);
  ck_assert_uint_eq(out[1], d(-2.0));
  ck_assert_uint_eq(out[2], d(-0.75));
  /* newlib and glibc agree on EDOM (33) */
  call("dev.fail", (uint64_t[]){nccc_slot_from_i32(EDOM)}, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -1);
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), EDOM);
  call("dev.fail", (uint64_t[]){nccc_slot_from_i32(0)}, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), 0);
}
END_TEST

/* ---- callbacks across the wire ---------------------------------------------- */

/* C procedures as closure targets: in[0] = env, the callback's slots
** after it. env says what to do. */
enum { STEP_SUM, CMP_DESCENDING, STEP_NESTED, LATER_KEEP, WATCH_TIMES, STEP_FAILS };

static int later_values[8], n_later, notices, nest_status;

static void target(const uint64_t *in, uint64_t *out) {
  if (out == NULL) { /* a release notice */
    notices++;
    return;
  }
  switch (in[0]) {
    case STEP_SUM: /* acc + i */
      out[0] = nccc_slot_from_i32(nccc_slot_to_i32(in[1]) + nccc_slot_to_i32(in[2]));
      break;
    case CMP_DESCENDING: /* b - a */
      out[0] = nccc_slot_from_i32(nccc_slot_to_i32(in[2]) - nccc_slot_to_i32(in[1]));
      break;
    case LATER_KEEP:
      later_values[n_later++] = nccc_slot_to_i32(in[1]);
      break;
    case WATCH_TIMES: /* event * 10 */
      out[0] = nccc_slot_from_i32(10 * nccc_slot_to_i32(in[1]));
      break;
    case STEP_FAILS: /* acc + i, but an error at i = 1 */
      if (nccc_slot_to_i32(in[2]) == 1) {
        nccc_fail(NCCC_ERR_INVALID_ARG, "step", "no step one");
        out[0] = 0;
      } else {
        out[0] = nccc_slot_from_i32(nccc_slot_to_i32(in[1]) + nccc_slot_to_i32(in[2]));
      }
      break;
    default: { /* STEP_NESTED: acc + fold(2) through the device again */
      uint64_t fold_in[2], fold_out[1] = {0};
      void *ctx;
      nccc_closure_claim_typed(target, STEP_NESTED, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY,
                               "ii:i", &ctx);
      fold_in[0] = nccc_slot_from_i32(2);
      fold_in[1] = nccc_slot_from_ptr(ctx);
      nccc_call(nccc_check_lookup("callbacks.fold"), fold_in, fold_out);
      if (nccc_last_status() != NCCC_OK) nest_status = nccc_last_status();
      out[0] = nccc_slot_from_i32(nccc_slot_to_i32(in[1]) + 1 + nccc_slot_to_i32(fold_out[0]));
    }
  }
}

static void *claim(uint64_t env, unsigned scope, const char *signature) {
  void *ctx = NULL;
  ck_assert_int_eq(nccc_closure_claim_typed(target, env, scope | NCCC_CLOSURE_NOTIFY,
                                            signature, &ctx),
                   NCCC_OK);
  return ctx;
}

/* callbacks.fold(n) with a call-scoped closure of step through
** nccc_call: the caller checks the outcome. */
static void fold_with(int32_t n, uint64_t step, uint64_t *out) {
  nccc_call(nccc_check_lookup("callbacks.fold"),
            (uint64_t[]){nccc_slot_from_i32(n),
                         nccc_slot_from_ptr(claim(step, NCCC_SCOPE_CALL, "ii:i"))},
            out);
}

/* After a failed call the device goes on: fold(4) summing is 6. */
static void check_device_goes_on(void) {
  uint64_t out[1];
  nccc_clear_error();
  fold_with(4, STEP_SUM, out);
  ck_assert_int_eq(nccc_last_status(), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 6);
}

static uint32_t closures_in_use(void) {
  nccc_closure_stats s;
  nccc_closure_get_stats(&s);
  return s.in_use;
}

START_TEST(test_call_scope) {
  uint64_t out[1];
  uint32_t before = closures_in_use();
  notices = 0;
  call("callbacks.fold", (uint64_t[]){nccc_slot_from_i32(10),
                                nccc_slot_from_ptr(claim(STEP_SUM, NCCC_SCOPE_CALL, "ii:i"))},
       out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 45);
  call("callbacks.sort_digits",
       (uint64_t[]){nccc_slot_from_i32(31415),
                    nccc_slot_from_ptr(claim(CMP_DESCENDING, NCCC_SCOPE_CALL, "ii:i"))},
       out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 54311);
  /* the device released both closures at the end of their calls, and
  ** the host's went with them */
  ck_assert_int_eq(notices, 2);
  ck_assert_uint_eq(closures_in_use(), before);
}
END_TEST

START_TEST(test_async_scope) {
  uint64_t out[1];
  uint32_t before = closures_in_use();
  notices = n_later = 0;
  call("callbacks.later", (uint64_t[]){nccc_slot_from_i32(7),
                                 nccc_slot_from_ptr(claim(LATER_KEEP, NCCC_SCOPE_ASYNC, "i:"))},
       out);
  call("callbacks.later", (uint64_t[]){nccc_slot_from_i32(-3),
                                 nccc_slot_from_ptr(claim(LATER_KEEP, NCCC_SCOPE_ASYNC, "i:"))},
       out);
  ck_assert_int_eq(n_later, 0);
  ck_assert_uint_eq(closures_in_use(), before + 2);
  call("callbacks.run_pending", NULL, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 2);
  ck_assert_int_eq(n_later, 2);
  ck_assert_int_eq(later_values[0], 7);
  ck_assert_int_eq(later_values[1], -3);
  ck_assert_int_eq(notices, 2);
  ck_assert_uint_eq(closures_in_use(), before);
}
END_TEST

START_TEST(test_notified_scope) {
  uint64_t out[1];
  uint32_t before = closures_in_use();
  notices = 0;
  call("callbacks.watch", (uint64_t[]){nccc_slot_from_ptr(claim(WATCH_TIMES, NCCC_SCOPE_NOTIFIED, "i:i"))},
       out);
  call("callbacks.emit", (uint64_t[]){nccc_slot_from_i32(4)}, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 40);
  call("callbacks.emit", (uint64_t[]){nccc_slot_from_i32(-1)}, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), -10);
  ck_assert_int_eq(notices, 0);
  /* the device's destroy notify reaches the host */
  call("callbacks.unwatch", NULL, out);
  ck_assert_int_eq(notices, 1);
  ck_assert_uint_eq(closures_in_use(), before);
}
END_TEST

START_TEST(test_nesting_is_bounded) {
  uint64_t out[1] = {0};
  const nccc_remote_device *info = nccc_remote_device_info(device);
  uint32_t before = closures_in_use();
  nest_status = NCCC_OK;
  /* fold(2) whose step folds again: one level per step, until the
  ** device refuses a level past its limit */
  nccc_clear_error();
  fold_with(2, STEP_NESTED, out);
  ck_assert_uint_ge(info->max_depth, 1);
  ck_assert_int_eq(nest_status, NCCC_ERR_RPC_DEPTH);
  /* the innermost closure's release notice could not come (past the
  ** depth): it went when its call returned */
  ck_assert_uint_eq(closures_in_use(), before);
  check_device_goes_on();
}
END_TEST

/* A C procedure records an error (nccc_fail) as a C callback does: its
** results count as given, the device finishes the call, and the outer
** call leaves that error as the thread's last error, as a local call
** would. */
START_TEST(test_callback_error) {
  uint64_t out[1];
  uint32_t before = closures_in_use();
  nccc_clear_error();
  fold_with(3, STEP_FAILS, out);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_INVALID_ARG);
  ck_assert_str_eq(nccc_last_error(), "step: no step one");
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 2); /* 0 + 0, 0 at 1, + 2 */
  ck_assert_uint_eq(closures_in_use(), before);
  check_device_goes_on();
}
END_TEST

/* Remote memory on the bare-metal image (RPC.md, "Remote memory";
** DEVICE.md, "The arena"): alloc takes blocks of the image's static arena
** of NCCC_DEVICE_ARENA_BYTES, 8-byte aligned, that read back what was
** written; free gives them back (a second free, or of an address alloc
** never gave, is refused); a block larger than the arena fails, and the
** arena serves again after it; read and strlen of a device address (the
** version string the built-in version returns) work. */
START_TEST(test_remote_memory_arena) {
  uint64_t a = 0, b = 0, length = 0, out[3] = {0, 0, 0};
  char text[32] = {0}, back[32] = {0};
  const char bytes[32] = "the arena of the device image";
  nccc_handle version;
  ck_assert_int_eq(nccc_remote_alloc(device, sizeof bytes, &a), NCCC_OK);
  ck_assert_int_eq(nccc_remote_alloc(device, 1, &b), NCCC_OK);
  ck_assert_uint_eq(a % 8, 0);
  ck_assert_uint_eq(b % 8, 0);
  ck_assert_uint_ge(b, a + sizeof bytes);
  ck_assert_int_eq(nccc_remote_write(device, a, bytes, sizeof bytes), NCCC_OK);
  ck_assert_int_eq(nccc_remote_read(device, a, back, sizeof back), NCCC_OK);
  ck_assert_mem_eq(back, bytes, sizeof bytes);
  ck_assert_int_eq(nccc_remote_free(device, a), NCCC_OK);
  ck_assert_int_eq(nccc_remote_free(device, a), NCCC_ERR_RPC_FREED);
  ck_assert_int_eq(nccc_remote_free(device, 0x20000000u), NCCC_ERR_RPC_FREED);
  ck_assert_int_eq(nccc_remote_alloc(device, NCCC_DEVICE_ARENA_BYTES, &a), NCCC_ERR_NO_MEMORY);
  ck_assert_int_eq(nccc_remote_alloc(device, NCCC_DEVICE_ARENA_BYTES / 2, &a), NCCC_OK);
  ck_assert_int_eq(nccc_remote_free(device, a), NCCC_OK);
  ck_assert_int_eq(nccc_remote_free(device, b), NCCC_OK);
  ck_assert_int_eq(nccc_remote_lookup(device, "nccc.version", &version, NULL, NULL, NULL, 0),
                   NCCC_OK);
  ck_assert_int_eq(nccc_remote_call(device, version, NULL, 0, out, 3), NCCC_OK);
  ck_assert_int_eq(nccc_remote_strlen(device, out[2], &length), NCCC_OK);
  ck_assert_uint_eq(length, strlen(NCCC_VERSION_STRING));
  ck_assert_int_eq(nccc_remote_read(device, out[2], text, length), NCCC_OK);
  ck_assert_str_eq(text, NCCC_VERSION_STRING);
  check_device_goes_on();
}
END_TEST

/* What the smallest configuration leaves out answers so, and the rest
** works (the tests around this one). */
START_TEST(test_smallest_leaves_out) {
  uint64_t in[3] = {0, 0, 0}, out[2] = {0, 0}, length = 0;
  nccc_handle h;
  /* no closures: no module "callbacks", no rpc.claim */
  ck_assert_int_eq(nccc_remote_bind(device, "callbacks", NULL, NULL), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_remote_lookup(device, NCCC_RPC_CLAIM_NAME, &h, NULL, NULL, NULL, 0),
                   NCCC_ERR_NAME_NOT_FOUND);
  /* built-ins of left-out features keep their places and say so */
  ck_assert_int_eq(nccc_remote_lookup(device, "nccc.peek", &h, NULL, NULL, NULL, 0), NCCC_OK);
  ck_assert_int_eq(nccc_remote_call(device, h, in, 2, out, 2), NCCC_OK);
  ck_assert_int_eq((int32_t)out[0], NCCC_ERR_NOT_IMPLEMENTED);
  ck_assert_str_eq(nccc_last_error(), "built-in: left out of this build (nccc/config.h)");
  /* no remote memory: the request is refused, nothing runs */
  ck_assert_int_eq(nccc_remote_strlen(device, 0x20000000u, &length), NCCC_ERR_NOT_IMPLEMENTED);
  ck_assert_str_eq(nccc_last_error(), "device: rpc: the device does not serve this request");
}
END_TEST

/* The deepest stack the device used so far: the tests above nest
** callbacks as deep as it allows. Printed for device/size_report.py. */
START_TEST(test_stack_high_water) {
  uint64_t out[1];
  call("dev.stack_used", NULL, out);
  ck_assert_uint_gt(out[0], 0);
  ck_assert_uint_lt(out[0], 8192);
  printf("device stack high-water mark: %u bytes\n", (unsigned)out[0]);
}
END_TEST

/* ---- TVM's life cycle ----------------------------------------------------- */

/* The system library's "affine" through the module "tvm" the image adds
** after TVMInitializeRuntime (built with the TVM layer only), and the
** same function as the global it registered at start. */
static void check_affine(uint64_t fn) {
  uint64_t in[8], out[3];
  nccc_handle packed;
  /* call_packed's signature ends in '*': a raw call */
  ck_assert_int_eq(nccc_remote_lookup(device, "tvm.call_packed", &packed, NULL, NULL, NULL, 0),
                   NCCC_OK);
  in[0] = fn;
  in[1] = 3;
  in[2] = kTVMArgInt, in[3] = nccc_slot_from_i64(2);
  in[4] = kTVMArgInt, in[5] = nccc_slot_from_i64(5);
  in[6] = kTVMArgInt, in[7] = nccc_slot_from_i64(20);
  ck_assert_int_eq(nccc_remote_call(device, packed, in, 8, out, 3), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_int_eq(nccc_slot_to_i32(out[1]), kTVMArgInt);
  ck_assert_int_eq(nccc_slot_to_i64(out[2]), 45);
}

START_TEST(test_tvm_system_lib) {
  uint64_t out[2];
  nccc_handle h;
  ck_assert(tvm_bound);
  call("tvm.system_lib", NULL, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  call("tvm.module_function", (uint64_t[]){out[1], nccc_slot_from_ptr("affine")}, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  check_affine(out[1]);
  call("tvm.get_global", (uint64_t[]){nccc_slot_from_ptr("dev.affine")}, out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  check_affine(out[1]);
  /* a TVM global, not a name of nccc's registry */
  ck_assert_int_eq(nccc_remote_lookup(device, "dev.affine", &h, NULL, NULL, NULL, 0),
                   NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

/* ---- abort and reset ---------------------------------------------------------- */

/* The next call after a restart opens a new session. */
static void session_works_again(void) {
  uint64_t out[1];
  call("m.sqrt", (uint64_t[]){d(81.0)}, out);
  ck_assert_uint_eq(out[0], d(9.0));
}

START_TEST(test_abort_is_logged_then_fails_the_call) {
  uint64_t out[1];
  uint32_t restarts = nccc_remote_stats_get(device)->restarts;
  nccc_status st = nccc_call(nccc_check_lookup("dev.abort"), (uint64_t[]){nccc_slot_from_i32(5)}, out);
  (void)st;
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_RPC_RESET);
  ck_assert_str_eq(nccc_last_error(),
                   "the device aborted during the request: TVMPlatformAbort: code 5");
  ck_assert_int_eq(logged_level, NCCC_RPC_LOG_ABORT);
  ck_assert_str_eq(logged, "TVMPlatformAbort: code 5");
  ck_assert_uint_eq(nccc_remote_stats_get(device)->restarts, restarts + 1);
  session_works_again();
}
END_TEST

START_TEST(test_reset_is_noticed) {
  uint64_t out[1];
  uint32_t sessions = nccc_remote_stats_get(device)->sessions;
  nccc_call(nccc_check_lookup("dev.reset"), NULL, out);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_RPC_RESET);
  ck_assert(nccc_remote_outcome_unknown(nccc_last_status()));
  session_works_again();
  ck_assert_uint_eq(nccc_remote_stats_get(device)->sessions, sessions + 1);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("device");
  TCase *tc;
  if (smallest()) {
    tc = nccc_check_tcase(
        s, "device", device_setup, NULL,
        NCCC_CHECK_TESTS(test_math_equals_local_calls, test_structs_and_errno,
                         test_smallest_leaves_out, test_stack_high_water,
                         test_abort_is_logged_then_fails_the_call, test_reset_is_noticed));
  } else {
    tc = nccc_check_tcase(
        s, "device", device_setup, NULL,
        NCCC_CHECK_TESTS(test_math_equals_local_calls, test_structs_and_errno, test_call_scope,
                         test_async_scope, test_notified_scope, test_callback_error,
                         test_nesting_is_bounded, test_remote_memory_arena,
                         test_stack_high_water, test_tvm_system_lib,
                         test_abort_is_logged_then_fails_the_call, test_reset_is_noticed));
  }
  tcase_set_timeout(tc, 120);
  return s;
}
