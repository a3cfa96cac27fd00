/*
** nccc_check.h — the Check runner every C test program shares, and the
** fixtures several of them repeat.
**
** A test program holds its START_TEST cases and one registration
** function, nccc_check_suite(), which builds its suite with
** nccc_check_tcase(). main() is in nccc_check_main.c: it runs that suite
** and exits non-zero when any test failed, so every program closes with
** Check's "N%: Checks: X, Failures: F, Errors: E" line.
*/
#ifndef NCCC_CHECK_H
#define NCCC_CHECK_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include <nccc/nccc.h>

/* ---- the runner ------------------------------------------------------- */

/* Builds the program's suite; each test program defines it once. */
Suite *nccc_check_suite(void);

/* Runs s with the environment's Check settings (CK_FORK, CK_VERBOSITY)
** and frees it; returns how many tests failed. */
int nccc_check_run(Suite *s);

/* The tests of one test case, in the order they run: a NULL-terminated
** list built in place, as in
**   nccc_check_tcase(s, "calls", setup, NULL, NCCC_CHECK_TESTS(a, b, c)); */
#define NCCC_CHECK_TESTS(...) ((const TTest *const[]){__VA_ARGS__, NULL})

/* Adds to s the test case name with tests (NCCC_CHECK_TESTS), run
** between setup and teardown (a checked fixture: around every test, in
** the test's process; either may be NULL). Returns the test case, for a
** timeout or loop tests. */
TCase *nccc_check_tcase(Suite *s, const char *name, SFun setup,
                        SFun teardown, const TTest *const *tests);

/* ---- runtime fixtures ------------------------------------------------- */

/* Initialises the runtime in its own block and, unless register_module
** is NULL, registers a module with it; fails the test unless both
** succeed. */
void nccc_check_init(nccc_status (*register_module)(void));

/* The handle of name; fails the test (naming the last error) when the
** lookup does not succeed. */
nccc_handle nccc_check_lookup(const char *name);

/* Calls name (looked up as above) with nccc_call; fails the test unless
** the call succeeds. */
void nccc_check_call(const char *name, const uint64_t *in, uint64_t *out);

/* The handle of name, after checking that the registry describes it with
** signature sig and exactly n_in / n_out slots. */
nccc_handle nccc_check_find(const char *name, const char *sig, size_t n_in,
                            size_t n_out);

/* A checked call of h with exactly n_in / n_out slots that must succeed;
** a failure names what and the last error. */
void nccc_check_call_checked(nccc_handle h, const char *what,
                             const uint64_t *in, size_t n_in, uint64_t *out,
                             size_t n_out);

/* The built-in at index, fetched through nccc_root as a host does; fails
** the test unless the root gives one. */
nccc_fn nccc_check_builtin(unsigned index);

/* How many closures are claimed now (every test gives back what it
** claimed). */
uint32_t nccc_check_closures_in_use(void);

/* ---- bit patterns ------------------------------------------------------ */

/* The bits of a float or double, and the value of given bits (NaN
** payloads and signs kept exactly). */
uint32_t nccc_check_float_bits(float f);
float nccc_check_float_of_bits(uint32_t bits);
uint64_t nccc_check_double_bits(double d);
double nccc_check_double_of_bits(uint64_t bits);

#endif
