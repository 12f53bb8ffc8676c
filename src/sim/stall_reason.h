#pragma once
// Why a warp did not issue in a cycle, and why a warp scheduler issued nothing (seed 001 §3.4.2,
// NVIDIA's stall categories, plus the model's own: not selected, no instruction, barrier,
// exited). Every resident warp is charged exactly one reason per cycle, `issued` included, so
// the counts of a launch add up to resident warp-cycles.
#include <array>
#include <cstdint>
#include <string_view>

namespace lockstep::sim {

enum class StallReason : uint8_t {
  kIssued,               // the warp issued an instruction this cycle
  kNotSelected,          // ready, but the scheduler picked another warp
  kPipelineBusy,         // the unit's issue slot or every operand collector is taken
  kTexture,              // waits on a texture or surface result
  kConstantMiss,         // waits on a constant-cache miss (charged by the memory hierarchy)
  kInstructionFetch,     // its next instruction is not fetched: the I-cache missed
  kMemoryThrottle,       // the memory interface refuses more requests (the memory hierarchy)
  kMemoryDependency,     // waits on a load's result
  kSynchronization,      // a memory barrier (membar/fence) waits for the warp's accesses
  kExecutionDependency,  // waits on an arithmetic result
  kScoreboardFull,       // rid-table: no free entry for the instruction's destinations
  kDivergence,           // the SIMT stack's push or pop cost
  kNoInstruction,        // the I-buffer is empty and no fetch is pending (after a branch, ...)
  kSleeping,             // suspended by nanosleep for the time its lanes asked
  kBarrier,              // waits at bar.sync for the block's other warps
  kExited,               // finished; its block still runs
  kNoWarp,               // schedulers only: no resident warp
};

inline constexpr size_t kStallReasonCount = 17;

// The reason's name in reports and in the stats JSON ("memory_dependency").
constexpr std::string_view stall_reason_name(StallReason r) {
  constexpr std::array<std::string_view, kStallReasonCount> names = {
      "issued",          "not_selected",   "pipeline_busy",     "texture",
      "constant_miss",   "instruction_fetch", "memory_throttle", "memory_dependency",
      "synchronization", "execution_dependency", "scoreboard_full", "divergence",
      "no_instruction",  "sleeping",       "barrier",           "exited",
      "no_warp"};
  return names[static_cast<size_t>(r)];
}

using StallCounts = std::array<uint64_t, kStallReasonCount>;
// A set of reasons as a bit mask, bit i for reason i.
static_assert(kStallReasonCount <= 32);
constexpr uint32_t reason_bit(StallReason r) { return uint32_t{1} << static_cast<uint32_t>(r); }

}  // namespace lockstep::sim
