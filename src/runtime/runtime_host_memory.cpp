// Runtime: page-locked host memory and pointer attributes. "Pinned" memory is ordinary host
// memory (the engine copies from any host address); it is tracked so that cudaFreeHost refuses
// foreign pointers and the pointer queries can tell host, device and unregistered memory apart.
#include <algorithm>
#include <cstdlib>

#include "runtime/runtime.h"

namespace lockstep::runtime {

namespace {

constexpr unsigned kKnownHostAllocFlags =
    cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

cudaError_t Runtime::malloc_host(void** pointer, size_t bytes, unsigned flags) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr || (flags & ~kKnownHostAllocFlags) != 0) return record(cudaErrorInvalidValue);
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p == nullptr) return record(cudaErrorMemoryAllocation);
  host_allocations_[address_of(p)] = HostAllocation{bytes, flags};
  *pointer = p;
  return cudaSuccess;
}

cudaError_t Runtime::free_host(void* pointer) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr) return cudaSuccess;
  auto it = host_allocations_.find(address_of(pointer));
  if (it == host_allocations_.end()) return record(cudaErrorInvalidValue);
  host_allocations_.erase(it);
  std::free(pointer);
  return cudaSuccess;
}

const Runtime::HostAllocation* Runtime::host_allocation(const void* pointer) const {
  auto it = host_allocations_.upper_bound(address_of(pointer));
  if (it == host_allocations_.begin()) return nullptr;
  --it;
  return address_of(pointer) - it->first < std::max<size_t>(it->second.bytes, 1) ? &it->second : nullptr;
}

cudaError_t Runtime::host_flags(const void* pointer, unsigned& flags) {
  const HostAllocation* h = host_allocation(pointer);
  if (h == nullptr) return record(cudaErrorInvalidValue);
  flags = h->flags;
  return cudaSuccess;
}

cudaError_t Runtime::pointer_attributes(const void* pointer, cudaPointerAttributes& a) const {
  a = cudaPointerAttributes{};
  a.device = 0;
  if (managed_attributes(pointer, a)) return cudaSuccess;  // before the device check: both match
  if (is_device_address(address_of(pointer))) {
    a.type = cudaMemoryTypeDevice;
    a.devicePointer = const_cast<void*>(pointer);
  } else if (host_allocation(pointer) != nullptr) {
    // Kernels cannot dereference host memory in lockstep, so there is no device alias.
    a.type = cudaMemoryTypeHost;
    a.hostPointer = const_cast<void*>(pointer);
  } else {
    a.type = cudaMemoryTypeUnregistered;
    a.device = cudaInvalidDeviceId;
    a.hostPointer = const_cast<void*>(pointer);
  }
  return cudaSuccess;
}

}  // namespace lockstep::runtime
