#pragma once
// Runs every CTA of a cooperative launch co-resident and interleaved, so that blocks waiting
// for each other through global memory (a grid-wide barrier) make progress. Each live CTA has
// its own CtaRunner (warps, registers, shared memory). A round gives every live CTA one turn,
// in linear block order; in a turn each running warp of the CTA runs one time slice, exactly
// as in a CtaRunner pass.
//
// A grid that can never finish is reported as a deadlock, deterministically, by two rules:
//  1. Repeated state: a round in which no instruction that may write global memory ran is
//     quiet. The state of every live CTA (see StateHasher) is hashed after each quiet round;
//     if it equals the hash after an earlier round of the same run of consecutive quiet rounds,
//     global memory has not changed in between either, so the grid is in a cycle and would
//     repeat it forever: a spin that nobody will release.
//  2. Budget: more than `instruction_budget` warp instructions in the launch (a spin that
//     changes registers, e.g. counts its iterations, never repeats a state), or more than
//     `progress_limit` since a block last finished (run.watchdog_limit_instructions).
// A Ctrl-C (func/interrupt.h), polled after every round, fails the launch with the same report.
// Either way the report lists every warp that has not exited, with its block, PC and state.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "func/cta_runner.h"

namespace lockstep::func {

// A fault in one CTA of a cooperative launch; `cta` is its linear block index.
struct GridFault {
  LaunchFault fault;
  uint32_t cta = 0;
};

struct GridRunOptions {
  RunOptions run;
  uint32_t shared_size = 0;            // bytes of shared memory per CTA
  uint64_t instruction_budget = 0;     // warp instructions; 0 = no budget
  uint64_t progress_limit = 0;         // warp instructions without a finished block; 0 = no limit
};

class GridRunner {
 public:
  GridRunner(const BoundKernel& kernel, LaunchState& launch, GridRunOptions options, const TraceHook* trace);
  ~GridRunner();
  // Runs the whole grid; throws GridFault. `on_cta_exit(blocks_done)` is called each time a
  // CTA finishes (may be empty).
  void run(RunCounters& counters, const std::function<void(uint64_t)>& on_cta_exit);
  const CtaState& cta(uint32_t linear) const;

 private:
  struct LiveCta;
  uint64_t fingerprint() const;
  [[noreturn]] void report_stuck(std::string detail, FaultKind kind = FaultKind::Deadlock) const;

  const BoundKernel& kernel_;
  GridRunOptions options_;
  std::vector<uint8_t> global_writes_;  // per PC, see global_write_flags()
  std::vector<std::unique_ptr<LiveCta>> ctas_;  // by linear block index
};

}  // namespace lockstep::func
