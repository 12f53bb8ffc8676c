// Error entry points. Names come from the generated table (error_names.inc, built from the
// toolkit's driver_types.h); descriptions for the errors programs commonly print.
#include "cudart/process_runtime.h"

using lockstep::runtime::process_runtime;

namespace {

struct ErrorName {
  int code;
  const char* name;
};

constexpr ErrorName kErrorNames[] = {
#include "error_names.inc"
};

const char* description(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidPtx: return "a PTX JIT compilation failed";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
    default: return nullptr;
  }
}

}  // namespace

extern "C" cudaError_t cudaGetLastError() { return process_runtime()->take_last_error(); }

extern "C" cudaError_t cudaPeekAtLastError() { return process_runtime()->peek_last_error(); }

extern "C" const char* cudaGetErrorName(cudaError_t error) {
  for (const ErrorName& n : kErrorNames)
    if (n.code == static_cast<int>(error)) return n.name;
  return "cudaErrorUnknown";
}

extern "C" const char* cudaGetErrorString(cudaError_t error) {
  if (const char* d = description(error)) return d;
  for (const ErrorName& n : kErrorNames)
    if (n.code == static_cast<int>(error)) return n.name;
  return "unrecognized error code";
}
