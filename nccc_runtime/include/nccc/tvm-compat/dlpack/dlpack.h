/*
** dlpack/dlpack.h — the part of DLPack (v0.8 ABI) that the TVM-compatible
** API of nccc uses: devices, data types and the plain tensor descriptor.
**
** The include guard is DLPack's own, so a program that also uses the
** complete dlpack.h gets whichever it includes first, and both agree on
** every type and value defined here.
*/
#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_

#include <stdint.h>

#define DLPACK_VERSION 80
#define DLPACK_ABI_VERSION 1

#ifdef __cplusplus
#define DLPACK_EXTERN_C extern "C"
extern "C" {
#else
#define DLPACK_EXTERN_C
#endif

#ifndef DLPACK_DLL
#if defined(_WIN32) && defined(DLPACK_EXPORTS)
#define DLPACK_DLL __declspec(dllexport)
#elif defined(_WIN32)
#define DLPACK_DLL __declspec(dllimport)
#else
#define DLPACK_DLL
#endif
#endif

/* Where a tensor's memory lives. The gaps (5, 6) are historical. */
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/* Element kinds of DLDataType.code. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U
} DLDataTypeCode;

/* An element type: int8 is {kDLInt, 8, 1}, float32x4 is {kDLFloat, 32, 4}. */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/* A tensor that owns nothing: data + byte_offset is its first element;
** strides NULL means compact row-major. */
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;

#ifdef __cplusplus
}
#endif

#endif
