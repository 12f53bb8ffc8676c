// compute_occupancy on worked examples (hardware.md §4) and on the presets the toolkit's header
// does not know (fermi, teaching), derived by hand.
#include <gtest/gtest.h>

#include "config/gpu_config.h"
#include "sim/occupancy.h"

namespace lockstep::sim {
namespace {

OccupancyRequest request(uint32_t block, uint32_t regs, uint64_t static_shared = 0, uint64_t dynamic = 0) {
  OccupancyRequest r;
  r.block_size = block, r.registers_per_thread = regs, r.static_shared = static_shared, r.dynamic_shared = dynamic;
  return r;
}

TEST(Occupancy, HardwareReferenceWorkedChecks) {
  const config::GpuConfig a100 = config::load_gpu_config("a100");
  // 256 threads, 64 registers: 2048 registers per warp, 8 warps per quadrant, 32 warps -> 4 blocks.
  Occupancy o = compute_occupancy(a100, request(256, 64));
  EXPECT_EQ(o.blocks, 4u);
  EXPECT_EQ(o.limited_by, uint32_t{kLimitRegisters});
  EXPECT_EQ(o.registers_per_block, 16384u);
  // 1 KB static shared: 2048 B per block with the reservation, 82 fit, capped at 32 blocks.
  o = compute_occupancy(a100, request(32, 0, 1024));
  EXPECT_EQ(o.by_shared, 82u);
  EXPECT_EQ(o.blocks, 32u);
  EXPECT_EQ(o.limited_by, uint32_t{kLimitBlocks});
  // 48 KB dynamic: 50176 B per block in 164 KB -> 3 blocks.
  o = compute_occupancy(a100, request(32, 0, 0, 48 * 1024));
  EXPECT_EQ(o.shared_per_block, 50176u);
  EXPECT_EQ(o.blocks, 3u);
  EXPECT_EQ(o.limited_by, uint32_t{kLimitSharedMemory});
  // V100: 48 KB dynamic, no reservation, 96 KB -> 2 blocks.
  EXPECT_EQ(compute_occupancy(config::load_gpu_config("v100"), request(32, 0, 0, 48 * 1024)).blocks, 2u);
}

TEST(Occupancy, CarveoutPreferenceRoundsUpToALegalSplit) {
  const config::GpuConfig h100 = config::load_gpu_config("h100");
  OccupancyRequest r = request(64, 32, 0, 10000);  // 11136 B per block
  r.carveout_percent = 10;                           // 23347 B -> the 32 KiB split
  Occupancy o = compute_occupancy(h100, r);
  EXPECT_EQ(o.shared_per_sm, 32u * 1024);
  EXPECT_EQ(o.blocks, 2u);
  r.carveout_percent = 0;  // no shared memory preferred: the smallest split that holds one block
  o = compute_occupancy(h100, r);
  EXPECT_EQ(o.shared_per_sm, 16u * 1024);
  EXPECT_EQ(o.blocks, 1u);
}

TEST(Occupancy, DynamicSharedBeyondTheKernelsLimitCannotRun) {
  const config::GpuConfig h100 = config::load_gpu_config("h100");
  Occupancy o = compute_occupancy(h100, request(32, 0, 0, 48 * 1024 + 1));
  EXPECT_EQ(o.blocks, 0u);
  EXPECT_EQ(o.limited_by, uint32_t{kLimitSharedMemory});
  OccupancyRequest r = request(32, 0, 0, 64 * 1024);
  r.max_dynamic_shared = 64 * 1024;  // cudaFuncSetAttribute raised it
  EXPECT_EQ(compute_occupancy(h100, r).blocks, 3u);
}

TEST(Occupancy, BlockLargerThanAllowedCannotRun) {
  const Occupancy o = compute_occupancy(config::load_gpu_config("h100"), request(1025, 32));
  EXPECT_EQ(o.blocks, 0u);
  EXPECT_EQ(o.by_warps, 0u);
  EXPECT_EQ(limit_names(o.limited_by), "warps");
  EXPECT_EQ(compute_occupancy(config::load_gpu_config("h100"), request(0, 32)).blocks, 0u);
}

TEST(Occupancy, TooManyRegistersPerThreadCannotRun) {
  const config::GpuConfig fermi = config::load_gpu_config("fermi");
  EXPECT_EQ(compute_occupancy(fermi, request(32, 64)).blocks, 0u);
  EXPECT_EQ(compute_occupancy(fermi, request(32, 63)).blocks, 8u);
}

TEST(Occupancy, FermiByHand) {
  const config::GpuConfig fermi = config::load_gpu_config("fermi");
  // 256 threads = 8 warps; 20 registers: 640 per warp; 16384 per scheduler -> 25 warps each,
  // 50 in all -> 6 blocks; 48 warp slots / 8 -> 6 blocks.
  Occupancy o = compute_occupancy(fermi, request(256, 20));
  EXPECT_EQ(o.blocks, 6u);
  EXPECT_EQ(limit_names(o.limited_by), "warps, registers");
  // 12 KiB static shared in 48 KiB -> 4 blocks.
  o = compute_occupancy(fermi, request(128, 16, 12 * 1024));
  EXPECT_EQ(o.blocks, 4u);
  EXPECT_EQ(limit_names(o.limited_by), "shared memory");
  // Small blocks: 8 per SM.
  EXPECT_EQ(limit_names(compute_occupancy(fermi, request(64, 16)).limited_by), "blocks");
}

TEST(Occupancy, TeachingByHand) {
  const config::GpuConfig t = config::load_gpu_config("teaching");
  // 64 threads = 8 warps of 8; 32 registers: 256 per warp; 4096 per scheduler -> 16 warps
  // each, 32 in all -> 4 blocks; 32 warp slots / 8 -> 4 blocks.
  Occupancy o = compute_occupancy(t, request(64, 32));
  EXPECT_EQ(o.blocks, 4u);
  EXPECT_EQ(limit_names(o.limited_by), "warps, registers");
  EXPECT_EQ(compute_occupancy(t, request(8, 8)).blocks, 8u);
  EXPECT_EQ(compute_occupancy(t, request(257, 8)).blocks, 0u);
  // 5000 B of shared memory: 5120 allocated, 3 in 16 KiB.
  EXPECT_EQ(compute_occupancy(t, request(8, 8, 5000)).blocks, 3u);
}

TEST(Occupancy, LimitNames) {
  EXPECT_EQ(limit_names(0), "none");
  EXPECT_EQ(limit_names(kLimitWarps | kLimitRegisters | kLimitSharedMemory | kLimitBlocks),
            "warps, registers, shared memory, blocks");
}

}  // namespace
}  // namespace lockstep::sim
