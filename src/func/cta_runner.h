#pragma once
// Runs the warps of one thread block to completion in the functional model: each warp runs
// for a time slice (or until it waits at a barrier or exits), then the next warp gets a turn,
// so warps that wait on each other through memory still make progress. A turn also ends after
// each access of shared or global memory (func/instruction_effects.h: shares_memory), so the
// warps reach memory in round-robin order as on a GPU. Detects barrier deadlocks.
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "func/bound_kernel.h"
#include "func/divergence/divergence_unit.h"
#include "func/warp.h"

namespace lockstep::func {

struct RunOptions {
  uint32_t warp_size = 32;
  uint32_t time_slice = 4096;
  std::string divergence = "ipdom-stack";
  std::array<uint32_t, 32> envreg{};  // %envreg0..31 (CUDA gives 0 outside cooperative launches)
  uint32_t sm_id = 0;     // %smid: the SM the block runs on (the timing model places blocks)
  uint32_t sm_count = 1;  // %nsmid
  // Cooperative launches: per PC, nonzero when the instruction may write global memory; the
  // grid runner counts those that run with at least one lane, to tell spinning from progress.
  // Null: not counted.
  const std::vector<uint8_t>* global_writes = nullptr;
};

struct RunCounters {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t global_writes = 0;  // executed instructions flagged in RunOptions::global_writes
};

// A fault with the warp and PC where it happened.
struct LaunchFault {
  DeviceFault fault;
  uint32_t warp = 0;
  ir::Pc pc = 0;
  std::vector<std::string> warp_states;  // deadlock reports: every stuck warp
};

// One executed instruction as a trace hook sees it: a copy, so that the timing model can hand
// its SMs' records over at the end of the cycle, in SM order.
struct TraceRecord {
  uint32_t block = 0;   // linear block index
  uint32_t warp = 0;    // warp index in the block
  ir::Pc pc = 0;
  LaneMask exec = 0;    // lanes executing (after the guard)
  LaneMask active = 0;  // lanes on the current path (before the guard)
  uint64_t clock = 0;   // the issue cycle (timing), or the warp's instruction count (functional)
};

inline TraceRecord trace_record(const CtaState& cta, const Warp& w) {
  return {cta.linear_id, w.warp_id, w.pc, w.exec, w.active, w.clock};
}

using TraceHook = std::function<void(const TraceRecord&)>;

class CtaRunner {
 public:
  CtaRunner(const BoundKernel& kernel, LaunchState& launch, RunOptions options, const TraceHook* trace);
  // Runs one CTA; throws LaunchFault.
  void run(CtaState& cta, RunCounters& counters);

  // The pieces of run() for a caller that interleaves CTAs (GridRunner): start() sets up the
  // CTA's warps; each turn() gives every running warp one time slice and says how the CTA
  // stands. A CTA whose warps all wait at barriers can never continue: turn() throws the
  // deadlock report then, as run() does.
  enum class TurnResult { Exited, Ran };
  void start(CtaState& cta);
  TurnResult turn(CtaState& cta, RunCounters& counters);
  const std::vector<Warp>& warps() const { return warps_; }
  std::vector<Warp>& warps() { return warps_; }
  // For a caller that steps warps itself (the timing model): throws the deadlock report when
  // no live warp can run any more (every one waits at a barrier that cannot complete).
  void check_deadlock(const CtaState& cta);

 private:
  void init_registers(Warp& w, const CtaState& cta, uint32_t threads_in_block);
  template <bool kCountWrites>
  void run_warp(Warp& w, CtaState& cta, RunCounters& counters);
  [[noreturn]] void report_deadlock(const CtaState& cta);

  const BoundKernel& kernel_;
  LaunchState& launch_;
  RunOptions options_;
  const TraceHook* trace_;
  std::vector<uint8_t> ends_turn_;  // per PC: a turn ends after this instruction (shares_memory)
  std::vector<Warp> warps_;
  std::vector<std::vector<uint64_t>> registers_;
  std::vector<std::vector<LaneMask>> predicates_;
  std::vector<std::unique_ptr<DivergenceUnit>> divergence_;
};

}  // namespace lockstep::func
