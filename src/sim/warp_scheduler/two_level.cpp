// "two-level": two-level round robin over fetch groups (seed 001 §3.4.3, figs 3-25 and 3-26;
// Narasiman et al., "Improving GPU performance via large warps and two-level warp scheduling").
// The warp slots are cut into fixed fetch groups of consecutive slots. Groups are ranked: at
// start group 0 first, then group 1, ... . The scheduler serves the highest-ranked group that has
// a ready warp, round robin inside it. When every resident warp of the top group waits on a
// long-latency operation (all reached the load I_k of fig 3-26), the group drops to the lowest
// rank and the next group becomes the top one: its compute instructions then hide the first
// group's memory latency, which round robin over all warps cannot do (fig 3-25).
//
// A lower-ranked group issues when the groups above it have no ready warp ("组间基于优先级顺序
// 的策略进行调度"): ranks are priorities, not a gate, so an issue slot is never left idle while a
// warp is ready. In figs 3-25/3-26 this never comes up, since a lower group only runs once the
// groups above it wait on memory.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "sim/warp_scheduler/warp_scheduler.h"

namespace lockstep::sim {
namespace {

class TwoLevelWarpScheduler final : public WarpScheduler {
 public:
  TwoLevelWarpScheduler(uint32_t slots, uint32_t group_size)
      : WarpScheduler(slots),
        group_size_(group_size),
        rank_((slots + group_size - 1) / group_size),
        last_issued_(rank_.size()),
        resident_(slots),
        waiting_(slots) {
    for (uint32_t group = 0; group < rank_.size(); ++group) {
      rank_[group] = group;
      last_issued_[group] = group_end(group) - 1;  // the group's first slot has the first turn
    }
  }

  uint32_t select(const WarpSet& ready) const override {
    for (uint32_t group : rank_) {
      const uint32_t end = group_end(group);
      uint32_t warp = ready.next(last_issued_[group] + 1);
      if (warp >= end) warp = ready.next(group * group_size_);
      if (warp < end) return warp;  // kNoWarp is never < end
    }
    return kNoWarp;
  }

  void on_issue(uint32_t warp, uint64_t /*cycle*/) override {
    last_issued_[warp / group_size_] = warp;
  }

  void on_long_latency(uint32_t warp) override {
    waiting_.set(warp);
    demote_if_top_and_stalled(warp / group_size_);
  }

  void on_long_latency_done(uint32_t warp) override { waiting_.reset(warp); }

  void on_warp_added(uint32_t warp, uint64_t /*age*/) override {
    resident_.set(warp);
    waiting_.reset(warp);
  }

  // A group left with only waiting warps (or none) has nothing to run: treated as stalled.
  void on_warp_removed(uint32_t warp) override {
    resident_.reset(warp);
    waiting_.reset(warp);
    demote_if_top_and_stalled(warp / group_size_);
  }

 private:
  uint32_t group_end(uint32_t group) const {
    return std::min(warp_slots(), (group + 1) * group_size_);
  }

  // Only the top group moves, and only when it just became stalled: a group that drops and
  // finds the next one stalled too does not cascade, so the group whose loads were issued first
  // is the first to be served when they return.
  void demote_if_top_and_stalled(uint32_t group) {
    if (rank_.front() != group) return;
    for (uint32_t warp = group * group_size_; warp < group_end(group); ++warp)
      if (resident_.test(warp) && !waiting_.test(warp)) return;
    std::rotate(rank_.begin(), rank_.begin() + 1, rank_.end());
  }

  uint32_t group_size_;
  std::vector<uint32_t> rank_;         // group ids, highest priority first
  std::vector<uint32_t> last_issued_;  // per group, the warp it issued last
  WarpSet resident_;
  WarpSet waiting_;  // waiting on a long-latency operation
};

std::unique_ptr<WarpScheduler> make_two_level(const WarpSchedulerOptions& options) {
  if (options.fetch_group_size == 0)
    throw std::invalid_argument(
        "warp scheduler 'two-level' needs a fetch group of at least one warp");
  return std::make_unique<TwoLevelWarpScheduler>(options.warp_slots, options.fetch_group_size);
}

// WarpSchedulerOptions::fetch_group_size; seed 001 fig 3-26 uses groups of 8.
constexpr policy::Param kParams[] = {
    {"timing.fetch_group_size", 8, 1, 1024,
     "warps per fetch group of the two-level scheduler (other schedulers ignore it)"},
};

}  // namespace

extern constinit const WarpSchedulerInfo kTwoLevelWarpScheduler{
    "two-level",
    "fetch groups in priority order, round robin inside; a group whose warps all wait on long-latency "
    "operations drops to the lowest priority (seed 001 figs 3-25, 3-26)",
    kParams,
    make_two_level};

}  // namespace lockstep::sim
