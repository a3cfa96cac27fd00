/*
** nccc/ffi_forward.h — libffi's dynamic forwarder (library nccc_ffi).
**
** Turns any C function pointer plus a signature string into an nccc
** function at run time, so a host can call functions no IDL described
** (cbrt found with dlsym, an entry point handed over by a plug-in).
** Calls go through ffi_call; nothing generates machine code: no closures,
** no trampolines, no writable-and-executable memory.
**
** An nccc_fn carries no context pointer, so the library holds a fixed
** pool of NCCC_FFI_MAX_FORWARDERS forwarders, each an ordinary static
** function bound to one pool slot (target, prepared ffi_cif, argument
** types). Creating a forwarder takes a free slot; releasing it gives the
** slot back. All storage is static: the library never allocates.
**
** Signatures ("IN:OUT", codes as in nccc/registry.h):
**   IN   up to NCCC_FFI_MAX_ARGS of  ? b B h H i I l L f d p s F
**   OUT  empty (void), or one of those codes (the return value),
**        then optionally 'e' (errno read right after the call)
** Refused with NCCC_ERR_BAD_SIGNATURE: struct codes "{...}" (the
** forwarder has no layout for them), '*', 'e' anywhere but last on the
** out side, more than one out value, more than NCCC_FFI_MAX_ARGS
** arguments, unknown codes. Variadic C functions cannot be forwarded.
** Values are converted exactly as docs/ABI.md says (nccc/slot.h).
**
** Thread safety: creation and release take the platform lock
** (nccc_platform_set) when one is installed; calls take no lock. Do not
** release a forwarder while a call through it may be running.
*/
#ifndef NCCC_FFI_FORWARD_H
#define NCCC_FFI_FORWARD_H

#include <stdint.h>

#include <nccc/nccc.h>

/* Forwarders that can exist at once (1..32767). The library's build sets
** it; nccc_ffi_capacity() reports the value it was built with. */
#ifndef NCCC_FFI_MAX_FORWARDERS
#define NCCC_FFI_MAX_FORWARDERS 64
#endif

/* Most arguments of one forwarded function (1..255). */
#ifndef NCCC_FFI_MAX_ARGS
#define NCCC_FFI_MAX_ARGS 16
#endif

/* Any C function, as the forwarder stores it. Cast the real function
** pointer to this type; the signature says what it really is. */
typedef void (*nccc_ffi_target)(void);

/* ---- creating and releasing forwarders ------------------------------- */

/*
** Makes a forwarder that calls target as signature describes; *out_fn
** gets it, ready to call or to register. Errors: NCCC_ERR_NULL_POINTER
** (target, signature or out_fn NULL), NCCC_ERR_BAD_SIGNATURE (see above;
** the last error says why), NCCC_ERR_REGISTRY_FULL (all
** NCCC_FFI_MAX_FORWARDERS forwarders in use), NCCC_ERR_PLATFORM_CHECK
** (libffi refused the call interface). *out_fn is untouched on failure.
*/
NCCC_API nccc_status nccc_ffi_create(nccc_ffi_target target, const char *signature,
                                     nccc_fn *out_fn);

/*
** Creates a forwarder and registers it under name in the global registry
** (nccc_register) with signature. A name whose entry belongs to a
** released forwarder is replaced even when override is 0. *out (may be
** NULL) gets the handle. Errors: those of nccc_ffi_create and of
** nccc_register; on any error no forwarder is left in use.
*/
NCCC_API nccc_status nccc_ffi_register(const char *name, nccc_ffi_target target,
                                       const char *signature, int override,
                                       nccc_handle *out);

/*
** Gives fn's pool slot back for reuse. Every entry of the global registry
** whose function is fn is first switched to a stub that calls nothing:
** it zeroes the out slots the forwarder would have written and records
** NCCC_ERR_BAD_HANDLE ("call through a released forwarder") as the
** calling thread's last error. The stub keeps the entry's name, signature
** and handle. A call through the released fn itself does the same until
** the slot is reused; slots are reused oldest-released first, yet a
** released fn is like freed memory: once reused it forwards to the new
** target. Entries in registries other than the global one are the
** caller's to remove.
** Errors: NCCC_ERR_NULL_POINTER, NCCC_ERR_INVALID_ARG (fn is not a
** forwarder of this library, or is released already); should switching a
** registry entry fail, nccc_register's error, and the slot is then never
** reused. The calling thread's last error is kept on success.
*/
NCCC_API nccc_status nccc_ffi_release(nccc_fn fn);

/* ---- questions ---------------------------------------------------------- */

/* NCCC_OK if signature can be forwarded; else NCCC_ERR_BAD_SIGNATURE or
** NCCC_ERR_NULL_POINTER, with the reason as the last error. */
NCCC_API nccc_status nccc_ffi_check_signature(const char *signature);

/* Forwarders the pool holds in all (the build's NCCC_FFI_MAX_FORWARDERS),
** and how many of them are free now. */
NCCC_API unsigned nccc_ffi_capacity(void);
NCCC_API unsigned nccc_ffi_available(void);

/* ---- the forwarder for hosts ------------------------------------------ */

/*
** Adds the module "nccc_ffi", so a host that has only nccc_root can make
** forwarders itself. Each function writes its status to out[0]:
**   nccc_ffi.available  :iII      -> free forwarders, capacity
**   nccc_ffi.create     Fs:iF     target, signature -> forwarder
**   nccc_ffi.register   sFs?:iI   name, target, signature, override
**                                 -> handle
**   nccc_ffi.release    F:i       forwarder
** Errors: those of nccc_module_add (NCCC_ERR_ALREADY_DEFINED when it is
** present already). *out_index (may be NULL) gets its module index.
*/
NCCC_API nccc_status nccc_ffi_module_add(uint16_t *out_index);

#endif
