#include "func/grid_runner.h"

#include <unordered_set>

#include "fmt/format.h"
#include "func/grid_progress.h"
#include "func/interrupt.h"

namespace lockstep::func {

struct GridRunner::LiveCta {
  LiveCta(const BoundKernel& kernel, LaunchState& launch, const RunOptions& options, const TraceHook* trace)
      : runner(kernel, launch, options, trace) {}
  CtaState state;
  CtaRunner runner;
  bool exited = false;
};

GridRunner::GridRunner(const BoundKernel& kernel, LaunchState& launch, GridRunOptions options,
                       const TraceHook* trace)
    : kernel_(kernel), options_(std::move(options)), global_writes_(global_write_flags(kernel)) {
  options_.run.global_writes = &global_writes_;
  const uint32_t* grid = launch.grid;
  ctas_.reserve(static_cast<size_t>(grid[0]) * grid[1] * grid[2]);
  uint32_t linear = 0;
  for (uint32_t z = 0; z < grid[2]; ++z) {
    for (uint32_t y = 0; y < grid[1]; ++y) {
      for (uint32_t x = 0; x < grid[0]; ++x, ++linear) {
        auto c = std::make_unique<LiveCta>(kernel, launch, options_.run, trace);
        c->state.ctaid[0] = x, c->state.ctaid[1] = y, c->state.ctaid[2] = z;
        c->state.linear_id = linear;
        c->state.shared_size = options_.shared_size;
        c->state.shared.assign(options_.shared_size, 0);
        ctas_.push_back(std::move(c));
      }
    }
  }
}

GridRunner::~GridRunner() = default;

const CtaState& GridRunner::cta(uint32_t linear) const { return ctas_.at(linear)->state; }

void GridRunner::run(RunCounters& counters, const std::function<void(uint64_t)>& on_cta_exit) {
  for (uint32_t i = 0; i < ctas_.size(); ++i) ctas_[i]->runner.start(ctas_[i]->state);
  uint64_t done = 0;
  // Hashes of the states after each round of the current run of quiet rounds (rule 1).
  std::unordered_set<uint64_t> quiet_states;
  uint64_t progress_at = 0;  // warp instructions when a block last finished
  for (;;) {
    const uint64_t writes_before = counters.global_writes;
    bool cta_exited = false;
    for (uint32_t i = 0; i < ctas_.size(); ++i) {
      LiveCta& c = *ctas_[i];
      if (c.exited) continue;
      try {
        if (c.runner.turn(c.state, counters) == CtaRunner::TurnResult::Exited) {
          c.exited = true;
          cta_exited = true;
          ++done;
          if (on_cta_exit) on_cta_exit(done);
        }
      } catch (LaunchFault& f) {
        throw GridFault{std::move(f), i};
      }
    }
    if (done == ctas_.size()) return;
    if (interrupt_requested()) report_stuck(kInterruptedDetail, FaultKind::Interrupted);
    if (cta_exited) progress_at = counters.warp_instructions;
    if (options_.progress_limit != 0 && counters.warp_instructions - progress_at > options_.progress_limit)
      report_stuck(fmt::format("no thread block of the launch finished within {} warp instructions "
                               "(run.watchdog_limit_instructions): a spin that never ends, or raise the limit",
                               options_.progress_limit));
    if (options_.instruction_budget != 0 && counters.warp_instructions > options_.instruction_budget)
      report_stuck(fmt::format("the cooperative launch ran {} warp instructions, more than its budget of {}, "
                               "without finishing",
                               counters.warp_instructions, options_.instruction_budget));
    if (cta_exited || counters.global_writes != writes_before) {
      quiet_states.clear();
      continue;
    }
    if (!quiet_states.insert(fingerprint()).second)
      report_stuck("no thread block of the cooperative launch can make progress: a round of every block "
                   "wrote no global memory and returned the grid to an earlier state");
  }
}

uint64_t GridRunner::fingerprint() const {
  StateHasher h;
  for (uint32_t i = 0; i < ctas_.size(); ++i) {
    const LiveCta& c = *ctas_[i];
    if (c.exited) continue;
    h.add(i);
    h.add_cta(c.state);
    for (const Warp& w : c.runner.warps()) h.add_warp(w, kernel_);
  }
  return h.value();
}

void GridRunner::report_stuck(std::string detail, FaultKind kind) const {
  std::vector<StuckBlock> blocks;
  std::vector<uint32_t> linear;
  for (uint32_t i = 0; i < ctas_.size(); ++i) {
    if (ctas_[i]->exited) continue;
    blocks.push_back({&ctas_[i]->state, &ctas_[i]->runner.warps()});
    linear.push_back(i);
  }
  size_t located = 0;
  LaunchFault f = stuck_report(std::move(detail), blocks, &located, kind);
  throw GridFault{std::move(f), linear.empty() ? 0 : linear[located]};
}

}  // namespace lockstep::func
