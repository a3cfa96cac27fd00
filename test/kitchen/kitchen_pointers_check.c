/*
** kitchen_pointers_check.c — the pointers of tour.idl and edges.idl
** (strings, arrays, ownership, [nonnull] refused before C) and its shims
** (errno, function pointers, variadic instantiations), through the
** runtime.
*/
#include "kitchen.h"

/* ---- pointers: strings, arrays, ownership, nullability ------------------------- */

START_TEST(test_pointers) {
  static const int xs[] = {1, 2, 3, 4}, extremes[] = {INT_MAX, INT_MIN};
  static const double a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
  static const double z[3] = {-0.0, 0, 0}, e1[3] = {1, 0, 0};
  static const char *const argv[] = {"a", "b", "c", NULL}, *const none[] = {NULL};
  uint64_t in[2], out[1], counter;

  in[0] = nccc_slot_from_ptr("hello");
  call("tour.text_length", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 5);
  in[0] = nccc_slot_from_ptr("");
  call("tour.text_length", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);

  in[0] = nccc_slot_from_ptr(xs);
  in[1] = 4;
  call("tour.sum_ints", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 10);
  in[0] = 0; /* [length=n] with n 0: no element is read */
  in[1] = 0;
  call("tour.sum_ints", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  in[0] = nccc_slot_from_ptr(extremes);
  in[1] = 2;
  call("tour.sum_ints", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);

  in[0] = nccc_slot_from_ptr(a);
  in[1] = nccc_slot_from_ptr(b);
  call("tour.dot3", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0x4040000000000000u); /* 32.0 */
  in[0] = nccc_slot_from_ptr(z);
  in[1] = nccc_slot_from_ptr(e1);
  call("tour.dot3", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0); /* -0 + 0 + 0 = +0 */

  in[0] = nccc_slot_from_ptr(argv);
  call("tour.count_args", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 3);
  in[0] = nccc_slot_from_ptr(none);
  call("tour.count_args", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);

  /* [nullable] a, [owned(release)] result */
  in[0] = 0;
  in[1] = nccc_slot_from_ptr("tail");
  call("tour.join", in, 2, out, 1);
  expect_string(out[0], "tail");
  in[0] = out[0];
  call("tour.release", in, 1, out, 0);
  in[0] = nccc_slot_from_ptr("head-");
  in[1] = nccc_slot_from_ptr("tail");
  call("tour.join", in, 2, out, 1);
  expect_string(out[0], "head-tail");
  in[0] = out[0];
  call("tour.release", in, 1, out, 0);
  in[0] = 0;
  call("tour.release", in, 1, out, 0); /* [nullable] */
  /* [nonnull] b: NULL is refused by the wrapper, join does not run */
  in[0] = nccc_slot_from_ptr("head-");
  in[1] = 0;
  call("tour.join", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  ck_assert_str_eq(nccc_last_error(), "tour.join: b is NULL ([nonnull])");

  /* an opaque handle, owned */
  in[0] = nccc_slot_from_i32(-1);
  call("tour.counter_new", in, 1, out, 1);
  ck_assert_uint_ne(out[0], 0);
  counter = out[0];
  in[0] = counter;
  call("tour.counter_next", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);
  call("tour.counter_next", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 0);
  call("tour.counter_next", in, 1, out, 1);
  ck_assert_uint_eq(out[0], 1);
  call("tour.counter_free", in, 1, out, 0);
}
END_TEST

/* The number of calls of nonnull_sum that reached C. */
static int32_t nonnull_calls(void) {
  uint64_t out[1];
  call("edges.nonnull_calls", NULL, 0, out, 1);
  return nccc_slot_to_i32(out[0]);
}

START_TEST(test_nonnull_refused_before_c) {
  static const int32_t p = 40, q = 2;
  uint64_t in[4], good[4], out[4];
  int32_t before;
  size_t i, k;
  good[0] = nccc_slot_from_ptr("four");
  good[1] = nccc_slot_from_ptr(&p);
  good[2] = nccc_slot_from_ptr(&q);
  good[3] = nccc_slot_from_ptr("xy");

  /* all given: C runs */
  before = nonnull_calls();
  call("edges.nonnull_sum", good, 4, out, 4);
  ck_assert_int_eq(nonnull_calls(), before + 1);
  ck_assert_uint_eq(out[0], 42);
  expect_string(out[1], "y");
  ck_assert_uint_eq(out[2], 4);
  ck_assert_uint_eq(out[3], nccc_slot_from_i32(EDOM));

  /* q is not [nonnull]: NULL reaches C */
  memcpy(in, good, sizeof in);
  in[2] = 0;
  call("edges.nonnull_sum", in, 4, out, 4);
  ck_assert_int_eq(nonnull_calls(), before + 2);
  ck_assert_uint_eq(out[0], 140);

  /* NULL in each [nonnull] slot (s, p and the [inout] word): refused
  ** before C (nonnull_sum would dereference it), out[] zeroed, errno
  ** slot included, the last error naming function and parameter */
  for (k = 0; k < 4; k++) {
    static const char *const msgs[4] = {
        "edges.nonnull_sum: s is NULL ([nonnull])",
        "edges.nonnull_sum: p is NULL ([nonnull])", NULL,
        "edges.nonnull_sum: word is NULL ([nonnull])"};
    if (msgs[k] == NULL) continue;
    memcpy(in, good, sizeof in);
    in[k] = 0;
    nccc_clear_error();
    call("edges.nonnull_sum", in, 4, out, 4);
    for (i = 0; i < 4; i++) ck_assert_uint_eq(out[i], 0);
    ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
    ck_assert_str_eq(nccc_last_error(), msgs[k]);
  }
  ck_assert_int_eq(nonnull_calls(), before + 2);

  /* all NULL: the first [nonnull] slot is named */
  memset(in, 0, sizeof in);
  call("edges.nonnull_sum", in, 4, out, 4);
  ck_assert_str_eq(nccc_last_error(), "edges.nonnull_sum: s is NULL ([nonnull])");
  ck_assert_int_eq(nonnull_calls(), before + 2);

  /* a refusal leaves nothing behind: the next good call runs */
  call("edges.nonnull_sum", good, 4, out, 4);
  ck_assert_int_eq(nonnull_calls(), before + 3);
  ck_assert_uint_eq(out[0], 42);
}
END_TEST

/* The host side of visit_fn: out[0] = env + 2 * v. */
static void visit_target(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32((int32_t)in[0] + 2 * nccc_slot_to_i32(in[1]));
}

START_TEST(test_nonnull_refusal_releases_call_closures) {
  static const int32_t v = 20;
  uint64_t in[2], out[1];
  void *ctx = NULL;
  int32_t before = nonnull_calls();

  /* a finished call releases its CALL closure */
  ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_CALL, "i:i", &ctx),
                   NCCC_OK);
  in[0] = nccc_slot_from_ptr(&v);
  in[1] = nccc_slot_from_ptr(ctx);
  call("edges.nonnull_visit", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_int_eq(nonnull_calls(), before + 1);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);

  /* so does a refused one, and C never runs */
  ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_CALL, "i:i", &ctx),
                   NCCC_OK);
  in[0] = 0;
  in[1] = nccc_slot_from_ptr(ctx);
  call("edges.nonnull_visit", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  ck_assert_str_eq(nccc_last_error(), "edges.nonnull_visit: v is NULL ([nonnull])");
  ck_assert_int_eq(nonnull_calls(), before + 1);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);

  /* a FOREVER closure stays */
  ck_assert_int_eq(
      nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_FOREVER, "i:i", &ctx), NCCC_OK);
  in[1] = nccc_slot_from_ptr(ctx);
  call("edges.nonnull_visit", in, 2, out, 1);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_OK);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
}
END_TEST

/* A closure slot without a live closure refuses the call before C runs,
** and the refused call releases the CALL closure of the other slot, as
** a call that ran does (docs/CALLBACKS.md, "Refused calls"). */
START_TEST(test_stale_closure_refusal_releases_the_others) {
  uint64_t in[2], out[1];
  void *live = NULL, *gone = NULL;
  int32_t before = nonnull_calls();
  int k;

  /* both live: C runs, both are released when it returns */
  ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_CALL, "i:i", &live),
                   NCCC_OK);
  ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 3, NCCC_SCOPE_CALL, "i:i", &gone),
                   NCCC_OK);
  in[0] = nccc_slot_from_ptr(live);
  in[1] = nccc_slot_from_ptr(gone);
  call("edges.visit_both", in, 2, out, 1);
  ck_assert_uint_eq(out[0], (2 + 2 * 1) + (3 + 2 * 10));
  ck_assert_int_eq(nonnull_calls(), before + 1);
  ck_assert_int_eq(nccc_closure_check(live), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(nccc_closure_check(gone), NCCC_ERR_STALE_CLOSURE);

  /* the stale one in either slot: refused, the live one released */
  for (k = 0; k < 2; k++) {
    ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_CALL, "i:i", &live),
                     NCCC_OK);
    in[k] = nccc_slot_from_ptr(live);
    in[1 - k] = nccc_slot_from_ptr(gone);
    out[0] = 7;
    call("edges.visit_both", in, 2, out, 1);
    ck_assert_uint_eq(out[0], 0);
    ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
    ck_assert_int_eq(nonnull_calls(), before + 1);
    ck_assert_int_eq(nccc_closure_check(live), NCCC_ERR_STALE_CLOSURE);
  }

  /* a FOREVER closure beside the stale one stays */
  ck_assert_int_eq(nccc_closure_claim_typed(visit_target, 2, NCCC_SCOPE_FOREVER, "i:i", &live),
                   NCCC_OK);
  in[0] = nccc_slot_from_ptr(live);
  in[1] = nccc_slot_from_ptr(gone);
  call("edges.visit_both", in, 2, out, 1);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(nccc_closure_check(live), NCCC_OK);
  ck_assert_int_eq(nccc_closure_release(live), NCCC_OK);
}
END_TEST

/* ---- shims -------------------------------------------------------------------- */

START_TEST(test_errno_shim) {
  uint64_t in[2], out[2];

  in[0] = nccc_slot_from_i32(7);
  in[1] = nccc_slot_from_i32(0);
  call("tour.checked_div", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(EDOM));
  in[0] = nccc_slot_from_i32(-7);
  in[1] = nccc_slot_from_i32(2);
  call("tour.checked_div", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xfffffffffffffffdu);
  ck_assert_uint_eq(out[1], 0);

  /* parse_long ([errno] by default) lets strtol alone touch errno, and
  ** strtol leaves it alone on success: the 123 call() puts there must
  ** have been cleared by the shim */
  in[0] = nccc_slot_from_ptr("123");
  in[1] = nccc_slot_from_i32(10);
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 123);
  ck_assert_uint_eq(out[1], 0);
  in[0] = nccc_slot_from_ptr("-ff");
  in[1] = nccc_slot_from_i32(16);
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], 0xffffffffffffff01u);
  ck_assert_uint_eq(out[1], 0);
  in[0] = nccc_slot_from_ptr("99999999999999999999");
  in[1] = nccc_slot_from_i32(10);
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(LONG_MAX));
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(ERANGE));
  in[0] = nccc_slot_from_ptr("-99999999999999999999");
  call("tour.parse_long", in, 2, out, 2);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(LONG_MIN));
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(ERANGE));

  /* a function that never touches errno reports 0, not the 123 before */
  in[0] = nccc_slot_from_i32(41);
  call("edges.leave_errno", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 42);
  ck_assert_uint_eq(out[1], 0);
  /* errno is an int slot like any other: sign-extended */
  in[0] = nccc_slot_from_i32(-5);
  call("edges.raise_errno", in, 1, out, 2);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);
  ck_assert_uint_eq(out[1], 0xfffffffffffffffbu);
  in[0] = nccc_slot_from_i32(EINVAL);
  call("edges.raise_errno", in, 1, out, 2);
  ck_assert_uint_eq(out[1], nccc_slot_from_i32(EINVAL));
}
END_TEST

static long triple_it(long x) { return 3 * x; }
static int op_sub(int a, int b) { return a - b; }

START_TEST(test_function_pointer_shim) {
  uint64_t in[3], out[1];

  /* in[0] is the target, the arguments follow */
  in[0] = (uint64_t)(uintptr_t)negate_impl;
  in[1] = nccc_slot_from_i64(42);
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffd6u);
  in[1] = nccc_slot_from_i64(LONG_MIN + 1);
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], nccc_slot_from_i64(LONG_MAX));
  in[1] = 0;
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  /* another target, same wrapper */
  in[0] = (uint64_t)(uintptr_t)triple_it;
  in[1] = nccc_slot_from_i64(-5);
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0xfffffffffffffff1u);
  /* a NULL target is not called: out zeroed, NCCC_ERR_NULL_POINTER */
  nccc_clear_error();
  in[0] = 0;
  call("tour.negate", in, 2, out, 1);
  ck_assert_uint_eq(out[0], 0);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NULL_POINTER);
}
END_TEST

START_TEST(test_function_pointer_values) {
  uint64_t in[3], out[1], op;
  binop f;

  in[0] = nccc_slot_from_i64('*');
  call("tour.pick_op", in, 1, out, 1);
  op = out[0];
  ck_assert_uint_ne(op, 0);
  f = (binop)(uintptr_t)op;
  ck_assert_int_eq(f(6, 7), 42);
  in[0] = op;
  in[1] = nccc_slot_from_i32(6);
  in[2] = nccc_slot_from_i32(7);
  call("tour.apply", in, 3, out, 1);
  ck_assert_uint_eq(out[0], 42);

  in[0] = nccc_slot_from_i64('+');
  call("tour.pick_op", in, 1, out, 1);
  ck_assert_uint_ne(out[0], op);
  in[0] = out[0];
  call("tour.apply", in, 3, out, 1);
  ck_assert_uint_eq(out[0], 13);

  in[0] = (uint64_t)(uintptr_t)op_sub;
  call("tour.apply", in, 3, out, 1);
  ck_assert_uint_eq(out[0], 0xffffffffffffffffu);
}
END_TEST

START_TEST(test_variadic_instantiations) {
  char buf[64];
  uint64_t in[5], out[1];

  memset(buf, 'X', sizeof buf);
  in[0] = nccc_slot_from_ptr(buf);
  in[1] = sizeof buf;
  in[2] = nccc_slot_from_ptr("<%d>");
  in[3] = nccc_slot_from_i32(-12);
  call("tour.format_int", in, 4, out, 1);
  ck_assert_uint_eq(out[0], 5);
  ck_assert_str_eq(buf, "<-12>");
  in[2] = nccc_slot_from_ptr("%d");
  in[3] = nccc_slot_from_i32(INT_MIN);
  call("tour.format_int", in, 4, out, 1);
  ck_assert_uint_eq(out[0], 11);
  ck_assert_str_eq(buf, "-2147483648");
  /* truncated: the full length comes back */
  memset(buf, 'X', sizeof buf);
  in[1] = 3;
  in[3] = nccc_slot_from_i32(12345);
  call("tour.format_int", in, 4, out, 1);
  ck_assert_uint_eq(out[0], 5);
  ck_assert_str_eq(buf, "12");
  ck_assert_int_eq(buf[3], 'X');

  /* the float argument is promoted to double, exactly */
  in[1] = sizeof buf;
  in[2] = nccc_slot_from_ptr("%.2f %.1f");
  in[3] = nccc_slot_from_double(2.5);
  in[4] = nccc_slot_from_float(0.5f);
  call("tour.format_double", in, 5, out, 1);
  ck_assert_uint_eq(out[0], 8);
  ck_assert_str_eq(buf, "2.50 0.5");
  in[2] = nccc_slot_from_ptr("%g %a");
  in[3] = nccc_slot_from_double(-0.0);
  in[4] = nccc_slot_from_float(FLT_TRUE_MIN);
  call("tour.format_double", in, 5, out, 1);
#ifdef _WIN32 /* the C library of Windows spells %a with every hex digit */
  ck_assert_str_eq(buf, "-0 0x1.0000000000000p-149");
  ck_assert_uint_eq(out[0], 25);
#else
  ck_assert_str_eq(buf, "-0 0x1p-149");
  ck_assert_uint_eq(out[0], 11);
#endif
}
END_TEST


Suite *nccc_check_suite(void) {
  Suite *s = suite_create("kitchen pointers");
  nccc_check_tcase(s, "pointers", setup, NULL,
      NCCC_CHECK_TESTS(test_pointers, test_nonnull_refused_before_c,
                       test_nonnull_refusal_releases_call_closures,
                       test_stale_closure_refusal_releases_the_others));
  nccc_check_tcase(s, "shims", setup, NULL,
                   NCCC_CHECK_TESTS(test_errno_shim, test_function_pointer_shim,
                                    test_function_pointer_values,
                                    test_variadic_instantiations));
  return s;
}
