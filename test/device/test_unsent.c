/*
** test_unsent.c — a call through a bound module that never reaches the
** device releases the host closures it passed (docs/RPC.md, "Callbacks
** across the wire"), whichever step failed: passing the closure on, or
** sending the call itself after the device claimed its own closure. The
** device's closures go too: with the session, or released on the device
** when a later closure of the call is refused. Closure counts on both
** sides are compared before and after.
**
** The image (full configuration) is booted with UART0 on pipes behind a
** link that fails writes on request: NCCC_DEVICE_RUN=device/run_qemu.sh,
** NCCC_DEVICE_IMAGE=firmware.elf.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "nccc_check.h"
#include "remote_internal.h"

/* Frames the link still sends before its writes fail (-1: all). */
static struct {
  nccc_remote_transport inner;
  int frames_left;
} link_;

static nccc_remote *device;

static long link_read(void *ctx, uint8_t *buf, size_t n, int timeout_ms) {
  (void)ctx;
  return link_.inner.read(link_.inner.ctx, buf, n, timeout_ms);
}

/* Every frame starts a write of its own (rpc_frame.c), so the escape
** and start bytes at the head of a write count one frame. */
static long link_write(void *ctx, const uint8_t *buf, size_t n) {
  (void)ctx;
  if (n >= 2 && buf[0] == NCCC_RPC_BYTE_ESCAPE && buf[1] == NCCC_RPC_BYTE_START) {
    if (link_.frames_left == 0) return -1;
    if (link_.frames_left > 0) link_.frames_left--;
  }
  return link_.inner.write(link_.inner.ctx, buf, n);
}

static void link_close(void *ctx) {
  (void)ctx;
  link_.inner.close(link_.inner.ctx);
}

static void boot(void) {
  int to, from;
  long pid;
  nccc_remote_transport t = {NULL, link_read, link_write, link_close};
  const char *run = getenv("NCCC_DEVICE_RUN"), *image = getenv("NCCC_DEVICE_IMAGE");
  ck_assert_msg(run && image, "set NCCC_DEVICE_RUN and NCCC_DEVICE_IMAGE");
  nccc_check_init(NULL);
  ck_assert_int_eq(nccci_remote_spawn((char *const[]){"bash", (char *)run, "--link",
                                                     (char *)image, NULL},
                                      &from, &to, &pid),
                   NCCC_OK);
  link_.frames_left = -1;
  ck_assert_int_eq(nccci_remote_fd_transport(from, to, pid, &link_.inner), NCCC_OK);
  ck_assert_int_eq(nccc_remote_open(&t, NULL, &device), NCCC_OK);
  ck_assert_int_eq(nccc_remote_bind(device, "callbacks", NULL, NULL), NCCC_OK);
}

static void shut_down(void) {
  nccc_remote_close(device);
  device = NULL;
}

static void step(const uint64_t *in, uint64_t *out) {
  if (out != NULL) out[0] = nccc_slot_from_i32(nccc_slot_to_i32(in[1]) + nccc_slot_to_i32(in[2]));
}

static void *claim(const char *signature) {
  void *ctx = NULL;
  ck_assert_int_eq(nccc_closure_claim_typed(step, 0, NCCC_SCOPE_CALL | NCCC_CLOSURE_NOTIFY,
                                            signature, &ctx),
                   NCCC_OK);
  return ctx;
}

/* The device's closures in use (its closure_stats built-in). */
static uint64_t device_closures(void) {
  uint64_t out[6] = {0};
  nccc_handle stats;
  link_.frames_left = -1;
  ck_assert_int_eq(nccci_remote_builtin(device, NCCC_BUILTIN_CLOSURE_STATS, &stats, NULL, 0),
                   NCCC_OK);
  ck_assert_int_eq(nccc_remote_call(device, stats, NULL, 0, out, 6), NCCC_OK);
  ck_assert_int_eq((int32_t)out[0], NCCC_OK);
  return out[2];
}

/* callbacks.fold(3, closure) with frames frames left on the link. */
static void fold_with(int frames) {
  uint64_t out[1] = {0};
  link_.frames_left = frames;
  nccc_call(nccc_check_lookup("callbacks.fold"),
            (uint64_t[]){nccc_slot_from_i32(3), nccc_slot_from_ptr(claim("ii:i"))}, out);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_RPC_TRANSPORT);
}

/* The claim on the device (its lookup) cannot be sent. */
START_TEST(test_closure_not_passed) {
  uint32_t before = nccc_check_closures_in_use();
  fold_with(0);
  ck_assert_uint_eq(nccc_check_closures_in_use(), before);
  ck_assert_uint_eq(device_closures(), 0);
}
END_TEST

/* The device claimed its closure (lookup, claim), then the call cannot be
** sent: the host's closure is released here, the device's with the
** session (the next one starts with none). */
START_TEST(test_call_not_sent) {
  uint32_t before = nccc_check_closures_in_use();
  fold_with(2);
  ck_assert_uint_eq(nccc_check_closures_in_use(), before);
  ck_assert_uint_eq(device_closures(), 0);
}
END_TEST

/* Two callbacks: the device claims the first and refuses the second
** (more in slots than NCCC_RPC_CALLBACK_SLOTS), the session goes on: the
** first is released on the device, and both here. */
START_TEST(test_second_closure_refused) {
  uint64_t out[1] = {0};
  uint32_t before = nccc_check_closures_in_use();
  nccc_call(nccc_check_lookup("callbacks.fold_both"),
            (uint64_t[]){nccc_slot_from_i32(3), nccc_slot_from_ptr(claim("ii:i")),
                         nccc_slot_from_ptr(claim("iiiiiiiiiiiiiiiii:i"))},
            out);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_RPC_TOO_BIG);
  ck_assert_uint_eq(nccc_check_closures_in_use(), before);
  ck_assert_uint_eq(device_closures(), 0);
  /* and the call goes through with two good ones */
  nccc_check_call("callbacks.fold_both",
                  (uint64_t[]){nccc_slot_from_i32(4), nccc_slot_from_ptr(claim("ii:i")),
                               nccc_slot_from_ptr(claim("ii:i"))},
                  out);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), 0);
  ck_assert_uint_eq(nccc_check_closures_in_use(), before);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("device_unsent");
  TCase *tc = nccc_check_tcase(
      s, "unsent", boot, shut_down,
      NCCC_CHECK_TESTS(test_closure_not_passed, test_call_not_sent, test_second_closure_refused));
  tcase_set_timeout(tc, 120);
  return s;
}
