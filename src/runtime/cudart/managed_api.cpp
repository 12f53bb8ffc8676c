// Managed (unified) memory entry points: cudaMallocManaged, prefetching, advice and range
// queries (runtime_managed.cpp). cudaFree and cudaPointerGetAttributes handle managed
// pointers too.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::process_runtime;
using lockstep::runtime::per_thread_stream;

extern "C" cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  return guarded([&] { return process_runtime()->malloc_managed(devPtr, size, flags); });
}

extern "C" cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location,
                                            unsigned int flags, cudaStream_t stream) {
  return guarded([&] { return process_runtime()->prefetch(devPtr, count, location, flags, stream); });
}

extern "C" cudaError_t cudaMemPrefetchAsync_ptsz(const void* devPtr, size_t count, cudaMemLocation location,
                                                 unsigned int flags, cudaStream_t stream) {
  return cudaMemPrefetchAsync(devPtr, count, location, flags, per_thread_stream(stream));
}

extern "C" cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice,
                                     cudaMemLocation location) {
  return guarded([&] { return process_runtime()->advise(devPtr, count, advice, location); });
}

extern "C" cudaError_t cudaMemRangeGetAttribute(void* data, size_t dataSize, cudaMemRangeAttribute attribute,
                                                const void* devPtr, size_t count) {
  return guarded([&] { return process_runtime()->range_attribute(data, dataSize, attribute, devPtr, count); });
}

extern "C" cudaError_t cudaMemRangeGetAttributes(void** data, size_t* dataSizes, cudaMemRangeAttribute* attributes,
                                                 size_t numAttributes, const void* devPtr, size_t count) {
  if (numAttributes != 0 && (data == nullptr || dataSizes == nullptr || attributes == nullptr))
    return process_runtime()->record(cudaErrorInvalidValue);
  for (size_t i = 0; i < numAttributes; ++i)
    if (cudaError_t e = cudaMemRangeGetAttribute(data[i], dataSizes[i], attributes[i], devPtr, count); e != cudaSuccess)
      return e;
  return cudaSuccess;
}
