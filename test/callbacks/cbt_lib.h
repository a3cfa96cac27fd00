/*
** cbt_lib.h — a small C library with the callback shapes real libraries
** have: a comparator with a context, two callbacks sharing one context
** called later (progress and ready), a watch with a destroy notify, a
** logger kept forever, callbacks without a context, and plain functions
** for the trace and fault tests. libc's qsort_r, bsearch and
** pthread_create are used as they are.
*/
#ifndef CBT_LIB_H
#define CBT_LIB_H

#include <stddef.h>

/* Calls of the library's own functions (a faulted call must not count). */
extern int lib_calls;

/* Queues a job; lib_run_pending runs it later: progress(i, steps, data)
** for i = 1..steps, then ready(steps * 10, data) once. */
void lib_copy_async(int steps, void (*progress)(int done, int total, void *data),
                    void (*ready)(int result, void *data), void *data);
/* Runs the queued jobs; returns how many ran. */
int lib_run_pending(void);

/* Watches: emit calls fn(event, data) of every watch and sums the
** results; remove calls destroy(data). */
int lib_watch_add(int (*fn)(int event, void *data), void *data,
                  void (*destroy)(void *data));
int lib_watch_emit(int event);
void lib_watch_remove(int id);

/* Sets errno to err, calls cb(data), returns -1 (errno still err). */
int lib_fail_with_callback(int err, void (*cb)(void *data), void *data);

/* A logger kept until replaced; lib_log returns the logger's result. */
void lib_set_logger(int (*log)(const char *msg, void *data), void *data);
int lib_log(const char *msg);

/* Handlers without a context (atexit-like): up to 8; fire runs each. */
int lib_on_event(void (*fn)(void));
int lib_fire_events(void);
void lib_clear_events(void);

/* Plain functions: division with errno (EDOM on b == 0), addition, and
** a split into high and low halves through an out parameter. */
int lib_divide(int a, int b);
long long lib_add(long long a, long long b);
int lib_split(int v, int *hi);

#endif
