/*
** sqlite3_check.c — idl/sqlite3.idl end to end, everything through the
** registry: an in-memory database opened and closed, sqlite3_exec with a
** host row callback collecting rows (and aborting, and nesting another
** exec), a scalar SQL function implemented by a host procedure with its
** user data and a destroy notify that releases the closure when the
** connection closes, prepared statements, and error messages.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nccc/nccc.h>
#include <sqlite3.h>

#include "sqlite3_nccc.h"
#include "nccc_check.h"

#define S(p) nccc_slot_from_ptr(p)
#define SENTINEL 0xA5A5A5A5A5A5A5A5u

/* ---- a host: one dispatcher, procedures in a table ---------------------- */

typedef void (*proc)(const uint64_t *args, uint64_t *results, void *data);

static struct {
  proc fn;
  void *data;
  int calls;
  int notices;
} procs[64];
static int n_procs, protocol_errors;

static void dispatch(const uint64_t *in, uint64_t *out) {
  uint64_t env = in[0];
  if (env >= (uint64_t)n_procs || procs[env].notices != 0) {
    protocol_errors++;
    return;
  }
  if (out == NULL) {
    procs[env].notices++;
    return;
  }
  procs[env].calls++;
  procs[env].fn(in + 1, out, procs[env].data);
}

static void *claim(const char *sig, proc fn, void *data, unsigned scope, uint64_t *env) {
  void *ctx = NULL;
  ck_assert_int_lt(n_procs, 64);
  procs[n_procs].fn = fn;
  procs[n_procs].data = data;
  procs[n_procs].calls = procs[n_procs].notices = 0;
  ck_assert_int_eq(nccc_closure_claim_typed(dispatch, (uint64_t)n_procs,
                                            scope | NCCC_CLOSURE_NOTIFY, sig, &ctx),
                   NCCC_OK);
  if (env != NULL) *env = (uint64_t)n_procs;
  n_procs++;
  return ctx;
}

static void setup(void) {
  nccc_check_init(nccc_sqlite3_register);
  n_procs = protocol_errors = 0;
}

static void teardown(void) {
  ck_assert_int_eq(protocol_errors, 0);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}

/* Calls sqlite3.NAME with its exact slot counts; out gets n_out slots. */
static uint64_t out[4];
static void call(const char *name, const uint64_t *in) {
  char full[64];
  nccc_handle h;
  const nccc_fn_info *info;
  snprintf(full, sizeof full, "sqlite3.%s", name);
  ck_assert_msg(nccc_lookup(full, &h) == NCCC_OK, "lookup %s", full);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_uint_le(info->n_out, 4);
  for (int i = 0; i < 4; i++) out[i] = SENTINEL;
  ck_assert_msg(nccc_call_checked(h, in, info->n_in, out, info->n_out) == NCCC_OK,
                "%s: %s", full, nccc_last_error());
}

static int32_t call_i(const char *name, const uint64_t *in) {
  call(name, in);
  return nccc_slot_to_i32(out[0]);
}

static const char *sig(const char *name) {
  char full[64];
  nccc_handle h;
  const nccc_fn_info *info;
  snprintf(full, sizeof full, "sqlite3.%s", name);
  ck_assert_int_eq(nccc_lookup(full, &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  return info->signature;
}

/* Opens ":memory:" through the registry; the connection is the caller's. */
static sqlite3 *open_memory(void) {
  uint64_t in[1] = {S(":memory:")};
  ck_assert_int_eq(call_i("sqlite3_open", in), SQLITE_OK);
  ck_assert_uint_ne(out[1], 0);
  return nccc_slot_to_ptr(out[1]);
}

static void close_db(sqlite3 *db) {
  uint64_t in[1] = {S(db)};
  ck_assert_int_eq(call_i("sqlite3_close", in), SQLITE_OK);
}

/* sqlite3_exec without a callback; returns the result code. */
static int exec(sqlite3 *db, const char *sql) {
  uint64_t in[3] = {S(db), S(sql), 0};
  int rc = call_i("sqlite3_exec", in);
  if (out[1] != 0) {
    uint64_t f[1] = {out[1]};
    call("sqlite3_free", f);
  }
  return rc;
}

static void fill_table(sqlite3 *db) {
  ck_assert_int_eq(exec(db, "CREATE TABLE fruit(id INTEGER PRIMARY KEY, "
                            "name TEXT, price REAL);"
                            "INSERT INTO fruit(name, price) VALUES "
                            "('apple', 1.25), ('banana', 0.5), "
                            "('cherry', 4.0), ('date', NULL);"),
                   SQLITE_OK);
}

/* ---- connections ------------------------------------------------------------- */

START_TEST(test_open_close_and_signatures) {
  sqlite3 *db;
  uint64_t in[1];
  call("sqlite3_libversion", NULL);
  ck_assert_str_eq(nccc_slot_to_ptr(out[0]), sqlite3_libversion());
  db = open_memory();
  ck_assert_int_eq(sqlite3_get_autocommit(db), 1); /* a real connection */
  in[0] = S(db);
  ck_assert_int_eq(call_i("sqlite3_errcode", in), SQLITE_OK);
  close_db(db);
  ck_assert_str_eq(sig("sqlite3_open"), "s:ip");
  ck_assert_str_eq(sig("sqlite3_exec"), "psc:is");
  ck_assert_str_eq(sig("sqlite3_create_function_v2"), "psiicFF:i");
  ck_assert_str_eq(sig("sqlite3_prepare_v2"), "psi:ips");
  /* the registry's constants come from the header */
  {
    const nccc_module *m = &nccc_sqlite3_module;
    int found = 0;
    for (unsigned i = 0; i < m->n_constants; i++) {
      if (strcmp(m->constants[i].name, "SQLITE_ROW") == 0) {
        ck_assert_int_eq(nccc_slot_to_i32(m->constants[i].value), SQLITE_ROW);
        found = 1;
      }
    }
    ck_assert_int_eq(found, 1);
  }
}
END_TEST

/* ---- sqlite3_exec with a row callback ------------------------------------------ */

struct rows {
  int n;
  char text[512];
};

/* exec_fn: args = ncols, values, names; data = struct rows */
static void proc_collect(const uint64_t *args, uint64_t *results, void *data) {
  struct rows *r = data;
  int ncols = nccc_slot_to_i32(args[0]);
  char **values = nccc_slot_to_ptr(args[1]);
  char **names = nccc_slot_to_ptr(args[2]);
  size_t len = strlen(r->text);
  for (int i = 0; i < ncols; i++) {
    len += (size_t)snprintf(r->text + len, sizeof r->text - len, "%s=%s%s",
                            names[i], values[i] ? values[i] : "NULL",
                            i + 1 < ncols ? "," : ";");
  }
  r->n++;
  results[0] = nccc_slot_from_i32(0);
}

START_TEST(test_exec_collects_rows) {
  sqlite3 *db = open_memory();
  struct rows r = {0, ""};
  uint64_t env, in[3];
  fill_table(db);
  in[0] = S(db);
  in[1] = S("SELECT name, price FROM fruit ORDER BY id");
  in[2] = S(claim("ipp:i", proc_collect, &r, NCCC_SCOPE_CALL, &env));
  ck_assert_int_eq(call_i("sqlite3_exec", in), SQLITE_OK);
  ck_assert_uint_eq(out[1], 0); /* no error message */
  ck_assert_int_eq(r.n, 4);
  ck_assert_str_eq(r.text, "name=apple,price=1.25;name=banana,price=0.5;"
                           "name=cherry,price=4.0;name=date,price=NULL;");
  ck_assert_int_eq(procs[env].calls, 4);
  ck_assert_int_eq(procs[env].notices, 1); /* CALL scope: released */
  close_db(db);
}
END_TEST

/* Stops after two rows: the statement is aborted. */
static void proc_two_rows(const uint64_t *args, uint64_t *results, void *data) {
  (void)args;
  results[0] = nccc_slot_from_i32(++*(int *)data >= 2 ? 1 : 0);
}

START_TEST(test_exec_callback_aborts) {
  sqlite3 *db = open_memory();
  int seen = 0;
  uint64_t in[3];
  fill_table(db);
  in[0] = S(db);
  in[1] = S("SELECT * FROM fruit");
  in[2] = S(claim("ipp:i", proc_two_rows, &seen, NCCC_SCOPE_CALL, NULL));
  ck_assert_int_eq(call_i("sqlite3_exec", in), SQLITE_ABORT);
  ck_assert_int_eq(seen, 2);
  ck_assert_uint_ne(out[1], 0); /* "query aborted", owned by us */
  ck_assert_str_eq(nccc_slot_to_ptr(out[1]), "query aborted");
  in[0] = out[1];
  call("sqlite3_free", in);
  close_db(db);
}
END_TEST

/* For each row of the outer query, an inner sqlite3_exec on the same
** connection through the registry, with its own closure (reentrancy). */
static sqlite3 *nest_db;
static void proc_nested(const uint64_t *args, uint64_t *results, void *data) {
  struct rows *r = data;
  const char *name = ((char **)nccc_slot_to_ptr(args[1]))[0];
  char sql[128];
  struct rows inner = {0, ""};
  uint64_t in[3];
  snprintf(sql, sizeof sql, "SELECT length('%s') AS len", name);
  in[0] = S(nest_db);
  in[1] = S(sql);
  in[2] = S(claim("ipp:i", proc_collect, &inner, NCCC_SCOPE_CALL, NULL));
  if (call_i("sqlite3_exec", in) != SQLITE_OK || inner.n != 1) protocol_errors++;
  {
    size_t len = strlen(r->text);
    snprintf(r->text + len, sizeof r->text - len, "%s", inner.text);
  }
  r->n++;
  results[0] = nccc_slot_from_i32(0);
}

START_TEST(test_exec_nested_in_callback) {
  struct rows r = {0, ""};
  uint64_t in[3];
  nest_db = open_memory();
  fill_table(nest_db);
  in[0] = S(nest_db);
  in[1] = S("SELECT name FROM fruit ORDER BY id");
  in[2] = S(claim("ipp:i", proc_nested, &r, NCCC_SCOPE_CALL, NULL));
  ck_assert_int_eq(call_i("sqlite3_exec", in), SQLITE_OK);
  ck_assert_int_eq(r.n, 4);
  ck_assert_str_eq(r.text, "len=5;len=6;len=6;len=4;");
  close_db(nest_db);
}
END_TEST

START_TEST(test_exec_error_message) {
  sqlite3 *db = open_memory();
  uint64_t in[3] = {S(db), S("SELEC 1"), 0};
  ck_assert_int_eq(call_i("sqlite3_exec", in), SQLITE_ERROR);
  ck_assert_str_eq(nccc_slot_to_ptr(out[1]), "near \"SELEC\": syntax error");
  in[0] = out[1];
  call("sqlite3_free", in);
  close_db(db);
}
END_TEST

/* ---- a scalar SQL function --------------------------------------------------------- */

struct scale {
  int64_t factor;
  int calls;
};

/* sql_func_fn: args = ctx, argc, argv; data = struct scale. Returns
** argv[0] * factor, or NULL for NULL; text and errors through the
** sqlite3_result_* functions of the registry. */
static void proc_scale(const uint64_t *args, uint64_t *results, void *data) {
  struct scale *sc = data;
  sqlite3_context *ctx = nccc_slot_to_ptr(args[0]);
  int argc = nccc_slot_to_i32(args[1]);
  sqlite3_value **argv = nccc_slot_to_ptr(args[2]);
  uint64_t in[4];
  (void)results;
  sc->calls++;
  /* the user data the library kept is the closure's context */
  in[0] = S(ctx);
  call("sqlite3_user_data", in);
  if (nccc_closure_check(nccc_slot_to_ptr(out[0])) != NCCC_OK) protocol_errors++;
  if (argc != 1) protocol_errors++;
  in[0] = S(argv[0]);
  switch (call_i("sqlite3_value_type", in)) {
    case SQLITE_NULL:
      in[0] = S(ctx);
      call("sqlite3_result_null", in);
      break;
    case SQLITE_TEXT:
      in[0] = S(ctx);
      in[1] = S("not a number");
      in[2] = nccc_slot_from_i32(-1);
      call("sqlite3_result_error", in);
      break;
    default:
      call("sqlite3_value_int64", in);
      in[0] = S(ctx);
      in[1] = nccc_slot_from_i64(nccc_slot_to_i64(out[0]) * sc->factor);
      call("sqlite3_result_int64", in);
  }
}

/* Registers scale(x) on db with closure ctx; returns the result code. */
static int create_scale(sqlite3 *db, void *ctx) {
  uint64_t in[7] = {S(db), S("scale"), nccc_slot_from_i32(1),
                    nccc_slot_from_i32(SQLITE_UTF8 | SQLITE_DETERMINISTIC),
                    S(ctx), 0, 0};
  return call_i("sqlite3_create_function_v2", in);
}

START_TEST(test_scalar_function_and_destroy_notify) {
  sqlite3 *db = open_memory();
  struct scale sc = {7, 0};
  struct rows r = {0, ""};
  uint64_t env, in[3];
  void *ctx = claim("pip:", proc_scale, &sc, NCCC_SCOPE_NOTIFIED, &env);
  fill_table(db);
  ck_assert_int_eq(create_scale(db, ctx), SQLITE_OK);
  ck_assert_uint_eq(nccc_check_closures_in_use(),
                    1); /* lives on: the library holds it */
  in[0] = S(db);
  /* (nullif(id, id) is NULL, but not a constant the library could
  ** evaluate once) */
  in[1] = S("SELECT scale(id) AS s, scale(nullif(id, id)) AS n FROM fruit "
            "ORDER BY id");
  in[2] = S(claim("ipp:i", proc_collect, &r, NCCC_SCOPE_CALL, NULL));
  ck_assert_int_eq(call_i("sqlite3_exec", in), SQLITE_OK);
  ck_assert_str_eq(r.text, "s=7,n=NULL;s=14,n=NULL;s=21,n=NULL;s=28,n=NULL;");
  ck_assert_int_eq(sc.calls, 8);
  ck_assert_int_eq(procs[env].notices, 0);
  /* an error set by the function reaches the caller */
  ck_assert_int_eq(exec(db, "SELECT scale('x')"), SQLITE_ERROR);
  in[0] = S(db);
  call("sqlite3_errmsg", in);
  ck_assert_str_eq(nccc_slot_to_ptr(out[0]), "not a number");
  /* closing the connection calls the destroy notify: released, noticed */
  close_db(db);
  ck_assert_int_eq(procs[env].notices, 1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(nccc_closure_check(ctx), NCCC_ERR_STALE_CLOSURE);
}
END_TEST

START_TEST(test_function_replaced_and_deleted) {
  sqlite3 *db = open_memory();
  struct scale a = {2, 0}, b = {3, 0};
  uint64_t ea, eb, in[3];
  void *ca = claim("pip:", proc_scale, &a, NCCC_SCOPE_NOTIFIED, &ea);
  void *cb = claim("pip:", proc_scale, &b, NCCC_SCOPE_NOTIFIED, &eb);
  struct rows r = {0, ""};
  ck_assert_int_eq(create_scale(db, ca), SQLITE_OK);
  /* replacing the function destroys the old user data */
  ck_assert_int_eq(create_scale(db, cb), SQLITE_OK);
  ck_assert_int_eq(procs[ea].notices, 1);
  ck_assert_int_eq(procs[eb].notices, 0);
  in[0] = S(db);
  in[1] = S("SELECT scale(5) AS v");
  in[2] = S(claim("ipp:i", proc_collect, &r, NCCC_SCOPE_CALL, NULL));
  ck_assert_int_eq(call_i("sqlite3_exec", in), SQLITE_OK);
  ck_assert_str_eq(r.text, "v=15;");
  ck_assert_int_eq(a.calls, 0);
  /* deleting it (no closure, no function) destroys it too */
  ck_assert_int_eq(create_scale(db, NULL), SQLITE_OK);
  ck_assert_int_eq(procs[eb].notices, 1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  ck_assert_int_eq(exec(db, "SELECT scale(5)"), SQLITE_ERROR);
  close_db(db);
}
END_TEST

START_TEST(test_failed_create_releases_the_closure) {
  /* an invalid argument count: the library calls the destroy notify at
  ** once, and the closure is released */
  sqlite3 *db = open_memory();
  struct scale sc = {1, 0};
  uint64_t env;
  void *ctx = claim("pip:", proc_scale, &sc, NCCC_SCOPE_NOTIFIED, &env);
  uint64_t in[7] = {S(db), S("bad"), nccc_slot_from_i32(1000),
                    nccc_slot_from_i32(SQLITE_UTF8), S(ctx), 0, 0};
  ck_assert_int_eq(call_i("sqlite3_create_function_v2", in), SQLITE_MISUSE);
  ck_assert_int_eq(procs[env].notices, 1);
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
  close_db(db);
}
END_TEST

START_TEST(test_stale_closure_refused_before_sqlite) {
  sqlite3 *db = open_memory();
  struct scale sc = {1, 0};
  void *ctx = claim("pip:", proc_scale, &sc, NCCC_SCOPE_NOTIFIED, NULL);
  ck_assert_int_eq(nccc_closure_release(ctx), NCCC_OK);
  nccc_clear_error();
  ck_assert_int_eq(create_scale(db, ctx), 0); /* refused: out zeroed */
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_STALE_CLOSURE);
  ck_assert_int_eq(exec(db, "SELECT scale(1)"), SQLITE_ERROR); /* never made */
  close_db(db);
}
END_TEST

/* ---- prepared statements and errors ------------------------------------------------------ */

START_TEST(test_prepared_statement) {
  sqlite3 *db = open_memory();
  const char *sql = "SELECT name, price FROM fruit WHERE price > ? ORDER BY price;"
                    "SELECT 2";
  sqlite3_stmt *st;
  uint64_t in[5];
  int row = 0;
  fill_table(db);
  in[0] = S(db);
  in[1] = S(sql);
  in[2] = nccc_slot_from_i32(-1);
  ck_assert_int_eq(call_i("sqlite3_prepare_v2", in), SQLITE_OK);
  st = nccc_slot_to_ptr(out[1]);
  ck_assert_ptr_nonnull(st);
  ck_assert_str_eq(nccc_slot_to_ptr(out[2]), "SELECT 2"); /* the tail */
  in[0] = S(st);
  in[1] = nccc_slot_from_i32(1);
  in[2] = nccc_slot_from_double(1.0);
  ck_assert_int_eq(call_i("sqlite3_bind_double", in), SQLITE_OK);
  ck_assert_int_eq(call_i("sqlite3_column_count", in), 2);
  in[1] = nccc_slot_from_i32(1);
  call("sqlite3_column_name", in);
  ck_assert_str_eq(nccc_slot_to_ptr(out[0]), "price");
  while (call_i("sqlite3_step", in) == SQLITE_ROW) {
    in[1] = 0;
    call("sqlite3_column_text", in);
    ck_assert_str_eq(nccc_slot_to_ptr(out[0]), row == 0 ? "apple" : "cherry");
    in[1] = nccc_slot_from_i32(1);
    call("sqlite3_column_double", in);
    ck_assert(nccc_slot_to_double(out[0]) == (row == 0 ? 1.25 : 4.0));
    ck_assert_int_eq(call_i("sqlite3_column_type", in), SQLITE_FLOAT);
    row++;
  }
  ck_assert_int_eq(row, 2);
  ck_assert_int_eq(nccc_slot_to_i32(out[0]), SQLITE_DONE);
  /* reset, bind again, step again */
  ck_assert_int_eq(call_i("sqlite3_reset", in), SQLITE_OK);
  in[1] = nccc_slot_from_i32(1);
  in[2] = nccc_slot_from_double(3.0);
  ck_assert_int_eq(call_i("sqlite3_bind_double", in), SQLITE_OK);
  ck_assert_int_eq(call_i("sqlite3_step", in), SQLITE_ROW);
  in[1] = 0;
  call("sqlite3_column_text", in);
  ck_assert_str_eq(nccc_slot_to_ptr(out[0]), "cherry");
  ck_assert_int_eq(call_i("sqlite3_step", in), SQLITE_DONE);
  ck_assert_int_eq(call_i("sqlite3_finalize", in), SQLITE_OK);
  /* insert with bound text and integer, transient text */
  in[0] = S(db);
  in[1] = S("INSERT INTO fruit(name, price) VALUES (?, ?)");
  in[2] = nccc_slot_from_i32(-1);
  ck_assert_int_eq(call_i("sqlite3_prepare_v2", in), SQLITE_OK);
  st = nccc_slot_to_ptr(out[1]);
  {
    char name[8] = "fig";
    uint64_t b[5] = {S(st), nccc_slot_from_i32(1), S(name), nccc_slot_from_i32(3),
                     (uint64_t)(uintptr_t)SQLITE_TRANSIENT};
    ck_assert_int_eq(call_i("sqlite3_bind_text", b), SQLITE_OK);
    strcpy(name, "XXX"); /* the library took a copy */
    b[1] = nccc_slot_from_i32(2);
    b[2] = nccc_slot_from_i64(9);
    ck_assert_int_eq(call_i("sqlite3_bind_int64", b), SQLITE_OK);
    ck_assert_int_eq(call_i("sqlite3_step", b), SQLITE_DONE);
    ck_assert_int_eq(call_i("sqlite3_finalize", b), SQLITE_OK);
  }
  in[0] = S(db);
  ck_assert_int_eq(call_i("sqlite3_changes", in), 1);
  in[1] = S("SELECT price FROM fruit WHERE name = 'fig'");
  in[2] = nccc_slot_from_i32(-1);
  ck_assert_int_eq(call_i("sqlite3_prepare_v2", in), SQLITE_OK);
  in[0] = out[1];
  ck_assert_int_eq(call_i("sqlite3_step", in), SQLITE_ROW);
  in[1] = 0;
  /* the column's REAL affinity made the bound integer a float */
  ck_assert_int_eq(call_i("sqlite3_column_type", in), SQLITE_FLOAT);
  call("sqlite3_column_int64", in);
  ck_assert_int_eq(nccc_slot_to_i64(out[0]), 9);
  ck_assert_int_eq(call_i("sqlite3_finalize", in), SQLITE_OK);
  close_db(db);
}
END_TEST

START_TEST(test_errmsg_on_bad_sql) {
  sqlite3 *db = open_memory();
  uint64_t in[3] = {S(db), S("SELECT * FROM nowhere"), nccc_slot_from_i32(-1)};
  ck_assert_int_eq(call_i("sqlite3_prepare_v2", in), SQLITE_ERROR);
  ck_assert_uint_eq(out[1], 0); /* no statement */
  in[0] = S(db);
  call("sqlite3_errmsg", in);
  ck_assert_str_eq(nccc_slot_to_ptr(out[0]), "no such table: nowhere");
  ck_assert_int_eq(call_i("sqlite3_errcode", in), SQLITE_ERROR);
  in[1] = S("SELEC 1");
  in[2] = nccc_slot_from_i32(-1);
  ck_assert_int_eq(call_i("sqlite3_prepare_v2", in), SQLITE_ERROR);
  call("sqlite3_errmsg", in);
  ck_assert_str_eq(nccc_slot_to_ptr(out[0]), "near \"SELEC\": syntax error");
  close_db(db);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("sqlite3");
  nccc_check_tcase(s, "sqlite3", setup, teardown,
                   NCCC_CHECK_TESTS(test_open_close_and_signatures,
                                    test_exec_collects_rows,
                                    test_exec_callback_aborts,
                                    test_exec_nested_in_callback,
                                    test_exec_error_message,
                                    test_scalar_function_and_destroy_notify,
                                    test_function_replaced_and_deleted,
                                    test_failed_create_releases_the_closure,
                                    test_stale_closure_refused_before_sqlite,
                                    test_prepared_statement,
                                    test_errmsg_on_bad_sql));
  return s;
}
