/*
** baremetal_main.c — the system library of syslib.c on a Cortex-M3: the
** host function registered as an nccc function, the operators called
** through TVM's API and through the generated wrappers of syslib.idl.
** Returns 0, or the number of the first step that failed.
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>

#include "syslib_nccc.h"

/* The device has no heap: workspaces come from one static block, handed
** out once (the program asks for one workspace). */
static void *arena_alloc(size_t size) {
  static uint64_t arena[64];
  static int taken;
  if (taken || size > sizeof arena) return NULL;
  taken = 1;
  return arena;
}
static void arena_free(void *p) { (void)p; }

static void triple(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i64(3 * nccc_slot_to_i64(in[0]));
}

int main(void) {
  TVMFunctionHandle syslib = NULL, f = NULL;
  TVMValue args[2], ret;
  int codes[2] = {kTVMArgInt, kTVMArgInt}, tcode;
  uint64_t in[2], out[2];
  nccc_platform platform = {0};
  platform.alloc = arena_alloc;
  platform.free = arena_free;
  nccc_platform_set(&platform);
  if (TVMInitializeRuntime() != kTvmErrorNoError) return 1;
  if (TVMFuncGetGlobal("runtime.SystemLib", &syslib) != 0) return 2;
  if (TVMFuncCall(syslib, NULL, NULL, 0, &ret, &tcode) != 0) return 3;
  if (TVMModGetFunction(ret.v_handle, "scale_add", 0, &f) != 0) return 4;
  args[0].v_int64 = 7;
  args[1].v_int64 = 5;
  /* absent host function: the operator fails and says which */
  if (TVMFuncCall(f, args, codes, 2, &ret, &tcode) != -1) return 5;
  if (strstr(TVMGetLastError(), "host.scale") == NULL) return 6;
  if (nccc_packed_register("host.scale", triple, "l:l", 0) != NCCC_OK) return 7;
  if (TVMFuncCall(f, args, codes, 2, &ret, &tcode) != 0) return 8;
  if (tcode != kTVMArgInt || ret.v_int64 != 26) return 9;
  in[0] = nccc_slot_from_i64(-4000000000);
  in[1] = nccc_slot_from_i64(3);
  nccc_syslib_scale_add(in, out);
  if (out[0] != 0 || nccc_slot_to_i64(out[1]) != -11999999997) return 10;
  in[0] = nccc_slot_from_i64(10);
  nccc_syslib_sum_squares(in, out);
  if (out[0] != 0 || nccc_slot_to_i64(out[1]) != 285) return 11;
  return 0;
}
