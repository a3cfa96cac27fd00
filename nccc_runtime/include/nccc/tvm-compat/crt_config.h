/*
** crt_config.h — the build settings of TVM's CRT, with TVM's names and
** TVM's default values. Each can be set on the compiler command line
** (-DTVM_CRT_MAX_REGISTERED_MODULES=8) when building the nccc runtime.
**
** The runtime is a compiled library: it keeps the values it was built
** with, whatever a program that includes this file defines. Settings
** marked "unused" exist for code written against TVM and change nothing
** in nccc.
*/
#ifndef NCCC_TVM_CRT_CONFIG_H
#define NCCC_TVM_CRT_CONFIG_H

/* Unused: low-level debugging switch. */
#ifndef TVM_CRT_DEBUG
#define TVM_CRT_DEBUG 0
#endif

/* Unused: the most dimensions of an NDArray. */
#ifndef TVM_CRT_MAX_NDIM
#define TVM_CRT_MAX_NDIM 6
#endif

/* Unused: the most arguments of a generated function. */
#ifndef TVM_CRT_MAX_ARGS
#define TVM_CRT_MAX_ARGS 10
#endif

/* Bytes of the static buffer that holds the global function registry:
** names, plus one function pointer per TVM average entry. */
#ifndef TVM_CRT_GLOBAL_FUNC_REGISTRY_SIZE_BYTES
#define TVM_CRT_GLOBAL_FUNC_REGISTRY_SIZE_BYTES 512
#endif

/* Slots of the module table (TVMModCreateFromCModule). Global functions
** carry this number as their module index in handles. */
#ifndef TVM_CRT_MAX_REGISTERED_MODULES
#define TVM_CRT_MAX_REGISTERED_MODULES 2
#endif

/* Unused: the largest RPC packet. */
#ifndef TVM_CRT_MAX_PACKET_SIZE_BYTES
#define TVM_CRT_MAX_PACKET_SIZE_BYTES 2048
#endif

/* Unused: the longest data type string ("float32"). */
#ifndef TVM_CRT_MAX_STRLEN_DLTYPE
#define TVM_CRT_MAX_STRLEN_DLTYPE 10
#endif

/* Bytes of a buffer that holds a function name with its NUL: mutable
** registries refuse names of this length or longer. */
#ifndef TVM_CRT_MAX_STRLEN_FUNCTION_NAME
#define TVM_CRT_MAX_STRLEN_FUNCTION_NAME 120
#endif

/* Unused: the longest parameter name. */
#ifndef TVM_CRT_MAX_STRLEN_PARAM_NAME
#define TVM_CRT_MAX_STRLEN_PARAM_NAME 80
#endif

/* Unused: the name buffer of TVM's TVMPackedFunc wrapper (shorter than
** some of TVM's own built-ins' names, so registries do not apply it). */
#ifndef TVM_CRT_MAX_FUNCTION_NAME_LENGTH_BYTES
#define TVM_CRT_MAX_FUNCTION_NAME_LENGTH_BYTES 30
#endif

#endif
