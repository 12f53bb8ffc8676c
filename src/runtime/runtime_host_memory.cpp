// Runtime: page-locked host memory and pointer attributes. "Pinned" memory (cudaMallocHost,
// cudaHostAlloc, and the program's own memory after cudaHostRegister) is host memory the engine
// also maps as device memory at the same address, so kernels read and write it directly
// (zero-copy) and cudaHostGetDevicePointer returns the host pointer, as unified addressing does
// on a real GPU. It is tracked so that cudaFreeHost refuses foreign pointers and the pointer
// queries can tell host, device and unregistered memory apart.
#include <algorithm>
#include <exception>

#include "runtime/runtime.h"

namespace lockstep::runtime {

namespace {

constexpr unsigned kKnownHostAllocFlags =
    cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
constexpr unsigned kKnownHostRegisterFlags = cudaHostRegisterPortable | cudaHostRegisterMapped |
                                             cudaHostRegisterIoMemory | cudaHostRegisterReadOnly;

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

cudaError_t Runtime::malloc_host(void** pointer, size_t bytes, unsigned flags) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr || (flags & ~kKnownHostAllocFlags) != 0) return record(cudaErrorInvalidValue);
  void* p = pinned_.map(bytes);
  if (p == nullptr) return record(cudaErrorMemoryAllocation);
  try {
    engine_.map_host_memory(p, bytes);
  } catch (const std::exception&) {
    pinned_.unmap(p);
    return record(cudaErrorMemoryAllocation);
  }
  host_allocations_[address_of(p)] = HostAllocation{bytes, flags, false};
  *pointer = p;
  return cudaSuccess;
}

cudaError_t Runtime::free_host(void* pointer) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr) return cudaSuccess;
  auto it = host_allocations_.find(address_of(pointer));
  if (it == host_allocations_.end() || it->second.registered) return record(cudaErrorInvalidValue);
  host_allocations_.erase(it);
  engine_.free(address_of(pointer));
  pinned_.unmap(pointer);
  return cudaSuccess;
}

cudaError_t Runtime::host_register(void* pointer, size_t bytes, unsigned flags) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr || bytes == 0 || (flags & ~kKnownHostRegisterFlags) != 0) return record(cudaErrorInvalidValue);
  const uint64_t base = address_of(pointer);
  // Overlapping an earlier registration (or any pinned allocation) is CUDA's own error.
  auto next = host_allocations_.lower_bound(base);
  if ((next != host_allocations_.end() && next->first < base + bytes) ||
      (next != host_allocations_.begin() && host_allocation(pointer) != nullptr))
    return record(cudaErrorHostMemoryAlreadyRegistered);
  try {
    engine_.map_host_memory(pointer, bytes);
  } catch (const std::exception&) {
    return record(cudaErrorInvalidValue);  // the range overlaps device memory
  }
  host_allocations_[base] = HostAllocation{bytes, flags, true};
  return cudaSuccess;
}

cudaError_t Runtime::host_unregister(void* pointer) {
  if (sticky_ != cudaSuccess) return sticky_;
  auto it = host_allocations_.find(address_of(pointer));
  if (it == host_allocations_.end() || !it->second.registered) return record(cudaErrorHostMemoryNotRegistered);
  engine_.free(it->first);
  host_allocations_.erase(it);
  return cudaSuccess;
}

cudaError_t Runtime::host_device_pointer(void** device, void* host, unsigned flags) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (device == nullptr || flags != 0) return record(cudaErrorInvalidValue);
  if (host_allocation(host) == nullptr && !is_managed(host)) return record(cudaErrorInvalidValue);
  *device = host;  // unified addressing: the same address on both sides
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
    // Mapped at the same address on both sides (unified addressing).
    a.type = cudaMemoryTypeHost;
    a.hostPointer = const_cast<void*>(pointer);
    a.devicePointer = const_cast<void*>(pointer);
  } else {
    a.type = cudaMemoryTypeUnregistered;
    a.device = cudaInvalidDeviceId;
    a.hostPointer = const_cast<void*>(pointer);
  }
  return cudaSuccess;
}

}  // namespace lockstep::runtime
