#pragma once
// The one process-wide Runtime of the stand-in libcudart. The C ABI of libcudart forces this:
// its functions carry no context argument, and registration runs from static constructors
// before main. This accessor (with the runtime's lock) is the only global state of the
// runtime; everything else hangs off the Runtime it returns.
#include <exception>
#include <mutex>

#include <cuda_runtime_api.h>

#include "runtime/runtime.h"

namespace lockstep::runtime {

// CUDA's runtime is thread-safe: host threads may allocate, copy, launch and synchronise at
// once. lockstep's serialises them: every use of the runtime goes through this handle, which
// holds the runtime's lock while it lives (one simulated device runs one thing at a time
// anyway, and a launch's results do not depend on which thread asked for it). The lock is
// recursive because a call may re-enter: a _ptsz entry point calls its plain form, a stream
// callback may call the runtime, guarded() reports through it.
class RuntimeHandle {
 public:
  RuntimeHandle(Runtime& runtime, std::recursive_mutex& mutex) : lock_(mutex), runtime_(runtime) {}
  Runtime* operator->() const { return &runtime_; }
  Runtime& operator*() const { return runtime_; }

 private:
  std::unique_lock<std::recursive_mutex> lock_;
  Runtime& runtime_;
};

RuntimeHandle process_runtime();

// Runs `f` (returning cudaError_t); an escaping C++ exception must never cross the C ABI, so
// it is printed and becomes cudaErrorUnknown.
template <class F>
cudaError_t guarded(F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    try {
      const RuntimeHandle runtime = process_runtime();
      runtime->print(e.what());
      return runtime->record(cudaErrorUnknown);
    } catch (...) {
    }
  } catch (...) {
  }
  return cudaErrorUnknown;
}

// In the per-thread-default-stream spellings of the entry points (the _ptsz forms, nvcc
// --default-stream per-thread), stream 0 is the calling thread's default stream.
inline cudaStream_t per_thread_stream(cudaStream_t stream) {
  return stream == nullptr ? cudaStreamPerThread : stream;
}

}  // namespace lockstep::runtime
