// Stream-ordered memory pools (runtime/mem_pools.h): the device's default and current pool,
// pools the program creates, their attributes and access, and allocation from a named pool.
// Only device 0 exists; pools elsewhere (host memory) and sharing a pool with another process
// are not supported yet and say so by name.
#include "cudart/process_runtime.h"

using lockstep::runtime::guarded;
using lockstep::runtime::MemPool;
using lockstep::runtime::process_runtime;
using lockstep::runtime::RuntimeHandle;
using lockstep::runtime::per_thread_stream;

namespace {

cudaError_t refuse(cudaError_t e) { return process_runtime()->record(e); }

bool on_the_device(const cudaMemLocation& l) { return l.type == cudaMemLocationTypeDevice && l.id == 0; }

// A pool location other than device 0: an invalid device, or host memory lockstep has no pools for.
cudaError_t location_error(const cudaMemLocation& l, const char* function) {
  if (l.type == cudaMemLocationTypeDevice) return refuse(cudaErrorInvalidDevice);
  if (l.type == cudaMemLocationTypeHost || l.type == cudaMemLocationTypeHostNuma ||
      l.type == cudaMemLocationTypeHostNumaCurrent) {
    process_runtime()->report_unsupported(function);
    return refuse(cudaErrorNotSupported);
  }
  return refuse(cudaErrorInvalidValue);
}

}  // namespace

extern "C" cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  if (memPool == nullptr) return refuse(cudaErrorInvalidValue);
  if (device != 0) return refuse(cudaErrorInvalidDevice);
  *memPool = process_runtime()->mem_pools().default_pool();
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  if (memPool == nullptr) return refuse(cudaErrorInvalidValue);
  if (device != 0) return refuse(cudaErrorInvalidDevice);
  *memPool = process_runtime()->mem_pools().current_pool();
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  const RuntimeHandle r = process_runtime();
  if (device != 0) return r->record(cudaErrorInvalidDevice);
  if (r->mem_pools().find(memPool) == nullptr) return r->record(cudaErrorInvalidValue);
  r->mem_pools().set_current(memPool);
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                                                cudaMemAllocationType type) {
  if (memPool == nullptr || location == nullptr || type != cudaMemAllocationTypePinned)
    return refuse(cudaErrorInvalidValue);
  if (!on_the_device(*location)) return location_error(*location, "cudaMemGetDefaultMemPool for host memory");
  *memPool = process_runtime()->mem_pools().default_pool();
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemGetMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                                         cudaMemAllocationType type) {
  if (memPool == nullptr || location == nullptr || type != cudaMemAllocationTypePinned)
    return refuse(cudaErrorInvalidValue);
  if (!on_the_device(*location)) return location_error(*location, "cudaMemGetMemPool for host memory");
  *memPool = process_runtime()->mem_pools().current_pool();
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemSetMemPool(cudaMemLocation* location, cudaMemAllocationType type,
                                         cudaMemPool_t memPool) {
  if (location == nullptr || type != cudaMemAllocationTypePinned) return refuse(cudaErrorInvalidValue);
  if (!on_the_device(*location)) return location_error(*location, "cudaMemSetMemPool for host memory");
  return cudaDeviceSetMemPool(0, memPool);
}

extern "C" cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps) {
  if (memPool == nullptr || poolProps == nullptr || poolProps->allocType != cudaMemAllocationTypePinned)
    return refuse(cudaErrorInvalidValue);
  if (!on_the_device(poolProps->location))
    return location_error(poolProps->location, "cudaMemPoolCreate for host memory");
  return guarded([&] {
    *memPool = process_runtime()->mem_pools().create(*poolProps);
    return cudaSuccess;
  });
}

extern "C" cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  const RuntimeHandle r = process_runtime();
  return r->record(r->mem_pools().destroy(memPool));
}

// A pool keeps nothing back beyond what is allocated from it: there is nothing to trim.
extern "C" cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t /*minBytesToKeep*/) {
  const RuntimeHandle r = process_runtime();
  return r->mem_pools().find(memPool) == nullptr ? r->record(cudaErrorInvalidValue) : cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  const RuntimeHandle r = process_runtime();
  return r->record(r->mem_pools().set_attribute(memPool, attr, value));
}

extern "C" cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  const RuntimeHandle r = process_runtime();
  return r->record(r->mem_pools().get_attribute(memPool, attr, value));
}

extern "C" cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc* descList, size_t count) {
  const RuntimeHandle r = process_runtime();
  MemPool* pool = r->mem_pools().find(memPool);
  if (pool == nullptr || (count != 0 && descList == nullptr)) return r->record(cudaErrorInvalidValue);
  for (size_t i = 0; i < count; ++i) {
    if (descList[i].location.type != cudaMemLocationTypeDevice) return r->record(cudaErrorInvalidValue);
    if (descList[i].location.id != 0) return r->record(cudaErrorInvalidDevice);
    if (descList[i].flags > cudaMemAccessFlagsProtReadWrite || descList[i].flags == cudaMemAccessFlagsProtRead)
      return r->record(cudaErrorInvalidValue);  // pools offer no read-only access
  }
  for (size_t i = 0; i < count; ++i) pool->access[descList[i].location.id] = descList[i].flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t memPool, cudaMemLocation* location) {
  const RuntimeHandle r = process_runtime();
  MemPool* pool = r->mem_pools().find(memPool);
  if (pool == nullptr || flags == nullptr || location == nullptr || location->type != cudaMemLocationTypeDevice)
    return r->record(cudaErrorInvalidValue);
  if (location->id != 0) return r->record(cudaErrorInvalidDevice);
  auto it = pool->access.find(location->id);
  *flags = it == pool->access.end() ? cudaMemAccessFlagsProtNone : it->second;
  return cudaSuccess;
}

extern "C" cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  const RuntimeHandle r = process_runtime();
  return guarded([&] {
    if (!r->is_stream(stream)) return r->record(cudaErrorInvalidResourceHandle);
    // In a capture: a memory-allocation node, its address returned at once.
    if (r->capturing(stream)) return r->capture_malloc(ptr, size, memPool, stream);
    return r->malloc_from_pool(ptr, size, memPool, stream);
  });
}

extern "C" cudaError_t cudaMallocFromPoolAsync_ptsz(void** ptr, size_t size, cudaMemPool_t memPool,
                                                    cudaStream_t stream) {
  return cudaMallocFromPoolAsync(ptr, size, memPool, per_thread_stream(stream));
}
