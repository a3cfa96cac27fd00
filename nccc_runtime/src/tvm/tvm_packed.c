/*
** tvm_packed.c — packed functions called from slots: packed signatures,
** the conversions between slots and TVMValues, typed (forward) calls and
** dynamic calls with the type codes in the slot buffer.
**
** Conversions never truncate: a value that does not fit the declared
** type is refused (kTvmErrorFunctionCallInvalidArg), a type code that is
** not accepted too (kTvmErrorFunctionCallWrongArgType). Messages are
** built without printf, so bare-metal programs link no printf code.
*/
#include <float.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <nccc/packed.h>
#include <nccc/status.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/error_codes.h>

#include "tvm_internal.h"
#include "tvm_packed_internal.h"

#if NCCC_WITH_TVM

/* ---- messages ------------------------------------------------------------ */

typedef struct msg {
  char text[NCCC_ERROR_MESSAGE_BYTES];
  size_t n;
} msg;

static void msg_str(msg *m, const char *s) {
  while (*s != '\0' && m->n + 1 < sizeof m->text) m->text[m->n++] = *s++;
  m->text[m->n] = '\0';
}

static void msg_int(msg *m, long v) {
  char digits[24];
  size_t i = sizeof digits - 1;
  unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
  digits[i] = '\0';
  do {
    digits[--i] = (char)('0' + u % 10u);
    u /= 10u;
  } while (u != 0 && i > 1);
  if (v < 0) digits[--i] = '-';
  msg_str(m, digits + i);
}

/* TVM's type codes by name, for messages. */
static const char *const type_code_names[] = {
    "int",     "uint",     "float",    "handle", "null",  "DLDataType",
    "DLDevice", "DLTensor*", "object", "module", "function", "str",
    "bytes",   "NDArray",  "object rvalue", "bool"};

static void msg_type_code(msg *m, int code) {
  if (code >= 0 && code <= kTVMArgBool) {
    msg_str(m, type_code_names[code]);
  } else {
    msg_str(m, "type code ");
    msg_int(m, code);
  }
}

/* The C type behind a packed signature code, for messages. */
static const char *code_name(char code) {
  switch (code) {
    case '?': return "bool";
    case 'b': return "int8";
    case 'B': return "uint8";
    case 'h': return "int16";
    case 'H': return "uint16";
    case 'i': return "int32";
    case 'I': return "uint32";
    case 'l': return "int64";
    case 'L': return "uint64";
    case 'f': return "float";
    case 'd': return "double";
    case 'p': return "handle";
    case 's': return "str";
    case 'y': return "bytes";
    case 'm': return "module";
    case 'k': return "function";
    default: return "DLTensor*";
  }
}

static int fail_msg(int err, const msg *m) {
  nccc_fail((nccc_status)err, m->text, NULL);
  return err;
}

static void msg_where(msg *m, const char *who, int i) {
  m->n = 0;
  msg_str(m, who);
  if (i < 0) {
    msg_str(m, ": result: ");
  } else {
    msg_str(m, ": args[");
    msg_int(m, i);
    msg_str(m, "]: ");
  }
}

int nccci_packed_fail_value(int err, const char *who, int i, char code,
                            int type_code) {
  msg m;
  msg_where(&m, who, i);
  if (err == kTvmErrorFunctionCallWrongArgType) {
    msg_str(&m, "expected ");
    msg_str(&m, code_name(code));
    msg_str(&m, ", got ");
    msg_type_code(&m, type_code);
  } else {
    msg_str(&m, "value out of range for ");
    msg_str(&m, code_name(code));
  }
  return fail_msg(err, &m);
}

int nccci_packed_fail_count(const char *who, unsigned n, int got) {
  msg m;
  m.n = 0;
  msg_str(&m, who);
  msg_str(&m, ": expects ");
  msg_int(&m, (long)n);
  msg_str(&m, n == 1 ? " argument, got " : " arguments, got ");
  msg_int(&m, got);
  return fail_msg(kTvmErrorFunctionCallNumArguments, &m);
}

/* ---- packed signatures ------------------------------------------------------ */

static int is_code(char c) {
  return c != '\0' && strchr("?bBhHiIlLfdpsymkt", c) != NULL;
}

nccc_status nccci_psig_parse(const char *psig, nccci_psig *out) {
  const char *c = psig;
  if (psig == NULL || out == NULL) {
    return nccc_fail(NCCC_ERR_NULL_POINTER, "packed signature", NULL);
  }
  out->n_args = 0;
  out->ret = 0;
  for (; *c != ':'; c++) {
    if (!is_code(*c)) {
      return nccc_fail(NCCC_ERR_BAD_SIGNATURE,
                       *c == '\0' ? "packed signature: no ':'"
                                  : "packed signature: unknown code",
                       psig);
    }
    if (out->n_args == NCCC_PACKED_MAX_ARGS) {
      return nccc_fail(NCCC_ERR_BAD_SIGNATURE,
                       "packed signature: more than NCCC_PACKED_MAX_ARGS "
                       "arguments", psig);
    }
    out->codes[out->n_args++] = *c;
  }
  c++;
  if (*c != '\0') {
    if (!is_code(*c) || c[1] != '\0') {
      return nccc_fail(NCCC_ERR_BAD_SIGNATURE,
                       "packed signature: the result is one code or none",
                       psig);
    }
    out->ret = *c;
  }
  return NCCC_OK;
}

nccc_status nccc_packed_check_signature(const char *psig) {
  nccci_psig ps;
  return nccci_psig_parse(psig, &ps);
}

/* ---- conversions -------------------------------------------------------------- */

/* The type code a non-NULL pointer of code is sent as. */
static int handle_code(char code) {
  switch (code) {
    case 's': return kTVMStr;
    case 'y': return kTVMBytes;
    case 'm': return kTVMModuleHandle;
    case 'k': return kTVMPackedFuncHandle;
    case 't': return kTVMDLTensorHandle;
    default: return kTVMOpaqueHandle;
  }
}

void nccci_packed_to_value(char code, uint64_t slot, TVMValue *v,
                           int *type_code) {
  int tc = kDLInt;
  switch (code) {
    case '?':
      v->v_int64 = nccc_slot_to_bool(slot);
      tc = kTVMArgBool;
      break;
    case 'b': v->v_int64 = nccc_slot_to_i8(slot); break;
    case 'B': v->v_int64 = nccc_slot_to_u8(slot); break;
    case 'h': v->v_int64 = nccc_slot_to_i16(slot); break;
    case 'H': v->v_int64 = nccc_slot_to_u16(slot); break;
    case 'i': v->v_int64 = nccc_slot_to_i32(slot); break;
    case 'I': v->v_int64 = nccc_slot_to_u32(slot); break;
    case 'l':
    case 'L': /* uint64: the bits (TVM's C++ stops above INT64_MAX) */
      v->v_int64 = nccc_slot_to_i64(slot);
      break;
    case 'f':
      v->v_float64 = (double)nccc_slot_to_float(slot);
      tc = kDLFloat;
      break;
    case 'd':
      v->v_float64 = nccc_slot_to_double(slot);
      tc = kDLFloat;
      break;
    case 's':
      v->v_str = (const char *)nccc_slot_to_ptr(slot);
      tc = v->v_str == NULL ? kTVMNullptr : kTVMStr;
      break;
    default: /* p y m k t */
      v->v_handle = nccc_slot_to_ptr(slot);
      tc = v->v_handle == NULL ? kTVMNullptr : handle_code(code);
      break;
  }
  *type_code = tc;
}

/* Range of the integer codes: signed ones [lo, hi], unsigned [0, umax]. */
static int int_range(char code, int64_t *lo, int64_t *hi, uint64_t *umax) {
  switch (code) {
    case 'b': *lo = INT8_MIN; *hi = INT8_MAX; return 1;
    case 'h': *lo = INT16_MIN; *hi = INT16_MAX; return 1;
    case 'i': *lo = INT32_MIN; *hi = INT32_MAX; return 1;
    case 'l': *lo = INT64_MIN; *hi = INT64_MAX; return 1;
    case 'B': *umax = UINT8_MAX; return 0;
    case 'H': *umax = UINT16_MAX; return 0;
    case 'I': *umax = UINT32_MAX; return 0;
    default: *umax = UINT64_MAX; return 0; /* L */
  }
}

static int from_int(char code, int type_code, int64_t x, uint64_t *slot) {
  int64_t lo = 0, hi = 0;
  uint64_t umax = 0, u = (uint64_t)x;
  int is_signed;
  if (type_code != kDLInt && type_code != kDLUInt &&
      type_code != kTVMArgBool) {
    return kTvmErrorFunctionCallWrongArgType;
  }
  if (code == '?') {
    *slot = nccc_slot_from_bool(x != 0); /* TVM: any non-zero is true */
    return 0;
  }
  is_signed = int_range(code, &lo, &hi, &umax);
  if (type_code == kDLUInt) {
    /* v_int64 holds the bits of an unsigned value */
    if (is_signed ? u > (uint64_t)hi : u > umax) {
      return kTvmErrorFunctionCallInvalidArg;
    }
    *slot = is_signed ? nccc_slot_from_i64((int64_t)u) : u;
    return 0;
  }
  if (is_signed) {
    if (x < lo || x > hi) return kTvmErrorFunctionCallInvalidArg;
    *slot = nccc_slot_from_i64(x);
    return 0;
  }
  /* uint64 takes the bits of any int64 (what a uint64 above INT64_MAX
  ** is sent as); narrower unsigned types need a value in range */
  if (code != 'L' && (x < 0 || u > umax)) {
    return kTvmErrorFunctionCallInvalidArg;
  }
  *slot = u;
  return 0;
}

static int from_float(char code, int type_code, const TVMValue *v,
                      uint64_t *slot) {
  double d;
  if (type_code == kDLFloat) {
    d = v->v_float64;
  } else if (type_code == kDLInt) {
    d = (double)v->v_int64; /* TVM converts ints to floating point */
  } else {
    return kTvmErrorFunctionCallWrongArgType;
  }
  if (code == 'd') {
    *slot = nccc_slot_from_double(d);
    return 0;
  }
  /* a finite double beyond float's range has no float value (converting
  ** it is undefined behaviour in C); NaNs and infinities convert */
  if (d - d == 0.0 && (d > FLT_MAX || d < -FLT_MAX)) {
    return kTvmErrorFunctionCallInvalidArg;
  }
  *slot = nccc_slot_from_float((float)d);
  return 0;
}

int nccci_packed_from_value(char code, int type_code, const TVMValue *v,
                            uint64_t *slot) {
  const void *p;
  switch (code) {
    case 'f':
    case 'd':
      return from_float(code, type_code, v, slot);
    case 'p': case 's': case 'y': case 'm': case 'k': case 't':
      break;
    default:
      return from_int(code, type_code, v->v_int64, slot);
  }
  if (type_code == kTVMNullptr) {
    *slot = 0;
    return 0;
  }
  if (type_code != handle_code(code) &&
      !(code == 't' && type_code == kTVMNDArrayHandle)) {
    return kTvmErrorFunctionCallWrongArgType;
  }
  p = code == 's' ? (const void *)v->v_str : v->v_handle;
  *slot = nccc_slot_from_ptr(p);
  return 0;
}

/* ---- finding and calling ---------------------------------------------------- */

int nccci_packed_system_lib(TVMModuleHandle *out) {
  TVMFunctionHandle f = NULL;
  TVMValue ret;
  int code = kTVMNullptr, err;
  err = TVMFuncGetGlobal("runtime.SystemLib", &f);
  if (err != 0) return err;
  if (f == NULL) {
    return nccci_tvm_fail(kTvmErrorFunctionNameNotFound,
                          "packed function not registered",
                          "runtime.SystemLib");
  }
  err = TVMFuncCall(f, NULL, NULL, 0, &ret, &code);
  if (err != 0) return err;
  if (code != kTVMModuleHandle) {
    return nccci_packed_fail_value(kTvmErrorFunctionCallWrongArgType,
                                   "runtime.SystemLib", -1, 'm', code);
  }
  *out = ret.v_handle;
  return 0;
}

int nccc_packed_find(const char *name, nccc_packed_where where,
                     TVMModuleHandle mod, TVMFunctionHandle *out) {
  TVMFunctionHandle f = NULL;
  int err;
  if (name == NULL || out == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "nccc_packed_find", NULL);
  }
  switch (where) {
    case NCCC_PACKED_GLOBAL:
      err = TVMFuncGetGlobal(name, &f);
      if (err == 0 && f == NULL) {
        err = nccci_tvm_fail(kTvmErrorFunctionNameNotFound,
                             "packed function not registered", name);
      }
      break;
    case NCCC_PACKED_SYSTEM_LIB:
      err = nccci_packed_system_lib(&mod);
      if (err == 0) err = TVMModGetFunction(mod, name, 0, &f);
      break;
    case NCCC_PACKED_MODULE:
      err = TVMModGetFunction(mod, name, 0, &f);
      break;
    default:
      return nccci_tvm_fail(kTvmErrorFunctionCallInvalidArg,
                            "nccc_packed_find", "unknown where");
  }
  if (err == 0) *out = f;
  return err;
}

/* A typed call: who names the function in messages. */
static int call_parsed(const char *who, TVMFunctionHandle f,
                       const nccci_psig *ps, const uint64_t *in,
                       uint64_t *ret_slot) {
  TVMValue args[NCCC_PACKED_MAX_ARGS], ret;
  int codes[NCCC_PACKED_MAX_ARGS], ret_code = kTVMNullptr, err;
  uint64_t r = 0;
  unsigned i;
  if (ps->n_args > 0 && in == NULL) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, who, "no argument slots");
  }
  for (i = 0; i < ps->n_args; i++) {
    nccci_packed_to_value(ps->codes[i], in[i], &args[i], &codes[i]);
  }
  ret.v_handle = NULL;
  err = TVMFuncCall(f, args, codes, ps->n_args, &ret, &ret_code);
  if (err != 0) return err;
  if (ps->ret != 0) {
    err = nccci_packed_from_value(ps->ret, ret_code, &ret, &r);
    if (err != 0) {
      return nccci_packed_fail_value(err, who, -1, ps->ret, ret_code);
    }
  }
  if (ret_slot != NULL) *ret_slot = r;
  return 0;
}

int nccc_packed_call(TVMFunctionHandle f, const char *psig,
                     const uint64_t *in, uint64_t *ret_slot) {
  nccci_psig ps;
  nccc_status st = nccci_psig_parse(psig, &ps);
  if (st != NCCC_OK) return (int)st;
  return call_parsed("packed call", f, &ps, in, ret_slot);
}

void nccc_packed_forward(const char *name, nccc_packed_where where,
                         const char *psig, const uint64_t *in,
                         uint64_t *out) {
  nccci_psig ps;
  TVMFunctionHandle f = NULL;
  TVMModuleHandle mod = NULL;
  uint64_t r = 0;
  int err = (int)nccci_psig_parse(psig, &ps);
  if (err != 0) {
    out[0] = nccc_slot_from_i32(err);
    return;
  }
  if (where == NCCC_PACKED_MODULE) {
    mod = nccc_slot_to_ptr(in[0]);
    in++;
  }
  err = nccc_packed_find(name, where, mod, &f);
  if (err == 0) err = call_parsed(name, f, &ps, in, &r);
  out[0] = nccc_slot_from_i32(err);
  if (ps.ret != 0) out[1] = err == 0 ? r : 0;
}

/* ---- dynamic calls: the type codes travel with the values ------------------ */

/* Codes whose value is a pointer. */
static int is_pointer_code(int code) {
  switch (code) {
    case kTVMOpaqueHandle: case kTVMDLTensorHandle: case kTVMObjectHandle:
    case kTVMModuleHandle: case kTVMPackedFuncHandle: case kTVMStr:
    case kTVMBytes: case kTVMNDArrayHandle: case kTVMObjectRValueRefArg:
      return 1;
  }
  return 0;
}

static int raw_to_value(int code, uint64_t slot, TVMValue *v) {
  memset(v, 0, sizeof *v);
  switch (code) {
    case kDLInt: case kDLUInt: case kTVMArgBool:
      v->v_int64 = nccc_slot_to_i64(slot);
      return 0;
    case kDLFloat:
      v->v_float64 = nccc_slot_to_double(slot);
      return 0;
    case kTVMNullptr:
      v->v_handle = NULL;
      return 0;
    case kTVMDataType:
      nccc_slots_to_bytes(&v->v_type, &slot, sizeof v->v_type);
      return 0;
    case kDLDevice:
      nccc_slots_to_bytes(&v->v_device, &slot, sizeof v->v_device);
      return 0;
  }
  if (!is_pointer_code(code)) return kTvmErrorFunctionCallWrongArgType;
  if (!nccc_slot_fits_ptr(slot)) return kTvmErrorFunctionCallInvalidArg;
  if (code == kTVMStr) {
    v->v_str = (const char *)nccc_slot_to_ptr(slot);
  } else {
    v->v_handle = nccc_slot_to_ptr(slot);
  }
  return 0;
}

static int raw_from_value(int code, const TVMValue *v, uint64_t *slot) {
  switch (code) {
    case kDLInt: case kDLUInt: case kTVMArgBool:
      *slot = nccc_slot_from_i64(v->v_int64);
      return 0;
    case kDLFloat:
      *slot = nccc_slot_from_double(v->v_float64);
      return 0;
    case kTVMNullptr:
      *slot = 0;
      return 0;
    case kTVMDataType:
      nccc_slots_from_bytes(slot, &v->v_type, sizeof v->v_type);
      return 0;
    case kDLDevice:
      nccc_slots_from_bytes(slot, &v->v_device, sizeof v->v_device);
      return 0;
  }
  if (!is_pointer_code(code)) return kTvmErrorFunctionCallWrongArgType;
  *slot = nccc_slot_from_ptr(code == kTVMStr ? (const void *)v->v_str
                                             : v->v_handle);
  return 0;
}

static int fail_raw(int err, int i, int code) {
  msg m;
  msg_where(&m, "packed call", i);
  if (err == kTvmErrorFunctionCallWrongArgType) {
    msg_str(&m, "nccc does not convert type code ");
    msg_int(&m, code);
  } else {
    msg_str(&m, "the slot is wider than a pointer");
  }
  return fail_msg(err, &m);
}

int nccc_packed_call_dynamic(TVMFunctionHandle f, int num_args,
                             const uint64_t *pairs, int *ret_code,
                             uint64_t *ret_value) {
  TVMValue args[NCCC_PACKED_MAX_ARGS], ret;
  int codes[NCCC_PACKED_MAX_ARGS], rc = kTVMNullptr, err, i;
  uint64_t r;
  if (ret_code == NULL || ret_value == NULL ||
      (num_args > 0 && pairs == NULL)) {
    return nccci_tvm_fail(kTvmErrorNcccNullPointer, "packed call", NULL);
  }
  if (num_args < 0 || num_args > NCCC_PACKED_MAX_ARGS) {
    return nccci_tvm_fail(kTvmErrorFunctionCallNumArguments, "packed call",
                          "num_args outside 0 .. NCCC_PACKED_MAX_ARGS");
  }
  for (i = 0; i < num_args; i++) {
    uint64_t code = pairs[2 * i];
    if (!nccc_slot_fits_i32(code)) {
      return fail_raw(kTvmErrorFunctionCallWrongArgType, i,
                      (int)nccc_slot_to_i32(code));
    }
    codes[i] = nccc_slot_to_i32(code);
    err = raw_to_value(codes[i], pairs[2 * i + 1], &args[i]);
    if (err != 0) return fail_raw(err, i, codes[i]);
  }
  ret.v_handle = NULL;
  err = TVMFuncCall(f, args, codes, num_args, &ret, &rc);
  if (err != 0) return err;
  err = raw_from_value(rc, &ret, &r);
  if (err != 0) return fail_raw(err, -1, rc);
  *ret_code = rc;
  *ret_value = r;
  return 0;
}

#endif /* NCCC_WITH_TVM */
