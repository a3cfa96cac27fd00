/*
** firmware.c — the device image: the nccc runtime, the modules "m" (the
** libm subset), "dev" and with closures "callbacks" (device/fixture),
** with remote memory "cdata" (test/cdata/cdata.idl, C data for the
** hosts' C objects in the device's memory, over the arena of
** board_arena.c), and with the TVM layer a system library, served over
** UART0 by the RPC server (docs/RPC.md).
**
** Start-up follows TVM's CRT: TVMInitializeRuntime, the system library's
** function registered as a global, then the nccc modules; the RPC server
** announces the device (a start message) and serves until the board is
** reset. TVMPlatformAbort tells the host in a log message, then resets
** the board: the host fails the call in progress and starts a session
** with the restarted device.
*/
#include <stddef.h>
#include <stdint.h>

#include <nccc/nccc.h>
#include <nccc/rpc_server.h>
#include <tvm/runtime/crt/platform.h>
#if NCCC_WITH_TVM
#include <nccc/packed.h>
#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/crt/crt.h>
#include <tvm/runtime/crt/module.h>
#endif

#include "board.h"
#include "board_arena.h"
#include "dev_nccc.h"
#include "m_nccc.h"
#if NCCC_WITH_CLOSURES
#include "callbacks_nccc.h"
#endif
#if NCCC_WITH_REMOTE_MEMORY
#include "cdata_nccc.h"
#endif

static nccc_rpc_server server;

static long uart_read(void *ctx, uint8_t *buf, size_t n) {
  (void)ctx;
  return (long)board_uart_read(buf, n);
}

static long uart_write(void *ctx, const uint8_t *buf, size_t n) {
  (void)ctx;
  board_uart_write(buf, n);
  return (long)n;
}

/* Writes "TVMPlatformAbort: code N" into text (at least 40 bytes). */
static void abort_text(char *text, uint32_t code) {
  static const char head[] = "TVMPlatformAbort: code ";
  char digits[11];
  size_t n = 0, i;
  for (i = 0; head[i] != '\0'; i++) text[i] = head[i];
  do {
    digits[n++] = (char)('0' + code % 10);
    code /= 10;
  } while (code != 0);
  while (n > 0) text[i++] = digits[--n];
  text[i] = '\0';
}

void TVMPlatformAbort(tvm_crt_error_t code) {
  char text[40];
  abort_text(text, (uint32_t)code);
  nccc_rpc_server_log(&server, NCCC_RPC_LOG_ABORT, text);
  board_reset();
}

#if NCCC_WITH_TVM
/* The system library: one packed function, affine(a, b, x) = a * x + b
** over three integers. */
static int affine(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
                  int *ret_tcode, void *resource_handle) {
  int k;
  (void)resource_handle;
  if (num_args != 3) return kTvmErrorFunctionCallNumArguments;
  for (k = 0; k < 3; k++) {
    if (type_codes[k] != kTVMArgInt) return kTvmErrorFunctionCallWrongArgType;
  }
  ret->v_int64 = args[0].v_int64 * args[2].v_int64 + args[1].v_int64;
  *ret_tcode = kTVMArgInt;
  return 0;
}

NCCC_NAMES_BLOB(lib_names, 1, "affine\0");
static const TVMBackendPackedCFunc lib_funcs[] = {affine};
static const TVMFuncRegistry lib_registry = {(const char *)&lib_names, lib_funcs};
static const TVMModule system_lib = {&lib_registry};

const TVMModule *TVMSystemLibEntryPoint(void) { return &system_lib; }

/* TVM's life cycle: the runtime, then the system library's function as
** the global "dev.affine" (as TVM's generated code registers its
** symbols), then the module "tvm" through which a host reaches both. */
static int start_tvm(void) {
  TVMBackendPackedCFunc fn = affine;
  void *as_handle;
  if (TVMInitializeRuntime() != kTvmErrorNoError) return 0;
  if (nccc_init(NULL, 0) != NCCC_OK) return 0;
  __builtin_memcpy(&as_handle, &fn, sizeof as_handle);
  return TVMFuncRegisterGlobal("dev.affine", as_handle, 0) == 0 &&
         nccc_tvm_module_add(NULL) == NCCC_OK;
}
#else
static int start_tvm(void) {
  return nccc_init(NULL, 0) == NCCC_OK;
}
#endif

/* Host procedures as the callbacks of module "callbacks" (docs/RPC.md,
** "Callbacks across the wire"); a build without closures has neither. */
#if NCCC_WITH_CLOSURES
static int serve_callbacks(void) {
  return nccc_callbacks_register() == NCCC_OK &&
         nccc_rpc_server_serve_callbacks(&server) == NCCC_OK;
}
#else
static int serve_callbacks(void) { return 1; }
#endif

/* The C data module, where hosts can reach the device's memory. */
#if NCCC_WITH_REMOTE_MEMORY
static int register_cdata(void) { return nccc_cdata_register() == NCCC_OK; }
#else
static int register_cdata(void) { return 1; }
#endif

int main(void) {
  static const nccc_rpc_transport uart0 = {NULL, uart_read, uart_write};
  board_uart_init();
  board_arena_install();
  if (!start_tvm()) return 1;
  if (nccc_m_register() != NCCC_OK || nccc_dev_register() != NCCC_OK || !register_cdata()) {
    return 2;
  }
  if (nccc_rpc_server_init(&server, &uart0) != NCCC_OK) return 3;
  if (!serve_callbacks()) return 4;
  nccc_rpc_server_run(&server);
  return 5; /* the link is gone: a UART never goes */
}
