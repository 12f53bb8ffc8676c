#pragma once
// The memory hierarchy's units as the preset describes them (memory.model = hierarchy): the
// memory system past the L1s, built once per simulated GPU, and each launch's LD/ST unit, whose
// L1 gets what the launch's shared-memory carve-out leaves of the unified array.
#include <cstdint>

#include "config/gpu_config.h"
#include "mem/memory_system.h"
#include "sim/ldst_unit.h"

namespace lockstep::sim {

mem::MemorySystemOptions memory_system_options(const config::GpuConfig& gpu);

// The shared-memory carve-out the driver picks for `blocks_per_sm` blocks of `shared_per_block`
// bytes: the smallest legal one (sm.shared_carveouts_kib) that holds them, in KiB.
uint32_t shared_carveout_kib(const config::GpuConfig& gpu, uint32_t blocks_per_sm, uint32_t shared_per_block);

LdstUnitOptions ldst_unit_options(const config::GpuConfig& gpu, uint32_t warp_size, uint32_t blocks_per_sm,
                                  uint32_t shared_per_block, uint32_t local_bytes_per_thread);

}  // namespace lockstep::sim
