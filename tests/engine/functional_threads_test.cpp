// Functional mode on several host threads (func/wave_runner.h): blocks that share data through
// global memory give bit-identical results, printf text, instruction counts and fault reports
// for any thread count, and blocks that wait for each other still complete. The kernels are in
// engine/data/waves.cu (its PTX committed beside it).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr uint32_t kThreadCounts[] = {1, 2, 3, 8};

Engine engine_on(uint32_t threads, uint32_t resident = EngineOptions{}.resident_blocks) {
  EngineOptions options;
  options.sim_threads = threads;
  options.resident_blocks = resident;
  return Engine(options);
}

ModuleId load_waves(Engine& engine) { return engine.load_ptx_file(test::data_path("engine/data/waves.ptx")); }

struct AtomicRun {
  std::vector<float> old_values;
  float sum = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
};

constexpr uint32_t kAtomicBlocks = 200, kBlock = 96;

AtomicRun run_float_atomics(uint32_t threads, uint32_t resident = EngineOptions{}.resident_blocks) {
  Engine engine = engine_on(threads, resident);
  const ModuleId m = load_waves(engine);
  test::DeviceBuffer<float> old_values(engine, kAtomicBlocks * kBlock);
  test::DeviceBuffer<float> sum(engine, std::vector<float>{0.0f});
  const LaunchResult r =
      test::launch_ok(engine, m, "float_atomics", {kAtomicBlocks, 1, 1}, {kBlock, 1, 1}, {old_values.arg(), sum.arg()});
  return {old_values.download(), sum.download()[0], r.warp_instructions, r.thread_instructions};
}

// Each block's warps all park at their atomic in the block's first epoch, and parked
// instructions run block by block, warp by warp, lane by lane: the atomics run in linear thread
// order, as they do when blocks run one at a time.
TEST(FunctionalThreads, FloatAtomicsOfManyBlocksKeepOneOrderOnAnyThreadCount) {
  std::vector<float> expected;
  float running = 0;
  for (uint32_t b = 0; b < kAtomicBlocks; ++b) {
    for (uint32_t t = 0; t < kBlock; ++t) {
      expected.push_back(running);
      running += 0.1f * static_cast<float>(t + 1);
    }
  }
  const AtomicRun one = run_float_atomics(1);
  EXPECT_EQ(one.old_values, expected);
  EXPECT_EQ(std::bit_cast<uint32_t>(one.sum), std::bit_cast<uint32_t>(running));
  EXPECT_EQ(run_float_atomics(1, 1).old_values, expected);  // one block resident at a time
  for (uint32_t threads : kThreadCounts) {
    const AtomicRun other = run_float_atomics(threads);
    EXPECT_EQ(other.old_values, one.old_values) << threads << " threads";
    EXPECT_EQ(std::bit_cast<uint32_t>(other.sum), std::bit_cast<uint32_t>(one.sum)) << threads << " threads";
    EXPECT_EQ(other.warp_instructions, one.warp_instructions) << threads << " threads";
    EXPECT_EQ(other.thread_instructions, one.thread_instructions) << threads << " threads";
  }
}

TEST(FunctionalThreads, BlocksWaitingForTheBlockBeforeThemComplete) {
  constexpr uint32_t kBlocks = 120;
  for (uint32_t threads : kThreadCounts) {
    Engine engine = engine_on(threads, 16);
    const ModuleId m = load_waves(engine);
    test::DeviceBuffer<uint32_t> ready(engine, std::vector<uint32_t>(kBlocks, 0));
    test::DeviceBuffer<uint32_t> values(engine, std::vector<uint32_t>(kBlocks, 7));
    test::launch_ok(engine, m, "chain", {kBlocks, 1, 1}, {64, 1, 1}, {ready.arg(), values.arg()});
    std::vector<uint32_t> expected(kBlocks);
    for (uint32_t b = 1; b < kBlocks; ++b) expected[b] = expected[b - 1] + b;
    EXPECT_EQ(values.download(), expected) << threads << " threads";
    EXPECT_EQ(ready.download(), std::vector<uint32_t>(kBlocks, 1)) << threads << " threads";
  }
}

TEST(FunctionalThreads, PrintfTextComesInBlockOrder) {
  constexpr uint32_t kBlocks = 150;
  std::string expected;
  for (uint32_t b = 0; b < kBlocks; ++b)
    for (uint32_t w = 0; w < 4; w += 2) expected += "block " + std::to_string(b) + " warp " + std::to_string(w) + " marker 9\n";
  for (uint32_t threads : kThreadCounts) {
    Engine engine = engine_on(threads);
    const ModuleId m = load_waves(engine);
    const LaunchResult r = test::launch_ok(engine, m, "hello", {kBlocks, 1, 1}, {128, 1, 1}, {test::arg(9)});
    EXPECT_EQ(r.printf_output, expected) << threads << " threads";
  }
}

// A fault while the blocks run side by side is reported for the lowest-numbered block that
// faulted, whichever thread ran it.
TEST(FunctionalThreads, ALoadFaultNamesTheSameBlockOnAnyThreadCount) {
  for (uint32_t threads : kThreadCounts) {
    Engine engine = engine_on(threads);
    const ModuleId m = load_waves(engine);
    test::DeviceBuffer<uint32_t> out(engine, 100 * 32);
    const LaunchResult r =
        engine.launch(m, "fault_from", {100, 1, 1}, {32, 1, 1}, 0,
                      {out.arg(), test::arg(uint64_t{0x1000}), test::arg(uint32_t{41})});
    ASSERT_TRUE(r.fault.has_value()) << threads << " threads";
    EXPECT_EQ(r.fault->block.x, 41u) << threads << " threads";
    EXPECT_EQ(r.fault->thread.x, 0u) << threads << " threads";
    EXPECT_EQ(r.fault->address, 0x1000u) << threads << " threads";
    EXPECT_EQ(r.fault->kind, "out-of-bounds access") << threads << " threads";
  }
}

// A parked store that faults is reported where the parked instructions run: block by block, the
// first in slot order.
TEST(FunctionalThreads, AStoreFaultIsTheSameReportOnAnyThreadCount) {
  std::string first;
  for (uint32_t threads : kThreadCounts) {
    Engine engine = engine_on(threads);
    const ModuleId m = load_waves(engine);
    test::DeviceBuffer<uint32_t> out(engine, 100 * 32);
    const LaunchResult r =
        engine.launch(m, "store_fault_from", {100, 1, 1}, {32, 1, 1}, 0, {out.arg(), test::arg(uint32_t{57})});
    ASSERT_TRUE(r.fault.has_value()) << threads << " threads";
    EXPECT_EQ(r.fault->block.x, 57u) << threads << " threads";
    EXPECT_EQ(r.fault->address, out.address() + (57u * 32 + (1u << 28)) * 4) << threads << " threads";
    if (first.empty()) first = r.fault->message;
    EXPECT_EQ(r.fault->message, first) << threads << " threads";
  }
}

// A block that waits for a flag nobody sets is reported as a deadlock, with the same report on
// every thread count; so is the same block left alone at the end of the grid.
TEST(FunctionalThreads, ASpinThatNobodyReleasesIsReportedNotAHang) {
  for (const uint32_t blocks : {1u, 40u}) {
    const uint32_t waiter = blocks == 1 ? 0 : 1;
    std::string first;
    for (uint32_t threads : kThreadCounts) {
      Engine engine = engine_on(threads);
      const ModuleId m = load_waves(engine);
      test::DeviceBuffer<uint32_t> flag(engine, std::vector<uint32_t>{0});
      const LaunchResult r =
          engine.launch(m, "wait_forever", {blocks, 1, 1}, {64, 1, 1}, 0, {flag.arg(), test::arg(waiter)});
      ASSERT_TRUE(r.fault.has_value()) << blocks << " blocks, " << threads << " threads";
      EXPECT_EQ(r.fault->kind, "deadlock");
      EXPECT_EQ(r.fault->block.x, waiter);
      EXPECT_EQ(r.fault->thread.x, 0u);
      const std::string stuck = "\n  block (" + std::to_string(waiter) + ",0,0) warp 0: pc ";
      EXPECT_NE(r.fault->message.find("no thread block of the launch can make progress"), std::string::npos)
          << r.fault->message;
      EXPECT_NE(r.fault->message.find(stuck), std::string::npos) << r.fault->message;
      EXPECT_NE(r.fault->message.find(" active 0x1 running"), std::string::npos) << r.fault->message;
      // Only the waiting warp is left: the others exited.
      EXPECT_EQ(std::count(r.fault->message.begin(), r.fault->message.end(), '\n'), 1) << r.fault->message;
      if (first.empty()) first = r.fault->message;
      EXPECT_EQ(r.fault->message, first) << threads << " threads";
    }
  }
}

}  // namespace
}  // namespace lockstep
