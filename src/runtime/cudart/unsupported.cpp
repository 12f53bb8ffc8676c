#include "cudart/unsupported.h"

#include "cudart/process_runtime.h"

namespace lockstep::runtime {

int unsupported_call(const char* function) noexcept {
  guarded([&] {
    process_runtime()->report_unsupported(function);
    return cudaErrorNotSupported;
  });
  return cudaErrorNotSupported;
}

}  // namespace lockstep::runtime

// For the driver API stand-in (src/runtime/cuda_driver), which reaches the process's runtime only
// through what this library exports: its stubs report here, then return CUDA_ERROR_NOT_SUPPORTED.
extern "C" int __lockstep_driver_unsupported(const char* function) noexcept {
  lockstep::runtime::guarded([&] {
    lockstep::runtime::process_runtime()->note_unsupported(function);
    return cudaSuccess;
  });
  return cudaErrorNotSupported;
}
