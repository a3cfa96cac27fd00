/*
** bench_calls.c — one loop per way of calling each benchmarked function,
** for counting instructions under callgrind (run_calls.sh).
**
**   nccc_bench_calls VARIANT N      runs VARIANT's loop N times
**   nccc_bench_calls --list         prints the variants
**
** VARIANT is FUNCTION.WAY: FUNCTION one of add, mix6, vec3; WAY one of
**   loop     the loop alone, with no call (what every figure includes)
**   direct   the C function called directly
**   wrapper  the generated wrapper called directly on slot buffers
**   handle   the wrapper through the registry: nccc_call(handle, ...)
**   checked  nccc_call_checked(handle, in, n_in, out, n_out)
**   ffi      libffi's ffi_call on a prepared cif
** and the callback variants, cb.WAY: one call of a C loop that calls
** back N times (bench_fold), the callback adding its two arguments:
**   direct   a C function as the callback
**   back     the generated forward wrapper: C calls the generated
**            backward wrapper, which calls a C dispatcher (a host's one
**            nccc function) through a closure
**   thunk    the same for a callback without a context (a thunk pool)
**   ffi      a libffi closure (made at run time) as the callback
** and two hand-written backward wrappers of the generated one's shape,
** the experiment that splits its cost (docs/BENCHMARKS.md):
**   bare     packs the slots and calls the dispatcher with the
**            environment word of a plain struct: no closure, no check
**   errno    the same, saving and restoring errno around the call, as
**            the generated one does
**
** Every loop feeds each call's result into the next call's arguments,
** so no call can be hoisted or dropped, and stores the final value in a
** volatile. Each loop is its own noinline function so callgrind's
** per-function counts and the whole-program difference both isolate it.
*/
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/ffi_forward.h>
#include <nccc/nccc.h>
#include <nccc/shim_callback.h>

#include "bench_nccc.h"
#include "targets.h"

#define NOINLINE __attribute__((noinline))

static volatile uint64_t sink_u;
static volatile double sink_d;

/* Values the compiler cannot fold into the loops. */
static volatile int32_t v_a = 3;
static volatile float v_d = 0.25f;
static volatile uint8_t v_e = 7;
static volatile double v_f = -1.5, v_k = 1.0;

static nccc_handle h_add, h_mix6, h_vec3;
static ffi_cif cif_add, cif_mix6, cif_vec3;
static ffi_type *args_add[2], *args_mix6[6], *args_vec3[2];
static ffi_type *vec3_elements[4];
static ffi_type vec3_type;

/* ---- int64_t add(int64_t, int64_t) ------------------------------------ */

static NOINLINE void add_loop(uint64_t n) {
  int64_t acc = 1;
  uint64_t i;
  for (i = 0; i < n; i++) {
    acc += (int64_t)i;
    __asm__ volatile("" : "+r"(acc));
  }
  sink_u = (uint64_t)acc;
}

static NOINLINE void add_direct(uint64_t n) {
  int64_t acc = 1;
  uint64_t i;
  for (i = 0; i < n; i++) acc = bench_add(acc, (int64_t)i);
  sink_u = (uint64_t)acc;
}

/* The slot-calling variants: one loop each, with CALL on the slots in
** and out (a macro so that each variant stays its own function). */
#define ADD_SLOT_LOOP(NAME, CALL)        \
  static NOINLINE void NAME(uint64_t n) { \
    uint64_t in[2], out[1] = {1};         \
    uint64_t i;                           \
    for (i = 0; i < n; i++) {             \
      in[0] = out[0];                     \
      in[1] = i;                          \
      CALL;                               \
    }                                     \
    sink_u = out[0];                      \
  }

/* The wrapper as one would write it by hand, for comparison with the
** generated one: the same work, so the same count is expected. */
static NOINLINE void hand_add(const uint64_t *in, uint64_t *out) {
  out[0] = (uint64_t)bench_add((int64_t)in[0], (int64_t)in[1]);
}

/* libnccc_ffi's dynamic forwarder for the same function: an nccc_fn made
** at run time from a pointer and "ll:l", calling through ffi_call. */
static nccc_fn fwd_add, fwd_mix6;

ADD_SLOT_LOOP(add_wrapper, nccc_bench_add(in, out))
ADD_SLOT_LOOP(add_hand, hand_add(in, out))
ADD_SLOT_LOOP(add_forward, fwd_add(in, out))
ADD_SLOT_LOOP(add_handle, nccc_call(h_add, in, out))
ADD_SLOT_LOOP(add_checked, nccc_call_checked(h_add, in, 2, out, 1))

static NOINLINE void add_ffi(uint64_t n) {
  int64_t a = 1, b = 0, r = 1;
  void *values[2];
  uint64_t i;
  values[0] = &a;
  values[1] = &b;
  for (i = 0; i < n; i++) {
    a = r;
    b = (int64_t)i;
    ffi_call(&cif_add, FFI_FN(bench_add), &r, values);
  }
  sink_u = (uint64_t)r;
}

/* ---- double mix6(int32_t, double, int64_t, float, uint8_t, double) ----- */

static NOINLINE void mix6_loop(uint64_t n) {
  double acc = 0.5;
  uint64_t i;
  for (i = 0; i < n; i++) {
    acc += (double)(int64_t)i;
    __asm__ volatile("" : "+x"(acc));
  }
  sink_d = acc;
}

static NOINLINE void mix6_direct(uint64_t n) {
  int32_t a = v_a;
  float d = v_d;
  uint8_t e = v_e;
  double f = v_f, acc = 0.5;
  uint64_t i;
  for (i = 0; i < n; i++) acc = bench_mix6(a, acc, (int64_t)i, d, e, f);
  sink_d = acc;
}

#define MIX6_SLOT_LOOP(NAME, CALL)        \
  static NOINLINE void NAME(uint64_t n) {  \
    uint64_t in[6], out[1];                \
    uint64_t i;                            \
    in[0] = nccc_slot_from_i32(v_a);       \
    in[3] = nccc_slot_from_float(v_d);     \
    in[4] = nccc_slot_from_u8(v_e);        \
    in[5] = nccc_slot_from_double(v_f);    \
    out[0] = nccc_slot_from_double(0.5);   \
    for (i = 0; i < n; i++) {              \
      in[1] = out[0];                      \
      in[2] = i;                           \
      CALL;                                \
    }                                      \
    sink_d = nccc_slot_to_double(out[0]);  \
  }

MIX6_SLOT_LOOP(mix6_wrapper, nccc_bench_mix6(in, out))
MIX6_SLOT_LOOP(mix6_forward, fwd_mix6(in, out))
MIX6_SLOT_LOOP(mix6_handle, nccc_call(h_mix6, in, out))
MIX6_SLOT_LOOP(mix6_checked, nccc_call_checked(h_mix6, in, 6, out, 1))

static NOINLINE void mix6_ffi(uint64_t n) {
  int32_t a = v_a;
  float d = v_d;
  uint8_t e = v_e;
  double f = v_f, b = 0.5, r = 0.5;
  int64_t c = 0;
  void *values[6];
  uint64_t i;
  values[0] = &a;
  values[1] = &b;
  values[2] = &c;
  values[3] = &d;
  values[4] = &e;
  values[5] = &f;
  for (i = 0; i < n; i++) {
    b = r;
    c = (int64_t)i;
    ffi_call(&cif_mix6, FFI_FN(bench_mix6), &r, values);
  }
  sink_d = r;
}

/* ---- bench_vec3 vec3_scale(bench_vec3, double) -------------------------- */

static NOINLINE void vec3_loop(uint64_t n) {
  bench_vec3 v = {1.0, 2.0, 3.0};
  uint64_t i;
  for (i = 0; i < n; i++) {
    v.x += (double)(int64_t)i;
    __asm__ volatile("" : "+x"(v.x), "+x"(v.y), "+x"(v.z));
  }
  sink_d = v.x + v.y + v.z;
}

static NOINLINE void vec3_direct(uint64_t n) {
  bench_vec3 v = {1.0, 2.0, 3.0};
  double k = v_k;
  uint64_t i;
  for (i = 0; i < n; i++) v = bench_vec3_scale(v, k);
  sink_d = v.x + v.y + v.z;
}

/* The result slots are the next call's argument slots. */
#define VEC3_SLOT_LOOP(NAME, CALL)                 \
  static NOINLINE void NAME(uint64_t n) {           \
    bench_vec3 v = {1.0, 2.0, 3.0};                 \
    uint64_t in[4], out[3];                         \
    uint64_t i;                                     \
    nccc_slots_from_bytes(out, &v, sizeof v);       \
    in[3] = nccc_slot_from_double(v_k);             \
    for (i = 0; i < n; i++) {                       \
      memcpy(in, out, sizeof out);                  \
      CALL;                                         \
    }                                               \
    nccc_slots_to_bytes(&v, out, sizeof v);         \
    sink_d = v.x + v.y + v.z;                       \
  }

VEC3_SLOT_LOOP(vec3_wrapper, nccc_bench_vec3_scale(in, out))
VEC3_SLOT_LOOP(vec3_handle, nccc_call(h_vec3, in, out))
VEC3_SLOT_LOOP(vec3_checked, nccc_call_checked(h_vec3, in, 4, out, 3))

static NOINLINE void vec3_ffi(uint64_t n) {
  bench_vec3 v = {1.0, 2.0, 3.0}, r = {1.0, 2.0, 3.0};
  double k = v_k;
  void *values[2];
  uint64_t i;
  values[0] = &v;
  values[1] = &k;
  for (i = 0; i < n; i++) {
    v = r;
    ffi_call(&cif_vec3, FFI_FN(bench_vec3_scale), &r, values);
  }
  sink_d = r.x + r.y + r.z;
}

/* ---- callbacks: acc = fn(acc, i) in a C loop ------------------------------- */

static int64_t c_step(int64_t acc, int64_t i, void *ctx) {
  (void)ctx;
  return acc + i;
}

static NOINLINE void cb_direct(uint64_t n) {
  sink_u = (uint64_t)bench_fold((int64_t)n, c_step, NULL);
}

/* A host's side in C: one dispatcher for every callback, procedures in a
** table indexed by the environment word. */
typedef void (*host_proc)(const uint64_t *args, uint64_t *results);
static void proc_step(const uint64_t *args, uint64_t *results) {
  results[0] = args[0] + args[1];
}
static host_proc host_table[1] = {proc_step};
static void host_dispatch(const uint64_t *in, uint64_t *out) {
  if (out != NULL) host_table[in[0]](in + 1, out);
}

/* A closure of step_fn and step_nc_fn, whose signature is "ll:l". */
static void *claim_forever(void) {
  void *ctx = NULL;
  if (nccc_closure_claim_typed(host_dispatch, 0, NCCC_SCOPE_FOREVER, "ll:l", &ctx) !=
      NCCC_OK) {
    fprintf(stderr, "nccc_bench_calls: closure_claim: %s\n", nccc_last_error());
    exit(1);
  }
  return ctx;
}

static NOINLINE void cb_back(uint64_t n) {
  uint64_t in[2], out[1];
  in[0] = n;
  in[1] = nccc_slot_from_ptr(claim_forever());
  nccc_bench_fold(in, out);
  sink_u = out[0];
}

static NOINLINE void cb_thunk(uint64_t n) {
  uint64_t in[2], out[1];
  in[0] = n;
  in[1] = nccc_slot_from_ptr(claim_forever());
  nccc_bench_fold_nc(in, out);
  sink_u = out[0];
}

/* The experiment: what the generated backward wrapper costs without
** the closure's lookup and checks (bare), then with errno kept (errno). */
typedef struct plain_closure {
  nccc_fn target;
  uint64_t env;
} plain_closure;
static const plain_closure plain = {host_dispatch, 0};

static int64_t bare_back(int64_t acc, int64_t i, void *ctx) {
  const plain_closure *c = (const plain_closure *)ctx;
  uint64_t in[3], out[1] = {0};
  in[0] = c->env;
  in[1] = nccc_slot_from_i64(acc);
  in[2] = nccc_slot_from_i64(i);
  c->target(in, out);
  return nccc_slot_to_i64(out[0]);
}

/* bare_back inlined between errno's save and restore. */
static int64_t errno_back(int64_t acc, int64_t i, void *ctx) {
  nccc_cb_errno saved = nccc_cb_errno_save();
  int64_t r = bare_back(acc, i, ctx);
  nccc_cb_errno_restore(saved);
  return r;
}

static NOINLINE void cb_bare(uint64_t n) {
  sink_u = (uint64_t)bench_fold((int64_t)n, bare_back, (void *)&plain);
}

static NOINLINE void cb_errno(uint64_t n) {
  sink_u = (uint64_t)bench_fold((int64_t)n, errno_back, (void *)&plain);
}

static void ffi_step(ffi_cif *cif, void *ret, void **args, void *user) {
  (void)cif;
  (void)user;
  *(int64_t *)ret = *(const int64_t *)args[0] + *(const int64_t *)args[1];
}

static NOINLINE void cb_ffi(uint64_t n) {
  static ffi_cif cif;
  static ffi_type *args[3] = {&ffi_type_sint64, &ffi_type_sint64, &ffi_type_pointer};
  void *code = NULL;
  ffi_closure *cl = ffi_closure_alloc(sizeof(ffi_closure), &code);
  if (cl == NULL ||
      ffi_prep_cif(&cif, FFI_DEFAULT_ABI, 3, &ffi_type_sint64, args) != FFI_OK ||
      ffi_prep_closure_loc(cl, &cif, ffi_step, NULL, code) != FFI_OK) {
    fprintf(stderr, "nccc_bench_calls: libffi closure failed\n");
    exit(1);
  }
  sink_u = (uint64_t)bench_fold((int64_t)n,
                                (int64_t (*)(int64_t, int64_t, void *))code, NULL);
  ffi_closure_free(cl);
}

/* ---- driver ---------------------------------------------------------------- */

static const struct {
  const char *name;
  void (*run)(uint64_t);
} variants[] = {
  {"add.loop", add_loop},       {"add.direct", add_direct},
  {"add.wrapper", add_wrapper}, {"add.handle", add_handle},
  {"add.checked", add_checked}, {"add.ffi", add_ffi},
  {"add.hand", add_hand},       {"add.forward", add_forward},
  {"mix6.forward", mix6_forward},
  {"mix6.loop", mix6_loop},       {"mix6.direct", mix6_direct},
  {"mix6.wrapper", mix6_wrapper}, {"mix6.handle", mix6_handle},
  {"mix6.checked", mix6_checked}, {"mix6.ffi", mix6_ffi},
  {"vec3.loop", vec3_loop},       {"vec3.direct", vec3_direct},
  {"vec3.wrapper", vec3_wrapper}, {"vec3.handle", vec3_handle},
  {"vec3.checked", vec3_checked}, {"vec3.ffi", vec3_ffi},
  {"cb.direct", cb_direct}, {"cb.back", cb_back},
  {"cb.thunk", cb_thunk},   {"cb.ffi", cb_ffi},
  {"cb.bare", cb_bare},     {"cb.errno", cb_errno},
};

static void setup(void) {
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_bench_register() != NCCC_OK ||
      nccc_lookup("bench.add", &h_add) != NCCC_OK ||
      nccc_lookup("bench.mix6", &h_mix6) != NCCC_OK ||
      nccc_lookup("bench.vec3_scale", &h_vec3) != NCCC_OK) {
    fprintf(stderr, "nccc_bench_calls: runtime set-up: %s\n", nccc_last_error());
    exit(1);
  }
  args_add[0] = args_add[1] = &ffi_type_sint64;
  args_mix6[0] = &ffi_type_sint32;
  args_mix6[1] = &ffi_type_double;
  args_mix6[2] = &ffi_type_sint64;
  args_mix6[3] = &ffi_type_float;
  args_mix6[4] = &ffi_type_uint8;
  args_mix6[5] = &ffi_type_double;
  vec3_elements[0] = vec3_elements[1] = vec3_elements[2] = &ffi_type_double;
  vec3_elements[3] = NULL;
  vec3_type.size = 0;
  vec3_type.alignment = 0;
  vec3_type.type = FFI_TYPE_STRUCT;
  vec3_type.elements = vec3_elements;
  args_vec3[0] = &vec3_type;
  args_vec3[1] = &ffi_type_double;
  if (ffi_prep_cif(&cif_add, FFI_DEFAULT_ABI, 2, &ffi_type_sint64, args_add) != FFI_OK ||
      ffi_prep_cif(&cif_mix6, FFI_DEFAULT_ABI, 6, &ffi_type_double, args_mix6) != FFI_OK ||
      ffi_prep_cif(&cif_vec3, FFI_DEFAULT_ABI, 2, &vec3_type, args_vec3) != FFI_OK ||
      vec3_type.size != sizeof(bench_vec3)) {
    fprintf(stderr, "nccc_bench_calls: ffi_prep_cif failed\n");
    exit(1);
  }
  if (nccc_ffi_create((nccc_ffi_target)bench_add, "ll:l", &fwd_add) != NCCC_OK ||
      nccc_ffi_create((nccc_ffi_target)bench_mix6, "idlfBd:d", &fwd_mix6) !=
          NCCC_OK) {
    fprintf(stderr, "nccc_bench_calls: forwarder: %s\n", nccc_last_error());
    exit(1);
  }
}

int main(int argc, char **argv) {
  size_t i;
  char *end;
  unsigned long long n;
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
      printf("%s\n", variants[i].name);
    }
    return 0;
  }
  if (argc != 3) {
    fprintf(stderr, "usage: %s VARIANT N | --list\n", argv[0]);
    return 2;
  }
  n = strtoull(argv[2], &end, 10);
  if (*argv[2] == '\0' || *end != '\0') {
    fprintf(stderr, "nccc_bench_calls: bad iteration count '%s'\n", argv[2]);
    return 2;
  }
  for (i = 0; i < sizeof variants / sizeof variants[0]; i++) {
    if (strcmp(argv[1], variants[i].name) == 0) {
      setup();
      variants[i].run((uint64_t)n);
      /* a callback variant that did not call back would measure nothing */
      if (strncmp(argv[1], "cb.", 3) == 0 && sink_u != (uint64_t)(n * (n - (n > 0)) / 2)) {
        fprintf(stderr, "nccc_bench_calls: %s computed %llu\n", argv[1],
                (unsigned long long)sink_u);
        return 1;
      }
      return 0;
    }
  }
  fprintf(stderr, "nccc_bench_calls: unknown variant '%s' (try --list)\n", argv[1]);
  return 2;
}
