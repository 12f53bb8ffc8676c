// Runtime: cooperative launches (cudaLaunchCooperativeKernel). The engine keeps every block of
// the grid resident and lets blocks take turns; here the launch is checked as CUDA checks it:
// the grid may not have more blocks than the device can hold at once.
#include "runtime/runtime.h"

namespace lockstep::runtime {

cudaError_t Runtime::launch_cooperative(const void* host_fun, Dim3 grid, Dim3 block, void** args, size_t shared) {
  if (sticky_ != cudaSuccess) return sticky_;
  const KernelRecord* k = nullptr;
  ModuleId module{};
  cudaError_t error = cudaSuccess;
  const KernelInfo* info = loaded_kernel(host_fun, k, module, error);
  if (info == nullptr) return record(error);
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || block.x == 0 || block.y == 0 || block.z == 0 ||
      uint64_t{block.x} * block.y * block.z > 1024 || block.z > 64 || grid.y > 65535 || grid.z > 65535)
    return record(cudaErrorInvalidConfiguration);
  if (shared > dynamic_shared_limit(*k, info->static_shared_bytes)) return record(cudaErrorInvalidValue);
  int per_sm = 0;
  const int threads = static_cast<int>(block.x * block.y * block.z);
  if (const cudaError_t e = occupancy(per_sm, host_fun, threads, shared); e != cudaSuccess) return e;
  const uint64_t resident = uint64_t(per_sm) * options_.preset.multiprocessors;
  if (uint64_t{grid.x} * grid.y * grid.z > resident) return record(cudaErrorCooperativeLaunchTooLarge);
  LaunchOptions cooperative;
  cooperative.cooperative = true;
  return run_launch(*k, module, grid, block, args, shared, cooperative);
}

}  // namespace lockstep::runtime
