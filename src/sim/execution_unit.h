#pragma once
// One execution pipe of an SM (INT, FP32, FP64, SFU, tensor, LD/ST address generation): seed 001
// §3.2 "execution units with their own latency and initiation interval". A warp instruction
// enters the pipe in one issue slot and its result comes out `latency` cycles after issue.
//
// How long the issue slot is held: two throughput limits, and the tighter one binds.
//   - lanes: threads the pipe takes per cycle, so a warp needs ceil(threads / lanes) cycles to
//     enter (16 lanes: a 32-thread warp in 2 cycles; an SFU of 4 lanes: 8 cycles);
//   - initiation_interval: the fewest cycles between two warp instructions whatever the width
//     (the presets' figure per warp instruction, e.g. H100 FP32: 32 lanes yet 2 cycles).
//   occupancy = max(initiation_interval, ceil(threads / lanes)).
// The presets state initiation_interval per warp instruction with lanes already folded in
// (A100 INT: 16 lanes, interval 2), so a product of the two would count the lanes twice.
#include <cstdint>

#include "sim/pipeline_unit.h"

namespace lockstep::sim {

struct ExecutionUnitOptions {
  uint32_t latency = 1;              // cycles from issue until a dependent instruction may issue, >= 1
  uint32_t initiation_interval = 1;  // fewest cycles between two warp instructions, >= 1
  uint32_t lanes = 32;               // threads entering per cycle, >= 1
};

struct ExecutionUnitStats {
  uint64_t warp_instructions = 0;
  uint64_t busy_cycles = 0;  // cycles the issue slot was held, summed over instructions
};

// A stage of the SM's issue path (pipeline_unit.h); a request is a warp instruction's threads.
class ExecutionUnit {
 public:
  using Request = uint32_t;
  // Throws std::invalid_argument when latency, initiation_interval or lanes is 0.
  explicit ExecutionUnit(const ExecutionUnitOptions& options);

  // The issue slot is free at `cycle`.
  bool can_accept(uint64_t cycle) const { return cycle >= next_free_; }

  // Cycles the issue slot is held by a warp instruction of `threads` threads (the warp width, or
  // the active threads where the caller's model packs only those), threads >= 1.
  uint32_t occupancy(uint32_t threads) const;

  // Issues a warp instruction of `threads` threads at `cycle`; returns the cycle its result is
  // written back, from which a dependent instruction may issue: cycle + latency, but never before
  // its last threads have entered (cycle + occupancy). The caller checked can_accept(cycle);
  // otherwise, or for 0 threads, throws std::logic_error. Cycles passed are non-decreasing.
  uint64_t accept(uint64_t cycle, uint32_t threads);

  // The first cycle at which can_accept is true (for idle skipping).
  uint64_t next_free_cycle() const { return next_free_; }
  // Nothing advances by itself: the issue slot frees with the clock, at next_event().
  bool tick(uint64_t /*now*/) { return false; }
  uint64_t next_event(uint64_t now) const { return next_free_ > now ? next_free_ : UINT64_MAX; }
  const ExecutionUnitOptions& options() const { return options_; }
  const ExecutionUnitStats& stats() const { return stats_; }

 private:
  ExecutionUnitOptions options_;
  uint64_t next_free_ = 0;
  ExecutionUnitStats stats_;
};

static_assert(PipelineUnit<ExecutionUnit>);

}  // namespace lockstep::sim
