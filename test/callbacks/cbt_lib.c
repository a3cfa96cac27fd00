/*
** cbt_lib.c — the library behind the callback tests (see cbt_lib.h).
*/
#include <errno.h>
#include <stddef.h>

#include "cbt_lib.h"

int lib_calls;

static struct {
  int steps;
  void (*progress)(int, int, void *);
  void (*ready)(int, void *);
  void *data;
} jobs[8];
static int n_jobs;

void lib_copy_async(int steps, void (*progress)(int, int, void *),
                    void (*ready)(int, void *), void *data) {
  lib_calls++;
  if (n_jobs == 8) return;
  jobs[n_jobs].steps = steps;
  jobs[n_jobs].progress = progress;
  jobs[n_jobs].ready = ready;
  jobs[n_jobs].data = data;
  n_jobs++;
}

int lib_run_pending(void) {
  int ran = 0;
  lib_calls++;
  while (ran < n_jobs) {
    int i;
    for (i = 1; i <= jobs[ran].steps; i++) {
      if (jobs[ran].progress) jobs[ran].progress(i, jobs[ran].steps, jobs[ran].data);
    }
    jobs[ran].ready(jobs[ran].steps * 10, jobs[ran].data);
    ran++;
  }
  n_jobs = 0;
  return ran;
}

static struct {
  int (*fn)(int, void *);
  void *data;
  void (*destroy)(void *);
} watches[8];

int lib_watch_add(int (*fn)(int, void *), void *data, void (*destroy)(void *)) {
  int i;
  lib_calls++;
  for (i = 0; i < 8; i++) {
    if (watches[i].fn == NULL) {
      watches[i].fn = fn;
      watches[i].data = data;
      watches[i].destroy = destroy;
      return i + 1;
    }
  }
  return 0;
}

int lib_watch_emit(int event) {
  int i, sum = 0;
  lib_calls++;
  for (i = 0; i < 8; i++) {
    if (watches[i].fn != NULL) sum += watches[i].fn(event, watches[i].data);
  }
  return sum;
}

void lib_watch_remove(int id) {
  lib_calls++;
  if (id < 1 || id > 8 || watches[id - 1].fn == NULL) return;
  watches[id - 1].fn = NULL;
  if (watches[id - 1].destroy) watches[id - 1].destroy(watches[id - 1].data);
}

int lib_fail_with_callback(int err, void (*cb)(void *), void *data) {
  lib_calls++;
  errno = err;
  cb(data);
  return -1;
}

static int (*logger)(const char *, void *);
static void *logger_data;

void lib_set_logger(int (*log)(const char *, void *), void *data) {
  lib_calls++;
  logger = log;
  logger_data = data;
}

int lib_log(const char *msg) {
  lib_calls++;
  return logger != NULL ? logger(msg, logger_data) : -1;
}

static void (*events[8])(void);
static int n_events;

int lib_on_event(void (*fn)(void)) {
  lib_calls++;
  if (n_events == 8) return -1;
  events[n_events++] = fn;
  return 0;
}

int lib_fire_events(void) {
  int i;
  lib_calls++;
  for (i = 0; i < n_events; i++) events[i]();
  return n_events;
}

void lib_clear_events(void) { n_events = 0; }

int lib_divide(int a, int b) {
  lib_calls++;
  if (b == 0) {
    errno = EDOM;
    return 0;
  }
  return a / b;
}

long long lib_add(long long a, long long b) {
  lib_calls++;
  return a + b;
}

int lib_split(int v, int *hi) {
  lib_calls++;
  *hi = v >> 16;
  return v & 0xffff;
}
