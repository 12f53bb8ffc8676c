// Overrides ("key=value" after the preset): typed parsing, range checks and the exact errors.
#include <gtest/gtest.h>

#include "config/config_error.h"
#include "config/gpu_config.h"

namespace lockstep::config {
namespace {

std::string error_of(const std::vector<std::string>& overrides, const std::string& preset = "h100") {
  try {
    load_gpu_config(preset, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Overrides, ApplyAfterThePreset) {
  const GpuConfig g = load_gpu_config("h100", {"gpu.sm_count=4", "sm.max_blocks=16", "gpu.name=Mine",
                                               "sm.shared_carveouts_kib=[0, 100, 228]", "gpu.global_memory_gib=2.5"});
  EXPECT_EQ(g.gpu.sm_count, 4u);
  EXPECT_EQ(g.sm.max_blocks, 16u);
  EXPECT_EQ(g.gpu.name, "Mine");
  EXPECT_EQ(g.sm.shared_carveouts_kib, (std::vector<uint32_t>{0, 100, 228}));
  EXPECT_EQ(g.gpu.global_memory_bytes(), 5ull << 29);
  EXPECT_EQ(g.sm.warp_size, 32u);
}

TEST(Overrides, LaterOverrideWins) {
  EXPECT_EQ(load_gpu_config("v100", {"gpu.sm_count=4", "gpu.sm_count=6"}).gpu.sm_count, 6u);
}

TEST(Overrides, WarpSizeAloneMovesTheWarpSlots) {
  const GpuConfig g = load_gpu_config("h100", {"sm.warp_size=8"});
  EXPECT_EQ(g.sm.warp_size, 8u);
  EXPECT_EQ(g.sm.max_warps, 256u);
  EXPECT_EQ(load_gpu_config("h100", {"sm.warp_size=64"}).sm.max_warps, 32u);
}

TEST(Overrides, WarpSizeWithTooFewWarpSlotsIsInconsistent) {
  EXPECT_EQ(error_of({"sm.warp_size=16", "sm.max_warps=64"}),
            "sm.max_warps (64) times sm.warp_size (16) is 1024 threads, fewer than sm.max_threads (2048)");
}

TEST(Overrides, UnknownKeyListsTheKeysOfItsTable) {
  EXPECT_EQ(error_of({"sm.foo=1"}),
            "unknown configuration key 'sm.foo' (keys in [sm]: warp_size, max_threads, max_warps, max_blocks, "
            "registers, register_alloc_unit, register_alloc_granularity, max_registers_per_thread, "
            "max_registers_per_block, shared_kib, shared_per_block_kib, shared_per_block_optin_kib, "
            "shared_alloc_unit, shared_reserved_per_block, shared_carveouts_kib, max_threads_per_block, "
            "schedulers, issue_width, divergence, yield_after, large_warp_size)");
  EXPECT_EQ(error_of({"pipeline.fp32.speed=1"}),
            "unknown configuration key 'pipeline.fp32.speed' (keys in [pipeline.fp32]: latency, "
            "initiation_interval, lanes)");
}

TEST(Overrides, MemoryKeysAreCheckedByName) {
  EXPECT_EQ(error_of({"dram.scheduler=random"}),
            "bad value 'random' for dram.scheduler: expected one of fr-fcfs, fcfs");
  EXPECT_EQ(error_of({"memory.model=perfect"}),
            "bad value 'perfect' for memory.model: expected one of hierarchy, fixed-latency");
  EXPECT_EQ(error_of({"l2.slices=96"}),
            "gpu.l2_kib (51200) over l2.slices (96) does not split into whole sets of l2.ways (20) lines of "
            "l1.line_bytes (128)");
  EXPECT_EQ(error_of({"l2.sides=3"}), "bad value '3' for l2.sides: expected an integer from 1 to 2");
  EXPECT_EQ(error_of({"gpu.l2_kib=6000", "l2.slices=75", "l2.sides=2"}),
            "l2.slices (75) does not split evenly into l2.sides (2)");
  EXPECT_EQ(error_of({"l1.unified_kib=64"}),
            "l1.unified_kib (64) is smaller than sm.shared_kib (228): shared memory is carved out of it");
}

TEST(Overrides, UnknownTableListsTheTables) {
  EXPECT_EQ(error_of({"hbm.banks=4"}),
            "unknown configuration key 'hbm.banks' (tables: gpu, sm, pipeline.int, pipeline.fp32, pipeline.fp64, "
            "pipeline.sfu, pipeline.tensor, pipeline.ldst, memory, l1, l2, interconnect, dram, icache, opcodes, timing, run)");
  EXPECT_EQ(error_of({"warp_size=4"}),
            "unknown configuration key 'warp_size' (tables: gpu, sm, pipeline.int, pipeline.fp32, pipeline.fp64, "
            "pipeline.sfu, pipeline.tensor, pipeline.ldst, memory, l1, l2, interconnect, dram, icache, opcodes, timing, run)");
}

TEST(Overrides, BadValuesNameTheAcceptedValues) {
  EXPECT_EQ(error_of({"sm.warp_size=abc"}),
            "bad value 'abc' for sm.warp_size: expected one of 1, 2, 4, 8, 16, 32, 64");
  EXPECT_EQ(error_of({"sm.warp_size=24"}), "bad value '24' for sm.warp_size: expected one of 1, 2, 4, 8, 16, 32, 64");
  EXPECT_EQ(error_of({"gpu.sm_count=0"}), "bad value '0' for gpu.sm_count: expected an integer from 1 to 1024");
  EXPECT_EQ(error_of({"gpu.sm_count=12x"}), "bad value '12x' for gpu.sm_count: expected an integer from 1 to 1024");
  EXPECT_EQ(error_of({"gpu.sm_count="}), "bad value '' for gpu.sm_count: expected an integer from 1 to 1024");
  EXPECT_EQ(error_of({"gpu.global_memory_gib=lots"}),
            "bad value 'lots' for gpu.global_memory_gib: expected a number from 0.0625 to 4096");
  EXPECT_EQ(error_of({"sm.register_alloc_granularity=block"}),
            "bad value 'block' for sm.register_alloc_granularity: expected one of warp");
  EXPECT_EQ(error_of({"sm.shared_carveouts_kib=[0, x]"}),
            "bad value '[0, x]' for sm.shared_carveouts_kib: expected a list of integers from 0 to 4096, like [0, 4096]");
  EXPECT_EQ(error_of({"sm.shared_carveouts_kib=[]"}),
            "bad value '[]' for sm.shared_carveouts_kib: expected a list of integers from 0 to 4096, like [0, 4096]");
  EXPECT_EQ(error_of({"gpu.name="}), "bad value '' for gpu.name: expected a non-empty string");
}

TEST(Overrides, MalformedOverride) {
  EXPECT_EQ(error_of({"sm.count"}), "override 'sm.count' must look like key=value");
  EXPECT_EQ(error_of({"=4"}), "override '=4' must look like key=value");
}

}  // namespace
}  // namespace lockstep::config
