/*
** tvm/runtime/crt/error_codes.h — the error codes of TVM's CRT.
**
** A code is a category in bits 15..8 and a number in bits 7..0; every
** value below is TVM's. nccc adds category 0x40 for conditions TVM never
** checked (NULL pointers, bad names, use before initialisation). The
** values equal nccc's own nccc_status codes (nccc/status.h) wherever
** both name the same condition, so either kind can be passed on as is.
*/
#ifndef TVM_RUNTIME_CRT_ERROR_CODES_H_
#define TVM_RUNTIME_CRT_ERROR_CODES_H_

#include <limits.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TVM_CRT_ERROR_CATEGORY_Pos 8
#define TVM_CRT_ERROR_CATEGORY_Msk (0xff << TVM_CRT_ERROR_CATEGORY_Pos)
#define TVM_CRT_ERROR_CODE_Pos 0
#define TVM_CRT_ERROR_CODE_Msk (0xff << TVM_CRT_ERROR_CODE_Pos)

#define DEFINE_TVM_CRT_ERROR(category, code)    \
  (((category) << TVM_CRT_ERROR_CATEGORY_Pos) | \
   ((code) << TVM_CRT_ERROR_CODE_Pos))

typedef enum {
  kTvmErrorCategoryFunctionRegistry = 1,
  kTvmErrorCategoryFraming = 2,
  kTvmErrorCategoryWriteStream = 3,
  kTvmErrorCategorySession = 4,
  kTvmErrorCategoryPlatform = 5,
  kTvmErrorCategoryGenerated = 6,
  kTvmErrorCategoryExecutor = 7,
  kTvmErrorCategoryFunctionCall = 8,
  kTvmErrorCategoryTimeEvaluator = 9,
  kTvmErrorCategoryNccc = 0x40 /* nccc's addition */
} tvm_crt_error_category_t;

typedef enum {
  kTvmErrorNoError = 0,

  /* function registry */
  kTvmErrorFunctionNameNotFound = DEFINE_TVM_CRT_ERROR(1, 0),
  kTvmErrorFunctionIndexInvalid = DEFINE_TVM_CRT_ERROR(1, 1),
  kTvmErrorFunctionRegistryFull = DEFINE_TVM_CRT_ERROR(1, 2),
  kTvmErrorFunctionAlreadyDefined = DEFINE_TVM_CRT_ERROR(1, 3),
  kTvmErrorBufferTooSmall = DEFINE_TVM_CRT_ERROR(1, 4),

  /* framing */
  kTvmErrorFramingInvalidState = DEFINE_TVM_CRT_ERROR(2, 0),
  kTvmErrorFramingShortPacket = DEFINE_TVM_CRT_ERROR(2, 1),
  kTvmErrorFramingInvalidEscape = DEFINE_TVM_CRT_ERROR(2, 2),
  kTvmErrorFramingPayloadOverflow = DEFINE_TVM_CRT_ERROR(2, 3),
  kTvmErrorFramingPayloadIncomplete = DEFINE_TVM_CRT_ERROR(2, 4),

  /* write stream */
  kTvmErrorWriteStreamShortWrite = DEFINE_TVM_CRT_ERROR(3, 0),
  kTvmErrorWriteStreamLongWrite = DEFINE_TVM_CRT_ERROR(3, 1),

  /* session */
  kTvmErrorSessionInvalidState = DEFINE_TVM_CRT_ERROR(4, 0),
  kTvmErrorSessionReceiveBufferBusy = DEFINE_TVM_CRT_ERROR(4, 1),
  kTvmErrorSessionReceiveBufferShortWrite = DEFINE_TVM_CRT_ERROR(4, 2),

  /* platform */
  kTvmErrorPlatformCheckFailure = DEFINE_TVM_CRT_ERROR(5, 0),
  kTvmErrorPlatformMemoryManagerInitialized = DEFINE_TVM_CRT_ERROR(5, 1),
  kTvmErrorPlatformShutdown = DEFINE_TVM_CRT_ERROR(5, 2),
  kTvmErrorPlatformNoMemory = DEFINE_TVM_CRT_ERROR(5, 3),
  kTvmErrorPlatformTimerBadState = DEFINE_TVM_CRT_ERROR(5, 4),
  kTvmErrorPlatformStackAllocBadFree = DEFINE_TVM_CRT_ERROR(5, 5),

  /* returned by generated functions */
  kTvmErrorGeneratedInvalidStorageId = DEFINE_TVM_CRT_ERROR(6, 0),

  /* graph and AoT executors */
  kTvmErrorExecutorModuleAlreadyCreated = DEFINE_TVM_CRT_ERROR(7, 0),
  kTvmErrorExecutorModuleBadContext = DEFINE_TVM_CRT_ERROR(7, 1),
  kTvmErrorExecutorModuleNoSuchInput = DEFINE_TVM_CRT_ERROR(7, 2),

  /* calling functions */
  kTvmErrorFunctionCallNumArguments = DEFINE_TVM_CRT_ERROR(8, 0),
  kTvmErrorFunctionCallWrongArgType = DEFINE_TVM_CRT_ERROR(8, 1),
  kTvmErrorFunctionCallNotImplemented = DEFINE_TVM_CRT_ERROR(8, 2),
  kTvmErrorFunctionCallInvalidArg = DEFINE_TVM_CRT_ERROR(8, 3),

  /* time evaluator */
  kTvmErrorTimeEvaluatorBadHandle = DEFINE_TVM_CRT_ERROR(9, 0),

  /* nccc: conditions TVM did not check (equal to NCCC_ERR_BAD_NAME,
  ** NCCC_ERR_NULL_POINTER, NCCC_ERR_NOT_INITIALIZED) */
  kTvmErrorNcccBadName = DEFINE_TVM_CRT_ERROR(0x40, 0),
  kTvmErrorNcccNullPointer = DEFINE_TVM_CRT_ERROR(0x40, 4),
  kTvmErrorNcccNotInitialized = DEFINE_TVM_CRT_ERROR(0x40, 5),

  /* A negative value is a system error code; this bit marks it. (TVM
  ** wrote 1 << 31, an overflow; INT_MIN is the same bit pattern.) */
  kTvmErrorSystemErrorMask = INT_MIN
} tvm_crt_error_t;

#ifdef __cplusplus
}
#endif

#endif
