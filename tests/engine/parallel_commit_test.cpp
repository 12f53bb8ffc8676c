// Phase 2 of the functional wave runner on several host threads (func/commit_plan.h): parked
// stores that touch no other parked instruction's bytes commit side by side, the rest in serial
// order. Every kernel here gives the result a serial commit gives, checked against a CPU
// reference of that order, bit for bit, with the same instruction counts, on 1, 2, 3 and 8
// threads and with the side-by-side commit on and off. Kernels: engine/data/stores.cu.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/harness.h"

namespace lockstep {
namespace {

constexpr uint32_t kThreadCounts[] = {1, 2, 3, 8};

// What a launch leaves: the bytes of its output buffer, counts and any fault report.
struct Outcome {
  std::vector<uint8_t> bytes;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  std::string fault;
  bool operator==(const Outcome&) const = default;
};

template <class T>
std::vector<uint8_t> as_bytes(const std::vector<T>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// Runs `launch` on an engine with `threads` threads; it returns the outcome.
using Launch = std::function<Outcome(Engine&, ModuleId)>;

Outcome run(uint32_t threads, bool parallel_commit, const Launch& launch, const char* ptx = "engine/data/stores.ptx") {
  EngineOptions options;
  options.sim_threads = threads;
  options.parallel_commit = parallel_commit;
  Engine engine(options);
  const ModuleId m = engine.load_ptx_file(test::data_path(ptx));
  return launch(engine, m);
}

Outcome outcome_of(const LaunchResult& r, std::vector<uint8_t> bytes) {
  return {std::move(bytes), r.warp_instructions, r.thread_instructions, r.fault ? r.fault->message : std::string()};
}

// The serial commit on one thread must match `expected`; every other thread count, with the
// side-by-side commit on or off, must match the serial commit exactly.
void expect_same_everywhere(const Launch& launch, const std::vector<uint8_t>& expected,
                            const char* ptx = "engine/data/stores.ptx") {
  const Outcome serial = run(1, false, launch, ptx);
  EXPECT_EQ(serial.bytes, expected);
  for (const uint32_t threads : kThreadCounts) {
    for (const bool parallel : {true, false}) {
      const Outcome other = run(threads, parallel, launch, ptx);
      EXPECT_EQ(other.bytes, serial.bytes) << threads << " threads, parallel commit " << parallel;
      EXPECT_EQ(other.warp_instructions, serial.warp_instructions) << threads << " threads, parallel " << parallel;
      EXPECT_EQ(other.thread_instructions, serial.thread_instructions) << threads << " threads, parallel " << parallel;
      EXPECT_EQ(other.fault, serial.fault) << threads << " threads, parallel commit " << parallel;
    }
  }
}

TEST(ParallelCommit, DisjointStoresGiveTheSerialResult) {
  constexpr uint32_t n = 300 * 128 - 5;  // the last block partly idle
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = 0.37f * static_cast<float>(i % 1013) - 3.0f;
    y[i] = 1.0f / static_cast<float>(i + 1);
  }
  std::vector<float> expected(n);
  for (uint32_t i = 0; i < n; ++i) expected[i] = std::fma(1.7f, x[i], y[i]);
  expect_same_everywhere(
      [&](Engine& engine, ModuleId m) {
        test::DeviceBuffer<float> dx(engine, x), dy(engine, y);
        const LaunchResult r = test::launch_ok(engine, m, "saxpy", {300, 1, 1}, {128, 1, 1},
                                               {dy.arg(), dx.arg(), test::arg(1.7f), test::arg(n)});
        return outcome_of(r, as_bytes(dy.download()));
      },
      as_bytes(expected));
}

TEST(ParallelCommit, ByteStoresWhoseRangesTouchGiveTheSerialResult) {
  constexpr uint32_t n = 200 * 96;
  std::vector<uint8_t> expected(n);
  for (uint32_t i = 0; i < n; ++i) expected[i] = static_cast<uint8_t>(i * 7 + 3);
  expect_same_everywhere(
      [&](Engine& engine, ModuleId m) {
        test::DeviceBuffer<uint8_t> out(engine, n);
        const LaunchResult r = test::launch_ok(engine, m, "bytes", {200, 1, 1}, {96, 1, 1}, {out.arg()});
        return outcome_of(r, out.download());
      },
      expected);
}

// Every block writes the same elements: the last thread in linear order wins, as blocks commit
// in slot order and slots are taken in linear block order.
TEST(ParallelCommit, StoresToTheSameElementsKeepTheSerialOrder) {
  constexpr uint32_t blocks = 150, block = 64, slots = 100;
  std::vector<uint32_t> expected(slots);
  for (uint32_t i = 0; i < blocks * block; ++i) expected[i % slots] = i;
  expect_same_everywhere(
      [&](Engine& engine, ModuleId m) {
        test::DeviceBuffer<uint32_t> out(engine, slots);
        const LaunchResult r =
            test::launch_ok(engine, m, "same_slots", {blocks, 1, 1}, {block, 1, 1}, {out.arg(), test::arg(slots)});
        return outcome_of(r, as_bytes(out.download()));
      },
      as_bytes(expected));
}

// 8-byte stores half-overlapped by 4-byte stores of the odd warp of the same block (shift 31)
// or of the next block (shift 95): the odd warps, committed later, win where they overlap.
TEST(ParallelCommit, PartlyOverlappingStoresOfDifferentWidthsKeepTheSerialOrder) {
  constexpr uint32_t blocks = 170, block = 64, n = blocks * block;
  for (const uint32_t shift : {31u, 95u}) {
    std::vector<uint32_t> expected(n + 64, 0);
    for (uint32_t i = 0; i < n; ++i) {
      if ((i % block) / 32 != 0) continue;
      expected[2 * (i / 2)] = 0x80000000u | i;  // the odd lane of a pair writes last
      expected[2 * (i / 2) + 1] = i;
    }
    for (uint32_t i = 0; i < n; ++i)
      if ((i % block) / 32 == 1 && i >= shift) expected[i - shift] = 0x40000000u | i;
    expect_same_everywhere(
        [&](Engine& engine, ModuleId m) {
          test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(n + 64, 0));
          const LaunchResult r = test::launch_ok(engine, m, "mixed_width", {blocks, 1, 1}, {block, 1, 1},
                                                 {out.arg(), test::arg(shift)});
          return outcome_of(r, as_bytes(out.download()));
        },
        as_bytes(expected));
  }
}

// Independent stores, then atomics (an epoch that stays serial), then stores of what the
// atomics returned: the atomics still run in linear thread order.
TEST(ParallelCommit, AtomicsBetweenStoresKeepTheirOrder) {
  constexpr uint32_t blocks = 130, block = 128, n = blocks * block;
  std::vector<uint32_t> expected(2 * n + 1);
  for (uint32_t i = 0; i < n; ++i) {
    expected[i] = i * 3 + 1;
    expected[n + i] = i;
  }
  expected[2 * n] = n;
  expect_same_everywhere(
      [&](Engine& engine, ModuleId m) {
        test::DeviceBuffer<uint32_t> first(engine, n), second(engine, n), counter(engine, std::vector<uint32_t>{0});
        const LaunchResult r = test::launch_ok(engine, m, "store_count_store", {blocks, 1, 1}, {block, 1, 1},
                                               {first.arg(), counter.arg(), second.arg()});
        std::vector<uint32_t> all = first.download();
        for (uint32_t v : second.download()) all.push_back(v);
        all.push_back(counter.download()[0]);
        return outcome_of(r, as_bytes(all));
      },
      as_bytes(expected));
}

// A generic store that reaches shared memory is not a known footprint: its epochs commit
// serially, and the block's shared memory still holds what the warps stored.
TEST(ParallelCommit, GenericStoresIntoSharedMemoryGiveTheSerialResult) {
  constexpr uint32_t blocks = 90, block = 256, n = blocks * block;
  std::vector<uint32_t> expected(n);
  for (uint32_t i = 0; i < n; ++i) expected[i] = (i % block) / 32 % 2 == 1 ? (i + 11) * 2 : i + 11;
  expect_same_everywhere(
      [&](Engine& engine, ModuleId m) {
        test::DeviceBuffer<uint32_t> out(engine, n);
        const LaunchResult r = test::launch_ok(engine, m, "generic_mix", {blocks, 1, 1}, {block, 1, 1}, {out.arg()});
        return outcome_of(r, as_bytes(out.download()));
      },
      as_bytes(expected));
}

// A store that faults stops the launch where the serial commit stops it: what the blocks before
// it in serial order stored is in memory, nothing after it, on any thread count.
TEST(ParallelCommit, AStoreFaultLeavesTheSerialMemoryAndReport) {
  constexpr uint32_t blocks = 100, block = 32, bad = 57;
  const Launch launch = [&](Engine& engine, ModuleId m) {
    test::DeviceBuffer<uint32_t> out(engine, std::vector<uint32_t>(blocks * block, 0xdeadbeef));
    const LaunchResult r =
        engine.launch(m, "store_fault_from", {blocks, 1, 1}, {block, 1, 1}, 0, {out.arg(), test::arg(bad)});
    EXPECT_TRUE(r.fault.has_value());
    return outcome_of(r, as_bytes(out.download()));
  };
  const Outcome serial = run(1, false, launch, "engine/data/waves.ptx");
  ASSERT_FALSE(serial.fault.empty());
  // Blocks below `bad` stored their elements; the faulting block and those after it did not.
  std::vector<uint32_t> stored(blocks * block);
  std::memcpy(stored.data(), serial.bytes.data(), serial.bytes.size());
  for (uint32_t i = 0; i < blocks * block; ++i)
    EXPECT_EQ(stored[i], i / block < bad ? i : 0xdeadbeefu) << "element " << i;
  expect_same_everywhere(launch, serial.bytes, "engine/data/waves.ptx");
}

}  // namespace
}  // namespace lockstep
