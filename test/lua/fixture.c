/*
** fixture.c — the C side of the host tests: a shared library holding the
** nccc runtime, module "tour" (idl/examples/tour.idl, generated) and
** module "lfx" (below: callbacks in every scope, wrappers written by hand
** the way docs/CALLBACKS.md shows them), and one more exported nccc
** function, nccc_fixture_open, that adds both modules. A host binds
** nccc_root, calls nccc_fixture_open through its primitive, and finds
** everything else through the registry.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <nccc/nccc.h>
#include <nccc/shim_callback.h>

#include "tour_nccc.h"

/* ---- the "library": plain C that takes callbacks ------------------------ */

typedef int step_fn(int acc, int i, void *ctx);
typedef double map_fn(double x, void *ctx);
typedef void visit_fn(const char *name, int64_t value, void *ctx);
typedef int handler_fn(int x, void *ctx);
typedef void destroy_fn(void *ctx);
typedef void progress_fn(int done, int total, void *ctx);
typedef void ready_fn(int result, void *ctx);
typedef int unary_fn(int x); /* no context: reached through a thunk pool */

static int fold(int n, step_fn *step, void *ctx) {
  int acc = 0, i;
  for (i = 1; i <= n; i++) acc = step(acc, i, ctx);
  return acc;
}

static double map(double x, map_fn *f, void *ctx) { return f(x, ctx); }

static int visit(visit_fn *f, void *ctx) {
  f("one", 1, ctx);
  f("minus two", -2, ctx);
  f("min", INT64_MIN, ctx);
  return 3;
}

/* One stored handler (async or forever) and one watch (notified). */
static handler_fn *fire_fn;
static void *fire_ctx;
static handler_fn *watch_fn;
static void *watch_ctx;
static destroy_fn *watch_destroy;

static int fire(int x) { return fire_fn != NULL ? fire_fn(x, fire_ctx) : -1; }
static int notify(int x) { return watch_fn != NULL ? watch_fn(x, watch_ctx) : -1; }

/* fire on another thread, joined: a host that cannot run callbacks
** there must refuse them cleanly. */
static void *fire_thread(void *arg) {
  int *x = (int *)arg;
  *x = fire(*x);
  return NULL;
}

static int fire_in_thread(int x) {
  pthread_t t;
  if (pthread_create(&t, NULL, fire_thread, &x) != 0) return -2;
  pthread_join(t, NULL);
  return x;
}

static void unwatch(void) {
  if (watch_destroy != NULL) watch_destroy(watch_ctx);
  watch_fn = NULL;
  watch_destroy = NULL;
}

static int progress(int steps, progress_fn *p, ready_fn *r, void *ctx) {
  int i;
  for (i = 1; i <= steps; i++) p(i, steps, ctx);
  r(steps * 10, ctx);
  return steps;
}

static int twice(unary_fn *f, int x) { return f(f(x)); }

/* ---- backward wrappers: C calls the host ---------------------------------- */

static int step_back(int acc, int i, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[3], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0)) {
    in[1] = nccc_slot_from_i32(acc);
    in[2] = nccc_slot_from_i32(i);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_i32(out[0]);
}

static double map_back(double x, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[2], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0)) {
    in[1] = nccc_slot_from_double(x);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_double(out[0]);
}

static void visit_back(const char *name, int64_t value, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[3], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0)) {
    in[1] = nccc_slot_from_ptr(name);
    in[2] = nccc_slot_from_i64(value);
    nccc_cb_call(&f, in, out);
  }
}

static int handler_back(int x, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[2], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0)) {
    in[1] = nccc_slot_from_i32(x);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_i32(out[0]);
}

static void progress_back(int done, int total, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[3], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 0)) {
    in[1] = nccc_slot_from_i32(done);
    in[2] = nccc_slot_from_i32(total);
    nccc_cb_call(&f, in, out);
  }
}

static void ready_back(int result, void *ctx) {
  nccc_cb_frame f;
  uint64_t in[2], out[1] = {0};
  if (nccc_cb_begin(&f, ctx, 1)) {
    in[1] = nccc_slot_from_i32(result);
    nccc_cb_call(&f, in, out);
  }
}

/* unary_fn [thunks=2] */
static int lfx_unary_thunk_body(unsigned i, int x);
NCCC_THUNK_DEFINE(lfx_unary, 0, int, (int x), (0, x))
NCCC_THUNK_DEFINE(lfx_unary, 1, int, (int x), (1, x))
static const nccc_thunk_fn unary_thunks[2] = {NCCC_THUNK_ENTRY(lfx_unary, 0),
                                              NCCC_THUNK_ENTRY(lfx_unary, 1)};
NCCC_THUNK_POOL(unary_pool, "unary_fn", 2, unary_thunks);
static int lfx_unary_thunk_body(unsigned i, int x) {
  nccc_cb_frame f;
  uint64_t in[2], out[1] = {0};
  if (nccc_cb_begin_thunk(&f, &unary_pool, i)) {
    in[1] = nccc_slot_from_i32(x);
    nccc_cb_call(&f, in, out);
  }
  return nccc_slot_to_i32(out[0]);
}

/* ---- forward wrappers: the host calls C ----------------------------------- */

/* fold: in n step(ctx); out return */
static void lfx_fold(const uint64_t *in, uint64_t *out) {
  void *ctx = nccc_slot_to_ptr(in[1]);
  NCCC_CB_REQUIRE(ctx, out, 1);
  out[0] = nccc_slot_from_i32(fold(nccc_slot_to_i32(in[0]), step_back, ctx));
  NCCC_CB_END_CALL(ctx);
}

/* map: in x f(ctx); out return */
static void lfx_map(const uint64_t *in, uint64_t *out) {
  void *ctx = nccc_slot_to_ptr(in[1]);
  NCCC_CB_REQUIRE(ctx, out, 1);
  out[0] = nccc_slot_from_double(map(nccc_slot_to_double(in[0]), map_back, ctx));
  NCCC_CB_END_CALL(ctx);
}

/* visit: in f(ctx); out return */
static void lfx_visit(const uint64_t *in, uint64_t *out) {
  void *ctx = nccc_slot_to_ptr(in[0]);
  NCCC_CB_REQUIRE(ctx, out, 1);
  out[0] = nccc_slot_from_i32(visit(visit_back, ctx));
  NCCC_CB_END_CALL(ctx);
}

/* on_fire: in f(ctx); out (the library keeps it: async or forever) */
static void lfx_on_fire(const uint64_t *in, uint64_t *out) {
  void *ctx = nccc_slot_to_ptr(in[0]);
  NCCC_CB_REQUIRE(ctx, out, 0);
  fire_fn = handler_back;
  fire_ctx = ctx;
}

/* fire: in x; out return (-1 when no handler is set) */
static void lfx_fire(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32(fire(nccc_slot_to_i32(in[0])));
}

/* fire_in_thread: in x; out return */
static void lfx_fire_in_thread(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32(fire_in_thread(nccc_slot_to_i32(in[0])));
}

/* watch: in f(ctx); out (notified: the library calls the destroy notify) */
static void lfx_watch(const uint64_t *in, uint64_t *out) {
  void *ctx = nccc_slot_to_ptr(in[0]);
  NCCC_CB_REQUIRE(ctx, out, 0);
  unwatch();
  watch_fn = handler_back;
  watch_ctx = ctx;
  watch_destroy = NCCC_CB_DESTROY;
}

/* notify: in x; out return (-1 when nothing is watched) */
static void lfx_notify(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32(notify(nccc_slot_to_i32(in[0])));
}

/* unwatch: in; out */
static void lfx_unwatch(const uint64_t *in, uint64_t *out) {
  (void)in;
  (void)out;
  unwatch();
}

/* progress: in steps progress+ready(ctx, a group of two); out return */
static void lfx_progress(const uint64_t *in, uint64_t *out) {
  void *ctx = nccc_slot_to_ptr(in[1]);
  NCCC_CB_REQUIRE(ctx, out, 1);
  out[0] = nccc_slot_from_i32(progress(nccc_slot_to_i32(in[0]), progress_back,
                                       ready_back, ctx));
  NCCC_CB_END_CALL(ctx);
}

/* twice: in f(thunk) x; out return */
static void lfx_twice(const uint64_t *in, uint64_t *out) {
  void *ctx = nccc_slot_to_ptr(in[0]);
  unary_fn *f;
  NCCC_CB_THUNK(&unary_pool, ctx, 0, unary_fn *, f, out, 1);
  out[0] = nccc_slot_from_i32(twice(f, nccc_slot_to_i32(in[1])));
  NCCC_CB_END_CALL(ctx);
}

/* ---- module lfx ------------------------------------------------------------- */

#define N0 "fold"
#define N1 "map"
#define N2 "visit"
#define N3 "on_fire"
#define N4 "fire"
#define N5 "watch"
#define N6 "notify"
#define N7 "unwatch"
#define N8 "progress"
#define N9 "twice"
#define OFF0 2u
#define OFF1 (OFF0 + sizeof N0)
#define OFF2 (OFF1 + sizeof N1)
#define OFF3 (OFF2 + sizeof N2)
#define OFF4 (OFF3 + sizeof N3)
#define OFF5 (OFF4 + sizeof N4)
#define OFF6 (OFF5 + sizeof N5)
#define OFF7 (OFF6 + sizeof N6)
#define OFF8 (OFF7 + sizeof N7)
#define N10 "fire_in_thread"
#define OFF9 (OFF8 + sizeof N8)
#define OFF10 (OFF9 + sizeof N9)

NCCC_NAMES_BLOB(lfx_names, 11,
                N0 "\0" N1 "\0" N2 "\0" N3 "\0" N4 "\0" N5 "\0" N6 "\0" N7
                "\0" N8 "\0" N9 "\0" N10 "\0");

static const nccc_fn lfx_funcs[11] = {
    lfx_fold,   lfx_map,     lfx_visit,    lfx_on_fire, lfx_fire,
    lfx_watch,  lfx_notify,  lfx_unwatch,  lfx_progress, lfx_twice,
    lfx_fire_in_thread};

/* Callback signatures (for the host): step "ii:i", map "d:d", visit
** "sl:", handler "i:i", progress "ii:" + ready "i:", unary "i:i". */
static const nccc_fn_info lfx_info[11] = {
    {"ic:i", 2, 1, OFF0}, {"dc:d", 2, 1, OFF1}, {"c:i", 1, 1, OFF2},
    {"c:", 1, 0, OFF3},   {"i:i", 1, 1, OFF4},  {"c:", 1, 0, OFF5},
    {"i:i", 1, 1, OFF6},  {":", 0, 0, OFF7},    {"ic:i", 2, 1, OFF8},
    {"ci:i", 2, 1, OFF9}, {"i:i", 1, 1, OFF10}};

static const nccc_registry lfx_registry = {(const char *)&lfx_names, lfx_funcs,
                                           lfx_info, NULL};

static const nccc_constant lfx_constants[2] = {
    {"EDOM", "i", (uint64_t)(int64_t)EDOM},
    {"ERANGE", "i", (uint64_t)(int64_t)ERANGE}};

static const nccc_module lfx_module = {"lfx", &lfx_registry, NULL, 0, 2,
                                       lfx_constants};

/* ---- the entry point ---------------------------------------------------------- */

static nccc_status add_once(const nccc_module *m) {
  uint16_t index;
  if (nccc_module_find(m->name, &index) == NCCC_OK) return NCCC_OK;
  return nccc_module_add(m, NULL);
}

/* nccc_fixture_open: in; out status. Adds modules tour and lfx (again
** after nccc_init, which drops every module). */
void nccc_fixture_open(const uint64_t *in, uint64_t *out);
void nccc_fixture_open(const uint64_t *in, uint64_t *out) {
  nccc_status st = nccc_ensure_init();
  (void)in;
  if (st == NCCC_OK) st = add_once(&nccc_tour_module);
  if (st == NCCC_OK) st = add_once(&lfx_module);
  out[0] = (uint64_t)st;
}
