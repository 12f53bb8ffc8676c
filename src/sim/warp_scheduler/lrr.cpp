// "lrr": loose round robin (seed 001 §3.4.2, fig 3-24). Every ready warp has the same priority;
// the scheduler looks for the first ready warp after the one it issued last, wrapping around, so
// the ready warps take turns (0, 1, 3, 4, 5, 0, ... in the figure, where warp 2 is never ready).
// "Loose": a warp that is not ready is skipped rather than waited for.
#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep::sim {
namespace {

class LrrWarpScheduler final : public WarpScheduler {
 public:
  explicit LrrWarpScheduler(uint32_t slots) : WarpScheduler(slots), last_issued_(slots - 1) {}

  uint32_t select(const WarpSet& ready) const override {
    const uint32_t after = ready.next(last_issued_ + 1);
    return after != kNoWarp ? after : ready.next(0);
  }

  void on_issue(uint32_t warp, uint64_t /*cycle*/) override { last_issued_ = warp; }

  // The turn is a position, not a warp: a new or departed warp leaves it where it is.
  void on_warp_added(uint32_t /*warp*/, uint64_t /*age*/) override {}
  void on_warp_removed(uint32_t /*warp*/) override {}

 private:
  uint32_t last_issued_;  // starts at the last slot, so warp 0 has the first turn
};

std::unique_ptr<WarpScheduler> make_lrr(const WarpSchedulerOptions& options) {
  return std::make_unique<LrrWarpScheduler>(options.warp_slots);
}

}  // namespace

extern constinit const WarpSchedulerInfo kLrrWarpScheduler{
    "lrr", "loose round robin: the first ready warp after the last one issued (seed 001 fig 3-24)", {}, make_lrr};

}  // namespace lockstep::sim
