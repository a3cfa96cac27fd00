/*
** baremetal_main.c — a Cortex-M3 program using the packed-function bridge
** forward, backward and dynamically, and the module "tvm": it must link
** against newlib without malloc, threads or printf.
*/
#include <stdint.h>
#include <string.h>

#include <nccc/nccc.h>
#include <nccc/packed.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>

static int square(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
                  int *ret_tcode, void *resource_handle) {
  (void)resource_handle;
  if (num_args != 1 || type_codes[0] != kDLInt) return -2;
  ret[0].v_int64 = args[0].v_int64 * args[0].v_int64;
  ret_tcode[0] = kDLInt;
  return 0;
}

static void twice(const uint64_t *in, uint64_t *out) {
  out[0] = nccc_slot_from_i32(2 * nccc_slot_to_i32(in[0]));
}

int main(void) {
  TVMBackendPackedCFunc fn = square;
  TVMFunctionHandle f;
  TVMValue arg, ret;
  void *as_handle;
  uint64_t in[1] = {12}, out[2], pairs[2] = {kDLInt, 7}, value;
  int code = kDLInt, ret_code;
  if (TVMInitializeRuntime() != kTvmErrorNoError) return 1;
  if (nccc_init(NULL, 0) != NCCC_OK || nccc_tvm_module_add(NULL) != NCCC_OK) {
    return 2;
  }
  memcpy(&as_handle, &fn, sizeof as_handle);
  if (TVMFuncRegisterGlobal("square", as_handle, 0) != 0) return 3;
  /* forward, as a generated wrapper does it */
  nccc_packed_forward("square", NCCC_PACKED_GLOBAL, "i:l", in, out);
  if (out[0] != 0 || out[1] != 144) return 4;
  /* backward */
  if (nccc_packed_register("twice", twice, "i:i", 0) != NCCC_OK) return 5;
  if (TVMFuncGetGlobal("twice", &f) != 0 || f == NULL) return 6;
  arg.v_int64 = 21;
  if (TVMFuncCall(f, &arg, &code, 1, &ret, &ret_code) != 0) return 7;
  if (ret.v_int64 != 42) return 8;
  code = kTVMStr;
  if (TVMFuncCall(f, &arg, &code, 1, &ret, &ret_code) !=
      kTvmErrorFunctionCallWrongArgType) {
    return 9;
  }
  /* dynamic */
  if (nccc_packed_call_dynamic(f, 1, pairs, &ret_code, &value) != 0) return 10;
  return value == 14 ? 0 : 11;
}
