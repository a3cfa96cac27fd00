/*
** test_trace.c — the trace shim and ring: records in call order with
** times from a fake clock, per-function and per-module switches, a
** caller-supplied ring that wraps around, faulted calls in the trace, and
** the trace built-ins.
*/
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>

#include "cbt_lib.h"
#include "cbt_fixture.h"
#include "nccc_check.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5au

/* The fake clock: each reading advances it by 10 ns. */
static uint64_t clock_now;
static uint64_t fake_now(void) {
  clock_now += 10;
  return clock_now;
}

static int divide(int a, int b, int *err) {
  uint64_t in[2] = {nccc_slot_from_i32(a), nccc_slot_from_i32(b)}, out[2];
  ck_assert_int_eq(nccc_call(nccc_check_lookup("cbt.divide"), in, out),
                   NCCC_OK);
  if (err != NULL) *err = nccc_slot_to_i32(out[1]);
  return nccc_slot_to_i32(out[0]);
}

static int64_t add(int64_t a, int64_t b) {
  uint64_t in[2] = {(uint64_t)a, (uint64_t)b}, out[1];
  ck_assert_int_eq(nccc_call(nccc_check_lookup("cbt.add"), in, out), NCCC_OK);
  return nccc_slot_to_i64(out[0]);
}

static nccc_trace_record rec(uint64_t seq) {
  nccc_trace_record r;
  ck_assert_int_eq(nccc_trace_read(seq, &r), NCCC_OK);
  return r;
}

static nccc_trace_stats stats(void) {
  nccc_trace_stats s;
  nccc_trace_get_stats(&s);
  return s;
}

static void setup(void) {
  nccc_platform p;
  nccc_check_init(nccc_cbt_register);
  nccc_platform_set(NULL);
  p = *nccc_platform_get();
  p.now_ns = fake_now;
  nccc_platform_set(&p);
  clock_now = 1000;
  lib_calls = 0;
}

static void teardown(void) { nccc_platform_set(NULL); }

START_TEST(test_off_by_default) {
  ck_assert_uint_eq(nccc_site_active, 0);
  ck_assert_int_eq(divide(7, 2, NULL), 3);
  ck_assert_int_eq(add(1, 2), 3);
  ck_assert_uint_eq(stats().next, 0);
  ck_assert_uint_eq(clock_now, 1000); /* the clock was never even read */
  ck_assert_uint_eq(stats().capacity, NCCC_TRACE_RECORDS);
}
END_TEST

START_TEST(test_records_in_order_with_times) {
  nccc_handle hd = nccc_check_lookup("cbt.divide"),
              ha = nccc_check_lookup("cbt.add");
  int err;
  ck_assert_int_eq(nccc_trace_enable(hd, 1), NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, NCCC_SITE_TRACE);
  ck_assert_int_eq(nccc_trace_enabled(hd), 1);
  ck_assert_int_eq(nccc_trace_enabled(ha), 0);
  ck_assert_int_eq(divide(9, 3, &err), 3);
  ck_assert_int_eq(add(2, 2), 4); /* not traced */
  ck_assert_int_eq(divide(1, 0, &err), 0);
  ck_assert_int_eq(err, EDOM);
  ck_assert_uint_eq(stats().first, 0);
  ck_assert_uint_eq(stats().next, 2);
  /* each call reads the clock once before and once after */
  ck_assert_uint_eq(rec(0).handle, hd);
  ck_assert_uint_eq(rec(0).status, NCCC_OK);
  ck_assert_uint_eq(rec(0).start_ns, 1010);
  ck_assert_uint_eq(rec(0).end_ns, 1020);
  ck_assert_uint_eq(rec(1).start_ns, 1030);
  ck_assert_uint_eq(rec(1).end_ns, 1040);
  ck_assert_int_eq(lib_calls, 3);

  ck_assert_int_eq(nccc_trace_enable(ha, 1), NCCC_OK);
  ck_assert_int_eq(add(5, 5), 10);
  ck_assert_uint_eq(rec(2).handle, ha);
  ck_assert_uint_eq(rec(2).start_ns, 1050);
  ck_assert_int_eq(nccc_trace_enable(hd, 0), NCCC_OK);
  ck_assert_int_eq(nccc_trace_enable(hd, 0), NCCC_OK); /* off twice is fine */
  divide(4, 2, NULL);
  ck_assert_uint_eq(stats().next, 3);
  ck_assert_int_eq(nccc_trace_enable(ha, 0), NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, 0);
  /* records are still there after tracing is off, until cleared */
  ck_assert_uint_eq(rec(2).end_ns, 1060);
  nccc_trace_clear();
  ck_assert_uint_eq(stats().next, 0);
  {
    nccc_trace_record r = {1, 2, 3, 4};
    ck_assert_int_eq(nccc_trace_read(0, &r), NCCC_ERR_INDEX_INVALID);
    ck_assert_uint_eq(r.handle, 1);
  }
}
END_TEST

START_TEST(test_module_switch) {
  uint16_t mi;
  ck_assert_int_eq(nccc_module_find("cbt", &mi), NCCC_OK);
  ck_assert_int_eq(nccc_trace_enable_module(mi, 1), NCCC_OK);
  ck_assert_int_eq(nccc_trace_enabled(nccc_check_lookup("cbt.add")), 1);
  divide(8, 4, NULL);
  add(1, 1);
  ck_assert_uint_eq(stats().next, 2);
  ck_assert_uint_eq(rec(0).handle, nccc_check_lookup("cbt.divide"));
  ck_assert_uint_eq(rec(1).handle, nccc_check_lookup("cbt.add"));
  /* a wrapper generated without the trace shim is never traced */
  {
    uint64_t in[1] = {0x10002}, out[2];
    ck_assert_int_eq(nccc_call(nccc_check_lookup("cbt.split"), in, out),
                     NCCC_OK);
    ck_assert_int_eq(nccc_slot_to_i32(out[1]), 1);
    ck_assert_uint_eq(stats().next, 2);
  }
  ck_assert_int_eq(nccc_trace_enable_module(mi, 0), NCCC_OK);
  add(1, 1);
  ck_assert_uint_eq(stats().next, 2);
  ck_assert_int_eq(nccc_trace_enable_module(NCCC_MAX_MODULES - 1, 1),
                   NCCC_ERR_INDEX_INVALID);
  ck_assert_int_eq(nccc_trace_enable_module(NCCC_MAX_MODULES, 1),
                   NCCC_ERR_INDEX_INVALID);
  /* module on and then all off */
  ck_assert_int_eq(nccc_trace_enable_module(mi, 1), NCCC_OK);
  nccc_trace_disable_all();
  ck_assert_uint_eq(nccc_site_active, 0);
}
END_TEST

START_TEST(test_wraparound_in_own_block) {
  /* room for 3 records after aligning a deliberately odd address */
  static uint64_t space[16];
  char *block = (char *)space + 3;
  size_t size = 5 + 3 * sizeof(nccc_trace_record) + 4;
  nccc_handle ha = nccc_check_lookup("cbt.add");
  ck_assert_int_eq(nccc_trace_set_buffer(block, size), NCCC_OK);
  ck_assert_uint_eq(stats().capacity, 3);
  ck_assert_int_eq(nccc_trace_enable(ha, 1), NCCC_OK);
  for (int i = 0; i < 7; i++) ck_assert_int_eq(add(i, 100), 100 + i);
  ck_assert_uint_eq(stats().next, 7);
  ck_assert_uint_eq(stats().first, 4);
  {
    nccc_trace_record r;
    ck_assert_int_eq(nccc_trace_read(3, &r), NCCC_ERR_INDEX_INVALID); /* overwritten */
    ck_assert_str_eq(nccc_last_error(), "trace read: overwritten");
    ck_assert_int_eq(nccc_trace_read(7, &r), NCCC_ERR_INDEX_INVALID);
    ck_assert_str_eq(nccc_last_error(), "trace read: not written yet");
    ck_assert_int_eq(nccc_trace_read(4, NULL), NCCC_ERR_NULL_POINTER);
  }
  /* the three newest, oldest first: call i started at 1010 + 20 i */
  for (uint64_t s = 4; s < 7; s++) {
    ck_assert_uint_eq(rec(s).handle, ha);
    ck_assert_uint_eq(rec(s).start_ns, 1010 + 20 * s);
    ck_assert_uint_eq(rec(s).end_ns, 1020 + 20 * s);
  }
  /* the records really are in the block */
  ck_assert_uint_eq(((nccc_trace_record *)(space + 1))[0].start_ns, 1010 + 20 * 6);
  /* too small, and back to the static ring */
  ck_assert_int_eq(nccc_trace_set_buffer(block, sizeof(nccc_trace_record)),
                   NCCC_ERR_BUFFER_TOO_SMALL);
  ck_assert_uint_eq(stats().capacity, 3);
  ck_assert_int_eq(nccc_trace_set_buffer(NULL, 0), NCCC_OK);
  ck_assert_uint_eq(stats().capacity, NCCC_TRACE_RECORDS);
  ck_assert_uint_eq(stats().next, 0);
}
END_TEST

START_TEST(test_faulted_call_traced) {
  nccc_handle hd = nccc_check_lookup("cbt.divide");
  uint64_t r[1] = {nccc_slot_from_i32(-1)};
  int err;
  ck_assert_int_eq(nccc_trace_enable(hd, 1), NCCC_OK);
  ck_assert_int_eq(nccc_fault_arm(hd, 1, r, 1, EIO), NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, NCCC_SITE_TRACE | NCCC_SITE_FAULT);
  ck_assert_int_eq(divide(6, 3, &err), -1);
  ck_assert_int_eq(err, EIO);
  ck_assert_uint_eq(nccc_site_active, NCCC_SITE_TRACE);
  ck_assert_int_eq(divide(6, 3, &err), 2);
  ck_assert_uint_eq(rec(0).status, NCCC_ERR_FAULT_INJECTED);
  ck_assert_uint_eq(rec(0).start_ns, rec(0).end_ns);
  ck_assert_uint_eq(rec(1).status, NCCC_OK);
  ck_assert_uint_gt(rec(1).start_ns, rec(0).end_ns);
  ck_assert_int_eq(lib_calls, 1);
}
END_TEST

START_TEST(test_enable_errors) {
  nccc_handle h;
  int i;
  ck_assert_int_eq(nccc_trace_enable(0, 1), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_trace_enable(nccc_handle_encode(3, 0), 1), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_register("plain", (nccc_fn)(uintptr_t)setup, ":", 0, &h), NCCC_OK);
  ck_assert_int_eq(nccc_trace_enable(h, 1), NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_trace_enabled(h), 0);
  /* the per-function table is bounded; modules do not use it */
  for (i = 0; i < NCCC_TRACE_MAX_FUNCTIONS; i++) {
    ck_assert_int_eq(nccc_trace_enable(nccc_handle_encode(0, (uint16_t)i), 1), NCCC_OK);
  }
  ck_assert_int_eq(nccc_trace_enable(nccc_check_lookup("cbt.add"), 1),
                   NCCC_ERR_POOL_EXHAUSTED);
  ck_assert_int_eq(nccc_trace_enable(nccc_handle_encode(0, 0), 1), NCCC_OK); /* again: ok */
  ck_assert_int_eq(nccc_trace_enable(nccc_handle_encode(0, 0), 0), NCCC_OK);
  ck_assert_int_eq(nccc_trace_enable(nccc_check_lookup("cbt.add"), 1), NCCC_OK);
}
END_TEST

START_TEST(test_module_not_added) {
  /* tracing on somewhere, but the wrapper's module is gone: the call is
  ** made and not recorded */
  uint16_t mi;
  uint64_t in[2] = {20, 22}, out[1] = {0};
  ck_assert_int_eq(nccc_trace_enable(nccc_check_lookup("cbt.add"), 1), NCCC_OK);
  ck_assert_int_eq(nccc_module_find("cbt", &mi), NCCC_OK);
  ck_assert_int_eq(nccc_module_remove(mi), NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, NCCC_SITE_TRACE);
  nccc_cbt_add(in, out);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_int_eq(lib_calls, 1);
  ck_assert_uint_eq(stats().next, 0);
}
END_TEST

/* ---- built-ins --------------------------------------------------------------- */

START_TEST(test_builtins) {
  uint64_t in[2], out[5] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL};
  uint16_t mi;
  nccc_module_find("cbt", &mi);
  in[0] = mi;
  in[1] = 1;
  nccc_check_builtin(NCCC_BUILTIN_TRACE_ENABLE_MODULE)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  add(3, 4);
  divide(3, 0, NULL);
  nccc_check_builtin(NCCC_BUILTIN_TRACE_STATS)(NULL, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_eq(out[1], 0);
  ck_assert_uint_eq(out[2], 2);
  ck_assert_uint_eq(out[3], NCCC_TRACE_RECORDS);
  in[0] = 1;
  nccc_check_builtin(NCCC_BUILTIN_TRACE_READ)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_eq(out[1], nccc_check_lookup("cbt.divide"));
  ck_assert_uint_eq(out[2], NCCC_OK);
  ck_assert_uint_eq(out[3], 1030);
  ck_assert_uint_eq(out[4], 1040);
  in[0] = 2;
  nccc_check_builtin(NCCC_BUILTIN_TRACE_READ)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INDEX_INVALID);
  nccc_check_builtin(NCCC_BUILTIN_TRACE_CLEAR)(NULL, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  nccc_check_builtin(NCCC_BUILTIN_TRACE_STATS)(NULL, out);
  ck_assert_uint_eq(out[2], 0);
  /* handle 0 with off: everything off */
  in[0] = 0;
  in[1] = 0;
  nccc_check_builtin(NCCC_BUILTIN_TRACE_ENABLE)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_uint_eq(nccc_site_active, 0);
  in[0] = nccc_check_lookup("cbt.add");
  in[1] = 1;
  nccc_check_builtin(NCCC_BUILTIN_TRACE_ENABLE)(in, out);
  ck_assert_uint_eq(out[0], NCCC_OK);
  ck_assert_int_eq(nccc_trace_enabled(nccc_check_lookup("cbt.add")), 1);
  in[0] = (uint64_t)nccc_check_lookup("cbt.add") | ((uint64_t)1 << 32);
  nccc_check_builtin(NCCC_BUILTIN_TRACE_ENABLE)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INVALID_ARG);
  in[0] = NCCC_MAX_MODULES;
  nccc_check_builtin(NCCC_BUILTIN_TRACE_ENABLE_MODULE)(in, out);
  ck_assert_uint_eq(out[0], NCCC_ERR_INDEX_INVALID);
  /* a buffer of the host's own */
  {
    static uint64_t space[8];
    uint64_t bin[2] = {nccc_slot_from_ptr(space), sizeof space};
    nccc_check_builtin(NCCC_BUILTIN_TRACE_BUFFER)(bin, out);
    ck_assert_uint_eq(out[0], NCCC_OK);
    nccc_check_builtin(NCCC_BUILTIN_TRACE_STATS)(NULL, out);
    ck_assert_uint_eq(out[3], 2); /* 64 bytes: two 24-byte records */
    bin[1] = 8;
    nccc_check_builtin(NCCC_BUILTIN_TRACE_BUFFER)(bin, out);
    ck_assert_uint_eq(out[0], NCCC_ERR_BUFFER_TOO_SMALL);
    bin[0] = 0;
    nccc_check_builtin(NCCC_BUILTIN_TRACE_BUFFER)(bin, out);
    ck_assert_uint_eq(out[0], NCCC_OK);
  }
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("trace");
  nccc_check_tcase(s, "trace", setup, teardown,
                   NCCC_CHECK_TESTS(test_off_by_default,
                                    test_records_in_order_with_times,
                                    test_module_switch,
                                    test_wraparound_in_own_block,
                                    test_faulted_call_traced,
                                    test_enable_errors, test_module_not_added,
                                    test_builtins));
  return s;
}
