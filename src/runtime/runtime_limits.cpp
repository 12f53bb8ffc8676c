// Runtime: device limits (cudaDeviceSetLimit / cudaDeviceGetLimit). The stack size and the
// malloc heap size change what kernels can do; the others are kept and reported back but change
// nothing a functional simulation computes (printf output is never truncated here).
#include "runtime/runtime.h"

namespace lockstep::runtime {

cudaError_t Runtime::limit(cudaLimit which, size_t& value) const {
  switch (which) {
    case cudaLimitStackSize:
      value = engine_.options().stack_size;
      return cudaSuccess;
    case cudaLimitMallocHeapSize:
      value = engine_.heap_size();
      return cudaSuccess;
    case cudaLimitPrintfFifoSize:
    case cudaLimitDevRuntimeSyncDepth:
    case cudaLimitDevRuntimePendingLaunchCount:
    case cudaLimitMaxL2FetchGranularity:
    case cudaLimitPersistingL2CacheSize: {
      auto it = limits_.find(which);
      value = it->second;
      return cudaSuccess;
    }
    default:
      return cudaErrorUnsupportedLimit;
  }
}

cudaError_t Runtime::set_limit(cudaLimit which, size_t value) {
  switch (which) {
    case cudaLimitStackSize:
      // CUDA rounds the per-thread stack to 16 bytes; a kernel's own frames may need more.
      if (value > (1u << 24)) return record(cudaErrorInvalidValue);
      engine_.set_stack_size(static_cast<uint32_t>((value + 15) / 16 * 16));
      return cudaSuccess;
    case cudaLimitMallocHeapSize:
      // Like CUDA: fixed once a kernel has allocated from the heap.
      return engine_.set_heap_size(value) ? cudaSuccess : record(cudaErrorInvalidValue);
    case cudaLimitMaxL2FetchGranularity:
      if (value > 128) return record(cudaErrorInvalidValue);
      limits_[which] = value;
      return cudaSuccess;
    case cudaLimitPrintfFifoSize:
    case cudaLimitDevRuntimeSyncDepth:
    case cudaLimitDevRuntimePendingLaunchCount:
    case cudaLimitPersistingL2CacheSize:
      limits_[which] = value;
      return cudaSuccess;
    default:
      return record(cudaErrorUnsupportedLimit);
  }
}

}  // namespace lockstep::runtime
