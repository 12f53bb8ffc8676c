// "gto": greedy then oldest (seed 001 §3.4.2, fig 3-24). The warp issued last keeps issuing while
// it is ready (greedy); when it stalls, the oldest ready warp takes over, oldest meaning assigned
// to the SM first (a CTA's warps share their CTA's age; the lower slot then counts as older).
#include <vector>

#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep::sim {
namespace {

class GtoWarpScheduler final : public WarpScheduler {
 public:
  explicit GtoWarpScheduler(uint32_t slots) : WarpScheduler(slots), age_(slots, 0) {}

  uint32_t select(const WarpSet& ready) const override {
    if (greedy_ != kNoWarp && ready.test(greedy_)) return greedy_;
    uint32_t oldest = kNoWarp;
    // Ascending slots, strict comparison: among equal ages the lowest slot wins.
    for (uint32_t warp = ready.next(0); warp != kNoWarp; warp = ready.next(warp + 1))
      if (oldest == kNoWarp || age_[warp] < age_[oldest]) oldest = warp;
    return oldest;
  }

  void on_issue(uint32_t warp, uint64_t /*cycle*/) override { greedy_ = warp; }

  void on_warp_added(uint32_t warp, uint64_t age) override { age_[warp] = age; }

  // A new warp in the departed warp's slot must not inherit the greedy turn.
  void on_warp_removed(uint32_t warp) override {
    if (greedy_ == warp) greedy_ = kNoWarp;
  }

 private:
  std::vector<uint64_t> age_;  // per slot, valid while the slot is resident
  uint32_t greedy_ = kNoWarp;  // the warp issued last
};

std::unique_ptr<WarpScheduler> make_gto(const WarpSchedulerOptions& options) {
  return std::make_unique<GtoWarpScheduler>(options.warp_slots);
}

}  // namespace

extern constinit const WarpSchedulerInfo kGtoWarpScheduler{
    "gto",
    "greedy then oldest: the last warp issued while it is ready, else the oldest ready warp (seed 001 fig 3-24)",
    {},
    make_gto};

}  // namespace lockstep::sim
