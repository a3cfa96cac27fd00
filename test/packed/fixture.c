/*
** fixture.c — the packed functions of fixture.h, written as TVM code
** writes them: check num_args and the type codes, fail with
** TVMAPISetLastError and a tvm_crt_error_t.
*/
#include "fixture.h"

#include <stdio.h>
#include <string.h>

#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/func_registry.h>

fx_record fx;

static const char fx_data[] = "abc\0def";
const TVMByteArray fx_bytes = {fx_data, 7};

/* Records the call; fails unless num_args == n and, for each i, codes[i]
** is want[i] or alt[i] (alt may be NULL). */
static int record(const char *who, TVMValue *args, int *codes, int num_args,
                  void *resource, int n, const int *want, const int *alt) {
  int i;
  fx.calls++;
  fx.num_args = num_args;
  fx.resource = resource;
  for (i = 0; i < num_args && i < FX_MAX_ARGS; i++) {
    fx.codes[i] = codes[i];
    fx.args[i] = args[i];
  }
  if (num_args != n) {
    TVMAPISetLastError(who);
    return kTvmErrorFunctionCallNumArguments;
  }
  for (i = 0; i < n; i++) {
    if (codes[i] != want[i] && (alt == NULL || codes[i] != alt[i])) {
      TVMAPISetLastError(who);
      return kTvmErrorFunctionCallWrongArgType;
    }
  }
  return 0;
}

#define RECORD(n, want, alt)                                                \
  do {                                                                      \
    int err_ = record(__func__, args, codes, num_args, resource, (n), (want), \
                      (alt));                                               \
    if (err_ != 0) return err_;                                             \
  } while (0)

#define PACKED(name)                                                        \
  static int name(TVMValue *args, int *codes, int num_args, TVMValue *ret,  \
                  int *ret_code, void *resource)

PACKED(t_add) {
  static const int want[] = {kDLInt, kDLInt};
  RECORD(2, want, NULL);
  ret->v_int64 = args[0].v_int64 + args[1].v_int64;
  *ret_code = kDLInt;
  return 0;
}

PACKED(t_scale) {
  static const int want[] = {kDLFloat, kDLFloat};
  RECORD(2, want, NULL);
  ret->v_float64 = args[0].v_float64 * args[1].v_float64;
  *ret_code = kDLFloat;
  return 0;
}

PACKED(t_greet) {
  static const int want[] = {kTVMStr}, alt[] = {kTVMNullptr};
  static char text[64];
  RECORD(1, want, alt);
  snprintf(text, sizeof text, "hello, %s",
           codes[0] == kTVMStr ? args[0].v_str : "nobody");
  ret->v_str = text;
  *ret_code = kTVMStr;
  return 0;
}

PACKED(t_same) {
  static const int want[] = {kTVMOpaqueHandle}, alt[] = {kTVMNullptr};
  RECORD(1, want, alt);
  ret->v_handle = args[0].v_handle;
  *ret_code = codes[0];
  return 0;
}

PACKED(t_len) {
  static const int want[] = {kTVMBytes};
  RECORD(1, want, NULL);
  ret->v_int64 = (int64_t)((const TVMByteArray *)args[0].v_handle)->size;
  *ret_code = kDLInt;
  return 0;
}

PACKED(t_bytes) {
  RECORD(0, NULL, NULL);
  ret->v_handle = (void *)(uintptr_t)&fx_bytes;
  *ret_code = kTVMBytes;
  return 0;
}

PACKED(t_ndim) {
  static const int want[] = {kTVMDLTensorHandle};
  RECORD(1, want, NULL);
  ret->v_int64 = ((const DLTensor *)args[0].v_handle)->ndim;
  *ret_code = kDLInt;
  return 0;
}

PACKED(t_negate) {
  static const int want[] = {kTVMArgBool};
  RECORD(1, want, NULL);
  ret->v_int64 = !args[0].v_int64;
  *ret_code = kTVMArgBool;
  return 0;
}

PACKED(t_echo) {
  fx.calls++;
  fx.num_args = num_args;
  fx.resource = resource;
  if (num_args != 1) {
    TVMAPISetLastError("t.echo: one argument");
    return kTvmErrorFunctionCallNumArguments;
  }
  fx.codes[0] = codes[0];
  fx.args[0] = args[0];
  *ret = args[0];
  *ret_code = codes[0];
  return 0;
}

PACKED(t_fail) {
  static const int want[] = {kDLInt};
  RECORD(1, want, NULL);
  (void)ret;
  (void)ret_code;
  TVMAPISetLastError("t.fail: asked");
  return (int)args[0].v_int64;
}

PACKED(t_nothing) {
  (void)ret;
  (void)ret_code;
  RECORD(0, NULL, NULL);
  return 0;
}

PACKED(t_dtype) {
  static const int want[] = {kTVMDataType, kDLDevice};
  RECORD(2, want, NULL);
  ret->v_type = args[0].v_type;
  ret->v_type.bits = (uint8_t)(ret->v_type.bits * 2);
  *ret_code = kTVMDataType;
  return 0;
}

PACKED(m_sq) {
  static const int want[] = {kDLInt};
  RECORD(1, want, NULL);
  ret->v_int64 = args[0].v_int64 * args[0].v_int64;
  *ret_code = kDLInt;
  return 0;
}

/* ---- the system library ---------------------------------------------------- */

static const struct {
  uint16_t count;
  char names[sizeof "sq\0res\0"];
} lib_names = {2, "sq\0res\0"};
static const TVMBackendPackedCFunc lib_funcs[] = {m_sq, t_nothing};
static const TVMFuncRegistry lib_registry = {(const char *)&lib_names,
                                             lib_funcs};
const TVMModule fx_system_lib = {&lib_registry};

const TVMModule *TVMSystemLibEntryPoint(void) { return &fx_system_lib; }

/* ---- setup ------------------------------------------------------------------ */

static void put(const char *name, TVMBackendPackedCFunc fn) {
  void *as_handle;
  memcpy(&as_handle, &fn, sizeof as_handle);
  if (TVMFuncRegisterGlobal(name, as_handle, 0) != 0) {
    fprintf(stderr, "fixture: cannot register %s: %s\n", name,
            TVMGetLastError());
  }
}

void fx_setup(void) {
  memset(&fx, 0, sizeof fx);
  TVMInitializeRuntime();
  put("t.add", t_add);
  put("t.scale", t_scale);
  put("t.greet", t_greet);
  put("t.same", t_same);
  put("t.len", t_len);
  put("t.bytes", t_bytes);
  put("t.ndim", t_ndim);
  put("t.negate", t_negate);
  put("t.echo", t_echo);
  put("t.fail", t_fail);
  put("t.nothing", t_nothing);
  put("t.resource", t_nothing);
  put("t.dtype", t_dtype);
  TVMAPISetLastError(NULL);
}
