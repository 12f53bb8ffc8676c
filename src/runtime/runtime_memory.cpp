// Runtime: device memory, copies and module variables (symbols).
#include <cstring>
#include <exception>
#include <vector>

#include "fmt/format.h"
#include "runtime/runtime.h"

namespace lockstep::runtime {

namespace {

uint64_t address_of(const void* p) { return reinterpret_cast<uint64_t>(p); }

}  // namespace

bool Runtime::is_device_address(uint64_t address, uint64_t bytes) const {
  auto it = device_ranges_.upper_bound(address);
  if (it == device_ranges_.begin()) return false;
  --it;
  return address >= it->first && address - it->first + bytes <= std::max<uint64_t>(it->second, 1);
}

cudaError_t Runtime::malloc(void** pointer, size_t bytes) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr) return record(cudaErrorInvalidValue);
  if (bytes > options_.preset.global_memory - allocated_bytes_) return record(cudaErrorMemoryAllocation);
  const uint64_t address = engine_.malloc(bytes == 0 ? 1 : bytes);
  allocations_[address] = bytes;
  device_ranges_[address] = bytes;
  allocated_bytes_ += bytes;
  *pointer = reinterpret_cast<void*>(address);
  return cudaSuccess;
}

cudaError_t Runtime::free(void* pointer) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (pointer == nullptr) return cudaSuccess;
  auto it = allocations_.find(address_of(pointer));
  if (it == allocations_.end()) return record(cudaErrorInvalidValue);
  engine_.free(it->first);
  release_managed(it->first);  // unmaps the host memory of a managed allocation
  mem_pools_.freed(it->first);
  graph_memory_.unmapped(it->first);
  allocated_bytes_ -= it->second;
  device_ranges_.erase(it->first);
  allocations_.erase(it);
  return cudaSuccess;
}

cudaError_t Runtime::malloc_from_pool(void** pointer, size_t bytes, cudaMemPool_t pool, void* stream) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (!is_stream(stream)) return record(cudaErrorInvalidResourceHandle);
  if (mem_pools_.find(pool) == nullptr) return record(cudaErrorInvalidValue);
  if (const cudaError_t e = malloc(pointer, bytes); e != cudaSuccess) return e;
  mem_pools_.allocated(pool, address_of(*pointer), bytes);
  return cudaSuccess;
}

cudaError_t Runtime::copy_device(uint64_t dst, uint64_t src, uint64_t bytes) {
  std::vector<uint8_t> staging(bytes);
  engine_.copy_to_host(staging.data(), src, bytes);
  engine_.copy_to_device(dst, staging.data(), bytes);
  return cudaSuccess;
}

cudaError_t Runtime::memcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  if (sticky_ != cudaSuccess) return sticky_;
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return record(cudaErrorInvalidValue);
  const uint64_t d = address_of(dst), s = address_of(src);
  if (kind == cudaMemcpyDefault) {
    const bool dst_device = is_device_address(d, bytes), src_device = is_device_address(s, bytes);
    kind = dst_device ? (src_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                      : (src_device ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
  }
  try {
    if (kind != cudaMemcpyHostToHost && kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToHost &&
        kind != cudaMemcpyDeviceToDevice)
      return record(cudaErrorInvalidMemcpyDirection);
    if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost) charge_host_link(bytes);
    if (kind == cudaMemcpyDeviceToDevice) charge_device_memory(2 * uint64_t{bytes});
    switch (kind) {
      case cudaMemcpyHostToHost: std::memmove(dst, src, bytes); return cudaSuccess;
      case cudaMemcpyHostToDevice: engine_.copy_to_device(d, src, bytes); return cudaSuccess;
      case cudaMemcpyDeviceToHost: engine_.copy_to_host(dst, s, bytes); return cudaSuccess;
      default: return copy_device(d, s, bytes);
    }
  } catch (const std::exception& e) {
    print(fmt::format("cudaMemcpy: {}", e.what()));
    return record(cudaErrorInvalidValue);
  }
}

cudaError_t Runtime::memset(void* dst, int value, size_t bytes) {
  if (sticky_ != cudaSuccess) return sticky_;
  try {
    engine_.memset(address_of(dst), static_cast<uint8_t>(value), bytes);
    charge_device_memory(bytes);
    return cudaSuccess;
  } catch (const std::exception& e) {
    print(fmt::format("cudaMemset: {}", e.what()));
    return record(cudaErrorInvalidValue);
  }
}

cudaError_t Runtime::symbol(const void* host_var, uint64_t& address, uint64_t& size) {
  if (sticky_ != cudaSuccess) return sticky_;
  const VariableRecord* v = modules_.variable(host_var);
  if (v == nullptr) return record(cudaErrorInvalidSymbol);
  std::optional<ModuleId> module = module_of(v->fatbin);
  if (!module) return record(cudaErrorNoKernelImageForDevice);
  try {
    address = engine_.symbol_address(*module, v->name);
    size = engine_.symbol_size(*module, v->name);
    return cudaSuccess;
  } catch (const std::exception&) {
    return record(cudaErrorInvalidSymbol);
  }
}

cudaError_t Runtime::symbol_range(const void* host_var, size_t offset, size_t bytes, uint64_t& address) {
  uint64_t size = 0;
  if (cudaError_t e = symbol(host_var, address, size); e != cudaSuccess) return e;
  if (offset > size || bytes > size - offset) return record(cudaErrorInvalidValue);
  address += offset;
  return cudaSuccess;
}

cudaError_t Runtime::copy_to_symbol(const void* host_var, const void* src, size_t bytes, size_t offset,
                                    cudaMemcpyKind kind) {
  uint64_t address = 0;
  if (cudaError_t e = symbol_range(host_var, offset, bytes, address); e != cudaSuccess) return e;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return record(cudaErrorInvalidMemcpyDirection);
  return memcpy(reinterpret_cast<void*>(address), src, bytes,
                kind == cudaMemcpyHostToDevice ? kind : cudaMemcpyDefault);
}

cudaError_t Runtime::copy_from_symbol(void* dst, const void* host_var, size_t bytes, size_t offset,
                                      cudaMemcpyKind kind) {
  uint64_t address = 0;
  if (cudaError_t e = symbol_range(host_var, offset, bytes, address); e != cudaSuccess) return e;
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return record(cudaErrorInvalidMemcpyDirection);
  return memcpy(dst, reinterpret_cast<const void*>(address), bytes,
                kind == cudaMemcpyDeviceToHost ? kind : cudaMemcpyDefault);
}

void Runtime::memory_info(size_t& free_bytes, size_t& total_bytes) const {
  total_bytes = options_.preset.global_memory;
  free_bytes = total_bytes - allocated_bytes_;
}

}  // namespace lockstep::runtime
