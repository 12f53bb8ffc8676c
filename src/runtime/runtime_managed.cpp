// Runtime: managed (unified) memory. A managed allocation is an anonymous host mapping in the
// managed window (ManagedMappings) that the engine adopts as device memory at the same numeric
// address, so host code (plain loads and stores, memcpy, std::sort) and kernels share one
// copy. The functional engine runs every kernel to completion at launch, so host and device
// accesses never overlap in time and the memory is always coherent: prefetches and advice
// change nothing about where data lives. They are validated as CUDA validates them and
// recorded, so cudaMemRangeGetAttribute reports what the program asked for.
#include <exception>

#include "fmt/format.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {

namespace {

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

// Only device 0 exists; host locations are always valid.
cudaError_t check_location(cudaMemLocation l) {
  switch (l.type) {
    case cudaMemLocationTypeDevice: return l.id == 0 ? cudaSuccess : cudaErrorInvalidDevice;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent: return cudaSuccess;
    default: return cudaErrorInvalidValue;
  }
}

}  // namespace

cudaError_t Runtime::malloc_managed(void** pointer, size_t bytes, unsigned flags) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr || bytes == 0 || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
    return record(cudaErrorInvalidValue);
  if (bytes > options_.preset.global_memory - allocated_bytes_) return record(cudaErrorMemoryAllocation);
  void* p = managed_.map(bytes);
  if (p == nullptr) return record(cudaErrorMemoryAllocation);
  try {
    engine_.map_host_memory(p, bytes);
  } catch (const std::exception& e) {
    managed_.unmap(p);
    print(fmt::format("cudaMallocManaged: {}", e.what()));
    return record(cudaErrorMemoryAllocation);
  }
  const uint64_t address = address_of(p);
  allocations_[address] = bytes;
  device_ranges_[address] = bytes;
  allocated_bytes_ += bytes;
  managed_advice_.add(address, bytes);
  *pointer = p;
  return cudaSuccess;
}

void Runtime::release_managed(uint64_t base) {
  if (managed_.unmap(reinterpret_cast<void*>(base))) managed_advice_.remove(base);
}

void Runtime::register_managed_variable(void** handle, void** host_pointer, const char* name, uint64_t size) {
  if (host_pointer == nullptr || name == nullptr || !modules_.fatbin_index(handle)) return;
  void* p = managed_.map(size);
  if (p == nullptr) {
    print(fmt::format("cannot place the __managed__ variable '{}' ({} bytes) in managed memory", name, size));
    return;
  }
  engine_.map_host_memory(p, size);  // the window holds no device memory: cannot overlap
  modules_.add_managed_variable(handle, host_pointer, name, size, address_of(p));
  device_ranges_[address_of(p)] = size;
  managed_advice_.add(address_of(p), size);
  *host_pointer = p;
}

bool Runtime::init_module(void** handle) {
  std::optional<uint32_t> fatbin = modules_.fatbin_index(handle);
  return fatbin && module_of(*fatbin).has_value();
}

bool Runtime::managed_attributes(const void* pointer, cudaPointerAttributes& a) const {
  if (!is_managed(pointer)) return false;
  a.type = cudaMemoryTypeManaged;
  a.device = 0;
  a.devicePointer = const_cast<void*>(pointer);
  a.hostPointer = const_cast<void*>(pointer);
  return true;
}

cudaError_t Runtime::prefetch(const void* pointer, size_t bytes, cudaMemLocation location, unsigned flags,
                              void* stream) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (!is_stream(stream)) return record(cudaErrorInvalidResourceHandle);
  if (cudaError_t e = check_location(location); e != cudaSuccess) return record(e);
  const ManagedMappings::Range* r = managed_.find(address_of(pointer));
  if (flags != 0 || bytes == 0 || r == nullptr || bytes > r->base + r->bytes - address_of(pointer))
    return record(cudaErrorInvalidValue);
  managed_advice_.prefetched(address_of(pointer), bytes, location);
  return cudaSuccess;
}

cudaError_t Runtime::advise(const void* pointer, size_t bytes, cudaMemoryAdvise advice, cudaMemLocation location) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy)
    return record(cudaErrorInvalidValue);
  // Read-mostly advice ignores the location; the others name one.
  if (advice != cudaMemAdviseSetReadMostly && advice != cudaMemAdviseUnsetReadMostly &&
      advice != cudaMemAdviseUnsetPreferredLocation) {
    if (cudaError_t e = check_location(location); e != cudaSuccess) return record(e);
  }
  const ManagedMappings::Range* r = managed_.find(address_of(pointer));
  if (bytes == 0 || r == nullptr || bytes > r->base + r->bytes - address_of(pointer))
    return record(cudaErrorInvalidValue);
  managed_advice_.advise(address_of(pointer), bytes, advice, location);
  return cudaSuccess;
}

cudaError_t Runtime::range_attribute(void* data, size_t data_size, cudaMemRangeAttribute attribute,
                                     const void* pointer, size_t bytes) {
  if (sticky_ != cudaSuccess) return sticky_;
  const ManagedMappings::Range* r = managed_.find(address_of(pointer));
  if (bytes == 0 || r == nullptr || bytes > r->base + r->bytes - address_of(pointer) ||
      !managed_advice_.query(attribute, address_of(pointer), bytes, data, data_size))
    return record(cudaErrorInvalidValue);
  return cudaSuccess;
}

}  // namespace lockstep::runtime
