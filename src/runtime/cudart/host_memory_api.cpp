// Page-locked host memory, pointer queries and stream-ordered allocation. Host memory is plain
// host memory that the Runtime tracks; stream-ordered calls run in order at the call, like
// everything else.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::RuntimeHandle;
using lockstep::runtime::process_runtime;
using lockstep::runtime::per_thread_stream;

extern "C" cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  return guarded([&] { return process_runtime()->malloc_host(pHost, size, flags); });
}

extern "C" cudaError_t cudaMallocHost(void** ptr, size_t size) { return cudaHostAlloc(ptr, size, cudaHostAllocDefault); }

extern "C" cudaError_t cudaFreeHost(void* ptr) {
  return guarded([&] { return process_runtime()->free_host(ptr); });
}

extern "C" cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  return guarded([&] { return process_runtime()->host_register(ptr, size, flags); });
}

extern "C" cudaError_t cudaHostUnregister(void* ptr) {
  return guarded([&] { return process_runtime()->host_unregister(ptr); });
}

extern "C" cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  return guarded([&] { return process_runtime()->host_device_pointer(pDevice, pHost, flags); });
}

extern "C" cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  if (pFlags == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return process_runtime()->host_flags(pHost, *pFlags);
}

extern "C" cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return process_runtime()->record(cudaErrorInvalidValue);
  return process_runtime()->pointer_attributes(ptr, *attributes);
}

extern "C" cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t stream) {
  if (!process_runtime()->is_stream(stream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  return guarded([&] {
    const RuntimeHandle r = process_runtime();
    // In a capture: a memory-allocation node, its address returned at once.
    if (r->capturing(stream)) return r->capture_malloc(devPtr, size, r->mem_pools().current_pool(), stream);
    return r->malloc_from_pool(devPtr, size, r->mem_pools().current_pool(), stream);
  });
}

extern "C" cudaError_t cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t stream) {
  return cudaMallocAsync(devPtr, size, per_thread_stream(stream));
}

extern "C" cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t stream) {
  if (!process_runtime()->is_stream(stream)) return process_runtime()->record(cudaErrorInvalidResourceHandle);
  return guarded([&] {
    const RuntimeHandle r = process_runtime();
    if (r->capturing(stream)) return r->capture_free(devPtr, stream);  // a memory-free node
    return r->free(devPtr);
  });
}

extern "C" cudaError_t cudaFreeAsync_ptsz(void* devPtr, cudaStream_t stream) {
  return cudaFreeAsync(devPtr, per_thread_stream(stream));
}
