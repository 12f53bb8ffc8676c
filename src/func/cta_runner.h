#pragma once
// Runs the warps of one thread block to completion in the functional model: each warp runs
// for a time slice (or until it waits at a barrier or exits), then the next warp gets a turn,
// so warps that wait on each other through memory still make progress. Detects barrier
// deadlocks.
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
};

struct RunCounters {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
};

// A fault with the warp and PC where it happened.
struct LaunchFault {
  DeviceFault fault;
  uint32_t warp = 0;
  ir::Pc pc = 0;
  std::vector<std::string> warp_states;  // deadlock reports: every stuck warp
};

using TraceHook = std::function<void(const CtaState& cta, const Warp& warp, ir::Pc pc)>;

class CtaRunner {
 public:
  CtaRunner(const BoundKernel& kernel, LaunchState& launch, RunOptions options, const TraceHook* trace);
  // Runs one CTA; throws LaunchFault.
  void run(CtaState& cta, RunCounters& counters);

 private:
  void start(CtaState& cta);
  void init_registers(Warp& w, const CtaState& cta, uint32_t threads_in_block);
  void run_warp(Warp& w, CtaState& cta, RunCounters& counters);
  [[noreturn]] void report_deadlock(const CtaState& cta);

  const BoundKernel& kernel_;
  LaunchState& launch_;
  RunOptions options_;
  const TraceHook* trace_;
  std::vector<Warp> warps_;
  std::vector<std::vector<uint64_t>> registers_;
  std::vector<std::vector<LaneMask>> predicates_;
  std::vector<std::unique_ptr<DivergenceUnit>> divergence_;
};

}  // namespace lockstep::func
