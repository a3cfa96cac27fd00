/*
** tvm_packed_internal.h — what the packed-function files (tvm_packed.c,
** tvm_adapter.c, tvm_packed_module.c) share. Not part of the public API.
*/
#ifndef NCCC_TVM_PACKED_INTERNAL_H
#define NCCC_TVM_PACKED_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <nccc/packed.h>
#include <nccc/visibility.h>

#if NCCC_PACKED_MAX_ARGS < 1 || NCCC_PACKED_MAX_ARGS > 255
#error "NCCC_PACKED_MAX_ARGS must be 1..255"
#endif

/* A packed signature, parsed (see nccc/packed.h for the codes). */
typedef struct nccci_psig {
  char codes[NCCC_PACKED_MAX_ARGS];
  uint8_t n_args;
  char ret; /* 0: no result */
} nccci_psig;

/* Parses psig into *out: NCCC_OK, or NCCC_ERR_BAD_SIGNATURE /
** NCCC_ERR_NULL_POINTER with the reason recorded. */
NCCC_INTERNAL nccc_status nccci_psig_parse(const char *psig, nccci_psig *out);

/* The slot of code as a TVMValue and its type code (never fails: every
** slot has a value of every code, the slot ABI taking the low bits). */
NCCC_INTERNAL void nccci_packed_to_value(char code, uint64_t slot, TVMValue *v,
                                         int *type_code);

/* A TVMValue of type_code as the slot of code: 0, or
** kTvmErrorFunctionCallWrongArgType (type_code not accepted) or
** kTvmErrorFunctionCallInvalidArg (the value does not fit). Records
** nothing; *slot is written only on success. */
NCCC_INTERNAL int nccci_packed_from_value(char code, int type_code, const TVMValue *v,
                                          uint64_t *slot);

/* Records the failure of a from_value conversion: "who: args[i]:
** expected int32, got str" (i < 0: "who: result: ..."). Returns err. */
NCCC_INTERNAL int nccci_packed_fail_value(int err, const char *who, int i, char code,
                                          int type_code);

/* Records "who: expects n arguments, got got" as
** kTvmErrorFunctionCallNumArguments and returns that code. */
NCCC_INTERNAL int nccci_packed_fail_count(const char *who, unsigned n, int got);

/* The module handle of "runtime.SystemLib": 0, or its error. */
NCCC_INTERNAL int nccci_packed_system_lib(TVMModuleHandle *out);

#endif
