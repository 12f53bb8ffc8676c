// compute_occupancy against the toolkit's own calculator (cuda_occupancy.h), fed with device
// properties filled from the same preset: for every combination the resident blocks, the
// per-factor limits and the limiting factors must be equal.
#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include <random>

#include "config/gpu_config.h"
#include "sim/occupancy.h"

namespace lockstep::sim {
namespace {

cudaOccDeviceProp device_of(const config::GpuConfig& g) {
  cudaOccDeviceProp p;
  p.computeMajor = static_cast<int>(g.gpu.compute_capability / 10);
  p.computeMinor = static_cast<int>(g.gpu.compute_capability % 10);
  p.maxThreadsPerBlock = static_cast<int>(g.sm.max_threads_per_block);
  p.maxThreadsPerMultiprocessor = static_cast<int>(g.sm.max_threads);
  p.regsPerBlock = static_cast<int>(g.sm.max_registers_per_block);
  p.regsPerMultiprocessor = static_cast<int>(g.sm.registers);
  p.warpSize = static_cast<int>(g.sm.warp_size);
  p.sharedMemPerBlock = g.sm.shared_per_block_bytes();
  p.sharedMemPerMultiprocessor = g.sm.shared_bytes();
  p.numSms = static_cast<int>(g.gpu.sm_count);
  p.sharedMemPerBlockOptin = g.sm.shared_per_block_optin_bytes();
  p.reservedSharedMemPerBlock = g.sm.shared_reserved_per_block;
  return p;
}

// What the runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor passes: the function
// attributes as cudaFuncGetAttributes reports them (cudaOccFuncAttributes(const
// cudaFuncAttributes&) sets the opt-in limit config and one block barrier).
cudaOccFuncAttributes function_of(const config::GpuConfig& g, const OccupancyRequest& r) {
  cudaOccFuncAttributes f;
  f.maxThreadsPerBlock = 1024;
  f.numRegs = static_cast<int>(r.registers_per_thread);
  f.sharedSizeBytes = r.static_shared;
  f.partitionedGCConfig = PARTITIONED_GC_OFF;
  f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  const uint64_t default_dynamic =
      g.sm.shared_per_block_bytes() > r.static_shared ? g.sm.shared_per_block_bytes() - r.static_shared : 0;
  f.maxDynamicSharedSizeBytes = r.max_dynamic_shared.value_or(default_dynamic);
  f.numBlockBarriers = 1;
  return f;
}

uint32_t as_limit(int v) { return v == INT_MAX ? kNoLimit : static_cast<uint32_t>(v); }

void expect_same_as_cuda(const config::GpuConfig& g, const OccupancyRequest& r) {
  SCOPED_TRACE(testing::Message() << g.preset << " block " << r.block_size << " regs " << r.registers_per_thread
                                  << " static " << r.static_shared << " dynamic " << r.dynamic_shared << " max dynamic "
                                  << (r.max_dynamic_shared ? int64_t(*r.max_dynamic_shared) : -1) << " carveout "
                                  << r.carveout_percent);
  const cudaOccDeviceProp device = device_of(g);
  const cudaOccFuncAttributes function = function_of(g, r);
  cudaOccDeviceState state;
  state.carveoutConfig = r.carveout_percent;
  cudaOccResult expected{};
  ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&expected, &device, &function, &state,
                                                    static_cast<int>(r.block_size), r.dynamic_shared),
            CUDA_OCC_SUCCESS);
  const Occupancy got = compute_occupancy(g, r);
  EXPECT_EQ(got.blocks, static_cast<uint32_t>(expected.activeBlocksPerMultiprocessor));
  EXPECT_EQ(got.limited_by, expected.limitingFactors);
  EXPECT_EQ(got.by_warps, as_limit(expected.blockLimitWarps));
  EXPECT_EQ(got.by_blocks, as_limit(expected.blockLimitBlocks));
  EXPECT_EQ(got.by_registers, as_limit(expected.blockLimitRegs));
  EXPECT_EQ(got.by_shared, as_limit(expected.blockLimitSharedMem));
  EXPECT_EQ(got.registers_per_block, static_cast<uint32_t>(expected.allocatedRegistersPerBlock));
  EXPECT_EQ(got.shared_per_block, expected.allocatedSharedMemPerBlock);
}

// Hand-picked corners, then seeded random draws: block sizes 1..1024 (and beyond the limit),
// registers 0..255, static and dynamic shared memory up to the opt-in maximum, with and without
// opt-in, with every kind of carve-out preference.
std::vector<OccupancyRequest> requests_for(const config::GpuConfig& g) {
  std::vector<OccupancyRequest> out;
  for (uint32_t block : {32u, 33u, 64u, 96u, 100u, 128u, 192u, 255u, 256u, 320u, 500u, 512u, 768u, 1000u, 1024u, 1025u})
    for (uint32_t regs : {0u, 16u, 32u, 40u, 64u, 65u, 128u, 168u, 255u}) {
      OccupancyRequest r;
      r.block_size = block, r.registers_per_thread = regs;
      out.push_back(r);
    }
  const uint64_t optin = g.sm.shared_per_block_optin_bytes();
  const uint64_t default_limit = g.sm.shared_per_block_bytes();
  for (uint64_t dynamic : {uint64_t{0}, uint64_t{1}, uint64_t{1000}, uint64_t{4096}, default_limit - 1, default_limit,
                           default_limit + 1, optin - 4096, optin})
    for (int carveout : {-1, 0, 10, 25, 50, 75, 100}) {
      OccupancyRequest r;
      r.block_size = 128, r.registers_per_thread = 32, r.dynamic_shared = dynamic, r.carveout_percent = carveout;
      if (dynamic > default_limit) r.max_dynamic_shared = optin;
      out.push_back(r);
    }
  std::mt19937 random(20261123);
  auto pick = [&](uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(random); };
  for (int i = 0; i < 400; ++i) {
    OccupancyRequest r;
    r.block_size = static_cast<uint32_t>(pick(0, 3) == 0 ? pick(1, 32) * 32 : pick(1, 1024));
    r.registers_per_thread = static_cast<uint32_t>(pick(16, 255));
    r.static_shared = pick(0, 2) == 0 ? 0 : pick(0, default_limit / 2);
    const bool opt_in = pick(0, 1) == 1;
    const uint64_t dynamic_room = (opt_in ? optin : default_limit) - std::min(r.static_shared, default_limit);
    if (opt_in) r.max_dynamic_shared = pick(0, dynamic_room);
    r.dynamic_shared = pick(0, 3) == 0 ? 0 : pick(0, dynamic_room + 512);  // sometimes over the limit
    const uint64_t carveout_kind = pick(0, 2);
    r.carveout_percent = carveout_kind == 0 ? -1 : static_cast<int>(pick(0, 100));
    out.push_back(r);
  }
  return out;
}

class OccupancyOracle : public testing::TestWithParam<std::string> {};

TEST_P(OccupancyOracle, EqualsCudaOccupancyHeader) {
  const config::GpuConfig g = config::load_gpu_config(GetParam());
  const std::vector<OccupancyRequest> requests = requests_for(g);
  ASSERT_GE(requests.size(), 50u);
  uint32_t limited[5] = {};
  for (const OccupancyRequest& r : requests) {
    expect_same_as_cuda(g, r);
    const uint32_t bits = compute_occupancy(g, r).limited_by;
    for (uint32_t b = 0; b < 4; ++b) limited[b] += (bits >> b) & 1;
    if (HasFailure()) return;  // one combination's report is enough
  }
  // The draws exercise every limiting factor.
  for (uint32_t b = 0; b < 4; ++b) EXPECT_GT(limited[b], 10u) << limit_names(1u << b);
}

// cudaOccupancyAvailableDynamicSMemPerBlock's calculation, for 1 to 40 blocks per SM: the same
// bytes, and no answer exactly where the header refuses (more blocks than fit without any).
TEST_P(OccupancyOracle, AvailableDynamicSharedEqualsCudaOccupancyHeader) {
  const config::GpuConfig g = config::load_gpu_config(GetParam());
  const cudaOccDeviceProp device = device_of(g);
  uint32_t answered = 0, refused = 0;
  for (const OccupancyRequest& r : requests_for(g)) {
    const cudaOccFuncAttributes function = function_of(g, r);
    cudaOccDeviceState state;
    state.carveoutConfig = r.carveout_percent;
    for (uint32_t blocks : {1u, 2u, 3u, 4u, 7u, 8u, 16u, 32u, 40u}) {
      SCOPED_TRACE(testing::Message() << g.preset << " block " << r.block_size << " regs " << r.registers_per_thread
                                      << " static " << r.static_shared << " carveout " << r.carveout_percent
                                      << " blocks " << blocks);
      size_t expected = 0;
      const cudaOccError status = cudaOccAvailableDynamicSMemPerBlock(
          &expected, &device, &function, &state, static_cast<int>(blocks), static_cast<int>(r.block_size));
      const std::optional<uint64_t> got = available_dynamic_shared(g, r, blocks);
      if (status == CUDA_OCC_SUCCESS) {
        ASSERT_TRUE(got.has_value());
        EXPECT_EQ(*got, expected);
        ++answered;
      } else {
        EXPECT_FALSE(got.has_value()) << *got;
        ++refused;
      }
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(answered, 100u);
  EXPECT_GT(refused, 100u);
}

INSTANTIATE_TEST_SUITE_P(Presets, OccupancyOracle, testing::Values("v100", "a100", "h100", "h200"));

TEST(OccupancyOracleWarpWidth, NarrowAndWideWarpsEqualTheHeaderToo) {
  for (const char* warp : {"sm.warp_size=16", "sm.warp_size=64"}) {
    const config::GpuConfig g = config::load_gpu_config("h100", {warp});
    for (const OccupancyRequest& r : requests_for(g)) {
      expect_same_as_cuda(g, r);
      if (HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace lockstep::sim
