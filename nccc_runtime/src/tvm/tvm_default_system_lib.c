/*
** tvm_default_system_lib.c — on Windows, the default
** TVMSystemLibEntryPoint (no system library) as an archive member of its
** own: the linker takes it only when the program defines none. Elsewhere
** tvm_runtime.c has it as a weak definition, and this file is empty.
*/
#include <stddef.h>

#include <nccc/config.h>
#include <tvm/runtime/crt/module.h>

#if NCCC_WITH_TVM && defined(_WIN32)

const TVMModule *TVMSystemLibEntryPoint(void) { return NULL; }

#endif
