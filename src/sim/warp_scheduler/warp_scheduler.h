#pragma once
// Warp scheduler policies (seed 001 §3.4.1-3.4.3): each cycle, which of a scheduler's ready warps
// issues. A scheduler owns a fixed set of warp slots (ids 0 .. warp_slots - 1 within its SM
// partition); the SM decides readiness (I-buffer valid, scoreboard, unit free, no barrier) and
// tells the scheduler what happened; the policy only orders. Policies are created by name, one
// file each in this folder, listed by its registry.cpp (docs/timing-model.md,
// "WarpScheduler"; the shape of the registry: policy/policy_registry.h).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "policy/policy_registry.h"

namespace lockstep::sim {

inline constexpr uint32_t kNoWarp = UINT32_MAX;

// A set of warp slots with a capacity fixed at construction; no operation after construction
// allocates, so the SM can rebuild one every cycle.
class WarpSet {
 public:
  explicit WarpSet(uint32_t capacity);

  uint32_t capacity() const { return capacity_; }
  bool test(uint32_t warp) const { return (words_[warp / 64] >> (warp % 64)) & 1u; }
  void set(uint32_t warp) { words_[warp / 64] |= uint64_t{1} << (warp % 64); }
  void reset(uint32_t warp) { words_[warp / 64] &= ~(uint64_t{1} << (warp % 64)); }
  void clear();
  bool empty() const;
  uint32_t count() const;
  // The smallest member >= from (from may equal capacity()), or kNoWarp. Inline: the SM's
  // issue and fetch stages walk their warps with it every cycle.
  uint32_t next(uint32_t from) const {
    if (from >= capacity_) return kNoWarp;
    size_t index = from / 64;
    uint64_t word = words_[index] & (~uint64_t{0} << (from % 64));
    while (word == 0) {
      if (++index == words_.size()) return kNoWarp;
      word = words_[index];
    }
    return static_cast<uint32_t>(index * 64 + static_cast<size_t>(std::countr_zero(word)));
  }

 private:
  uint32_t capacity_;
  std::vector<uint64_t> words_;
};

// The default of each policy parameter is its declaration's (the policy's file); the contract test
// checks the two agree.
struct WarpSchedulerOptions {
  uint32_t warp_slots = 0;        // warps this scheduler owns, at least 1
  uint32_t fetch_group_size = 8;  // two-level: warps per fetch group (seed 001 fig 3-26 uses 8)
};

// The SM's calls, per cycle: the on_long_latency_done of completions due, then select, then
// on_issue for the warp it issued (select may be asked again, without that warp, for a second
// issue slot). Warps enter with on_warp_added when their CTA starts and leave with
// on_warp_removed when it exits. Stall accounting: every warp of `ready` other than the one
// selected was passed over ("not selected"); select returns kNoWarp only when `ready` is empty,
// so an idle issue slot is never the policy's doing.
class WarpScheduler {
 public:
  virtual ~WarpScheduler() = default;

  uint32_t warp_slots() const { return slots_; }

  // Caller: ready.capacity() == warp_slots(), every member resident. Returns a member of
  // `ready`, or kNoWarp when it is empty. Changes nothing: only on_issue moves the policy on.
  virtual uint32_t select(const WarpSet& ready) const = 0;
  // `warp` (resident) issued an instruction in `cycle`.
  virtual void on_issue(uint32_t warp, uint64_t cycle) = 0;
  // `warp` issued an operation whose result is far away (a load that missed, seed 001 fig 3-25)
  // and its next instruction waits for it; done: the result came back. Only two-level uses these.
  virtual void on_long_latency(uint32_t /*warp*/) {}
  virtual void on_long_latency_done(uint32_t /*warp*/) {}
  // A free slot becomes resident. `age` orders warps by when they were assigned to the SM
  // (smaller: older); a CTA's warps may share one age, the lower slot then counts as older.
  virtual void on_warp_added(uint32_t warp, uint64_t age) = 0;
  // A resident warp leaves (its CTA exited); its slot may be reused.
  virtual void on_warp_removed(uint32_t warp) = 0;

 protected:
  explicit WarpScheduler(uint32_t warp_slots) : slots_(warp_slots) {}

 private:
  uint32_t slots_;
};

using WarpSchedulerFactory = std::unique_ptr<WarpScheduler> (*)(const WarpSchedulerOptions&);

using WarpSchedulerInfo = policy::Entry<WarpSchedulerFactory>;

// The registered policies, in a fixed order (an immutable table; sim/warp_scheduler/registry.cpp).
std::span<const WarpSchedulerInfo> warp_schedulers();

// Throws std::invalid_argument "unknown warp scheduler '<name>' (accepted: lrr, gto, two-level)"
// for a name not registered, and for options a policy cannot use (no warp slots, an empty fetch
// group).
std::unique_ptr<WarpScheduler> make_warp_scheduler(std::string_view name,
                                                   const WarpSchedulerOptions& options);

}  // namespace lockstep::sim
