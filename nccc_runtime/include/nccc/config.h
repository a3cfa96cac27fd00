/*
** nccc/config.h — build-time limits of the runtime.
**
** Every setting is a macro with a default; define it on the compiler command
** line (-DNCCC_MAX_MODULES=4) to change it. Nothing here allocates: the
** numbers size static arrays in .bss.
*/
#ifndef NCCC_CONFIG_H
#define NCCC_CONFIG_H

/*
** Features a build can leave out (1: built, 0: left out). A small device
** that serves a generated module without callbacks over RPC needs none of
** them (device/configurations.txt, "smallest"). Build the
** runtime and every generated wrapper with the same settings: a wrapper
** that uses a left-out feature fails to compile or to link, and the
** built-ins of a left-out feature answer NCCC_ERR_NOT_IMPLEMENTED.
**
**   NCCC_WITH_TRACE   call tracing (trace.c, nccc/trace.h, the trace_*
**                     built-ins); without it [trace] wrappers run their
**                     body directly
**   NCCC_WITH_FAULTS  fault injection (fault.c, nccc/fault.h, the fault_*
**                     built-ins); without it [fault] wrappers run their
**                     body directly
**   NCCC_WITH_THUNKS  thunk pools (thunk.c): callbacks whose type has no
**                     context parameter
**   NCCC_WITH_TVM     the TVM-compatible layer (src/tvm/, nccc/packed.h,
**                     the tvm-compat headers); needs the global registry
**   NCCC_WITH_CLOSURES closures (closure.c, closure_type.c, the closure_*
**                     built-ins) and with them callbacks across the wire
**                     (rpc_callback.c); without them a module can have no
**                     callback (and NCCC_WITH_THUNKS must be 0)
**   NCCC_WITH_GLOBAL_REGISTRY the global registry and mutable registries
**                     (mreg.c, nccc_mreg_*): without it nccc_register and the register
**                     built-in answer NCCC_ERR_NOT_IMPLEMENTED, lookup finds
**                     module functions only, and nccc_init takes no block
**   NCCC_WITH_STATUS_NAMES the text of every status (nccc_status_name):
**                     without them it answers one fixed text, and a host
**                     names a status from its own generated table
**   NCCC_WITH_HOST_BUILTINS the built-ins through which a host in the same
**                     program calls and reaches memory (call, call_checked,
**                     alloc, free, peek, poke, read, write, strlen); a host
**                     across the wire uses the protocol's own requests
**   NCCC_WITH_REMOTE_MEMORY the RPC server's remote-memory requests
**                     (rpc_memory.c: alloc, free, read, write, strlen):
**                     without them it refuses them with
**                     NCCC_ERR_NOT_IMPLEMENTED, and a host passes strings
**                     only inside calls and their results (docs/RPC.md)
**   NCCC_WITH_NAME_HASH lookup by name through a registry's generated hash
**                     index (nccc/registry.h): without it lookup searches
**                     the sorted index (or scans a small registry) and
**                     ignores the hash index; same results, less code
*/
#ifndef NCCC_WITH_TRACE
#define NCCC_WITH_TRACE 1
#endif
#ifndef NCCC_WITH_FAULTS
#define NCCC_WITH_FAULTS 1
#endif
#ifndef NCCC_WITH_THUNKS
#define NCCC_WITH_THUNKS 1
#endif
#ifndef NCCC_WITH_TVM
#define NCCC_WITH_TVM 1
#endif
#ifndef NCCC_WITH_CLOSURES
#define NCCC_WITH_CLOSURES 1
#endif
#ifndef NCCC_WITH_GLOBAL_REGISTRY
#define NCCC_WITH_GLOBAL_REGISTRY 1
#endif
#ifndef NCCC_WITH_STATUS_NAMES
#define NCCC_WITH_STATUS_NAMES 1
#endif
#ifndef NCCC_WITH_HOST_BUILTINS
#define NCCC_WITH_HOST_BUILTINS 1
#endif
#ifndef NCCC_WITH_REMOTE_MEMORY
#define NCCC_WITH_REMOTE_MEMORY 1
#endif
#ifndef NCCC_WITH_NAME_HASH
#define NCCC_WITH_NAME_HASH 1
#endif

#if NCCC_WITH_THUNKS && !NCCC_WITH_CLOSURES
#error "NCCC_WITH_THUNKS needs NCCC_WITH_CLOSURES (a thunk calls a closure)"
#endif
#if NCCC_WITH_TVM && !NCCC_WITH_GLOBAL_REGISTRY
#error "NCCC_WITH_TVM needs NCCC_WITH_GLOBAL_REGISTRY (TVMFuncRegisterGlobal)"
#endif

/* The trace and fault shims share the call-site machinery (site.c). */
#define NCCC_WITH_SITES (NCCC_WITH_TRACE || NCCC_WITH_FAULTS)

/* Modules that can be added at once (generated modules, the built-in one). */
#ifndef NCCC_MAX_MODULES
#define NCCC_MAX_MODULES 16
#endif

/* Bytes of the static block used for the global mutable registry when
** nccc_init() is given no block of its own. */
#ifndef NCCC_GLOBAL_REGISTRY_BYTES
#define NCCC_GLOBAL_REGISTRY_BYTES 2048
#endif

/*
** Hosted targets (a C library with threads and plenty of RAM) get larger
** default pools than bare-metal ones; every pool below can be set
** explicitly either way.
*/
#if defined(__unix__) || defined(__APPLE__) || defined(_WIN32)
#define NCCC_CONFIG_HOSTED 1
#else
#define NCCC_CONFIG_HOSTED 0
#endif

/* Closure records that can be claimed at once (1..32767). A group of
** callbacks sharing one context takes one record per callback. */
#ifndef NCCC_MAX_CLOSURES
#if NCCC_CONFIG_HOSTED
#define NCCC_MAX_CLOSURES 256
#else
#define NCCC_MAX_CLOSURES 16
#endif
#endif

/* Alignment of a closure record in bytes (a power of two, at least 8):
** a cache line on hosted targets, so that a callback reads one line and
** the index of a context is one shift; 8 on bare metal, where RAM is
** scarcer than cache lines. */
#ifndef NCCC_CLOSURE_RECORD_ALIGN
#if NCCC_CONFIG_HOSTED
#define NCCC_CLOSURE_RECORD_ALIGN 64
#else
#define NCCC_CLOSURE_RECORD_ALIGN 8
#endif
#endif

/* Most callbacks that can share one context (1..255). */
#ifndef NCCC_CLOSURE_GROUP_MAX
#define NCCC_CLOSURE_GROUP_MAX 4
#endif

/* Records in the static trace ring, used unless nccc_trace_set_buffer
** supplies a block (0: no static ring; tracing then needs a block). */
#ifndef NCCC_TRACE_RECORDS
#if NCCC_CONFIG_HOSTED
#define NCCC_TRACE_RECORDS 256
#else
#define NCCC_TRACE_RECORDS 16
#endif
#endif

/* Functions that can have tracing switched on one by one (modules are
** switched on as a whole without using this table). */
#ifndef NCCC_TRACE_MAX_FUNCTIONS
#if NCCC_CONFIG_HOSTED
#define NCCC_TRACE_MAX_FUNCTIONS 32
#else
#define NCCC_TRACE_MAX_FUNCTIONS 4
#endif
#endif

/* Functions that can have a fault armed at once. */
#ifndef NCCC_FAULT_MAX
#if NCCC_CONFIG_HOSTED
#define NCCC_FAULT_MAX 16
#else
#define NCCC_FAULT_MAX 4
#endif
#endif

/* Result slots one armed fault can set (out[0..]); further out slots of a
** faulted call are zeroed. */
#ifndef NCCC_FAULT_SLOTS
#define NCCC_FAULT_SLOTS 4
#endif

/* Bytes of the last-error message buffer (one per thread where threads
** exist). Longer messages are truncated, never overrun. */
#ifndef NCCC_ERROR_MESSAGE_BYTES
#define NCCC_ERROR_MESSAGE_BYTES 160
#endif

/*
** Per-thread last error. Hosted builds on Unix, macOS and Windows keep the
** last error in thread-local storage (C11 _Thread_local, or the compiler's
** __thread). Bare-metal builds have no threads library to provide TLS, so
** they keep one buffer for the whole program; define NCCC_THREAD_LOCAL
** yourself (for example to __thread with an RTOS that supports it) to
** override.
*/
#ifndef NCCC_THREAD_LOCAL
#if defined(__unix__) || defined(__APPLE__) || defined(_WIN32)
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && \
    !defined(__STDC_NO_THREADS__)
#define NCCC_THREAD_LOCAL _Thread_local
#elif defined(__GNUC__)
#define NCCC_THREAD_LOCAL __thread
#elif defined(_MSC_VER)
#define NCCC_THREAD_LOCAL __declspec(thread)
#else
#define NCCC_THREAD_LOCAL
#endif
#else
#define NCCC_THREAD_LOCAL
#endif
#endif

/*
** Remote calls (nccc/rpc_server.h, docs/RPC.md). The server's buffers are
** static, in its nccc_rpc_server object: 2 * (NCCC_RPC_MAX_DEPTH + 1)
** buffers of NCCC_RPC_MAX_MESSAGE bytes, one receive and one send buffer
** per nesting level.
*/
/* The largest message payload the server receives or sends (bytes, a
** multiple of 8; at least 256). A call needs 16 + 8 * slots bytes. */
#ifndef NCCC_RPC_MAX_MESSAGE
#if NCCC_CONFIG_HOSTED
#define NCCC_RPC_MAX_MESSAGE 16384
#else
#define NCCC_RPC_MAX_MESSAGE 576
#endif
#endif

/* The most slots one side of a remote call may have. */
#ifndef NCCC_RPC_MAX_SLOTS
#if NCCC_CONFIG_HOSTED
#define NCCC_RPC_MAX_SLOTS 1024
#else
#define NCCC_RPC_MAX_SLOTS 64
#endif
#endif

/* How deep requests may nest: the device calling the host during a call
** (a callback across the wire), the host calling the device again from
** it, and so on. 0 allows no nested request. */
#ifndef NCCC_RPC_MAX_DEPTH
#if NCCC_CONFIG_HOSTED
#define NCCC_RPC_MAX_DEPTH 4
#else
#define NCCC_RPC_MAX_DEPTH 2
#endif
#endif

/* Bytes the server reads, and a frame is written, at a time (a buffer
** in the server object and one on the stack of the frame encoder). */
#ifndef NCCC_RPC_IO_CHUNK
#if NCCC_CONFIG_HOSTED
#define NCCC_RPC_IO_CHUNK 4096
#else
#define NCCC_RPC_IO_CHUNK 64
#endif
#endif

/* 1: the CRC looks up a 16-entry table twice a byte (32 bytes of data);
** 0: four 256-entry tables four bytes at a time (2 KiB, several times
** as fast). */
#ifndef NCCC_RPC_CRC_SMALL
#if NCCC_CONFIG_HOSTED
#define NCCC_RPC_CRC_SMALL 0
#else
#define NCCC_RPC_CRC_SMALL 1
#endif
#endif

/* Blocks the host may hold through the alloc message at once; the server
** remembers them to refuse a freed pointer. */
#ifndef NCCC_RPC_MAX_ALLOCS
#if NCCC_CONFIG_HOSTED
#define NCCC_RPC_MAX_ALLOCS 64
#else
#define NCCC_RPC_MAX_ALLOCS 8
#endif
#endif

/* In slots a host procedure called back from the device may take (its
** arguments, after env; docs/RPC.md, "Callbacks across the wire"). The
** device's forwarder keeps 8 * (NCCC_RPC_CALLBACK_SLOTS + 2) bytes on
** its stack per callback. */
#ifndef NCCC_RPC_CALLBACK_SLOTS
#define NCCC_RPC_CALLBACK_SLOTS 16
#endif

#endif
