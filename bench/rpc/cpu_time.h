/*
** cpu_time.h — the CPU time (user and system, in seconds) a process has
** used so far, for the cost of a round trip counted on both sides of the
** link, which a loaded machine disturbs far less than the rate: this
** process by getrusage, a child by /proc/PID/stat (in clock ticks).
*/
#ifndef NCCC_BENCH_CPU_TIME_H
#define NCCC_BENCH_CPU_TIME_H

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

static double cpu_self(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

/* The child's time; 0 when it cannot be read. */
static double cpu_child(pid_t pid) {
  char path[64], line[1024], *p;
  unsigned long utime = 0, stime = 0;
  FILE *f;
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  f = fopen(path, "r");
  if (f == NULL) return 0;
  p = fgets(line, sizeof line, f) ? strrchr(line, ')') : NULL;
  fclose(f);
  /* after the name: state and ten fields, then utime and stime */
  if (p == NULL || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
                          &utime, &stime) != 2) {
    return 0;
  }
  return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

#endif
