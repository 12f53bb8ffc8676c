// The near and far L2 partitions (MemorySystemOptions::sides = 2, memory_system.h): each side's
// SMs use their own half of the slices, a miss looks in the other half before DRAM, and what a
// half replaces is kept in the other. Two SMs (SM 0 on side 0, SM 1 on side 1), one slice per
// side of one set and two ways, one DRAM channel: every line meets in the same set, so each
// step's outcome follows from LRU by hand.
#include <gtest/gtest.h>

#include <cstdint>

#include "dram_harness.h"
#include "mem/memory_system.h"

namespace lockstep::mem {
namespace {

constexpr uint32_t kFarLatency = 30;  // a far hit (27 + 30) is quicker than this DRAM (70)

MemorySystemOptions two_sides() {
  MemorySystemOptions o;
  o.sms = 2;
  o.slices = 2;
  o.sides = 2;
  o.far_latency = kFarLatency;
  o.slice.cache = {.sets = 1, .ways = 2, .write = WritePolicy::kWriteBackAllocate, .mshr_entries = 4,
                   .mshr_max_merge = 2};
  o.slice.latency = 20;
  o.channels = 1;
  o.dram = dram_test::small_options();
  o.controller_latency = 15;
  o.network = {.latency = 3, .input_queue = 2, .output_queue = 2, .flit_bytes = 32};
  o.xor_hash = false;
  return o;
}

// Sends one request from `sm` and runs until its answer: the cycles it took.
struct Driver {
  MemorySystem memory{two_sides()};
  uint64_t now = 0;

  uint64_t access(uint32_t sm, uint64_t line, AccessKind kind = AccessKind::kRead) {
    const uint64_t sent = now;
    memory.send(sm, MemRequest{.line = line, .sectors = 0b1111, .kind = kind, .source = sm, .issued = now}, now);
    for (;; ++now) {
      memory.tick(now);
      if (memory.has_response(sm, now)) {
        memory.pop_response(sm);
        return ++now - sent;
      }
      if (now > sent + 100'000) {
        ADD_FAILURE() << "no answer";
        return 0;
      }
    }
  }
};

TEST(FarL2, EachSideHasItsOwnHalfOfTheSlices) {
  const MemorySystem memory(two_sides());
  EXPECT_EQ(memory.side_of(0), 0u);
  EXPECT_EQ(memory.side_of(1), 1u);
  for (uint64_t line = 0; line < 8; ++line) {
    EXPECT_EQ(memory.slice_of(0, line), 0u);
    EXPECT_EQ(memory.slice_of(1, line), 1u);
  }
  MemorySystemOptions odd = two_sides();
  odd.slices = 3;
  EXPECT_THROW(MemorySystem{odd}, std::invalid_argument);
}

TEST(FarL2, AFarHitTakesTheNearHitPlusTheFarLatency) {
  Driver d;
  const uint64_t from_dram = d.access(0, 10);
  const uint64_t near_hit = d.access(0, 10);
  d.access(0, 11);
  d.access(0, 12);  // the near set holds 11 and 12; 10 went to the far slice
  EXPECT_EQ(d.memory.slices()[0].stats().victims_out, 1u);
  EXPECT_EQ(d.memory.slices()[1].stats().victims_in, 1u);
  const uint64_t reads_before = d.memory.stats().dram_reads;
  const uint64_t far_hit = d.access(0, 10);
  EXPECT_EQ(far_hit, near_hit + kFarLatency);
  EXPECT_LT(far_hit, from_dram);
  EXPECT_EQ(d.memory.stats().far_hits, 1u);
  EXPECT_EQ(d.memory.stats().dram_reads, reads_before);
  // The line is near again.
  EXPECT_EQ(d.access(0, 10), near_hit);
}

TEST(FarL2, OneSideUsesTheWholeL2) {
  // Four lines fit the two halves together: the second pass finds every line in the far half
  // (each far hit brings its line near, which sends the oldest near line far).
  Driver d;
  for (uint64_t line : {1, 2, 3, 4}) d.access(0, line);
  const uint64_t reads = d.memory.stats().dram_reads;
  for (uint64_t line : {1, 2, 3, 4}) d.access(0, line);
  EXPECT_EQ(d.memory.stats().far_hits, 4u);
  EXPECT_EQ(d.memory.stats().dram_reads, reads);

  // Five do not: the far half kept 2 and 3, so 1 comes from DRAM again.
  Driver five;
  for (uint64_t line : {1, 2, 3, 4, 5}) five.access(0, line);
  const uint64_t reads5 = five.memory.stats().dram_reads;
  five.access(0, 1);
  EXPECT_EQ(five.memory.stats().far_hits, 0u);
  EXPECT_EQ(five.memory.stats().dram_reads, reads5 + 1);
}

TEST(FarL2, ALineBothSidesReadIsKeptOnBoth) {
  Driver d;
  const uint64_t from_dram = d.access(0, 7);
  const uint64_t near_hit = d.access(0, 7);
  // Side 1 misses in its half and finds the line in side 0's: a far hit, not a DRAM read.
  EXPECT_EQ(d.access(1, 7), near_hit + kFarLatency);
  EXPECT_LT(near_hit + kFarLatency, from_dram);
  EXPECT_EQ(d.memory.stats().far_hits, 1u);
  // Both halves keep it.
  EXPECT_EQ(d.access(0, 7), near_hit);
  EXPECT_EQ(d.access(1, 7), near_hit);
}

TEST(FarL2, ADirtyLineReplacedInTheFarHalfIsWrittenBack) {
  Driver d;
  d.access(0, 1, AccessKind::kWrite);  // allocated dirty, no fetch
  d.access(0, 2);
  d.access(0, 3);  // 1 (dirty) goes far
  EXPECT_EQ(d.memory.stats().dram_writes, 0u);
  d.access(0, 4);
  d.access(0, 5);  // 2 and 3 go far too: the far set holds two lines, so 1 is written back
  for (int i = 0; i < 200; ++i) d.memory.tick(d.now++);
  EXPECT_EQ(d.memory.stats().dram_writes, 1u);
}

}  // namespace
}  // namespace lockstep::mem
