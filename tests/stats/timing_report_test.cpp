// Cycle-level figures in the reports: the summary's timing line and total, and the stats JSON's
// "timing" object and "cycles" sums. The figures are chosen so every percentage is exact.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "stats/stats_json.h"

namespace lockstep::stats {
namespace {

using sim::StallReason;
using sim::UnitKind;

constexpr size_t at(StallReason r) { return static_cast<size_t>(r); }
constexpr size_t at(UnitKind u) { return static_cast<size_t>(u); }

// 2 SMs × 4 schedulers × 1000 cycles = 8000 issue slots, 2000 of them used; 80000 resident
// warp-cycles over 2000 active SM-cycles of 64 warp slots.
sim::KernelTiming register_limited_timing() {
  sim::KernelTiming t;
  t.cycles = 1000;
  t.start_cycle = 200;
  t.end_cycle = 1200;
  t.warp_instructions = 2000;
  t.thread_instructions = 56000;
  t.sm_count = 2;
  t.schedulers_per_sm = 4;
  t.issue_width = 1;
  t.max_warps_per_sm = 64;
  t.blocks_per_sm = 8;
  t.occupancy_limited_by = "registers";
  t.registers_per_thread = 40;
  t.registers_estimated = true;
  t.resident_warp_cycles = 80000;
  t.active_sm_cycles = 2000;
  t.warp_stalls[at(StallReason::kIssued)] = 2000;
  t.warp_stalls[at(StallReason::kNotSelected)] = 10000;
  t.warp_stalls[at(StallReason::kMemoryDependency)] = 40000;
  t.warp_stalls[at(StallReason::kExecutionDependency)] = 20000;
  t.warp_stalls[at(StallReason::kBarrier)] = 8000;
  t.scheduler_stalls[at(StallReason::kIssued)] = 2000;
  t.scheduler_stalls[at(StallReason::kMemoryDependency)] = 4000;
  t.scheduler_stalls[at(StallReason::kNoWarp)] = 2000;
  t.icache_hits = 1900;
  t.icache_misses = 100;
  t.bank_conflicts = 300;
  t.bank_conflict_cycles = 450;
  t.units[at(UnitKind::kInt)] = {800, 1000};
  t.units[at(UnitKind::kFp32)] = {1000, 2000};
  t.units[at(UnitKind::kLdSt)] = {200, 4000};
  return t;
}

// Two stall reasons with equal counts (memory_dependency must come first: enum order) and only
// two reasons besides `issued`; registers from ptxas, so no "estimated".
sim::KernelTiming shared_limited_timing() {
  sim::KernelTiming t;
  t.cycles = 500;
  t.start_cycle = 1200;  // right after register_limited_timing's launch
  t.end_cycle = 1700;
  t.warp_instructions = 400;
  t.thread_instructions = 9600;
  t.sm_count = 2;
  t.schedulers_per_sm = 4;
  t.issue_width = 1;
  t.max_warps_per_sm = 48;
  t.blocks_per_sm = 2;
  t.occupancy_limited_by = "registers, shared memory";
  t.registers_per_thread = 32;
  t.resident_warp_cycles = 12000;
  t.active_sm_cycles = 1000;
  t.warp_stalls[at(StallReason::kIssued)] = 400;
  t.warp_stalls[at(StallReason::kBarrier)] = 5800;
  t.warp_stalls[at(StallReason::kMemoryDependency)] = 5800;
  return t;
}

LaunchRecord timed(std::string kernel, const sim::KernelTiming& t) {
  return LaunchRecord{std::move(kernel), {16, 1, 1}, {128, 1, 1}, 0, 32, t.warp_instructions,
                      t.thread_instructions, "", t};
}

// A timed launch, a functional one, then another timed launch of the first kernel.
RunStats mixed_run() {
  RunStats s;
  s.add(timed("stencil", register_limited_timing()));
  s.add(LaunchRecord{"scale", {4, 1, 1}, {256, 1, 1}, 0, 32, 100, 3000, "", std::nullopt});
  s.add(timed("stencil", shared_limited_timing()));
  return s;
}

TEST(TimingSummary, TimedLaunchesAddOneLineEachAndATotal) {
  EXPECT_EQ(mixed_run().summary(),
            "lockstep: kernel stencil grid (16,1,1) block (128,1,1) 2000 warp instructions 56000 thread "
            "instructions\n"
            "lockstep:   cycles 1000 IPC 2.00 issue slots 25.0% SIMT 87.5% occupancy 62.5% (theoretical 8 "
            "blocks/SM, limited by registers; 40 registers, estimated) top stalls: memory_dependency 50.0%, "
            "execution_dependency 25.0%, not_selected 12.5%\n"
            "lockstep: kernel scale grid (4,1,1) block (256,1,1) 100 warp instructions 3000 thread instructions\n"
            "lockstep: kernel stencil grid (16,1,1) block (128,1,1) 400 warp instructions 9600 thread "
            "instructions\n"
            "lockstep:   cycles 500 IPC 0.80 issue slots 10.0% SIMT 75.0% occupancy 25.0% (theoretical 2 "
            "blocks/SM, limited by registers, shared memory; 32 registers) top stalls: memory_dependency "
            "48.3%, barrier 48.3%\n"
            "lockstep: total cycles 1500 over 2 launches\n");
}

// Launches that overlap on the device (a child grid beside its parent, tail overlap) count their
// shared cycles once: the total is the device time some launch ran.
TEST(TimingSummary, OverlappingLaunchesCountTheirSharedCyclesOnce) {
  RunStats s;
  sim::KernelTiming parent = register_limited_timing();  // cycles 200 .. 1200
  sim::KernelTiming child = shared_limited_timing();
  child.start_cycle = 700, child.end_cycle = 1200;
  sim::KernelTiming later = shared_limited_timing();
  later.start_cycle = 1300, later.end_cycle = 1800;
  s.add(timed("parent", parent));
  s.add(timed("child", child));
  s.add(timed("later", later));
  const std::string text = s.summary();
  EXPECT_NE(text.find("lockstep: total cycles 1500 over 3 launches\n"), std::string::npos) << text;
}

TEST(TimingSummary, OneTimedLaunchHasNoTotalLine) {
  RunStats s;
  s.add(timed("stencil", shared_limited_timing()));
  const std::string text = s.summary();
  EXPECT_EQ(text.find("total cycles"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2) << text;
}

TEST(TimingSummary, NoCyclesAndNoStallsPrintZerosAndNone) {
  sim::KernelTiming t;
  t.occupancy_limited_by = "warps";
  t.blocks_per_sm = 1;
  t.registers_per_thread = 16;
  RunStats s;
  s.add(timed("empty", t));
  EXPECT_EQ(s.summary(),
            "lockstep: kernel empty grid (16,1,1) block (128,1,1) 0 warp instructions 0 thread instructions\n"
            "lockstep:   cycles 0 IPC 0.00 issue slots 0.0% SIMT 100.0% occupancy 0.0% (theoretical 1 "
            "blocks/SM, limited by warps; 16 registers) top stalls: none\n");
}

TEST(TimingJson, VersionFiveWithTimingObjectAndNullForFunctionalLaunches) {
  const auto doc = nlohmann::ordered_json::parse(stats_json(mixed_run(), RunContext{}));
  EXPECT_EQ(doc["version"], 5);
  EXPECT_EQ(kStatsJsonVersion, 5);
  EXPECT_TRUE(doc["launches"][1]["timing"].is_null());
  const std::string expected = R"json({
  "cycles": 1000,
  "start_cycle": 200,
  "end_cycle": 1200,
  "ipc": 2.0,
  "issue_slot_utilisation": 0.25,
  "achieved_occupancy": 0.625,
  "theoretical": {
    "blocks_per_sm": 8,
    "limited_by": "registers",
    "registers_per_thread": 40,
    "registers_estimated": true
  },
  "warp_stalls": {
    "issued": 2000,
    "not_selected": 10000,
    "pipeline_busy": 0,
    "texture": 0,
    "constant_miss": 0,
    "instruction_fetch": 0,
    "memory_throttle": 0,
    "memory_dependency": 40000,
    "synchronization": 0,
    "execution_dependency": 20000,
    "scoreboard_full": 0,
    "divergence": 0,
    "no_instruction": 0,
    "sleeping": 0,
    "barrier": 8000,
    "exited": 0,
    "no_warp": 0
  },
  "scheduler_stalls": {
    "issued": 2000,
    "not_selected": 0,
    "pipeline_busy": 0,
    "texture": 0,
    "constant_miss": 0,
    "instruction_fetch": 0,
    "memory_throttle": 0,
    "memory_dependency": 4000,
    "synchronization": 0,
    "execution_dependency": 0,
    "scoreboard_full": 0,
    "divergence": 0,
    "no_instruction": 0,
    "sleeping": 0,
    "barrier": 0,
    "exited": 0,
    "no_warp": 2000
  },
  "icache": {
    "hits": 1900,
    "misses": 100
  },
  "register_banks": {
    "conflicts": 300,
    "conflict_cycles": 450
  },
  "units": {
    "int": {
      "warp_instructions": 800,
      "busy_cycles": 1000,
      "utilisation": 0.125
    },
    "fp32": {
      "warp_instructions": 1000,
      "busy_cycles": 2000,
      "utilisation": 0.25
    },
    "fp64": {
      "warp_instructions": 0,
      "busy_cycles": 0,
      "utilisation": 0.0
    },
    "sfu": {
      "warp_instructions": 0,
      "busy_cycles": 0,
      "utilisation": 0.0
    },
    "tensor": {
      "warp_instructions": 0,
      "busy_cycles": 0,
      "utilisation": 0.0
    },
    "ldst": {
      "warp_instructions": 200,
      "busy_cycles": 4000,
      "utilisation": 0.5
    }
  },
  "memory": null,
  "sm_count": 2,
  "schedulers_per_sm": 4
})json";
  EXPECT_EQ(doc["launches"][0]["timing"].dump(2), expected);
  // The timing object follows the launch's existing fields.
  auto last = doc["launches"][0].end();
  --last;
  EXPECT_EQ(last.key(), "timing");
}

TEST(TimingJson, SecondTimedLaunchHasItsOwnFigures) {
  const auto doc = nlohmann::ordered_json::parse(stats_json(mixed_run(), RunContext{}));
  const auto& t = doc["launches"][2]["timing"];
  EXPECT_EQ(t["cycles"], 500);
  EXPECT_EQ(t["ipc"], 0.8);
  EXPECT_EQ(t["issue_slot_utilisation"], 0.1);
  EXPECT_EQ(t["achieved_occupancy"], 0.25);
  EXPECT_EQ(t["theoretical"]["limited_by"], "registers, shared memory");
  EXPECT_EQ(t["theoretical"]["registers_estimated"], false);
  EXPECT_EQ(t["warp_stalls"]["memory_dependency"], 5800);
  EXPECT_EQ(t["warp_stalls"]["barrier"], 5800);
  EXPECT_EQ(t["units"]["int"]["utilisation"], 0.0);
}

TEST(TimingJson, CyclesAreSummedPerKernelAndNullWhereNothingWasTimed) {
  const auto doc = nlohmann::ordered_json::parse(stats_json(mixed_run(), RunContext{}));
  ASSERT_EQ(doc["kernels"].size(), 2u);
  EXPECT_EQ(doc["kernels"][0]["kernel"], "stencil");
  EXPECT_EQ(doc["kernels"][0]["cycles"], 1500);
  EXPECT_EQ(doc["kernels"][1]["kernel"], "scale");
  EXPECT_TRUE(doc["kernels"][1]["cycles"].is_null());
  EXPECT_EQ(doc["totals"]["cycles"], 1500);
  EXPECT_EQ(doc["totals"]["launches"], 3);
}

TEST(TimingJson, ZeroCycleLaunchCountsAsTimed) {
  // A timed launch of zero cycles still makes the sums numbers, not null.
  RunStats s;
  s.add(timed("empty", sim::KernelTiming{}));
  const auto doc = nlohmann::ordered_json::parse(stats_json(s, RunContext{}));
  EXPECT_EQ(doc["totals"]["cycles"], 0);
  EXPECT_EQ(doc["launches"][0]["timing"]["ipc"], 0.0);
  EXPECT_EQ(doc["launches"][0]["timing"]["units"]["ldst"]["utilisation"], 0.0);
}

}  // namespace
}  // namespace lockstep::stats

namespace lockstep::stats {
namespace {

// A launch through the memory hierarchy: its figures line in the summary, its "memory" object.
sim::KernelTiming memory_timing() {
  sim::KernelTiming t;
  t.cycles = 1000;
  t.blocks_per_sm = 4;
  t.occupancy_limited_by = "warps";
  t.registers_per_thread = 32;
  sim::MemoryTiming& m = t.memory;
  m.modelled = true;
  m.global_accesses = 100;
  m.transactions = 250;
  m.sectors = 800;
  m.shared_accesses = 40;
  m.shared_passes = 60;
  m.shared_conflict_degree[1] = 30;
  m.shared_conflict_degree[2] = 10;
  m.loads = 80;
  m.load_latency_total = 24000;
  m.l1 = {200, 150, 10, 30, 10, 5, 12, 50, 20, 3, 0};
  m.l2 = {60, 45, 0, 15, 0, 0, 1, 50, 50, 2, 1};
  m.dram_reads = 15;
  m.dram_writes = 1;
  m.dram_bytes = 2048;
  m.dram_row_hits = 12;
  m.dram_row_misses = 3;
  m.dram_row_conflicts = 1;
  m.dram_bus_busy_cycles = 80;
  m.dram_channels = 2;
  m.dram_read_latency_total = 6000;
  return t;
}

TEST(TimingSummary, MemoryHierarchyAddsItsLine) {
  RunStats s;
  s.add(LaunchRecord{"copy", {16, 1, 1}, {128, 1, 1}, 0, 32, 500, 16000, "", memory_timing()});
  const std::string text = s.summary();
  EXPECT_NE(text.find("\nlockstep:   memory: 2.50 transactions/access, shared 1.50 passes/access, L1 hit 75.0% of 200, "
                      "L2 hit 75.0% of 60, DRAM 0.00205 MB row hits 75.0% bus 4.0%, load latency 300.0\n"),
            std::string::npos)
      << text;
}

TEST(TimingJson, MemoryObjectHoldsEveryLevel) {
  RunStats s;
  s.add(LaunchRecord{"copy", {16, 1, 1}, {128, 1, 1}, 0, 32, 500, 16000, "", memory_timing()});
  const auto doc = nlohmann::ordered_json::parse(stats_json(s, RunContext{}));
  const auto& m = doc["launches"][0]["timing"]["memory"];
  EXPECT_EQ(m["ldst"]["transactions_per_access"], 2.5);
  EXPECT_EQ(m["ldst"]["shared_conflict_degree"][2], 10);
  EXPECT_EQ(m["ldst"]["average_load_latency"], 300.0);
  EXPECT_EQ(m["l1"]["hit_rate"], 0.75);
  EXPECT_EQ(m["l1"]["mshr_merges"], 12);
  EXPECT_EQ(m["l2"]["dirty_evictions"], 1);
  EXPECT_EQ(m["dram"]["row_buffer_hit_rate"], 0.75);
  EXPECT_EQ(m["dram"]["bandwidth_utilisation"], 0.04);
  EXPECT_EQ(m["dram"]["average_read_latency"], 400.0);
  EXPECT_EQ(m["dram"]["read_latency_histogram"].size(), 16u);
}

}  // namespace
}  // namespace lockstep::stats
