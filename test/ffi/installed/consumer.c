/*
** consumer.c — a program built against the installed nccc_ffi: forwards
** libm's cbrt through the global registry and prints what it got.
*/
#include <math.h>
#include <stdio.h>

#include <nccc/ffi_forward.h>

int main(void) {
  nccc_handle h;
  nccc_fn fn;
  uint64_t in[1] = {nccc_slot_from_double(27.0)}, out[1] = {0};
  nccc_status st;
  if (nccc_init(NULL, 0) != NCCC_OK) return 1;
  st = nccc_ffi_register("cbrt", (nccc_ffi_target)cbrt, "d:d", 0, &h);
  printf("register: %d\n", (int)st);
  st = nccc_call_checked(h, in, 1, out, 1);
  printf("cbrt(27) = %g (status %d)\n", nccc_slot_to_double(out[0]), (int)st);
  printf("pool: %u of %u free, %d arguments at most\n", nccc_ffi_available(),
         nccc_ffi_capacity(), NCCC_FFI_MAX_ARGS);
  if (nccc_function(h, &fn, NULL, NULL) != NCCC_OK) return 1;
  printf("release: %d\n", (int)nccc_ffi_release(fn));
  st = nccc_ffi_create((nccc_ffi_target)cbrt, "{point}:d", &fn);
  printf("struct: 0x%x %s\n", (unsigned)st, nccc_last_error());
  return 0;
}
