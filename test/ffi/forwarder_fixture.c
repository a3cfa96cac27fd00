/*
** forwarder_fixture.c — see forwarder_fixture.h.
*/
#include "forwarder_fixture.h"

#include "nccc_check.h"

void fwd_setup(void) { nccc_check_init(NULL); }

void fwd_teardown(void) {
  ck_assert_uint_eq(nccc_ffi_available(), nccc_ffi_capacity());
}

nccc_fn fwd_make(nccc_ffi_target target, const char *sig) {
  nccc_fn fn = NULL;
  ck_assert_msg(nccc_ffi_create(target, sig, &fn) == NCCC_OK, "%s: %s", sig,
                nccc_last_error());
  ck_assert_ptr_nonnull(fn);
  return fn;
}

void fwd_drop(nccc_fn fn) {
  ck_assert_int_eq(nccc_ffi_release(fn), NCCC_OK);
}
