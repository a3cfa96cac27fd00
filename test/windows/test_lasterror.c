/*
** test_lasterror.c — [lasterror] on Windows, under wine: the wrappers of
** win32.idl around real kernel32 functions read GetLastError() right
** after the call into their last out slot, clear it before, and a
** callback type with [lasterror] sets it from the host's slot.
*/
#include <stdint.h>
#include <windows.h>

#include <nccc/nccc.h>

#include "nccc_check.h"
#include "win32_nccc.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aull
#define P(x) nccc_slot_from_ptr(x)

static uint64_t out[3];

/* Calls wrapper fn with its one argument; out[] is preset to a sentinel,
** so that a slot written without need shows. */
static void call(nccc_fn fn, uint64_t arg) {
  out[0] = out[1] = out[2] = SENTINEL;
  fn(&arg, out);
}

START_TEST(missing_directory_is_path_not_found) {
  call(nccc_win32_GetFileAttributesA, P("C:\\no\\such\\dir\\file.txt"));
  ck_assert_uint_eq(out[0], INVALID_FILE_ATTRIBUTES);
  ck_assert_uint_eq(out[1], ERROR_PATH_NOT_FOUND);
  ck_assert_uint_eq(out[2], SENTINEL);
}
END_TEST

START_TEST(missing_file_is_file_not_found) {
  call(nccc_win32_GetFileAttributesA, P("C:\\windows\\no-such-file.txt"));
  ck_assert_uint_eq(out[0], INVALID_FILE_ATTRIBUTES);
  ck_assert_uint_eq(out[1], ERROR_FILE_NOT_FOUND);
  call(nccc_win32_SetCurrentDirectoryA, P("C:\\no\\such\\dir"));
  ck_assert_uint_eq(out[0], 0);
  ck_assert(out[1] == ERROR_FILE_NOT_FOUND || out[1] == ERROR_PATH_NOT_FOUND);
}
END_TEST

START_TEST(invalid_handle) {
  call(nccc_win32_CloseHandle, P((void *)(uintptr_t)0x12340));
  ck_assert_uint_eq(out[0], 0); /* FALSE */
  ck_assert_uint_eq(out[1], ERROR_INVALID_HANDLE);
}
END_TEST

START_TEST(cleared_before_the_call) {
  /* a success leaves the last error alone: the slot says 0, not what
  ** came before the call */
  SetLastError(ERROR_ACCESS_DENIED);
  call(nccc_win32_GetFileAttributesA, P("C:\\windows"));
  ck_assert_uint_ne(out[0], INVALID_FILE_ATTRIBUTES);
  ck_assert_uint_ne(out[0] & FILE_ATTRIBUTE_DIRECTORY, 0);
  ck_assert_uint_eq(out[1], 0);
}
END_TEST

START_TEST(signature_has_the_lasterror_slot) {
  nccc_handle h;
  const nccc_fn_info *info = NULL;
  ck_assert_int_eq(nccc_lookup("win32.CloseHandle", &h), NCCC_OK);
  ck_assert_int_eq(nccc_function(h, NULL, &info, NULL), NCCC_OK);
  ck_assert_str_eq(info->signature, "p:iW");
  ck_assert_uint_eq(info->n_out, 2);
}
END_TEST

/* step_fn's host side: returns step * 10 and leaves the last error the
** test chose (in its env word) in the lasterror slot. */
static void host_step(const uint64_t *in, uint64_t *out_) {
  out_[0] = nccc_slot_from_u32(nccc_slot_to_u32(in[1]) * 10u);
  out_[1] = nccc_slot_from_u32((uint32_t)in[0]);
  SetLastError(ERROR_GEN_FAILURE); /* host code that disturbs it */
}

START_TEST(callback_sets_the_last_error) {
  static const uint32_t codes[] = {ERROR_ACCESS_DENIED, 0, ERROR_INVALID_HANDLE};
  size_t k;
  for (k = 0; k < sizeof codes / sizeof codes[0]; k++) {
    void *ctx = NULL;
    ck_assert_int_eq(nccc_closure_claim_typed(host_step, codes[k],
                                              NCCC_SCOPE_CALL, "I:IW", &ctx),
                     NCCC_OK);
    call(nccc_win32_after_step, P(ctx));
    ck_assert_uint_eq(out[0], codes[k]); /* what the fixture saw */
    ck_assert_uint_eq(out[1], codes[k]); /* the wrapper's own slot */
  }
  ck_assert_uint_eq(nccc_check_closures_in_use(), 0);
}
END_TEST

static void setup(void) {
  uint16_t index;
  ck_assert_int_eq(nccc_ensure_init(), NCCC_OK);
  if (nccc_module_find("win32", &index) != NCCC_OK) {
    ck_assert_int_eq(nccc_win32_register(), NCCC_OK);
  }
}

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("lasterror");
  nccc_check_tcase(s, "kernel32", setup, NULL,
                   NCCC_CHECK_TESTS(missing_directory_is_path_not_found,
                                    missing_file_is_file_not_found,
                                    invalid_handle, cleared_before_the_call,
                                    signature_has_the_lasterror_slot,
                                    callback_sets_the_last_error));
  return s;
}
