#pragma once
// The one process-wide Runtime of the stand-in libcudart. The C ABI of libcudart forces this:
// its functions carry no context argument, and registration runs from static constructors
// before main. This accessor is the only global state of the runtime; everything else hangs
// off the Runtime it returns.
#include <exception>

#include <cuda_runtime_api.h>

#include "runtime/runtime.h"

namespace lockstep::runtime {

Runtime& process_runtime();

// Runs `f` (returning cudaError_t); an escaping C++ exception must never cross the C ABI, so
// it is printed and becomes cudaErrorUnknown.
template <class F>
cudaError_t guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    try {
      process_runtime().print(e.what());
      return process_runtime().record(cudaErrorUnknown);
    } catch (...) {
    }
  } catch (...) {
  }
  return cudaErrorUnknown;
}

}  // namespace lockstep::runtime
