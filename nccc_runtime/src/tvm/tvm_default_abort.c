/*
** tvm_default_abort.c — on Windows, the default TVMPlatformAbort (the
** nccc platform's abort) as an archive member of its own: the linker
** takes it only when the program defines none. Elsewhere tvm_runtime.c
** has it as a weak definition, and this file is empty.
*/
#include <nccc/config.h>
#include <nccc/platform.h>
#include <nccc/status.h>
#include <tvm/runtime/crt/platform.h>

#if NCCC_WITH_TVM && defined(_WIN32)

void TVMPlatformAbort(tvm_crt_error_t code) {
  nccc_platform_abort((nccc_status)code);
  for (;;) {
  }
}

#endif
