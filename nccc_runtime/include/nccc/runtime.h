/*
** nccc/runtime.h — initialisation and the root entry point.
**
** A host needs exactly two things from C: the address of nccc_root and a
** way to call an nccc_fn with two slot buffers. nccc_root is itself an
** nccc function; it hands out the built-in functions by a fixed index
** (the NCCC_BUILTIN_* numbers below never change meaning), and the
** built-ins reach everything else: lookup, call, modules, layouts,
** constants, registration, the last error and memory.
**
** Every built-in writes its status (an nccc_status) to out[0] and its
** results after it, and records the last error on failure. Signatures in
** the table below use the codes of nccc/registry.h.
*/
#ifndef NCCC_RUNTIME_H
#define NCCC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "slot.h"
#include "abi.h"
#include "status.h"
#include "visibility.h"

#define NCCC_VERSION_MAJOR 0
#define NCCC_VERSION_MINOR 1
#define NCCC_VERSION_PATCH 0
#define NCCC_VERSION_STRING "0.1.0"

/*
** Resets the runtime: no modules, an empty global mutable registry in
** block (NULL: a static block of NCCC_GLOBAL_REGISTRY_BYTES), and the
** built-in module "nccc" added. Calling it again gives a fresh, working
** runtime. Errors: those of nccc_mreg_init (block too small). Built with
** NCCC_WITH_GLOBAL_REGISTRY 0 there is no global registry and block is
** not used.
** Not thread-safe: call it before other threads use the runtime.
*/
NCCC_API nccc_status nccc_init(void *block, size_t size);

/* Runs nccc_init(NULL, 0) unless the runtime is initialised already. */
NCCC_API nccc_status nccc_ensure_init(void);

/*
** The root: in[0] = built-in index. out[0] = status (NCCC_OK or
** NCCC_ERR_INDEX_INVALID), out[1] = the built-in's nccc_fn address,
** out[2] = its name, out[3] = its signature (C string addresses).
** Initialises the runtime on first use.
*/
NCCC_API void nccc_root(const uint64_t *in, uint64_t *out);

/* The built-ins' indices (enum nccc_builtin_index), names and
** signatures are in nccc/abi.h (NCCC_ABI_BUILTINS); docs/ABI.md lists
** them with their slots. */

#endif
