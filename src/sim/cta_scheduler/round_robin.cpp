// round-robin: the baseline allocation of seed 001 §3.6.2 and fig 3-33. The first round gives
// each SM one block (block 0 -> SM0, block 1 -> SM1, ...); further rounds follow while SMs have
// room (blocks_per_sm, from occupancy). The remaining blocks wait; each completion frees a slot
// on its SM and the next block goes there, so after the first rounds placement follows execution
// progress ("第二轮的线程块分配完全是按照执行进度来安排的"). Blocks never migrate.
#include <stdexcept>
#include <string>

#include "sim/cta_scheduler/cta_scheduler.h"

namespace lockstep::sim {
namespace {

class RoundRobinCtaScheduler final : public CtaScheduler {
 public:
  explicit RoundRobinCtaScheduler(const CtaSchedulerOptions& options) : resident_(options.sm_count, 0) {}

  std::vector<CtaPlacement> start_launch(uint64_t total_blocks, uint32_t blocks_per_sm,
                                         std::span<const uint8_t> usable) override {
    if (!done()) throw std::logic_error("CTA scheduler: a launch started before the previous one completed");
    if (blocks_per_sm == 0)
      throw std::invalid_argument("the kernel cannot run: no block fits an SM (occupancy gives 0 blocks per SM)");
    if (!usable.empty() && usable.size() != resident_.size())
      throw std::logic_error("CTA scheduler: the usable SMs do not match the SM count");
    total_ = total_blocks;
    blocks_per_sm_ = blocks_per_sm;
    next_block_ = 0;
    completed_ = 0;
    has_last_report_ = false;
    std::vector<CtaPlacement> placements;
    const uint64_t sms = resident_.size();
    const uint64_t capacity = sms * blocks_per_sm;
    placements.reserve(static_cast<size_t>(total_blocks < capacity ? total_blocks : capacity));
    // Round r puts block r * sms + i on SM i: one block per SM per round, as in fig 3-33.
    for (uint32_t round = 0; round < blocks_per_sm && next_block_ < total_; ++round)
      for (uint32_t sm = 0; sm < sms && next_block_ < total_; ++sm)
        if (usable.empty() || usable[sm]) placements.push_back(place(sm));
    return placements;
  }

  // A freed SM takes as many blocks as fit it at once, as a first round would have given it.
  std::vector<CtaPlacement> add_sm(uint32_t sm) override {
    if (sm >= resident_.size()) throw std::logic_error("CTA scheduler: no SM " + std::to_string(sm));
    std::vector<CtaPlacement> placements;
    while (resident_[sm] < blocks_per_sm_ && next_block_ < total_) placements.push_back(place(sm));
    return placements;
  }

  std::optional<CtaPlacement> on_block_done(uint32_t sm, uint64_t cycle) override {
    if (sm >= resident_.size() || resident_[sm] == 0)
      throw std::logic_error("CTA scheduler: SM " + std::to_string(sm) + " reported a completion with no resident block");
    // Ties within a cycle go by SM index; the caller guarantees that order, checked here because
    // a different order would silently change every later placement.
    if (has_last_report_ && (cycle < last_cycle_ || (cycle == last_cycle_ && sm < last_sm_)))
      throw std::logic_error("CTA scheduler: completions reported out of (cycle, SM) order");
    has_last_report_ = true, last_cycle_ = cycle, last_sm_ = sm;
    --resident_[sm];
    ++completed_;
    if (next_block_ == total_) return std::nullopt;
    return place(sm);
  }

  bool all_placed() const override { return next_block_ == total_; }
  bool done() const override { return completed_ == total_; }
  uint32_t resident(uint32_t sm) const override { return resident_.at(sm); }

 private:
  CtaPlacement place(uint32_t sm) {
    ++resident_[sm];
    return CtaPlacement{next_block_++, sm};
  }

  std::vector<uint32_t> resident_;  // per SM
  uint64_t total_ = 0, next_block_ = 0, completed_ = 0;
  uint32_t blocks_per_sm_ = 0;
  bool has_last_report_ = false;
  uint64_t last_cycle_ = 0;
  uint32_t last_sm_ = 0;
};

std::unique_ptr<CtaScheduler> make_round_robin(const CtaSchedulerOptions& options) {
  return std::make_unique<RoundRobinCtaScheduler>(options);
}

}  // namespace

extern constinit const CtaSchedulerInfo kRoundRobinCtaScheduler{
    "round-robin", "rounds over the SMs, then each freed slot in completion order (seed 001 fig 3-33)", {},
    make_round_robin};

}  // namespace lockstep::sim
