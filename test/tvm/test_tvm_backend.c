/*
** test_tvm_backend.c — TVM CRT's last error (per thread) and the
** platform and backend helpers: the lock, workspaces, parallel launch,
** system-library symbols, global functions for operators, run-once,
** environment functions and abort.
*/
#define _POSIX_C_SOURCE 200809L /* pthread barriers */

#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <nccc/platform.h>
#include <nccc/status.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/error_codes.h>
#include <tvm/runtime/crt/module.h>
#include <tvm/runtime/crt/platform.h>

#include "tvm_fixture.h"
#include "nccc_check.h"

/* ---- the last error ---------------------------------------------------------------- */

START_TEST(set_and_get_last_error) {
  TVMAPISetLastError("first problem");
  ck_assert_str_eq(TVMGetLastError(), "first problem");
  ck_assert_int_eq(nccc_last_status(), kTvmErrorPlatformCheckFailure);
  TVMAPISetLastError(NULL);
  ck_assert_str_eq(TVMGetLastError(), "");
  ck_assert_int_eq(nccc_last_status(), NCCC_OK);
  ck_assert_int_eq(TVMAPIErrorf("bad %d/%s", 42, "x"), 8);
  ck_assert_str_eq(TVMGetLastError(), "bad 42/x");
}
END_TEST

START_TEST(errorf_truncates_safely) {
  char expect[NCCC_ERROR_MESSAGE_BYTES];
  memset(expect, 'y', sizeof expect - 1);
  expect[sizeof expect - 1] = '\0';
  ck_assert_int_eq(TVMAPIErrorf("%0500d", 0) , 500);
  ck_assert_uint_eq(strlen(TVMGetLastError()), NCCC_ERROR_MESSAGE_BYTES - 1);
  ck_assert_int_eq(TVMAPIErrorf("%s%s", expect, "tail"),
                   (int)(NCCC_ERROR_MESSAGE_BYTES - 1 + 4));
  ck_assert_str_eq(TVMGetLastError(), expect);
}
END_TEST

START_TEST(packed_function_error_reaches_caller) {
  TVMValue args[2], ret;
  int codes[2] = {kTVMArgInt, kTVMStr}, tcode;
  ck_assert_int_eq(TVMFuncRegisterGlobal("my.add", as_handle(add), 0), 0);
  args[0].v_int64 = 1;
  args[1].v_str = "two";
  ck_assert_int_eq(TVMFuncCall(global("my.add"), args, codes, 2, &ret, &tcode),
                   kTvmErrorFunctionCallWrongArgType);
  ck_assert_str_eq(TVMGetLastError(), "add: expects two ints");
}
END_TEST

/* Defect 5: TVM kept one error buffer for all threads. Two threads each
** record a different error, wait until both have, then read their own. */
static pthread_barrier_t barrier;

static void *thread_a(void *arg) {
  (void)arg;
  TVMAPISetLastError("error of thread A");
  pthread_barrier_wait(&barrier);
  pthread_barrier_wait(&barrier); /* B has failed too */
  return (void *)(uintptr_t)(strcmp(TVMGetLastError(), "error of thread A") == 0);
}

static void *thread_b(void *arg) {
  TVMValue ret;
  int tcode, r, ok;
  (void)arg;
  pthread_barrier_wait(&barrier); /* A has set its error */
  r = TVMFuncCall((TVMFunctionHandle)(uintptr_t)0x1234, NULL, NULL, 0, &ret,
                  &tcode);
  pthread_barrier_wait(&barrier);
  ok = r == -1 && strstr(TVMGetLastError(), "invalid function handle") != NULL &&
       nccc_last_status() == NCCC_ERR_BAD_HANDLE;
  return (void *)(uintptr_t)ok;
}

START_TEST(last_error_per_thread) {
  for (int round = 0; round < 20; round++) {
    pthread_t a, b;
    void *ra, *rb;
    TVMAPISetLastError("error of the main thread");
    ck_assert_int_eq(pthread_barrier_init(&barrier, NULL, 2), 0);
    ck_assert_int_eq(pthread_create(&a, NULL, thread_a, NULL), 0);
    ck_assert_int_eq(pthread_create(&b, NULL, thread_b, NULL), 0);
    ck_assert_int_eq(pthread_join(a, &ra), 0);
    ck_assert_int_eq(pthread_join(b, &rb), 0);
    pthread_barrier_destroy(&barrier);
    ck_assert_uint_eq((uintptr_t)ra, 1);
    ck_assert_uint_eq((uintptr_t)rb, 1);
    ck_assert_str_eq(TVMGetLastError(), "error of the main thread");
  }
}
END_TEST

/* ---- platform ------------------------------------------------------------------------ */

static int locks, unlocks;
static void count_lock(void) { locks++; }
static void count_unlock(void) { unlocks++; }

START_TEST(changes_and_lookups_take_the_platform_lock) {
  nccc_platform p = {0};
  TVMModuleHandle h;
  TVMFunctionHandle f;
  TVMValue ret;
  int tcode;
  p.lock = count_lock;
  p.unlock = count_unlock;
  locks = unlocks = 0;
  nccc_platform_set(&p);
  ck_assert_int_eq(TVMFuncRegisterGlobal("locked", as_handle(add), 0), 0);
  ck_assert_int_eq(TVMModCreateFromCModule(&mod_a, &h), 0);
  ck_assert_int_eq(TVMModGetFunction(h, "add", 0, &f), 0);
  ck_assert_int_eq(TVMFuncGetGlobal("locked", &f), 0);
  ck_assert_int_eq(TVMModFree(h), 0);
  ck_assert_int_eq(locks, 5);
  ck_assert_int_eq(unlocks, 5);
  /* calls take no lock */
  ck_assert_int_eq(call2(f, 1, 1, &ret, &tcode), 0);
  nccc_platform_set(NULL);
  ck_assert_int_eq(locks, 5);
  ck_assert_int_eq(unlocks, 5);
}
END_TEST

static void *fail_alloc(size_t n) {
  (void)n;
  return NULL;
}

START_TEST(workspace) {
  nccc_platform p = {0};
  uint8_t *w = TVMBackendAllocWorkspace(kDLCPU, 0, 256, kDLFloat, 32);
  ck_assert_ptr_nonnull(w);
  memset(w, 1, 256);
  ck_assert_int_eq(TVMBackendFreeWorkspace(kDLCPU, 0, w), 0);
  ck_assert_int_eq(TVMBackendFreeWorkspace(kDLCPU, 0, NULL), 0);
  ck_assert_ptr_null(TVMBackendAllocWorkspace(kDLCPU, 0, 0, kDLFloat, 32));
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_INVALID_ARG);
  p.alloc = fail_alloc;
  nccc_platform_set(&p);
  ck_assert_ptr_null(TVMBackendAllocWorkspace(kDLCPU, 0, 16, kDLFloat, 32));
  nccc_platform_set(NULL);
  ck_assert_int_eq(nccc_last_status(), NCCC_ERR_NO_MEMORY);
}
END_TEST

static int lambda_task = -1, lambda_num_task = -1;
static void *lambda_cdata;
static int lambda(int task_id, TVMParallelGroupEnv *penv, void *cdata) {
  lambda_task = task_id;
  lambda_num_task = penv->num_task;
  lambda_cdata = cdata;
  return 5;
}

START_TEST(parallel_launch_runs_one_task) {
  int data = 0;
  ck_assert_int_eq(TVMBackendParallelLaunch(lambda, &data, 8), 5);
  ck_assert_int_eq(lambda_task, 0);
  ck_assert_int_eq(lambda_num_task, 1);
  ck_assert_ptr_eq(lambda_cdata, &data);
  ck_assert_int_eq(TVMBackendParallelLaunch(NULL, &data, 1),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMBackendParallelBarrier(0, NULL), 0);
}
END_TEST

START_TEST(register_system_lib_symbol) {
  TVMValue ret;
  int tcode;
  ck_assert_int_eq(TVMBackendRegisterSystemLibSymbol("sym.add", as_handle(add)),
                   0);
  ck_assert_int_eq(call2(global("sym.add"), 2, 3, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 5);
  ck_assert_int_eq(TVMBackendRegisterSystemLibSymbol("sym.add", as_handle(mul)),
                   kTvmErrorFunctionAlreadyDefined);
}
END_TEST

START_TEST(get_func_from_env_finds_globals) {
  TVMFunctionHandle f = NULL, untouched = as_handle(mul);
  TVMValue ret;
  int tcode;
  ck_assert_int_eq(TVMFuncRegisterGlobal("env.add", as_handle(add), 0), 0);
  ck_assert_int_eq(TVMBackendGetFuncFromEnv(NULL, "env.add", &f), 0);
  ck_assert_ptr_eq(f, global("env.add"));
  ck_assert_int_eq(call2(f, 40, 2, &ret, &tcode), 0);
  ck_assert_int_eq(ret.v_int64, 42);
  /* the module context is not read: any value finds the same function */
  f = NULL;
  ck_assert_int_eq(TVMBackendGetFuncFromEnv(&ret, "env.add", &f), 0);
  ck_assert_ptr_eq(f, global("env.add"));
  ck_assert_int_eq(TVMBackendGetFuncFromEnv(NULL, "env.absent", &untouched),
                   kTvmErrorFunctionNameNotFound);
  ck_assert_ptr_eq(untouched, as_handle(mul));
  ck_assert_ptr_nonnull(strstr(TVMGetLastError(), "env.absent"));
  ck_assert_int_eq(TVMBackendGetFuncFromEnv(NULL, NULL, &f),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMBackendGetFuncFromEnv(NULL, "env.add", NULL),
                   kTvmErrorNcccNullPointer);
}
END_TEST

static int once_calls;
static int count_once(void *cdata) {
  once_calls++;
  return *(const int *)cdata;
}

START_TEST(run_once_runs_once) {
  static void *handle, *failing;
  int result = 0, error = 5;
  once_calls = 0;
  handle = failing = NULL;
  ck_assert_int_eq(TVMBackendRunOnce(&handle, count_once, &result, 4), 0);
  ck_assert_ptr_nonnull(handle);
  ck_assert_int_eq(TVMBackendRunOnce(&handle, count_once, &result, 4), 0);
  ck_assert_int_eq(once_calls, 1);
  /* f's result comes back, and the handle is claimed all the same */
  ck_assert_int_eq(TVMBackendRunOnce(&failing, count_once, &error, 4), 5);
  ck_assert_int_eq(TVMBackendRunOnce(&failing, count_once, &error, 4), 0);
  ck_assert_int_eq(once_calls, 2);
  ck_assert_int_eq(TVMBackendRunOnce(NULL, count_once, &result, 4),
                   kTvmErrorNcccNullPointer);
  ck_assert_int_eq(TVMBackendRunOnce(&handle, NULL, &result, 4),
                   kTvmErrorNcccNullPointer);
}
END_TEST

START_TEST(register_env_capi_knows_the_python_names) {
  int anything;
  ck_assert_int_eq(TVMBackendRegisterEnvCAPI("PyErr_CheckSignals", &anything),
                   0);
  ck_assert_int_eq(TVMBackendRegisterEnvCAPI("PyGILState_Ensure", &anything),
                   0);
  ck_assert_int_eq(TVMBackendRegisterEnvCAPI("PyGILState_Release", &anything),
                   0);
  ck_assert_int_eq(TVMBackendRegisterEnvCAPI("Py_IncRef", &anything), 0);
  ck_assert_int_eq(TVMBackendRegisterEnvCAPI("Py_DecRef", &anything), 0);
  ck_assert_int_eq(TVMBackendRegisterEnvCAPI("PyErr_Print", &anything),
                   kTvmErrorFunctionNameNotFound);
  ck_assert_ptr_nonnull(strstr(TVMGetLastError(), "PyErr_Print"));
  ck_assert_int_eq(TVMBackendRegisterEnvCAPI(NULL, &anything),
                   kTvmErrorNcccNullPointer);
}
END_TEST

/* The hook leaves the abort by a jump. mingw-w64's longjmp unwinds the
** stack through Windows' structured exceptions, which does not come back
** out of TVMPlatformAbort under wine (the abort spins instead): there the
** jump is GCC's own, which only restores the registers. */
#ifdef _WIN32
static void *abort_jump[5];
#define ABORT_SETJMP() __builtin_setjmp(abort_jump)
#define ABORT_LONGJMP() __builtin_longjmp(abort_jump, 1)
#else
static jmp_buf abort_jump;
#define ABORT_SETJMP() setjmp(abort_jump)
#define ABORT_LONGJMP() longjmp(abort_jump, 1)
#endif
static nccc_status abort_status;
static void abort_hook(nccc_status st) {
  abort_status = st;
  ABORT_LONGJMP();
}

START_TEST(platform_abort_reaches_the_nccc_hook) {
  nccc_platform p = {0};
  p.abort = abort_hook;
  abort_status = NCCC_OK;
  nccc_platform_set(&p);
  if (ABORT_SETJMP() == 0) {
    TVMPlatformAbort(kTvmErrorPlatformNoMemory);
  }
  nccc_platform_set(NULL);
  ck_assert_int_eq(abort_status, kTvmErrorPlatformNoMemory);
}
END_TEST

Suite *nccc_check_suite(void) {
  Suite *s = suite_create("tvm_backend");
  nccc_check_tcase(s, "errors_and_platform", setup, NULL,
                   NCCC_CHECK_TESTS(set_and_get_last_error,
                                    errorf_truncates_safely,
                                    packed_function_error_reaches_caller,
                                    last_error_per_thread,
                                    changes_and_lookups_take_the_platform_lock,
                                    workspace, parallel_launch_runs_one_task,
                                    register_system_lib_symbol,
                                    get_func_from_env_finds_globals,
                                    run_once_runs_once,
                                    register_env_capi_knows_the_python_names,
                                    platform_abort_reaches_the_nccc_hook));
  return s;
}
