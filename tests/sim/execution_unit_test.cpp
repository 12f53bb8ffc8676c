// Execution unit pipes: exact issue cycles and writeback cycles for full-width, half-width and
// SFU pipes, and the presets' form (initiation interval per warp instruction, lanes folded in).
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/execution_unit.h"

namespace lockstep::sim {
namespace {

// Issues `count` independent warp instructions as early as the unit allows, starting at cycle 0,
// stepping one cycle at a time as an SM would; returns their issue cycles.
std::vector<uint64_t> issue_back_to_back(ExecutionUnit& unit, int count, uint32_t threads) {
  std::vector<uint64_t> issued;
  for (uint64_t cycle = 0; static_cast<int>(issued.size()) < count; ++cycle) {
    if (!unit.can_accept(cycle)) continue;
    unit.accept(cycle, threads);
    issued.push_back(cycle);
  }
  return issued;
}

TEST(ExecutionUnit, FullWidthPipeTakesOneWarpPerCycle) {
  ExecutionUnit unit({.latency = 4, .initiation_interval = 1, .lanes = 32});
  EXPECT_EQ(issue_back_to_back(unit, 4, 32), (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(unit.stats().warp_instructions, 4u);
  EXPECT_EQ(unit.stats().busy_cycles, 4u);
}

TEST(ExecutionUnit, SixteenLanesTakeAWarpEveryTwoCycles) {
  ExecutionUnit unit({.latency = 4, .initiation_interval = 1, .lanes = 16});
  EXPECT_EQ(unit.occupancy(32), 2u);
  EXPECT_EQ(issue_back_to_back(unit, 4, 32), (std::vector<uint64_t>{0, 2, 4, 6}));
  EXPECT_EQ(unit.stats().busy_cycles, 8u);
  // A 16-thread warp (warp_size = 16) fits the lanes in one cycle.
  EXPECT_EQ(unit.occupancy(16), 1u);
}

TEST(ExecutionUnit, SfuOfFourLanesTakesAWarpEveryEightCycles) {
  ExecutionUnit unit({.latency = 23, .initiation_interval = 1, .lanes = 4});
  EXPECT_EQ(issue_back_to_back(unit, 3, 32), (std::vector<uint64_t>{0, 8, 16}));
  EXPECT_FALSE(unit.can_accept(23));
  EXPECT_TRUE(unit.can_accept(24));
  EXPECT_EQ(unit.next_free_cycle(), 24u);
  EXPECT_EQ(unit.stats().busy_cycles, 24u);
}

TEST(ExecutionUnit, ResultComesLatencyCyclesAfterIssue) {
  ExecutionUnit unit({.latency = 4, .initiation_interval = 1, .lanes = 32});
  EXPECT_EQ(unit.accept(10, 32), 14u);
  EXPECT_EQ(unit.accept(11, 32), 15u);  // pipelined: independent of the one in flight
  ExecutionUnit sfu({.latency = 23, .initiation_interval = 1, .lanes = 4});
  EXPECT_EQ(sfu.accept(0, 32), 23u);
  EXPECT_EQ(sfu.accept(8, 32), 31u);
}

TEST(ExecutionUnit, PresetIntervalIsPerWarpNotPerLaneGroup) {
  // H100 [pipeline.sfu]: interval 8, lanes 4: 8 cycles per warp, not 8 x 8.
  ExecutionUnit sfu({.latency = 23, .initiation_interval = 8, .lanes = 4});
  EXPECT_EQ(sfu.occupancy(32), 8u);
  // H100 [pipeline.fp32]: 32 lanes, yet one warp instruction per 2 cycles.
  ExecutionUnit fp32({.latency = 4, .initiation_interval = 2, .lanes = 32});
  EXPECT_EQ(issue_back_to_back(fp32, 3, 32), (std::vector<uint64_t>{0, 2, 4}));
  // The teaching preset's 8-wide warps on its quarter-rate SFU (interval 4, 2 lanes).
  ExecutionUnit teaching_sfu({.latency = 20, .initiation_interval = 4, .lanes = 2});
  EXPECT_EQ(teaching_sfu.occupancy(8), 4u);
  // 64-wide warps on the same SFU: the lanes bind (32 cycles).
  EXPECT_EQ(teaching_sfu.occupancy(64), 32u);
}

TEST(ExecutionUnit, ResultWaitsForTheLastLaneGroup) {
  // 64 threads through 8 LD/ST lanes take 8 cycles to enter; a latency of 4 cannot beat that.
  ExecutionUnit ldst({.latency = 4, .initiation_interval = 4, .lanes = 8});
  EXPECT_EQ(ldst.accept(100, 64), 108u);
  EXPECT_EQ(ldst.next_free_cycle(), 108u);
}

TEST(ExecutionUnit, ContractViolationsThrow) {
  ExecutionUnit unit({.latency = 4, .initiation_interval = 1, .lanes = 16});
  unit.accept(0, 32);
  EXPECT_THROW(unit.accept(1, 32), std::logic_error);  // slot held through cycle 1
  EXPECT_THROW(unit.accept(2, 0), std::logic_error);
  EXPECT_EQ(unit.stats().warp_instructions, 1u);
  EXPECT_THROW(ExecutionUnit({.latency = 0, .initiation_interval = 1, .lanes = 1}), std::invalid_argument);
  EXPECT_THROW(ExecutionUnit({.latency = 1, .initiation_interval = 0, .lanes = 1}), std::invalid_argument);
  EXPECT_THROW(ExecutionUnit({.latency = 1, .initiation_interval = 1, .lanes = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace lockstep::sim
