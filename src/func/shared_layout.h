#pragma once
// Where a block's shared memory lives: static variables from offset 0, dynamic shared memory
// after them (aligned as the kernel declares), then, for kernels that read
// %reserved_smem_offset_*, the region sm_80+ GPUs reserve per block for system software
// (cooperative groups keep the barriers of tiles wider than a warp there). The reserved region
// never overlaps the kernel's own shared memory; kernels that do not read it get no region, so
// an overrun of their shared memory still faults at its end.
#include <cstdint>

#include "func/bound_kernel.h"

namespace lockstep::func {

// cudaDevAttrReservedSharedMemoryPerBlock on sm_80 and newer (the a100, h100 and h200 presets).
// The occupancy calculator counts the preset's own value; this is the region's size in the block.
inline constexpr uint32_t kReservedSharedBytes = 1024;
// Shared memory is allocated in units of 128 bytes on sm_80 and sm_90: %total_smem_size and
// %aggr_smem_size are multiples of it, and the reserved region starts on one.
inline constexpr uint32_t kSharedAllocUnit = 128;

struct SharedLayout {
  uint32_t user_bytes = 0;      // static + dynamic, with the alignment padding between them
  uint32_t reserved_begin = 0;  // %reserved_smem_offset_begin: user_bytes rounded up to the unit
  bool has_reserved = false;    // the kernel reads the reserved region's registers
  // Bytes of the block's shared-memory buffer.
  uint32_t bytes() const { return has_reserved ? reserved_begin + kReservedSharedBytes : user_bytes; }
  // %total_smem_size: the kernel's own shared memory in allocation units (no reserved part).
  uint32_t total_smem_size() const { return reserved_begin; }
  // %aggr_smem_size: the same plus the reserved region, as the block occupies the SM.
  uint32_t aggr_smem_size() const { return reserved_begin + kReservedSharedBytes; }
};

SharedLayout shared_layout(const BoundKernel& kernel, uint32_t dynamic_shared);

}  // namespace lockstep::func
