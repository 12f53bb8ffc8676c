#include "runtime/cuda_errors.h"

#include <driver_types.h>

namespace lockstep::runtime {

namespace {

struct ErrorName {
  int code;
  const char* name;
};

// Generated from the toolkit's driver_types.h (gen_cudart_tables.py errors).
constexpr ErrorName kErrorNames[] = {
#include "error_names.inc"
};

const char* description(int code) {
  switch (static_cast<cudaError_t>(code)) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorLaunchMaxDepthExceeded: return "launch would exceed maximum depth of nested launches";
    case cudaErrorLaunchPendingCountExceeded:
      return "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidKernelImage: return "device kernel image is invalid";
    case cudaErrorDeviceUninitialized: return "invalid device context";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidPtx: return "a PTX JIT compilation failed";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
    default: return nullptr;
  }
}

const char* known_name(int code) {
  for (const ErrorName& n : kErrorNames)
    if (n.code == code) return n.name;
  return nullptr;
}

}  // namespace

const char* cuda_error_name(int code) {
  const char* name = known_name(code);
  return name != nullptr ? name : "cudaErrorUnknown";
}

const char* cuda_error_string(int code) {
  if (const char* d = description(code)) return d;
  const char* name = known_name(code);
  return name != nullptr ? name : "unrecognized error code";
}

}  // namespace lockstep::runtime
