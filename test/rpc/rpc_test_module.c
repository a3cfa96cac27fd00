/*
** rpc_test_module.c — module "rpct": what the remote-call tests call on
** the test server. Counters show how often a call ran; sleep_ms and
** restart make the device go silent and restart mid-call.
*/
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rpc_test_module.h"

nccc_rpc_server rpct_server;
char **rpct_argv;

static uint64_t counter;

static void f_add(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(nccc_slot_to_i64(in[0]) + nccc_slot_to_i64(in[1]));
}
/* how often it ran, this one included */
static void f_count(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = ++counter;
}
static void f_sleep_ms(const uint64_t *in, uint64_t *out) {
  struct timespec t = {(time_t)(in[0] / 1000), (long)(in[0] % 1000) * 1000000L};
  (void)out;
  counter++;
  nanosleep(&t, NULL);
}
/* A fresh process image on the same link, which announces itself with a
** start message: the program again, or under an emulator (which cannot
** run a program of its own machine through exec) the command that
** $RPCT_RESTART holds, words separated by spaces. */
static void restart(void) {
  static char words[1024];
  char *argv[16];
  const char *command = getenv("RPCT_RESTART");
  int n = 0;
  if (command == NULL || strlen(command) >= sizeof words) {
    execv("/proc/self/exe", rpct_argv);
    return;
  }
  strcpy(words, command);
  for (char *w = strtok(words, " "); w != NULL && n < 15; w = strtok(NULL, " ")) argv[n++] = w;
  argv[n] = NULL;
  execv(argv[0], argv);
}

/* the device restarts in the middle of the call */
static void f_restart(const uint64_t *in, uint64_t *out) {
  (void)in;
  (void)out;
  restart();
}
static void f_length(const uint64_t *in, uint64_t *out) {
  out[0] = strlen((const char *)(uintptr_t)in[0]);
}
/* "hello, NAME" in a static buffer */
static void f_greet(const uint64_t *in, uint64_t *out) {
  static char text[128];
  snprintf(text, sizeof text, "hello, %s", (const char *)(uintptr_t)in[0]);
  out[0] = (uint64_t)(uintptr_t)text;
}
static void f_sum64(const uint64_t *in, uint64_t *out) {
  uint64_t s = 0;
  for (int i = 0; i < RPCT_SUM_SLOTS; i++) s += in[i];
  out[0] = s;
}
/* records an error as a wrapper refusing its argument does */
static void f_refuse(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = 0;
  nccc_fail(NCCC_ERR_NULL_POINTER, "rpct.refuse", "p is NULL ([nonnull])");
}
/* calls the host's function in[0] (signature "L:L") with in[1], plus 1;
** counted as count is */
static void f_call_host(const uint64_t *in, uint64_t *out) {
  uint64_t arg = in[1], got = 0;
  nccc_status st;
  counter++;
  st = nccc_rpc_server_call_host(&rpct_server, (nccc_handle)in[0], &arg, 1, &got, 1);
  out[0] = (uint64_t)(int64_t)(int32_t)st;
  out[1] = got + 1;
}
/* counter in[0] of the server's statistics (the order of
** nccc_rpc_server_stats), or past them the nesting level it serves at */
static void f_server_stat(const uint64_t *in, uint64_t *out) {
  uint32_t words[sizeof(nccc_rpc_server_stats) / 4];
  memcpy(words, &rpct_server.stats, sizeof words);
  out[0] = in[0] < sizeof words / 4 ? words[in[0]] : rpct_server.depth;
}
static void reboot(int signal) {
  (void)signal;
  restart();
}
/* the device restarts in[0] ms after this call, while idle */
static void f_reboot_in(const uint64_t *in, uint64_t *out) {
  struct itimerval t = {{0, 0}, {(time_t)(in[0] / 1000), (suseconds_t)(in[0] % 1000) * 1000}};
  (void)out;
  signal(SIGALRM, reboot);
  setitimer(ITIMER_REAL, &t, NULL);
}
/* strchr: a pointer into the string passed in */
static void f_find(const uint64_t *in, uint64_t *out) {
  out[0] = (uint64_t)(uintptr_t)strchr((const char *)(uintptr_t)in[0], (int)in[1]);
}
/* sends in[0] (a string) to the host as a log message of level in[1] */
static void f_log(const uint64_t *in, uint64_t *out) {
  (void)out;
  nccc_rpc_server_log(&rpct_server, (uint8_t)in[1], (const char *)(uintptr_t)in[0]);
}
/* x + y of a point passed by value */
static void f_point_sum(const uint64_t *in, uint64_t *out) {
  double xy[2];
  memcpy(xy, in, sizeof xy);
  out[0] = nccc_slot_from_double(xy[0] + xy[1]);
}
/* a pointer result: the address of a static word holding 7 */
static void f_seven_at(const uint64_t *in, uint64_t *out) {
  static uint32_t seven = 7;
  (void)in;
  out[0] = (uint64_t)(uintptr_t)&seven;
}

#define S64 "LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL"
NCCC_NAMES_BLOB(rpct_names, 15,
                "add\0count\0sleep_ms\0restart\0length\0greet\0sum64\0refuse\0"
                "call_host\0seven_at\0point_sum\0server_stat\0log\0reboot_in\0find\0");
static const nccc_fn rpct_funcs[] = {f_add,    f_count, f_sleep_ms, f_restart,
                                     f_length, f_greet, f_sum64,    f_refuse,
                                     f_call_host, f_seven_at, f_point_sum,
                                     f_server_stat, f_log, f_reboot_in, f_find};
static const nccc_fn_info rpct_info[] = {
    {"ll:l", 2, 1, 2},      {":L", 0, 1, 6},      {"I:", 1, 0, 12},
    {":", 0, 0, 21},        {"s:L", 1, 1, 29},    {"s:s", 1, 1, 36},
    {S64 ":L", 64, 1, 42},  {"p:i", 1, 1, 48},    {"IL:iL", 2, 2, 55},
    {":p", 0, 1, 65},       {"{point:2}:d", 2, 1, 74}, {"I:L", 1, 1, 84}, {"sI:", 2, 0, 96}, {"I:", 1, 0, 100}, {"sI:p", 2, 1, 110}};
static const nccc_registry rpct_registry = {(const char *)&rpct_names, rpct_funcs,
                                            rpct_info, NULL, NULL};

typedef struct point {
  double x, y;
} point;
static const nccc_field point_fields[] = {
    {"x", "d", offsetof(point, x), sizeof(double), 1},
    {"y", "d", offsetof(point, y), sizeof(double), 1}};
static const nccc_type_layout rpct_types[] = {
    {"point", sizeof(point), _Alignof(point), NCCC_TYPE_STRUCT, 2, point_fields}};
static const char greeting[] = "hi there";
static const nccc_constant rpct_constants[] = {
    {"ANSWER", "i", 42},
    {"GREETING", "s", 0}};

static nccc_constant constants_now[2];
static nccc_module rpct_module = {"rpct", &rpct_registry, rpct_types, 1, 2, NULL};

nccc_status rpct_register(void) {
  memcpy(constants_now, rpct_constants, sizeof constants_now);
  constants_now[1].value = (uint64_t)(uintptr_t)greeting; /* an address: not a constant expression */
  rpct_module.constants = constants_now;
  return nccc_module_add(&rpct_module, NULL);
}
