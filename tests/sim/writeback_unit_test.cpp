// The writeback unit in isolation: results leave when due, in issue order within a cycle, at
// most timing.writeback_ports with register writes per partition per cycle; the rest wait a
// cycle, and results without writes take no port.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "sim/writeback_unit.h"

namespace lockstep::sim {
namespace {

Completion result(uint32_t warp_slot, uint64_t cycle, bool writes = true) {
  Completion c;
  c.cycle = cycle;
  c.warp_slot = warp_slot;
  if (writes) c.writes.count = 1;
  return c;
}

std::vector<uint32_t> retired_slots(const WritebackUnit& wb) {
  std::vector<uint32_t> slots;
  for (const Completion& c : wb.retired()) slots.push_back(c.warp_slot);
  return slots;
}

TEST(WritebackUnit, ResultsLeaveWhenDueInIssueOrder) {
  WritebackUnit wb({.partitions = 4, .ports = 1, .capacity = 8});
  EXPECT_EQ(wb.next_event(0), UINT64_MAX);
  wb.accept(0, result(0, 5));
  wb.accept(0, result(1, 3));
  wb.accept(1, result(2, 5));
  EXPECT_EQ(wb.next_event(1), 3u);
  EXPECT_FALSE(wb.tick(2));
  EXPECT_TRUE(wb.tick(3));
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{1}));
  EXPECT_EQ(wb.next_event(3), 5u);
  EXPECT_FALSE(wb.tick(4));
  EXPECT_TRUE(retired_slots(wb).empty());
  EXPECT_TRUE(wb.tick(5));
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{0, 2}));
  EXPECT_TRUE(wb.empty());
}

TEST(WritebackUnit, AFullWritePortPushesAResultToTheNextCycle) {
  WritebackUnit wb({.partitions = 2, .ports = 1, .capacity = 8});
  wb.accept(0, result(0, 7));  // partition 0
  wb.accept(0, result(2, 7));  // partition 0: its port is taken in 7
  wb.accept(0, result(1, 7));  // partition 1
  EXPECT_TRUE(wb.tick(7));
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(wb.next_event(7), 8u);
  EXPECT_TRUE(wb.tick(8));
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{2}));
}

TEST(WritebackUnit, ADelayedResultKeepsItsPlaceAheadOfLaterIssues) {
  WritebackUnit wb({.partitions = 2, .ports = 1, .capacity = 8});
  wb.accept(0, result(0, 7));
  wb.accept(0, result(2, 7));  // waits for 8
  wb.accept(1, result(4, 8));  // due in 8 too, issued later: waits for 9
  wb.tick(7);
  wb.tick(8);
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{2}));
  EXPECT_EQ(wb.next_event(8), 9u);
  wb.tick(9);
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{4}));
}

TEST(WritebackUnit, AResultWithoutWritesTakesNoPort) {
  WritebackUnit wb({.partitions = 1, .ports = 1, .capacity = 8});
  wb.accept(0, result(0, 3));
  wb.accept(0, result(1, 3, false));  // a store's: nothing to write
  wb.accept(0, result(2, 3));
  EXPECT_TRUE(wb.tick(3));
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{0, 1}));
  wb.tick(4);
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{2}));
}

TEST(WritebackUnit, TwoPortsWriteTwoResultsOfAPartitionPerCycle) {
  WritebackUnit wb({.partitions = 1, .ports = 2, .capacity = 8});
  for (uint32_t slot = 0; slot < 5; ++slot) wb.accept(0, result(slot, 10));
  wb.tick(10);
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{0, 1}));
  wb.tick(11);
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{2, 3}));
  wb.tick(12);
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{4}));
  EXPECT_TRUE(wb.empty());
}

TEST(WritebackUnit, ALateTickTakesEveryResultDueByThenInDueOrder) {
  WritebackUnit wb({.partitions = 1, .ports = 4, .capacity = 8});
  wb.accept(0, result(0, 9));
  wb.accept(0, result(1, 4));
  wb.accept(0, result(2, 6));
  EXPECT_TRUE(wb.tick(20));  // idle skipping jumped past their cycles
  EXPECT_EQ(retired_slots(wb), (std::vector<uint32_t>{1, 2, 0}));
}

}  // namespace
}  // namespace lockstep::sim
