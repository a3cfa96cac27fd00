/*
** nccc/call.h — finding and calling functions of the runtime's registry.
**
** Names: "F" is looked up in the global mutable registry; "M.F" in module
** M (the part before the first '.' names a module only if such a module
** is present; otherwise the whole string is looked up globally, so global
** names may contain dots, like TVM's "runtime.SystemLib").
*/
#ifndef NCCC_CALL_H
#define NCCC_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "handle.h"
#include "registry.h"
#include "status.h"
#include "visibility.h"

/* NCCC_OK, NCCC_ERR_NAME_NOT_FOUND, NCCC_ERR_NULL_POINTER,
** NCCC_ERR_NOT_INITIALIZED. *out is untouched on failure. */
NCCC_API nccc_status nccc_lookup(const char *name, nccc_handle *out);

/* What a handle refers to; any out pointer may be NULL.
** NCCC_OK or NCCC_ERR_BAD_HANDLE. */
NCCC_API nccc_status nccc_function(nccc_handle handle, nccc_fn *out_fn,
                                   const nccc_fn_info **out_info,
                                   const char **out_name);

/* Calls through a handle; the buffers must fit the signature.
** NCCC_OK or NCCC_ERR_BAD_HANDLE (nothing called). */
NCCC_API nccc_status nccc_call(nccc_handle handle, const uint64_t *in, uint64_t *out);

/*
** Calls only if the buffer sizes match the signature exactly (for a side
** ending in '*', at least its minimum): NCCC_OK, NCCC_ERR_BAD_HANDLE,
** NCCC_ERR_NUM_ARGUMENTS (nothing called), NCCC_ERR_NULL_POINTER (a
** buffer with a non-zero count is NULL).
*/
NCCC_API nccc_status nccc_call_checked(nccc_handle handle, const uint64_t *in,
                                       size_t n_in, uint64_t *out, size_t n_out);

/*
** Registers fn under name in the global mutable registry (see
** nccc_mreg_set for the errors; also NCCC_ERR_NOT_INITIALIZED). Takes the
** platform lock when one is installed. *out (may be NULL) gets the handle.
** Built with NCCC_WITH_GLOBAL_REGISTRY 0: NCCC_ERR_NOT_IMPLEMENTED.
*/
NCCC_API nccc_status nccc_register(const char *name, nccc_fn fn, const char *signature,
                                   int override, nccc_handle *out);

#endif
