#pragma once
// Resident blocks per SM for a kernel launch, computed from the GPU configuration exactly as
// CUDA's occupancy calculator (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor) does
// for the same device properties, with the factors that limit it.
//
// Differences from cuda_occupancy.h, both outside what nvcc produces or lockstep models:
// - registers per thread above sm.max_registers_per_thread give 0 blocks (the header accepts up
//   to 256 on sm_70+, but the presets say 255, the hardware's limit);
// - the sm_90 block-barrier limit (2 * max blocks / barriers) is not applied: with the one
//   barrier every kernel has it is 64 and never binds.
#include <cstdint>
#include <optional>
#include <string>

#include "config/gpu_config.h"

namespace lockstep::sim {

// Bit flags, with cuda_occupancy.h's values (cudaOccLimitingFactor).
enum OccupancyLimit : uint32_t {
  kLimitWarps = 0x01,
  kLimitRegisters = 0x02,
  kLimitSharedMemory = 0x04,
  kLimitBlocks = 0x08,
};

struct OccupancyRequest {
  uint32_t block_size = 0;            // threads per block, at least 1
  uint32_t registers_per_thread = 0;  // 0: no register limit
  uint64_t static_shared = 0;         // bytes
  uint64_t dynamic_shared = 0;        // bytes
  // The kernel's dynamic shared memory limit (cudaFuncAttributeMaxDynamicSharedMemorySize);
  // unset: the default, sm.shared_per_block less the static part.
  std::optional<uint64_t> max_dynamic_shared;
  int carveout_percent = -1;  // cudaFuncAttributePreferredSharedMemoryCarveout: -1 (none) or 0..100
};

constexpr uint32_t kNoLimit = UINT32_MAX;

// Registers per thread assumed for a kernel with no figure from its cubin or ptxas (a typical
// allocation; reports mark it as an estimate).
constexpr uint32_t kEstimatedRegistersPerThread = 32;

struct Occupancy {
  uint32_t blocks = 0;      // resident blocks per SM: the least of the limits below
  uint32_t limited_by = 0;  // OccupancyLimit bits of every limit equal to `blocks`
  uint32_t by_warps = 0, by_blocks = 0, by_registers = 0, by_shared = 0;  // kNoLimit: none
  uint32_t registers_per_block = 0;  // allocated
  uint64_t shared_per_block = 0;     // allocated, with the system's reservation
  uint64_t shared_per_sm = 0;        // the L1/shared split the launch gets (0 when it cannot run)
};

Occupancy compute_occupancy(const config::GpuConfig& gpu, const OccupancyRequest& request);

// The most dynamic shared memory a block may use with `blocks` blocks still resident per SM, as
// CUDA's calculator answers it (cudaOccAvailableDynamicSMemPerBlock; the request's
// dynamic_shared is ignored): the SM's preferred split shared by `blocks` (a single block may
// have the opt-in limit), rounded down to the allocation unit, less the static part, capped by
// the kernel's dynamic limit. Like CUDA's, it does not take out the system's reservation per
// block. nullopt (CUDA: an invalid value) when `blocks` is 0 or more than fit without any.
std::optional<uint64_t> available_dynamic_shared(const config::GpuConfig& gpu, const OccupancyRequest& request,
                                                 uint32_t blocks);

// "warps", "registers, shared memory", ... in the bit order above; "none" for 0.
std::string limit_names(uint32_t limited_by);

}  // namespace lockstep::sim
