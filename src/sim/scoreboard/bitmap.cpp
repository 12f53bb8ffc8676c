// "bitmap": the simple in-order scoreboard of seed 001 §3.5.2. One bit per register slot per warp
// says a write to it is in flight; an instruction may issue when none of its sources (RAW) and
// none of its destinations (WAW) has its bit set. Every check reads the live bits, so nothing is
// kept per decoded instruction and the token is unused.
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/scoreboard/scoreboard_impls.h"

namespace lockstep::sim {
namespace {

class BitmapScoreboard final : public Scoreboard {
 public:
  explicit BitmapScoreboard(const ScoreboardOptions& options)
      : options_(options),
        words_per_warp_((options.registers_per_warp + 63) / 64),
        bits_(size_t{options.warps} * words_per_warp_, 0),
        pending_(options.warps, 0) {}

  ScoreboardToken on_decode(uint32_t warp, const InstOperands& ops) override {
    scoreboard_detail::check_warp(warp, options_.warps);
    scoreboard_detail::check_ranges(ops, options_.registers_per_warp);
    return 0;
  }

  IssueCheck can_issue(uint32_t warp, const InstOperands& ops, ScoreboardToken /*token*/) const override {
    scoreboard_detail::check_warp(warp, options_.warps);
    for (const RegRange& r : ops.srcs())
      if (any_set(warp, r)) return IssueCheck::kRawHazard;
    for (const RegRange& r : ops.dsts())
      if (any_set(warp, r)) return IssueCheck::kWawHazard;
    return IssueCheck::kReady;
  }

  Reservation reserve(uint32_t warp, const InstOperands& ops, ScoreboardToken token) override {
    if (can_issue(warp, ops, token) != IssueCheck::kReady)
      throw std::logic_error("bitmap scoreboard: reserve of an instruction that is not ready");
    Reservation reservation;
    for (const RegRange& r : ops.dsts()) {
      set_range(warp, r, true);
      reservation.handles[reservation.count++] = WriteHandle{r, 0};
    }
    pending_[warp] += reservation.count;
    return reservation;
  }

  void discard(uint32_t warp, ScoreboardToken /*token*/) override { scoreboard_detail::check_warp(warp, options_.warps); }

  void release(uint32_t warp, const WriteHandle& handle) override {
    scoreboard_detail::check_warp(warp, options_.warps);
    if (handle.range.count == 0 || handle.range.end() > options_.registers_per_warp || !all_set(warp, handle.range))
      throw std::logic_error("bitmap scoreboard: release of registers " + std::to_string(handle.range.first) + "+" +
                             std::to_string(handle.range.count) + " that are not pending");
    set_range(warp, handle.range, false);
    --pending_[warp];
  }

  uint32_t pending_writes(uint32_t warp) const override {
    scoreboard_detail::check_warp(warp, options_.warps);
    return pending_[warp];
  }

 private:
  bool bit(uint32_t warp, uint32_t reg) const {
    return (bits_[size_t{warp} * words_per_warp_ + reg / 64] >> (reg % 64)) & 1;
  }
  bool any_set(uint32_t warp, const RegRange& r) const {
    for (uint32_t reg = r.first; reg < r.end(); ++reg)
      if (bit(warp, reg)) return true;
    return false;
  }
  bool all_set(uint32_t warp, const RegRange& r) const {
    for (uint32_t reg = r.first; reg < r.end(); ++reg)
      if (!bit(warp, reg)) return false;
    return true;
  }
  void set_range(uint32_t warp, const RegRange& r, bool value) {
    for (uint32_t reg = r.first; reg < r.end(); ++reg) {
      uint64_t& word = bits_[size_t{warp} * words_per_warp_ + reg / 64];
      const uint64_t mask = uint64_t{1} << (reg % 64);
      word = value ? (word | mask) : (word & ~mask);
    }
  }

  const ScoreboardOptions options_;
  const uint32_t words_per_warp_;
  std::vector<uint64_t> bits_;     // warps x words_per_warp_, bit set: write in flight
  std::vector<uint32_t> pending_;  // per warp: handles not yet released
};

std::unique_ptr<Scoreboard> make_bitmap(const ScoreboardOptions& options) {
  return std::make_unique<BitmapScoreboard>(options);
}

}  // namespace

extern constinit const ScoreboardKind kBitmapScoreboard{
    "bitmap", "one pending bit per register per warp (seed 001 §3.5.2)", {}, make_bitmap};

}  // namespace lockstep::sim
