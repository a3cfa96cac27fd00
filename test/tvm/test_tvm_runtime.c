/*
** test_tvm_runtime.c — TVM CRT's runtime API: global functions, modules,
** handles, calls, the system library and re-initialisation.
*/
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <nccc/handle.h>
#include <nccc/status.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/func_registry.h>
#include <tvm/runtime/crt/module.h>

#include "crt_config.h"
#include "tvm_internal.h"
#include "tvm_fixture.h"
#include "nccc_check.h"

#define GLOBAL_MODULE TVM_CRT_MAX_REGISTERED_MODULES

/* ---- the system library TVM's generated code provides -------------------- */

BLOB(names_lib, 2, "tvmgen_default_run\0mul\0");
static const TVMBackendPackedCFunc funcs_lib[] = {seven, mul};
static const TVMFuncRegistry reg_lib = {(const char *)&names_lib, funcs_lib};
static const TVMModule system_lib_module = {&reg_lib};

/* Replaces the runtime's weak default, as TVM's generated code does. */
const TVMModule *TVMSystemLibEntryPoint(void) { return &system_lib_module; }

static TVMModuleHandle get_system_library(void) {
  TVMValue ret;
  int tcode = -1;
  ck_assert_int_eq(TVMFuncCall(global("runtime.SystemLib"), NULL, NULL, 0,
                               &ret, &tcode),
                   0);
  ck_assert_int_eq(tcode, kTVMModuleHandle);
  return ret.v_handle;
}

/* ---- global functions ------------------------------------------------------- */

START_TEST(builtins_present) {
  ck_assert_ptr_nonnull(global("runtime.SystemLib"));
  ck_assert_ptr_nonnull(global("tvm.rpc.server.ModuleGetFunction"));
  ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(nccci_tvm_global_registry()),
                    nccci_tvm_builtin_count);
}
END_TEST

/* Defect 6: TVM registered 5-parameter functions through a void * as
** 6-parameter ones. Every built-in comes from a table typed
** TVMBackendPackedCFunc (so the compiler checks each), and what
** TVMInitializeRuntime registers is exactly that table. */
START_TEST(builtins_are_the_typed_table) {
  const TVMFuncRegistry *g = nccci_tvm_global_registry();
  ck_assert_uint_eq(nccci_tvm_builtin_count, 2);
  for (tvm_function_index_t i = 0; i < nccci_tvm_builtin_count; i++) {
    TVMBackendPackedCFunc fn = NULL;
    tvm_function_index_t idx = 0xbeef;
    ck_assert_int_eq(TVMFuncRegistry_GetByIndex(g, i, &fn), 0);
    ck_assert(fn == nccci_tvm_builtins[i].func);
    ck_assert_int_eq(TVMFuncRegistry_Lookup(g, nccci_tvm_builtins[i].name, &idx),
                     0);
    ck_assert_uint_eq(idx, i);
  }
}
END_TEST

START_TEST(missing_global_gives_null_and_no_error) {
  TVMFunctionHandle h = (TVMFunctionHandle)(uintptr_t)0xdead;
  ck_assert_int_eq(TVMFuncGetGlobal("no.such.function", &h), 0);
  ck_assert_ptr_null(h);
  ck_assert_int_eq(nccc_last_status(), NCCC_OK);
  h = (TVMFunctionHandle)(uintptr_t)0xdead;
  ck_assert_int_eq(TVMFuncGetGlobal("", &h), 0);
  ck_assert_ptr_null(h);
  ck_assert_int_eq(TVMFuncGetGlobal(NULL, &h), kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncGetGlobal("add", NULL), kTvmErrorNcccNullPointer);
}
END_TEST

START_TEST(register_and_call_global) {
  TVMValue ret;
  int tcode;
  TVMFunctionHandle h;
  ck_assert_int_eq(TVMFuncRegisterGlobal("my.add", as_handle(add), 0), 0);
  h = global("my.add");
  ck_assert_ptr_nonnull(h);
  ck_assert_int_eq(call2(h, 40, 2, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 42);
  ck_assert_int_eq(tcode, kTVMArgInt);
  ck_assert_int_eq(calls, 1);
  ck_assert_int_eq(last_num_args, 2);
  /* globals get NULL as their resource handle */
  ck_assert_ptr_null(last_resource);
}
END_TEST

START_TEST(global_handle_encoding) {
  uint16_t n = TVMFuncRegistry_GetNumFuncs(nccci_tvm_global_registry());
  uintptr_t v;
  ck_assert_int_eq(TVMFuncRegisterGlobal("g0", as_handle(add), 0), 0);
  ck_assert_int_eq(TVMFuncRegisterGlobal("g1", as_handle(mul), 0), 0);
  v = (uintptr_t)global("g1");
  ck_assert_uint_eq(v, nccc_handle_encode(GLOBAL_MODULE, (uint16_t)(n + 1)));
  ck_assert_uint_eq(v, 0x80000000u | ((uintptr_t)GLOBAL_MODULE << 16) |
                           0x8000u | (uintptr_t)(n + 1));
  /* the first global has index 0 and still a non-zero handle */
  v = (uintptr_t)global("runtime.SystemLib");
  ck_assert_uint_eq(v, 0x80000000u | ((uintptr_t)GLOBAL_MODULE << 16) | 0x8000u);
}
END_TEST

START_TEST(call_presets_the_return_value) {
  TVMValue ret;
  int tcode = 99;
  ret.v_int64 = 99;
  ck_assert_int_eq(TVMFuncRegisterGlobal("seven", as_handle(seven), 0), 0);
  /* no arguments: the arrays may be NULL */
  ck_assert_int_eq(TVMFuncCall(global("seven"), NULL, NULL, 0, &ret, &tcode),
                   7);
  ck_assert_ptr_null(ret.v_handle);
  ck_assert_int_eq(tcode, kTVMNullptr);
  ck_assert_int_eq(last_num_args, 0);
}
END_TEST

START_TEST(call_checks_its_arguments) {
  TVMValue args[1], ret;
  int codes[1] = {kTVMArgInt}, tcode;
  TVMFunctionHandle h;
  ck_assert_int_eq(TVMFuncRegisterGlobal("seven", as_handle(seven), 0), 0);
  h = global("seven");
  ck_assert_int_eq(TVMFuncCall(h, args, codes, 1, NULL, &tcode),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncCall(h, args, codes, 1, &ret, NULL),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncCall(h, NULL, codes, 1, &ret, &tcode),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncCall(h, args, NULL, 1, &ret, &tcode),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncCall(h, args, codes, -1, &ret, &tcode),
                   kTvmErrorFunctionCallNumArguments);
  ck_assert_int_eq(calls, 0);
  ck_assert_int_eq(TVMFuncCall(h, args, codes, 1, &ret, &tcode), 7);
  ck_assert_int_eq(calls, 1);
}
END_TEST

START_TEST(register_global_errors_and_override) {
  TVMValue ret;
  int tcode;
  TVMFunctionHandle h;
  ck_assert_int_eq(TVMFuncRegisterGlobal("f", as_handle(add), 0), 0);
  h = global("f");
  ck_assert_int_eq(TVMFuncRegisterGlobal("f", as_handle(mul), 0),
                   kTvmErrorFunctionAlreadyDefined);
  ck_assert_int_eq(call2(h, 6, 7, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 13);
  ck_assert_int_eq(TVMFuncRegisterGlobal("f", as_handle(mul), 1), 0);
  /* replaced in place: the old handle calls the new function */
  ck_assert_ptr_eq(global("f"), h);
  ck_assert_int_eq(call2(h, 6, 7, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 42);
  ck_assert_int_eq(TVMFuncRegisterGlobal("", as_handle(add), 0),
                   kTvmErrorNcccBadName);
  ck_assert_int_eq(TVMFuncRegisterGlobal(NULL, as_handle(add), 0),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegisterGlobal("g", NULL, 0),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMFuncRegisterGlobal("runtime.SystemLib", as_handle(add), 0),
                   kTvmErrorFunctionAlreadyDefined);
}
END_TEST

START_TEST(global_registry_fills_up) {
  char name[32];
  int i, err = 0;
  for (i = 0; i < 1000; i++) {
    snprintf(name, sizeof name, "user.function.%d", i);
    err = TVMFuncRegisterGlobal(name, as_handle(add), 0);
    if (err != 0) break;
  }
  ck_assert_int_eq(err, kTvmErrorFunctionRegistryFull);
  ck_assert_int_gt(i, 0);
  /* everything registered is still there and callable */
  for (int k = 0; k < i; k++) {
    TVMValue ret;
    int tcode;
    snprintf(name, sizeof name, "user.function.%d", k);
    ck_assert_int_eq(call2(global(name), k, 1, &ret, &tcode), 0);
    ck_assert_int_eq(ret.v_int64, k + 1);
  }
  ck_assert_ptr_nonnull(global("runtime.SystemLib"));
}
END_TEST

START_TEST(func_free_is_harmless) {
  TVMFunctionHandle h = global("runtime.SystemLib");
  ck_assert_int_eq(TVMFuncFree(h), 0);
  ck_assert_int_eq(TVMFuncFree(NULL), 0);
  ck_assert_ptr_eq(global("runtime.SystemLib"), h);
}
END_TEST

/* ---- modules ------------------------------------------------------------- */

START_TEST(module_functions_get_their_registry) {
  TVMModuleHandle ma, mb;
  TVMFunctionHandle f;
  TVMValue ret;
  int tcode;
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &ma), 0);
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_b, &mb), 0);
  ck_assert_uint_eq((uintptr_t)ma, 0x8000u);
  ck_assert_uint_eq((uintptr_t)mb, 0x8001u);
  ck_assert_int_eq(TVMModGetFunction(ma, "mul", 0, &f), 0);
  ck_assert_uint_eq((uintptr_t)f, nccc_handle_encode(0, 1));
  ck_assert_int_eq(call2(f, 6, 7, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 42);
  /* TVM passes a module function its module's registry */
  ck_assert_ptr_eq(last_resource, mod_a.registry);
  ck_assert_int_eq(TVMModGetFunction(mb, "seven", 1, &f), 0);
  ck_assert_uint_eq((uintptr_t)f, nccc_handle_encode(1, 0));
  ck_assert_int_eq(TVMFuncCall(f, NULL, NULL, 0, &ret, &tcode), 7);
  ck_assert_ptr_eq(last_resource, mod_b.registry);
}
END_TEST

START_TEST(module_lookup_miss) {
  TVMModuleHandle ma;
  TVMFunctionHandle f = (TVMFunctionHandle)(uintptr_t)0xdead;
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &ma), 0);
  ck_assert_int_eq(TVMModGetFunction(ma, "seven", 0, &f),
                   kTvmErrorFunctionNameNotFound);
  ck_assert_uint_eq((uintptr_t)f, 0xdead);
  ck_assert_int_eq(nccc_last_status(), kTvmErrorFunctionNameNotFound);
  ck_assert_int_eq(TVMModGetFunction(ma, NULL, 0, &f), kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMModGetFunction(ma, "add", 0, NULL),
                   kTvmErrorNcccNullPointer);
}
END_TEST

START_TEST(module_table_full_and_free) {
  TVMModuleHandle h[TVM_CRT_MAX_REGISTERED_MODULES], extra = NULL, again;
  TVMFunctionHandle f;
  TVMValue ret;
  int tcode;
  for (int i = 0; i < TVM_CRT_MAX_REGISTERED_MODULES; i++) {
    ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &h[i]), 0);
    ck_assert_uint_eq((uintptr_t)h[i], 0x8000u | (uintptr_t)i);
  }
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_b, &extra), -1);
  ck_assert_ptr_null(extra);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_MODULES_FULL);
  ck_assert_int_eq(TVMModGetFunction(h[0], "add", 0, &f), 0);
  ck_assert_int_eq(TVMModFree(h[0]), 0);
  /* the freed module's handles stop working */
  calls = 0;
  ck_assert_int_eq(call2(f, 1, 2, &ret, &tcode), -1);
  ck_assert_int_eq(calls, 0);
  ck_assert_int_eq(TVMModGetFunction(h[0], "add", 0, &f), -1);
  ck_assert_int_eq(TVMModFree(h[0]), -1);
  /* the slot is reused */
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_b, &again), 0);
  ck_assert_ptr_eq(again, h[0]);
  ck_assert_int_eq(TVMModCreateFromCModule(NULL, &again),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, NULL),
                   kTvmErrorNcccNullPointer);
}
END_TEST

/* Defect 4: TVM checked module indices with '>' where '>=' was meant, so
** index TVM_CRT_MAX_REGISTERED_MODULES read past the module table. Every
** module handle that is not index | 0x8000 of a present module fails. */
START_TEST(module_handle_bounds) {
  TVMModuleHandle ma;
  TVMFunctionHandle f = NULL;
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &ma), 0);
  for (uintptr_t v = 0; v <= 0x1ffff; v++) {
    int r = TVMModGetFunction((TVMModuleHandle)v, "add", 0, &f);
    if (v == 0x8000u) {
      ck_assert_int_eq(r, 0);
    } else {
      ck_assert_int_eq(r, -1);
      ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_HANDLE);
    }
  }
  ck_assert_int_eq(
      TVMModGetFunction((TVMModuleHandle)(uintptr_t)(0x8000u | GLOBAL_MODULE),
                        "add", 0, &f),
      -1);
  ck_assert_int_eq(TVMModFree((TVMModuleHandle)(uintptr_t)(0x8000u | GLOBAL_MODULE)),
                   -1);
  ck_assert_int_eq(TVMModFree((TVMModuleHandle)(uintptr_t)0xffff8000u), -1);
  ck_assert_int_eq(TVMModFree(NULL), -1);
}
END_TEST

/* Every function handle is checked field by field before use: markers,
** module index (present module or the global registry, nothing else; TVM
** also let 0x7fff through for its time evaluator) and function index. */
START_TEST(function_handle_bounds) {
  TVMModuleHandle ma;
  TVMValue args[2], ret;
  int codes[2] = {kTVMArgInt, kTVMArgInt}, tcode;
  uint16_t n_global = TVMFuncRegistry_GetNumFuncs(nccci_tvm_global_registry());
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &ma), 0);
  args[0].v_int64 = 1;
  args[1].v_int64 = 2;
  calls = 0;
  for (uint32_t m = 0; m <= 0x7fff; m++) {
    uint16_t count = m == 0 ? 2 : m == GLOBAL_MODULE ? n_global : 0;
    for (uint32_t fi = 0; fi < 4; fi++) {
      uint32_t v = nccc_handle_encode((uint16_t)m, (uint16_t)fi);
      int r;
      if (m == GLOBAL_MODULE) continue; /* built-ins; called elsewhere */
      r = TVMFuncCall((TVMFunctionHandle)(uintptr_t)v, args, codes, 2, &ret,
                      &tcode);
      if (fi < count) {
        ck_assert_int_eq(r, 0);
      } else {
        ck_assert_int_eq(r, -1);
      }
    }
  }
  ck_assert_int_eq(calls, 2);
  /* the global registry: index == count is one past the end */
  ck_assert_int_eq(TVMFuncCall((TVMFunctionHandle)(uintptr_t)nccc_handle_encode(
                                   GLOBAL_MODULE, n_global),
                               args, codes, 2, &ret, &tcode),
                   -1);
  /* markers missing, or bits above 31 set */
  {
    uint32_t good = nccc_handle_encode(0, 0);
    uintptr_t bad[] = {0, good & ~0x80000000u, good & ~0x8000u, 0x8000u,
                       0x80000000u, 0x7fffffffu, (uintptr_t)-1};
    calls = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      ck_assert_int_eq(TVMFuncCall((TVMFunctionHandle)bad[i], args, codes, 2,
                                   &ret, &tcode),
                       -1);
      ck_assert_int_eq(nccc_last_status(), NCCC_ERR_BAD_HANDLE);
    }
#if UINTPTR_MAX > 0xffffffffu
    ck_assert_int_eq(TVMFuncCall((TVMFunctionHandle)((uintptr_t)good |
                                                     ((uintptr_t)1 << 40)),
                                 args, codes, 2, &ret, &tcode),
                     -1);
#endif
    ck_assert_int_eq(calls, 0);
    ck_assert_int_eq(TVMFuncCall((TVMFunctionHandle)(uintptr_t)good, args,
                                 codes, 2, &ret, &tcode),
                     0);
    ck_assert_int_eq(ret.v_int64, 3);
  }
}
END_TEST

/* ---- the system library ------------------------------------------------------- */

START_TEST(system_library) {
  TVMModuleHandle lib = get_system_library(), other;
  TVMFunctionHandle f;
  TVMValue ret;
  int tcode;
  ck_assert_uint_eq((uintptr_t)lib, 0x8000u);
  ck_assert_ptr_eq(get_system_library(), lib);
  ck_assert_int_eq(TVMModGetFunction(lib, "tvmgen_default_run", 0, &f), 0);
  ck_assert_int_eq(TVMFuncCall(f, NULL, NULL, 0, &ret, &tcode), 7);
  ck_assert_ptr_eq(last_resource, &reg_lib);
  /* never freed, as in TVM */
  ck_assert_int_eq(TVMModFree(lib), 0);
  ck_assert_int_eq(TVMModGetFunction(lib, "mul", 0, &f), 0);
  ck_assert_int_eq(call2(f, 3, 5, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 15);
  /* it takes one slot of the module table */
  for (int i = 1; i < TVM_CRT_MAX_REGISTERED_MODULES; i++) {
    ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &other), 0);
  }
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &other), -1);
}
END_TEST

START_TEST(system_library_with_full_module_table) {
  TVMModuleHandle h;
  TVMValue ret;
  int tcode;
  for (int i = 0; i < TVM_CRT_MAX_REGISTERED_MODULES; i++) {
    ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &h), 0);
  }
  ck_assert_int_eq(TVMFuncCall(global("runtime.SystemLib"), NULL, NULL, 0,
                               &ret, &tcode),
                   -1);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_MODULES_FULL);
  ck_assert_int_eq(TVMModFree(h), 0);
  ck_assert_ptr_eq(get_system_library(), h);
}
END_TEST

START_TEST(module_get_function_builtin) {
  TVMModuleHandle lib = get_system_library();
  TVMFunctionHandle mgf = global("tvm.rpc.server.ModuleGetFunction"), direct;
  TVMValue args[3], ret;
  int codes[3] = {kTVMModuleHandle, kTVMStr, kDLInt}, tcode;
  args[0].v_handle = lib;
  args[1].v_str = "mul";
  args[2].v_int64 = 0;
  ck_assert_int_eq(TVMFuncCall(mgf, args, codes, 3, &ret, &tcode), 0);
  ck_assert_int_eq(tcode, kTVMPackedFuncHandle);
  ck_assert_int_eq(TVMModGetFunction(lib, "mul", 0, &direct), 0);
  ck_assert_ptr_eq(ret.v_handle, direct);
  /* a missing name is a null value, no error */
  args[1].v_str = "missing";
  ck_assert_int_eq(TVMFuncCall(mgf, args, codes, 3, &ret, &tcode), 0);
  ck_assert_int_eq(tcode, kTVMNullptr);
  ck_assert_ptr_null(ret.v_handle);
  /* wrong calls are errors */
  ck_assert_int_eq(TVMFuncCall(mgf, args, codes, 2, &ret, &tcode),
                   kTvmErrorFunctionCallNumArguments);
  codes[1] = kTVMArgInt;
  ck_assert_int_eq(TVMFuncCall(mgf, args, codes, 3, &ret, &tcode),
                   kTvmErrorFunctionCallWrongArgType);
  codes[1] = kTVMStr;
  args[0].v_handle = (void *)(uintptr_t)0x8001u;
  ck_assert_int_eq(TVMFuncCall(mgf, args, codes, 3, &ret, &tcode), -1);
  ck_assert_ptr_null(ret.v_handle);
}
END_TEST

/* ---- re-initialisation ------------------------------------------------------------ */

START_TEST(reinitialise) {
  const TVMFuncRegistry *g = nccci_tvm_global_registry();
  TVMModuleHandle h;
  TVMValue ret;
  int tcode;
  ck_assert_int_eq(TVMFuncRegisterGlobal("before", as_handle(add), 0), 0);
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &h), 0);
  (void)get_system_library();
  for (int round = 0; round < 50; round++) {
    ck_assert_int_eq(TVMInitializeRuntime(), kTvmErrorNoError);
    /* a fresh runtime: built-ins only, empty module table */
    ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(g), nccci_tvm_builtin_count);
    ck_assert_ptr_null(global("before"));
    for (int i = 0; i < TVM_CRT_MAX_REGISTERED_MODULES; i++) {
      ck_assert_int_eq(TVMModCreateFromCModule(&mod_b, &h), 0);
    }
    ck_assert_int_eq(TVMModCreateFromCModule(&mod_b, &h), -1);
    ck_assert_int_eq(TVMInitializeRuntime(), kTvmErrorNoError);
    /* globals registered after re-initialisation work */
    ck_assert_int_eq(TVMFuncRegisterGlobal("after", as_handle(mul), 0), 0);
    ck_assert_int_eq(call2(global("after"), 6, 7, &ret, &tcode), 0);
    ck_assert_int_eq(ret.v_int64, 42);
    ck_assert_ptr_null(last_resource);
    ck_assert_uint_eq((uintptr_t)get_system_library(), 0x8000u);
    ck_assert_uint_eq(TVMFuncRegistry_GetNumFuncs(g),
                      nccci_tvm_builtin_count + 1);
  }
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("tvm_runtime");
  nccc_check_tcase(s, "globals", setup, NULL,
                   NCCC_CHECK_TESTS(builtins_present,
                                    builtins_are_the_typed_table,
                                    missing_global_gives_null_and_no_error,
                                    register_and_call_global,
                                    global_handle_encoding,
                                    call_presets_the_return_value,
                                    call_checks_its_arguments,
                                    register_global_errors_and_override,
                                    global_registry_fills_up,
                                    func_free_is_harmless));
  TCase *c = nccc_check_tcase(s, "modules", setup, NULL,
      NCCC_CHECK_TESTS(module_functions_get_their_registry, module_lookup_miss,
                       module_table_full_and_free, module_handle_bounds,
                       function_handle_bounds, system_library,
                       system_library_with_full_module_table,
                       module_get_function_builtin, reinitialise));
  tcase_set_timeout(c, 60);
  return s;
}
