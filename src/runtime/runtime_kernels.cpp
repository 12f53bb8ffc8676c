// Runtime: per-kernel queries and settings (cudaFuncGetAttributes, cudaFuncSetAttribute,
// occupancy, computed by sim/occupancy from the modelled GPU's configuration). Limits come from
// the device preset; a kernel's register count comes from its cubin or ptxas (module_table),
// else it is sim's estimate.
#include <algorithm>

#include "runtime/runtime.h"
#include "sim/occupancy.h"

namespace lockstep::runtime {

const KernelInfo* Runtime::loaded_kernel(const void* host_fun, const KernelRecord*& k, ModuleId& module,
                                         cudaError_t& error) {
  k = modules_.kernel(host_fun);
  if (k == nullptr) {
    error = cudaErrorInvalidDeviceFunction;
    return nullptr;
  }
  std::optional<ModuleId> m = module_of(k->fatbin);
  if (!m) {
    error = cudaErrorNoKernelImageForDevice;
    return nullptr;
  }
  module = *m;
  auto it = kernel_infos_.find(host_fun);
  if (it == kernel_infos_.end()) it = kernel_infos_.emplace(host_fun, engine_.kernel_info(module, k->name)).first;
  return &it->second;
}

uint32_t Runtime::known_registers(const KernelRecord& k) const {
  const std::optional<KernelResources> r = modules_.kernel_resources(k.fatbin, k.name);
  return r ? r->registers : 0;
}

uint64_t Runtime::dynamic_shared_limit(const KernelRecord& k, uint32_t static_shared) const {
  auto it = kernel_settings_.find(&k);
  if (it != kernel_settings_.end() && it->second.max_dynamic_shared >= 0)
    return static_cast<uint64_t>(it->second.max_dynamic_shared);
  const uint64_t default_limit = options_.preset.shared_per_block;
  return default_limit > static_shared ? default_limit - static_shared : 0;
}

cudaError_t Runtime::kernel_parameter(const void* host_fun, size_t index, size_t& offset, size_t& size) {
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  if (index >= info->params.size()) return record(cudaErrorInvalidValue);
  offset = info->params[index].offset;
  size = info->params[index].size;
  return cudaSuccess;
}

cudaError_t Runtime::kernel_attributes(const void* host_fun, cudaFuncAttributes& a) {
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  a = cudaFuncAttributes{};
  a.sharedSizeBytes = info->static_shared_bytes;
  a.maxThreadsPerBlock = 1024;
  const uint32_t registers = known_registers(*k);
  a.numRegs = static_cast<int>(registers != 0 ? registers : sim::kEstimatedRegistersPerThread);
  // The PTX the kernel came from (CUB picks its tuning policy by it); no SASS is involved.
  const int arch = static_cast<int>(modules_.ptx_arch(k->fatbin));
  a.ptxVersion = arch;
  a.binaryVersion = arch;
  a.maxDynamicSharedSizeBytes = static_cast<int>(dynamic_shared_limit(*k, info->static_shared_bytes));
  auto it = kernel_settings_.find(k);
  a.preferredShmemCarveout = it == kernel_settings_.end() ? -1 : it->second.carveout;
  return cudaSuccess;
}

cudaError_t Runtime::set_kernel_attribute(const void* host_fun, cudaFuncAttribute attribute, int value) {
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  switch (attribute) {
    case cudaFuncAttributeMaxDynamicSharedMemorySize:
      if (value < 0 || uint64_t(value) + info->static_shared_bytes > options_.preset.shared_per_block_optin)
        return record(cudaErrorInvalidValue);
      kernel_settings_[k].max_dynamic_shared = value;
      return cudaSuccess;
    case cudaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100) return record(cudaErrorInvalidValue);
      kernel_settings_[k].carveout = value;
      return cudaSuccess;
    default:
      // Cluster and scheduling hints do not change what a functional simulation computes.
      return cudaSuccess;
  }
}

sim::OccupancyRequest Runtime::occupancy_request(const KernelRecord& k, const KernelInfo& info, int block_size,
                                                 size_t dynamic_shared) const {
  sim::OccupancyRequest request;
  request.block_size = static_cast<uint32_t>(block_size);
  const uint32_t registers = known_registers(k);
  request.registers_per_thread = registers != 0 ? registers : sim::kEstimatedRegistersPerThread;
  request.static_shared = info.static_shared_bytes;
  request.dynamic_shared = dynamic_shared;
  request.max_dynamic_shared = dynamic_shared_limit(k, info.static_shared_bytes);
  auto settings = kernel_settings_.find(&k);
  if (settings != kernel_settings_.end()) request.carveout_percent = settings->second.carveout;
  return request;
}

cudaError_t Runtime::occupancy(int& blocks, const void* host_fun, int block_size, size_t dynamic_shared) {
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  if (block_size <= 0) return record(cudaErrorInvalidValue);
  sim::OccupancyRequest request = occupancy_request(*k, *info, block_size, dynamic_shared);
  sim::Occupancy o = sim::compute_occupancy(options_.gpu, request);
  if (o.blocks == 0 && o.by_registers == 0 && known_registers(*k) == 0) {
    // An estimated register count may lower occupancy but never make a block that fits by
    // threads and shared memory look unlaunchable.
    request.registers_per_thread = 0;
    o.blocks = std::min(1u, sim::compute_occupancy(options_.gpu, request).blocks);
  }
  blocks = static_cast<int>(o.blocks);
  return cudaSuccess;
}

cudaError_t Runtime::available_dynamic_shared(size_t& bytes, const void* host_fun, int blocks, int block_size) {
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  if (block_size <= 0 || blocks <= 0) return record(cudaErrorInvalidValue);
  const std::optional<uint64_t> available = sim::available_dynamic_shared(
      options_.gpu, occupancy_request(*k, *info, block_size, 0), static_cast<uint32_t>(blocks));
  if (!available) return record(cudaErrorInvalidValue);
  bytes = static_cast<size_t>(*available);
  return cudaSuccess;
}

}  // namespace lockstep::runtime
