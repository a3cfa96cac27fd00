/*
** test_rpc_remote.c — the client against the test server: the session,
** lookups, raw calls, remote memory, a bound module called through local
** handles, nested calls from the device, and the TCP and pty links.
*/
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpc_test_client.h"
#include "rpc_test_module.h"

static nccc_remote *r;

static void setup(void) {
  nccc_check_init(NULL);
  r = rpct_open();
}

static void teardown(void) {
  nccc_remote_close(r);
  r = NULL;
}

START_TEST(test_session_announced) {
  const nccc_remote_device *d = nccc_remote_device_info(r);
  const uint16_t probe = 1;
  ck_assert_uint_eq(d->version, NCCC_RPC_VERSION);
  ck_assert_uint_eq(d->pointer_bytes, sizeof(void *));
  ck_assert_uint_eq(d->byte_order,
                    *(const uint8_t *)&probe ? NCCC_RPC_ORDER_LITTLE : NCCC_RPC_ORDER_BIG);
  ck_assert_uint_eq(d->max_message, NCCC_RPC_MAX_MESSAGE);
  ck_assert_uint_eq(d->max_slots, NCCC_RPC_MAX_SLOTS);
  ck_assert_uint_eq(d->max_depth, NCCC_RPC_MAX_DEPTH);
  ck_assert_uint_ne(d->session, 0);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->sessions, 1);
}
END_TEST

START_TEST(test_lookup) {
  nccc_handle h;
  uint16_t n_in, n_out;
  char sig[16], name[NCCC_NAME_MAX + 45];
  ck_assert_int_eq(nccc_remote_lookup(r, "rpct.add", &h, &n_in, &n_out, sig, sizeof sig),
                   NCCC_OK);
  ck_assert(nccc_handle_marked(h));
  ck_assert_uint_eq(n_in, 2);
  ck_assert_uint_eq(n_out, 1);
  ck_assert_str_eq(sig, "ll:l");
  ck_assert_int_eq(nccc_remote_lookup(r, "rpct.nothing", &h, NULL, NULL, NULL, 0),
                   NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "rpct.nothing"));
  ck_assert_int_eq(nccc_remote_lookup(r, "nccc.alloc", &h, NULL, NULL, sig, sizeof sig),
                   NCCC_OK);
  ck_assert_str_eq(sig, "L:ip");
  /* names that cannot be registered are not found either */
  memset(name, 'a', sizeof name - 1);
  name[sizeof name - 1] = 0;
  ck_assert_int_eq(nccc_remote_lookup(r, "", &h, NULL, NULL, NULL, 0), NCCC_ERR_NAME_NOT_FOUND);
  ck_assert_int_eq(nccc_remote_lookup(r, name, &h, NULL, NULL, NULL, 0),
                   NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

START_TEST(test_raw_call) {
  uint64_t in[2] = {nccc_slot_from_i64(40), nccc_slot_from_i64(2)}, out[1] = {0};
  nccc_handle add = rpct_lookup(r, "rpct.add");
  const nccc_remote_stats *stats = nccc_remote_stats_get(r);
  uint64_t sent = stats->bytes_sent, received = stats->bytes_received;
  ck_assert_int_eq(nccc_remote_call(r, add, in, 2, out, 1), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), 42);
  /* the frames of a call of 2 slots and its result of 1: 40 and 32
  ** bytes, and one more for each 0xff byte (the ids, the CRC) escaped */
  ck_assert_uint_ge(stats->bytes_sent - sent, 40);
  ck_assert_uint_le(stats->bytes_sent - sent, 48);
  ck_assert_uint_ge(stats->bytes_received - received, 32);
  ck_assert_uint_le(stats->bytes_received - received, 40);
  in[0] = nccc_slot_from_i64(-5000000000);
  in[1] = nccc_slot_from_i64(-7);
  ck_assert_int_eq(rpct_call(r, "rpct.add", in, 2, out, 1), NCCC_OK);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), -5000000007);
}
END_TEST

START_TEST(test_sixty_four_slots) {
  uint64_t in[RPCT_SUM_SLOTS], out[1] = {0}, want = 0;
  for (int i = 0; i < RPCT_SUM_SLOTS; i++) {
    in[i] = (uint64_t)i << 40 | (uint64_t)i;
    want += in[i];
  }
  ck_assert_int_eq(rpct_call(r, "rpct.sum64", in, RPCT_SUM_SLOTS, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], want);
}
END_TEST

START_TEST(test_wrong_slot_counts_refused) {
  uint64_t in[3] = {1, 2, 3}, out[2] = {0, 0};
  ck_assert_int_eq(rpct_call(r, "rpct.count", in, 1, out, 1), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(rpct_call(r, "rpct.count", NULL, 0, out, 2), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_int_eq(rpct_call(r, "rpct.add", in, 3, out, 1), NCCC_ERR_NUM_ARGUMENTS);
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "slot"));
  /* nothing ran: the counter's first run says 1 */
  ck_assert_int_eq(rpct_call(r, "rpct.count", NULL, 0, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 1);
}
END_TEST

START_TEST(test_unknown_handle_refused) {
  nccc_handle add = rpct_lookup(r, "rpct.add");
  uint64_t in[2] = {1, 2}, out[1] = {0};
  ck_assert_int_eq(nccc_remote_call(r, 0x1234, in, 2, out, 1), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_remote_call(r, add | 0x7f00u, in, 2, out, 1), NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(nccc_remote_call(r, add, in, 2, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 3);
}
END_TEST

START_TEST(test_remote_memory) {
  uint64_t p, len;
  char back[40] = {0};
  const char text[] = "remote \xff\xfd bytes";
  ck_assert_int_eq(nccc_remote_alloc(r, 40, &p), NCCC_OK);
  ck_assert_uint_ne(p, 0);
  ck_assert_int_eq(nccc_remote_write(r, p, text, sizeof text), NCCC_OK);
  ck_assert_int_eq(nccc_remote_read(r, p, back, sizeof text), NCCC_OK);
  ck_assert_str_eq(back, text);
  ck_assert_int_eq(nccc_remote_strlen(r, p, &len), NCCC_OK);
  ck_assert_uint_eq(len, strlen(text));
  ck_assert_int_eq(nccc_remote_free(r, p), NCCC_OK);
}
END_TEST

START_TEST(test_large_read_in_chunks) {
  size_t n = 3 * NCCC_RPC_MAX_MESSAGE + 5;
  uint8_t *data = malloc(n), *back = calloc(1, n);
  uint64_t p;
  for (size_t i = 0; i < n; i++) data[i] = (uint8_t)(i * 7);
  ck_assert_int_eq(nccc_remote_alloc(r, n, &p), NCCC_OK);
  ck_assert_int_eq(nccc_remote_write(r, p, data, n), NCCC_OK);
  ck_assert_int_eq(nccc_remote_read(r, p, back, n), NCCC_OK);
  ck_assert_mem_eq(back, data, n);
  ck_assert_int_eq(nccc_remote_free(r, p), NCCC_OK);
  free(data);
  free(back);
}
END_TEST

START_TEST(test_freed_pointer_refused) {
  uint64_t p, len, out[1];
  char byte = 'x';
  ck_assert_int_eq(nccc_remote_alloc(r, 16, &p), NCCC_OK);
  ck_assert_int_eq(nccc_remote_write(r, p, "abc", 4), NCCC_OK);
  ck_assert_int_eq(nccc_remote_free(r, p), NCCC_OK);
  ck_assert_int_eq(nccc_remote_free(r, p), NCCC_ERR_RPC_FREED);
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "freed"));
  ck_assert_int_eq(nccc_remote_read(r, p, &byte, 1), NCCC_ERR_RPC_FREED);
  ck_assert_int_eq(nccc_remote_write(r, p + 2, &byte, 1), NCCC_ERR_RPC_FREED);
  ck_assert_int_eq(nccc_remote_strlen(r, p, &len), NCCC_ERR_RPC_FREED);
  ck_assert_int_eq(nccc_remote_free(r, 0x1000), NCCC_ERR_RPC_FREED);
  ck_assert_uint_eq(byte, 'x');
  /* the session goes on */
  ck_assert_int_eq(rpct_call(r, "rpct.count", NULL, 0, out, 1), NCCC_OK);
}
END_TEST

/* ---- a bound module ---- */

static void bind_rpct(void) {
  uint16_t index;
  ck_assert_msg(nccc_remote_bind(r, "rpct", NULL, &index) == NCCC_OK, "bind: %s",
                nccc_last_error());
  ck_assert_ptr_nonnull(nccc_module_at(index));
}

START_TEST(test_bound_call) {
  uint64_t in[2] = {nccc_slot_from_i64(40), nccc_slot_from_i64(2)}, out[1] = {0};
  bind_rpct();
  nccc_check_find("rpct.add", "ll:l", 2, 1);
  nccc_check_call("rpct.add", in, out);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), 42);
}
END_TEST

START_TEST(test_bound_strings) {
  uint64_t in[1] = {nccc_slot_from_ptr("twelve chars")}, out[1] = {0};
  char got[32];
  bind_rpct();
  nccc_check_call("rpct.length", in, out);
  ck_assert_uint_eq(out[0], 12);
  in[0] = nccc_slot_from_ptr("bob");
  nccc_check_call("rpct.greet", in, out);
  snprintf(got, sizeof got, "%s", (const char *)nccc_slot_to_ptr(out[0]));
  ck_assert_str_eq(got, "hello, bob");
  {
    /* a pointer result into the string passed in points into the
    ** caller's string (as strtol's end pointer does locally) */
    const char *text = "key=value";
    uint64_t args[2] = {nccc_slot_from_ptr(text), '='};
    nccc_check_call("rpct.find", args, out);
    ck_assert_ptr_eq(nccc_slot_to_ptr(out[0]), text + 3);
    args[1] = '#';
    nccc_check_call("rpct.find", args, out);
    ck_assert_uint_eq(out[0], 0);
  }
}
END_TEST

START_TEST(test_bound_records_and_pointers) {
  double xy[2] = {1.5, -0.25};
  uint64_t in[2], out[1] = {0};
  uint32_t seven = 0;
  memcpy(in, xy, sizeof xy);
  bind_rpct();
  nccc_check_call("rpct.point_sum", in, out);
  ck_assert_double_eq(nccc_slot_to_double(out[0]), 1.25);
  /* a pointer result is the device's address: read it remotely */
  nccc_check_call("rpct.seven_at", in, out);
  ck_assert_int_eq(nccc_remote_read(r, out[0], &seven, 4), NCCC_OK);
  ck_assert_uint_eq(seven, 7);
}
END_TEST

START_TEST(test_bound_types_and_constants) {
  uint16_t index;
  const nccc_module *m;
  ck_assert_int_eq(nccc_remote_bind(r, "rpct", "far", &index), NCCC_OK);
  m = nccc_module_at(index);
  ck_assert_str_eq(m->name, "far");
  ck_assert_uint_eq(m->n_types, 1);
  ck_assert_str_eq(m->types[0].name, "point");
  ck_assert_uint_eq(m->types[0].size, 16);
  ck_assert_uint_eq(m->types[0].n_fields, 2);
  ck_assert_str_eq(m->types[0].fields[1].name, "y");
  ck_assert_uint_eq(m->types[0].fields[1].offset, 8);
  ck_assert_uint_eq(m->n_constants, 3); /* the device's two, then the marker */
  ck_assert_str_eq(m->constants[2].name, NCCC_RPC_BOUND_MARKER);
  ck_assert_uint_eq(m->constants[2].value, 1);
  ck_assert_str_eq(m->constants[0].name, "ANSWER");
  ck_assert_uint_eq(m->constants[0].value, 42);
  ck_assert_str_eq((const char *)nccc_slot_to_ptr(m->constants[1].value), "hi there");
  {
    const nccc_fn_info *info;
    ck_assert_int_eq(nccc_function(nccc_check_lookup("far.sum64"), NULL, &info, NULL), NCCC_OK);
    ck_assert_uint_eq(info->n_in, RPCT_SUM_SLOTS);
    ck_assert_uint_eq(info->n_out, 1);
  }
}
END_TEST

START_TEST(test_bound_recorded_error) {
  uint64_t in[1] = {0}, out[1] = {99};
  bind_rpct();
  nccc_clear_error();
  nccc_check_call("rpct.refuse", in, out);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "rpct.refuse"));
}
END_TEST

START_TEST(test_memory_module) {
  char back[8] = {0};
  uint64_t in[3], out[2], p;
  ck_assert_int_eq(nccc_remote_bind_memory(r, "devmem", NULL), NCCC_OK);
  in[0] = 8;
  nccc_check_call("devmem.alloc", in, out);
  ck_assert_int_eq((int32_t)out[0], NCCC_OK);
  p = out[1];
  ck_assert_uint_ne(p, 0);
  in[0] = p;
  in[1] = 6;
  in[2] = nccc_slot_from_ptr("hello");
  nccc_check_call("devmem.write", in, out);
  ck_assert_int_eq((int32_t)out[0], NCCC_OK);
  nccc_check_call("devmem.strlen", in, out);
  ck_assert_uint_eq(out[1], 5);
  in[2] = nccc_slot_from_ptr(back);
  nccc_check_call("devmem.read", in, out);
  ck_assert_str_eq(back, "hello");
  nccc_check_call("devmem.free", in, out);
  ck_assert_int_eq((int32_t)out[0], NCCC_OK);
  nccc_check_call("devmem.free", in, out);
  ck_assert_int_eq((int32_t)out[0], NCCC_ERR_RPC_FREED);
  ck_assert_int_eq(nccc_remote_bind_memory(r, "devmem", NULL), NCCC_ERR_ALREADY_DEFINED);
}
END_TEST

START_TEST(test_filtered_requests_refused) {
  nccc_remote *f;
  uint64_t in[2] = {1, 2}, out[1] = {0}, p;
  char byte;
  setenv("RPCT_FILTER", "1", 1);
  f = rpct_open();
  unsetenv("RPCT_FILTER");
  ck_assert_int_eq(rpct_call(f, "rpct.count", NULL, 0, out, 1), NCCC_ERR_NOT_IMPLEMENTED);
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "does not serve"));
  ck_assert_int_eq(nccc_remote_alloc(f, 4, &p), NCCC_OK);
  ck_assert_int_eq(nccc_remote_read(f, p, &byte, 1), NCCC_ERR_NOT_IMPLEMENTED);
  ck_assert_int_eq(rpct_call(f, "rpct.add", in, 2, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 3);
  nccc_remote_close(f);
}
END_TEST

START_TEST(test_bind_unknown_module) {
  ck_assert_int_eq(nccc_remote_bind(r, "nothing", NULL, NULL), NCCC_ERR_NAME_NOT_FOUND);
  bind_rpct();
  ck_assert_int_eq(nccc_remote_bind(r, "rpct", NULL, NULL), NCCC_ERR_ALREADY_DEFINED);
}
END_TEST

START_TEST(test_close_unbinds) {
  nccc_handle h;
  bind_rpct();
  ck_assert_int_eq(nccc_lookup("rpct.add", &h), NCCC_OK);
  nccc_remote_close(r);
  r = NULL;
  ck_assert_int_eq(nccc_lookup("rpct.add", &h), NCCC_ERR_NAME_NOT_FOUND);
}
END_TEST

/* ---- the device calls the host ---- */

static int host_calls;
static void host_twice(const uint64_t *in, uint64_t *out) {
  host_calls++;
  out[0] = 2 * in[0];
}

START_TEST(test_device_calls_host) {
  nccc_handle twice;
  uint64_t in[2], out[2] = {0, 0};
  ck_assert_int_eq(nccc_register("twice", host_twice, "L:L", 0, &twice), NCCC_OK);
  in[0] = twice;
  in[1] = 20;
  host_calls = 0;
  ck_assert_int_eq(rpct_call(r, "rpct.call_host", in, 2, out, 2), NCCC_OK);
  ck_assert_int_eq((int32_t)out[0], NCCC_OK);
  ck_assert_uint_eq(out[1], 41);
  ck_assert_int_eq(host_calls, 1);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->served, 1);
  in[0] = 0x1234; /* no such handle on the host: the device hears why */
  ck_assert_int_eq(rpct_call(r, "rpct.call_host", in, 2, out, 2), NCCC_OK);
  ck_assert_int_eq((int32_t)out[0], NCCC_ERR_BAD_HANDLE);
  ck_assert_int_eq(host_calls, 1);
}
END_TEST

static void add_over(nccc_remote *other) {
  uint64_t in[2] = {5, 6}, out[1] = {0};
  ck_assert_int_eq(rpct_call(other, "rpct.add", in, 2, out, 1), NCCC_OK);
  ck_assert_uint_eq(out[0], 11);
}

/* A host function the device calls, which calls the device again with
** rpct.call_host naming itself: each level one deeper, until the device
** refuses. in[0] = the level reached; out[0] = the deepest level. */
static nccc_handle self_handle;
static nccc_status deepest_status;
static void host_deeper(const uint64_t *in, uint64_t *out) {
  uint64_t args[2] = {self_handle, in[0] + 1}, res[2] = {0, 0};
  ck_assert_int_eq(rpct_call(r, "rpct.call_host", args, 2, res, 2), NCCC_OK);
  if ((int32_t)res[0] != NCCC_OK) {
    deepest_status = (nccc_status)(int32_t)res[0];
    out[0] = in[0];
  } else {
    out[0] = res[1] - 1;
  }
}

START_TEST(test_nesting_bounded) {
  uint64_t in[2], out[2] = {0, 0};
  ck_assert_int_eq(nccc_register("deeper", host_deeper, "L:L", 0, &self_handle), NCCC_OK);
  in[0] = self_handle;
  in[1] = 1;
  deepest_status = NCCC_OK;
  ck_assert_int_eq(rpct_call(r, "rpct.call_host", in, 2, out, 2), NCCC_OK);
  ck_assert_int_eq((int32_t)out[0], NCCC_OK);
  /* levels 1 .. NCCC_RPC_MAX_DEPTH ran on the host; the next was refused */
  ck_assert_uint_eq(out[1], NCCC_RPC_MAX_DEPTH + 1);
  ck_assert_int_eq(deepest_status, NCCC_ERR_RPC_DEPTH);
  ck_assert_uint_eq(nccc_remote_stats_get(r)->served, NCCC_RPC_MAX_DEPTH);
  /* the session goes on */
  add_over(r);
}
END_TEST

static char logged[64];
static int logged_level = -1;
static void keep_log(void *ctx, int level, const char *text) {
  (void)ctx;
  logged_level = level;
  snprintf(logged, sizeof logged, "%s", text);
}

START_TEST(test_log_messages) {
  nccc_remote_options o = nccc_remote_default_options();
  nccc_remote *t = NULL;
  char *argv[] = {RPC_TEST_SERVER, NULL};
  uint64_t in[2], none[1];
  o.log = keep_log;
  ck_assert_int_eq(nccc_remote_open_exec(argv, &o, &t), NCCC_OK);
  in[0] = nccc_slot_from_ptr("abort: out of cheese");
  in[1] = NCCC_RPC_LOG_ABORT;
  ck_assert_int_eq(nccc_remote_bind(t, "rpct", "logging", NULL), NCCC_OK);
  nccc_check_call("logging.log", in, none);
  ck_assert_str_eq(logged, "abort: out of cheese");
  ck_assert_int_eq(logged_level, NCCC_RPC_LOG_ABORT);
  ck_assert_uint_eq(nccc_remote_stats_get(t)->logs, 1);
  nccc_remote_close(t);
}
END_TEST

/* ---- other links ---- */

START_TEST(test_tcp) {
  char line[128];
  uint64_t in[1], out[1];
  nccc_remote *t = NULL;
  long pid = rpct_spawn("--tcp", "0", line, sizeof line);
  ck_assert_int_eq(strncmp(line, "port ", 5), 0);
  ck_assert_int_eq(nccc_remote_open_tcp((uint16_t)atoi(line + 5), NULL, &t), NCCC_OK);
  add_over(t);
  /* a socket's read times out by itself (SO_RCVTIMEO) */
  in[0] = 600;
  nccc_remote_set_timeout(t, 100, 0);
  ck_assert_int_eq(rpct_call(t, "rpct.sleep_ms", in, 1, out, 0), NCCC_ERR_RPC_TIMEOUT);
  nccc_remote_set_timeout(t, 10000, 0);
  add_over(t);
  nccc_remote_close(t);
  rpct_reap(pid);
}
END_TEST

START_TEST(test_pty) {
  char line[128];
  nccc_remote *t = NULL;
  long pid = rpct_spawn("--pty", NULL, line, sizeof line);
  ck_assert_int_eq(strncmp(line, "pty ", 4), 0);
  ck_assert_msg(nccc_remote_open_pty(line + 4, NULL, &t) == NCCC_OK, "%s", nccc_last_error());
  add_over(t);
  nccc_remote_close(t);
  rpct_reap(pid);
}
END_TEST

START_TEST(test_open_spec) {
  char spec[512];
  nccc_remote *t = NULL;
  snprintf(spec, sizeof spec, "exec:%s --stdio", RPC_TEST_SERVER);
  ck_assert_int_eq(nccc_remote_open_spec(spec, NULL, &t), NCCC_OK);
  add_over(t);
  nccc_remote_close(t);
  ck_assert_int_eq(nccc_remote_open_spec("serial:/dev/ttyS0", NULL, &t), NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_remote_open_spec("tcp:http", NULL, &t), NCCC_ERR_INVALID_ARG);
  ck_assert_int_eq(nccc_remote_open_spec("exec:", NULL, &t), NCCC_ERR_INVALID_ARG);
}
END_TEST

START_TEST(test_bind_from_environment) {
  uint64_t in[2] = {nccc_slot_from_i64(-3), nccc_slot_from_i64(10)}, out[1] = {0};
  setenv("RPCT_DEVICE", "exec:" RPC_TEST_SERVER, 1);
  ck_assert_int_eq(nccc_remote_bind_env("rpct", "RPCT_DEVICE"), NCCC_OK);
  nccc_check_call("rpct.add", in, out);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), 7);
  ck_assert_int_eq(nccc_remote_bind_env("rpct", "RPCT_DEVICE"), NCCC_OK); /* present */
  nccc_check_find("rpct_memory.alloc", "L:ip", 1, 2);
  unsetenv("RPCT_DEVICE");
  ck_assert_int_eq(nccc_remote_bind_env("other", "RPCT_DEVICE"), NCCC_ERR_INVALID_ARG);
  ck_assert_ptr_nonnull(strstr(nccc_last_error(), "RPCT_DEVICE"));
}
END_TEST

START_TEST(test_open_failures) {
  char *missing[] = {"/nonexistent/server", NULL};
  nccc_remote_options quick = nccc_remote_default_options();
  nccc_remote *t = NULL;
  quick.timeout_ms = 200;
  quick.retries = 0;
  ck_assert_int_eq(nccc_remote_open_exec(missing, &quick, &t), NCCC_ERR_RPC_TRANSPORT);
  ck_assert_ptr_null(t);
  ck_assert_int_eq(nccc_remote_open_pty("/nonexistent/tty", &quick, &t), NCCC_ERR_RPC_TRANSPORT);
  ck_assert_int_eq(nccc_remote_open_exec(NULL, &quick, &t), NCCC_ERR_NULL_POINTER);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("rpc_remote");
  TCase *tc = nccc_check_tcase(
      s, "remote", setup, teardown,
      NCCC_CHECK_TESTS(test_session_announced, test_lookup, test_raw_call,
                       test_sixty_four_slots, test_wrong_slot_counts_refused,
                       test_unknown_handle_refused, test_remote_memory,
                       test_large_read_in_chunks, test_freed_pointer_refused, test_bound_call,
                       test_bound_strings, test_bound_records_and_pointers,
                       test_bound_types_and_constants, test_bound_recorded_error,
                       test_memory_module, test_filtered_requests_refused,
                       test_bind_unknown_module, test_close_unbinds, test_device_calls_host,
                       test_nesting_bounded, test_log_messages, test_tcp, test_pty,
                       test_open_spec, test_bind_from_environment, test_open_failures));
  tcase_set_timeout(tc, 30);
  return s;
}
