// Error entry points; their words are the runtime's (runtime/cuda_errors.h), which device code's
// runtime shares.
#include "cudart/process_runtime.h"
#include "runtime/cuda_errors.h"

using lockstep::runtime::process_runtime;

extern "C" cudaError_t cudaGetLastError() { return process_runtime()->take_last_error(); }

extern "C" cudaError_t cudaPeekAtLastError() { return process_runtime()->peek_last_error(); }

extern "C" const char* cudaGetErrorName(cudaError_t error) {
  return lockstep::runtime::cuda_error_name(static_cast<int>(error));
}

extern "C" const char* cudaGetErrorString(cudaError_t error) {
  return lockstep::runtime::cuda_error_string(static_cast<int>(error));
}
