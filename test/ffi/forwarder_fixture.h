/*
** forwarder_fixture.h — what both forwarder tests do around their
** cases: a fresh runtime, forwarders made and given back with checks,
** and a teardown that finds any forwarder a test kept. Compiled into
** each test program, so that it uses the pool that program links (the
** default one or the small one).
*/
#ifndef NCCC_TEST_FORWARDER_FIXTURE_H
#define NCCC_TEST_FORWARDER_FIXTURE_H

#include "nccc/ffi_forward.h"

/* Checked fixture: the runtime initialised in its own block. */
void fwd_setup(void);
/* Checked fixture: every test gives back what it took. */
void fwd_teardown(void);

/* A forwarder of target with signature sig; fails the test (naming the
** signature and the last error) unless one is made. */
nccc_fn fwd_make(nccc_ffi_target target, const char *sig);
/* Gives fn back; fails the test unless that succeeds. */
void fwd_drop(nccc_fn fn);

#endif
