/*
** fixture.h — hand-written packed functions the packed-function tests
** call, the system library they live in, and what they record.
*/
#ifndef NCCC_TEST_PACKED_FIXTURE_H
#define NCCC_TEST_PACKED_FIXTURE_H

#include <stdint.h>

#include <tvm/runtime/c_backend_api.h>
#include <tvm/runtime/c_runtime_api.h>
#include <tvm/runtime/crt/module.h>

#define FX_MAX_ARGS 20

/* How the last fixture function was called. */
typedef struct fx_record {
  int calls; /* calls of any fixture function since fx_setup */
  int num_args;
  int codes[FX_MAX_ARGS];
  TVMValue args[FX_MAX_ARGS];
  void *resource;
} fx_record;

extern fx_record fx;

/* The byte array "t.bytes" returns. */
extern const TVMByteArray fx_bytes;

/* The system library: its registry holds "sq" (squares an int) and "res"
** (records its resource handle). */
extern const TVMModule fx_system_lib;

/*
** Re-initialises the TVM runtime, clears fx and registers the globals
**   t.add     (int, int) -> int            t.scale  (float, float) -> float
**   t.greet   (str or null) -> str         t.same   (handle or null) -> same
**   t.len     (bytes) -> int (its size)    t.bytes  () -> bytes (fx_bytes)
**   t.ndim    (DLTensor*) -> int (ndim)    t.negate (bool) -> bool
**   t.echo    (any one value) -> it, with its type code
**   t.fail    (int code) -> fails with that code, message "t.fail: asked"
**   t.nothing () -> nothing                t.resource () -> nothing
**   t.dtype   (DLDataType, DLDevice) -> DLDataType with bits doubled
** Each fails with kTvmErrorFunctionCallWrongArgType / NumArguments when
** called with other codes.
*/
void fx_setup(void);

#endif
