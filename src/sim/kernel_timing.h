#pragma once
// What the cycle-level model measured for one kernel launch: plain figures, filled by the timing
// launch and read by reports (src/stats, the runtime's summary and --stats-json).
#include <array>
#include <cstdint>
#include <string>

#include "func/divergence/divergence_counters.h"
#include "sim/memory_timing.h"
#include "sim/stall_reason.h"

namespace lockstep::sim {

// Execution units of a scheduler partition, in the order of KernelTiming::units.
enum class UnitKind : uint8_t { kInt, kFp32, kFp64, kSfu, kTensor, kLdSt };
inline constexpr size_t kUnitKindCount = 6;
constexpr std::string_view unit_kind_name(UnitKind u) {
  constexpr std::array<std::string_view, kUnitKindCount> names = {"int", "fp32", "fp64", "sfu", "tensor", "ldst"};
  return names[static_cast<size_t>(u)];
}

struct UnitUsage {
  uint64_t warp_instructions = 0;
  uint64_t busy_cycles = 0;  // issue-slot cycles held, summed over every partition of every SM
  friend bool operator==(const UnitUsage&, const UnitUsage&) = default;
};

struct KernelTiming {
  uint64_t cycles = 0;               // from the first block's placement to the last block's end
  // On the device's clock (cycles since the engine's first timed launch): where this launch
  // started and ended. Launches follow one another (timing.kernel_overlap = serial) or overlap
  // at the tail (= tail: the next one starts on each SM when it frees).
  uint64_t start_cycle = 0;
  uint64_t end_cycle = 0;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  func::DivergenceCounters divergence;  // what the warps' divergence units did (both modes count it)
  uint32_t warp_size = 32;
  uint32_t sm_count = 0;
  uint32_t schedulers_per_sm = 0;
  uint32_t issue_width = 0;
  uint32_t max_warps_per_sm = 0;

  // Occupancy: the theoretical figure the CTA scheduler placed by, and what the SMs held.
  uint32_t blocks_per_sm = 0;            // resident blocks per SM (the occupancy calculator)
  std::string occupancy_limited_by;      // "warps", "registers", ...
  uint32_t registers_per_thread = 0;
  bool registers_estimated = false;      // no figure from ptxas or a cubin: an estimate
  uint64_t resident_warp_cycles = 0;     // sum over cycles and SMs of resident warps
  uint64_t active_sm_cycles = 0;         // SM-cycles with at least one resident block

  StallCounts warp_stalls{};       // warp-cycles by reason (issued and not-selected included)
  StallCounts scheduler_stalls{};  // scheduler-cycles by the reason it issued nothing (kIssued: it did)

  uint64_t icache_hits = 0;
  uint64_t icache_misses = 0;
  uint64_t bank_conflicts = 0;        // operand reads that waited for their bank
  uint64_t bank_conflict_cycles = 0;  // dispatch delay they caused, summed
  std::array<UnitUsage, kUnitKindCount> units{};
  MemoryTiming memory;

  friend bool operator==(const KernelTiming&, const KernelTiming&) = default;

  // Derived figures.
  double ipc() const { return cycles ? double(warp_instructions) / double(cycles) : 0.0; }
  // Issued instructions over issue slots (every scheduler of every SM, every cycle).
  double issue_slot_utilisation() const {
    const double slots = double(cycles) * sm_count * schedulers_per_sm * issue_width;
    return slots > 0 ? double(warp_instructions) / slots : 0.0;
  }
  // Resident warps per active SM-cycle over the SM's warp slots (NVIDIA's achieved occupancy).
  double achieved_occupancy() const {
    return active_sm_cycles && max_warps_per_sm
               ? double(resident_warp_cycles) / (double(active_sm_cycles) * max_warps_per_sm)
               : 0.0;
  }
};

}  // namespace lockstep::sim
