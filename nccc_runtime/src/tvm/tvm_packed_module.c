/*
** tvm_packed_module.c — the nccc module "tvm": packed functions for hosts
** that have nothing but nccc_root. Each function writes its status to
** out[0] (0, or TVM's error code) and its results after it.
*/
#include <stddef.h>
#include <stdint.h>

#include <nccc/module.h>
#include <nccc/packed.h>
#include <nccc/registry.h>
#include <tvm/runtime/c_runtime_api.h>

#include "tvm_internal.h"
#include "tvm_packed_internal.h"

#if NCCC_WITH_TVM

#define ARG_PTR(i) nccc_slot_to_ptr(in[i])

static uint64_t status_slot(int err) { return nccc_slot_from_i32(err); }

static void find(uint64_t *out, nccc_packed_where where,
                 TVMModuleHandle mod, const char *name) {
  TVMFunctionHandle f = NULL;
  int err = nccc_packed_find(name, where, mod, &f);
  out[0] = status_slot(err);
  out[1] = nccc_slot_from_ptr(err == 0 ? f : NULL);
}

static void t_get_global(const uint64_t *in, uint64_t *out) {
  find(out, NCCC_PACKED_GLOBAL, NULL, ARG_PTR(0));
}

static void t_module_function(const uint64_t *in, uint64_t *out) {
  find(out, NCCC_PACKED_MODULE, ARG_PTR(0), ARG_PTR(1));
}

static void t_system_lib(const uint64_t *in, uint64_t *out) {
  TVMModuleHandle mod = NULL;
  int err = nccci_packed_system_lib(&mod);
  (void)in;
  out[0] = status_slot(err);
  out[1] = nccc_slot_from_ptr(err == 0 ? mod : NULL);
}

/* in[0] = what the call goes to (already a handle in f), in[1] =
** num_args, then the pairs. */
static void call(TVMFunctionHandle f, int err, const uint64_t *in,
                 uint64_t *out) {
  int ret_code = kTVMNullptr;
  uint64_t ret_value = 0;
  if (err == 0) {
    if (!nccc_slot_fits_i32(in[1])) {
      err = nccci_tvm_fail(kTvmErrorFunctionCallNumArguments, "packed call",
                           "num_args is not an int");
    } else {
      err = nccc_packed_call_dynamic(f, nccc_slot_to_i32(in[1]), in + 2,
                                     &ret_code, &ret_value);
    }
  }
  if (err != 0) {
    ret_code = kTVMNullptr;
    ret_value = 0;
  }
  out[0] = status_slot(err);
  out[1] = nccc_slot_from_i32(ret_code);
  out[2] = ret_value;
}

static void t_call_packed(const uint64_t *in, uint64_t *out) {
  call(ARG_PTR(0), 0, in, out);
}

static void t_call_global(const uint64_t *in, uint64_t *out) {
  TVMFunctionHandle f = NULL;
  int err = nccc_packed_find(ARG_PTR(0), NCCC_PACKED_GLOBAL, NULL, &f);
  call(f, err, in, out);
}

/* Whether the flags slot fits nccc_packed_register's unsigned flags; if
** not, fails out[0] for the function called what. */
static int flags_ok(uint64_t flags, const char *what, uint64_t *out) {
  if (nccc_slot_fits_u32(flags)) return 1;
  out[0] = status_slot(nccc_fail(NCCC_ERR_INVALID_ARG, what, "unknown flag"));
  return 0;
}

static void t_register(const uint64_t *in, uint64_t *out) {
  nccc_fn fn = (nccc_fn)(uintptr_t)in[1];
  if (!flags_ok(in[3], "tvm.register", out)) return;
  out[0] = status_slot(nccc_packed_register(ARG_PTR(0), fn, ARG_PTR(2),
                                            (unsigned)in[3]));
}

static void t_register_env(const uint64_t *in, uint64_t *out) {
  nccc_fn fn = (nccc_fn)(uintptr_t)in[1];
  if (!flags_ok(in[4], "tvm.register_env", out)) return;
  out[0] = status_slot(nccc_packed_register_env(ARG_PTR(0), fn, in[2],
                                                ARG_PTR(3), (unsigned)in[4]));
}

static void t_register_handle(const uint64_t *in, uint64_t *out) {
  if (!nccc_slot_fits_u32(in[1]) || !nccc_slot_fits_u32(in[3])) {
    out[0] = status_slot(nccc_fail(
        nccc_slot_fits_u32(in[1]) ? NCCC_ERR_INVALID_ARG : NCCC_ERR_BAD_HANDLE,
        "tvm.register_handle", "argument wider than 32 bits"));
    return;
  }
  out[0] = status_slot(nccc_packed_register_handle(
      ARG_PTR(0), (nccc_handle)in[1], ARG_PTR(2), (unsigned)in[3]));
}

static void t_adapters(const uint64_t *in, uint64_t *out) {
  (void)in;
  out[0] = 0;
  out[1] = nccc_packed_available();
  out[2] = nccc_packed_capacity();
}

static void t_set_last_error(const uint64_t *in, uint64_t *out) {
  TVMAPISetLastError(ARG_PTR(0));
  out[0] = 0;
}

/* ---- the table ---------------------------------------------------------------- */

#define N0 "get_global"
#define N1 "module_function"
#define N2 "system_lib"
#define N3 "call_packed"
#define N4 "call_global"
#define N5 "register"
#define N6 "register_env"
#define N7 "register_handle"
#define N8 "adapters"
#define N9 "set_last_error"

#define OFF0 2u
#define OFF1 (OFF0 + sizeof N0)
#define OFF2 (OFF1 + sizeof N1)
#define OFF3 (OFF2 + sizeof N2)
#define OFF4 (OFF3 + sizeof N3)
#define OFF5 (OFF4 + sizeof N4)
#define OFF6 (OFF5 + sizeof N5)
#define OFF7 (OFF6 + sizeof N6)
#define OFF8 (OFF7 + sizeof N7)
#define OFF9 (OFF8 + sizeof N8)

NCCC_NAMES_BLOB(tvm_names, 10,
                N0 "\0" N1 "\0" N2 "\0" N3 "\0" N4 "\0" N5 "\0" N6 "\0" N7
                "\0" N8 "\0" N9 "\0");

static const nccc_fn tvm_funcs[] = {
    t_get_global, t_module_function, t_system_lib,
    t_call_packed, t_call_global, t_register,
    t_register_env, t_register_handle, t_adapters, t_set_last_error};

#define VAR NCCC_SLOTS_VARIABLE
static const nccc_fn_info tvm_info[] = {
    {"s:ip", 1, 2, OFF0},        {"ps:ip", 2, 2, OFF1},
    {":ip", 0, 2, OFF2},         {"pi*:iiL", 2 | VAR, 3, OFF3},
    {"si*:iiL", 2 | VAR, 3, OFF4}, {"sFsI:i", 4, 1, OFF5},
    {"sFLsI:i", 5, 1, OFF6},     {"sIsI:i", 4, 1, OFF7},
    {":iII", 0, 3, OFF8},        {"s:i", 1, 1, OFF9}};

static const nccc_registry tvm_registry = {(const char *)&tvm_names,
                                           tvm_funcs, tvm_info, NULL, NULL};

static const nccc_module tvm_module = {"tvm", &tvm_registry, NULL, 0, 0,
                                       NULL};

nccc_status nccc_tvm_module_add(uint16_t *out_index) {
  return nccc_module_add(&tvm_module, out_index);
}

#endif /* NCCC_WITH_TVM */
