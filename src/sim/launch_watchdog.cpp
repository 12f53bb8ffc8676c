#include "sim/launch_watchdog.h"

#include <algorithm>

#include "func/grid_progress.h"

namespace lockstep::sim {

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
  for (const auto& sm : sms) sm->hash_state(h);
  if (memory_ == nullptr || !h.add_memory(*memory_, options_.memory_limit)) return;
  if (states_.insert(h.value()).second) return;
  std::vector<func::StuckBlock> blocks;
  for (const auto& sm : sms) sm->stuck_blocks(blocks);
  size_t located = 0;
  TimingFault f;
  f.fault = func::stuck_report(
      "no thread block of the launch can make progress: the resident blocks returned to an earlier state, "
      "device memory included, and finished nothing since (a spin that never ends, such as a lock whose "
      "holder never runs again)",
      blocks, &located);
  if (!blocks.empty()) {
    const func::CtaState& cta = *blocks[located].cta;
    std::copy(cta.ctaid, cta.ctaid + 3, f.cta.ctaid);
    f.cta.linear_id = cta.linear_id;
  }
  throw f;
}

}  // namespace lockstep::sim
