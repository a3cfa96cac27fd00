/*
** tvm_fixture.h — what the TVM runtime tests share: packed functions that
** record how they were called, two modules of them, and the helpers that
** find and call a global function.
*/
#ifndef NCCC_TVM_FIXTURE_H
#define NCCC_TVM_FIXTURE_H

#include <stdint.h>

#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/module.h>

/* What the last call of a recording function saw. */
extern int calls;
extern void *last_resource;
extern int last_num_args;

/* add: two ints, their sum (refuses anything else); mul: their product,
** unchecked; seven: returns 7 without touching the return value. */
int add(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
        int *ret_tcode, void *resource_handle);
int mul(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
        int *ret_tcode, void *resource_handle);
int seven(TVMValue *args, int *type_codes, int num_args, TVMValue *ret,
          int *ret_tcode, void *resource_handle);

/* Handles cross TVM's API as void *. */
TVMFunctionHandle as_handle(TVMBackendPackedCFunc f);

/* A names blob of n names (text: each name and its NUL). */
#define BLOB(ident, n, text)   \
  static const struct {        \
    uint16_t count;            \
    char s[sizeof text];       \
  } ident = {n, text}

/* mod_a holds add and mul, mod_b seven. */
extern const TVMModule mod_a, mod_b;

/* Calls f with the ints a and b; ret and tcode are preset to values no
** call returns. */
int call2(TVMFunctionHandle f, int64_t a, int64_t b, TVMValue *ret,
          int *tcode);

/* The global function name (NULL when there is none); the lookup must
** succeed. */
TVMFunctionHandle global(const char *name);

/* Every test's fixture: a fresh runtime and fresh records. */
void setup(void);

#endif
