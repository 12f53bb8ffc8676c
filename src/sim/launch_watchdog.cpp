#include "sim/launch_watchdog.h"

#include <algorithm>
#include <string>

#include "fmt/format.h"
#include "func/grid_progress.h"

namespace lockstep::sim {

namespace {

// Every resident warp's block, warp, PC, mask and wait, as a TimingFault located at the first.
[[noreturn]] void report(const std::vector<std::unique_ptr<Sm>>& sms, std::string detail, func::FaultKind kind) {
  std::vector<func::StuckBlock> blocks;
  std::vector<const func::LaunchState*> grids;  // per block: its grid
  for (const auto& sm : sms) {
    if (sm == nullptr) continue;
    sm->stuck_blocks(blocks);
    grids.resize(blocks.size(), sm->grid());
  }
  size_t located = 0;
  TimingFault f;
  f.fault = func::stuck_report(std::move(detail), blocks, &located, kind);
  if (!blocks.empty()) {
    const func::CtaState& cta = *blocks[located].cta;
    std::copy(cta.ctaid, cta.ctaid + 3, f.cta.ctaid);
    f.cta.linear_id = cta.linear_id;
    f.grid = grids[located];
  }
  throw f;
}

}  // namespace

WatchdogOptions watchdog_options(uint64_t interval_cycles, uint64_t limit_cycles) {
  WatchdogOptions o;
  o.first_interval = std::max<uint64_t>(interval_cycles, 1);
  o.max_interval = o.first_interval > UINT64_MAX / 64 ? o.first_interval : o.first_interval * 64;
  o.limit = limit_cycles;
  return o;
}

void LaunchWatchdog::watch(uint64_t now, uint64_t blocks_done, const std::vector<std::unique_ptr<Sm>>& sms) {
  if (blocks_done != blocks_done_) {
    // Progress: start over, and look again soon.
    blocks_done_ = blocks_done;
    states_.clear();
    interval_ = options_.first_interval;
    next_ = now + interval_;
    return;
  }
  interval_ = std::min(interval_ * 2, options_.max_interval);
  next_ = now + interval_;
  func::StateHasher h;
  for (const auto& sm : sms)
    if (sm != nullptr) sm->hash_state(h);
  if (memory_ == nullptr || !h.add_memory(*memory_, options_.memory_limit)) return;
  if (states_.insert(h.value()).second) return;
  report(sms,
         "no thread block of the launch can make progress: the resident blocks returned to an earlier state, "
         "device memory included, and finished nothing since (a spin that never ends, such as a lock whose "
         "holder never runs again)",
         func::FaultKind::Deadlock);
}

void LaunchWatchdog::interrupted(const std::vector<std::unique_ptr<Sm>>& sms) const {
  report(sms, func::interrupted_detail(func::interrupt_signal()), func::FaultKind::Interrupted);
}

void LaunchWatchdog::over_limit(const std::vector<std::unique_ptr<Sm>>& sms) const {
  report(sms,
         fmt::format("no thread block of the launch finished within {} cycles (run.watchdog_limit_cycles): a "
                     "spin that never ends, or raise the limit",
                     options_.limit),
         func::FaultKind::Deadlock);
}

}  // namespace lockstep::sim
