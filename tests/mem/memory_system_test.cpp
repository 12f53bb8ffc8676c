// MemorySystem's partitions: which slices and channels step together, and that stepping the
// partitions in any order, or on several threads, gives exactly the serial run's responses,
// cycles and statistics.
#include "mem/memory_system.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>
#include <tuple>
#include <vector>

#include "dram_harness.h"

namespace lockstep::mem {
namespace {

constexpr uint32_t kSms = 6;

MemorySystemOptions options(uint32_t slices, uint32_t channels) {
  MemorySystemOptions o;
  o.sms = kSms;
  o.slices = slices;
  o.slice.cache = {.sets = 8, .ways = 2, .write = WritePolicy::kWriteBackAllocate, .mshr_entries = 4,
                   .mshr_max_merge = 2};
  o.slice.latency = 20;
  o.slice.atomic_latency = 4;
  o.slice.input_queue = 4;
  o.slice.output_queue = 4;
  o.slice.dram_queue = 4;
  o.channels = channels;
  o.dram = dram_test::small_options();
  o.dram.read_queue = 8;
  o.dram.write_queue = 8;
  o.dram.write_high_watermark = 6;
  o.dram.write_low_watermark = 2;
  o.controller_latency = 15;
  o.network = {.latency = 3, .input_queue = 2, .output_queue = 2, .flit_bytes = 32};
  return o;
}

// What a run delivered: (cycle, SM, token) of every response in delivery order, and the stats.
struct Outcome {
  std::vector<std::tuple<uint64_t, uint32_t, uint64_t>> responses;
  MemorySystemStats stats;
  uint64_t last_cycle = 0;
};

// Every SM sends `per_sm` random requests (reads, writes and atomics over a footprint a few times
// the L2), as fast as the request crossbar takes them, and takes its responses as they arrive.
Outcome drive(const MemorySystemOptions& o, const ParallelFor* parallel, uint32_t per_sm = 150) {
  MemorySystem memory(o);
  std::mt19937_64 rng(11);
  std::vector<std::vector<MemRequest>> to_send(kSms);
  for (uint32_t sm = 0; sm < kSms; ++sm) {
    for (uint32_t i = 0; i < per_sm; ++i) {
      const uint64_t r = rng();
      const AccessKind kind = r % 7 == 0 ? AccessKind::kWrite : r % 11 == 0 ? AccessKind::kAtomic : AccessKind::kRead;
      to_send[sm].push_back({.line = (r >> 8) % 512, .sectors = 1u << (r >> 20) % 4, .kind = kind, .source = sm,
                             .token = uint64_t{sm} << 32 | i});
    }
    std::reverse(to_send[sm].begin(), to_send[sm].end());  // popped from the back
  }
  Outcome out;
  uint64_t expected = 0;
  for (const auto& v : to_send) expected += v.size();
  uint64_t now = 0;
  while (out.responses.size() < expected) {
    for (uint32_t sm = 0; sm < kSms; ++sm) {
      if (!to_send[sm].empty() && memory.can_send(sm)) {
        MemRequest r = to_send[sm].back();
        r.issued = now;
        memory.send(sm, r, now);
        to_send[sm].pop_back();
      }
    }
    memory.tick(now, parallel);
    for (uint32_t sm = 0; sm < kSms; ++sm) {
      while (memory.has_response(sm, now)) {
        out.responses.emplace_back(now, sm, memory.response(sm).token);
        memory.pop_response(sm);
      }
    }
    ++now;
    if (now > 10'000'000) {
      ADD_FAILURE() << "the memory system stopped answering";
      break;
    }
  }
  out.stats = memory.stats();
  out.last_cycle = now;
  return out;
}

void expect_same(const Outcome& a, const Outcome& b) {
  EXPECT_EQ(a.responses, b.responses);
  EXPECT_EQ(a.last_cycle, b.last_cycle);
  EXPECT_EQ(a.stats.requests, b.stats.requests);
  EXPECT_EQ(a.stats.responses, b.stats.responses);
  EXPECT_EQ(a.stats.dram_reads, b.stats.dram_reads);
  EXPECT_EQ(a.stats.dram_writes, b.stats.dram_writes);
  EXPECT_EQ(a.stats.dram_stalls, b.stats.dram_stalls);
  EXPECT_EQ(a.stats.fill_stalls, b.stats.fill_stalls);
  EXPECT_EQ(a.stats.response_stalls, b.stats.response_stalls);
  EXPECT_EQ(a.stats.far_hits, b.stats.far_hits);
  EXPECT_EQ(a.stats.victim_stalls, b.stats.victim_stalls);
}

TEST(MemorySystemPartitions, GroupSlicesAndChannelsThatMeet) {
  EXPECT_EQ(MemorySystem(options(8, 8)).partition_count(), 8u);
  EXPECT_EQ(MemorySystem(options(8, 4)).partition_count(), 4u);  // slice s with channel s % 4
  EXPECT_EQ(MemorySystem(options(4, 8)).partition_count(), 4u);  // channel c with slice c % 4
  EXPECT_EQ(MemorySystem(options(6, 4)).partition_count(), 1u);  // every slice meets every channel
  MemorySystemOptions modulo = options(8, 4);
  modulo.xor_hash = false;
  EXPECT_EQ(MemorySystem(modulo).partition_count(), 4u);
}

TEST(MemorySystemPartitions, EveryLineStaysInsideItsPartition) {
  for (auto [slices, channels] : {std::pair{8u, 4u}, std::pair{4u, 8u}, std::pair{8u, 8u}}) {
    const MemorySystem memory(options(slices, channels));
    const uint32_t n = memory.partition_count();
    for (uint64_t line = 0; line < 100'000; line += 7)
      EXPECT_EQ(memory.slice_of(0, line) % n, memory.channel_of(line) % n) << "line " << line;
  }
}

TEST(MemorySystemPartitions, AnyOrderAndAnyThreadsGiveTheSerialRun) {
  // The partitions in reverse order, and each on a thread of its own.
  const ParallelFor reversed = [](uint32_t count, const std::function<void(uint32_t)>& task) {
    for (uint32_t i = count; i-- > 0;) task(i);
  };
  const ParallelFor threads = [](uint32_t count, const std::function<void(uint32_t)>& task) {
    std::vector<std::thread> pool;
    for (uint32_t i = 0; i < count; ++i) pool.emplace_back(task, i);
    for (std::thread& t : pool) t.join();
  };
  for (auto [slices, channels] : {std::pair{8u, 4u}, std::pair{4u, 8u}, std::pair{8u, 8u}, std::pair{6u, 4u}}) {
    SCOPED_TRACE(testing::Message() << slices << " slices, " << channels << " channels");
    const Outcome serial = drive(options(slices, channels), nullptr);
    EXPECT_GT(serial.stats.dram_reads, 0u);
    EXPECT_GT(serial.stats.dram_writes, 0u);
    expect_same(serial, drive(options(slices, channels), &reversed));
    // A thread per partition and cycle is slow: a shorter run.
    expect_same(drive(options(slices, channels), nullptr, 40), drive(options(slices, channels), &threads, 40));
  }
  // Near and far halves (far_l2_test.cpp): a slice and its far pair step in one partition.
  for (auto [slices, channels] : {std::pair{8u, 4u}, std::pair{8u, 8u}, std::pair{4u, 8u}}) {
    SCOPED_TRACE(testing::Message() << slices << " slices in two sides, " << channels << " channels");
    MemorySystemOptions o = options(slices, channels);
    o.sides = 2;
    o.far_latency = 30;
    const Outcome serial = drive(o, nullptr);
    EXPECT_GT(serial.stats.far_hits, 0u);
    expect_same(serial, drive(o, &reversed));
    expect_same(drive(o, nullptr, 40), drive(o, &threads, 40));
  }
}

}  // namespace
}  // namespace lockstep::mem
