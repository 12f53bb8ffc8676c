#pragma once
// The CTA (thread block) scheduler: which SM each block of a launch runs on, and when
// (seed 001 §3.6.1–3.6.2). A policy is an interface plus implementations made by name, one file
// each in this folder, listed by its registry.cpp (shape: policy/policy_registry.h).
//
// The scheduler only places blocks; the SMs run them and report each completion. A placed block
// stays on its SM until it completes: GPGPUs neither preempt nor migrate blocks (§3.6.2).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "policy/policy_registry.h"

namespace lockstep::sim {

struct CtaPlacement {
  uint64_t block = 0;  // linear block index in the grid, 0 .. total_blocks - 1
  uint32_t sm = 0;
  bool operator==(const CtaPlacement&) const = default;
};

struct CtaSchedulerOptions {
  uint32_t sm_count = 0;  // at least 1
};

class CtaScheduler {
 public:
  virtual ~CtaScheduler() = default;

  // Begins a launch of `total_blocks` blocks (placed in increasing block index), at most
  // `blocks_per_sm` resident on one SM at a time (the occupancy calculator's `blocks`, computed
  // by the caller). Returns the placements made at once, in the order they are made.
  // `usable`, per SM (empty: all): the SMs the launch may place on now; another grid holds the
  // rest (a parent's, beside which a child grid starts), which join later through add_sm.
  // Throws std::invalid_argument when blocks_per_sm is 0 (the kernel cannot run on this GPU)
  // and std::logic_error while an earlier launch is not done. Called once per launch, not on the
  // per-cycle path: the returned vector may allocate.
  virtual std::vector<CtaPlacement> start_launch(uint64_t total_blocks, uint32_t blocks_per_sm,
                                                 std::span<const uint8_t> usable = {}) = 0;

  // SM `sm`, which start_launch could not use, is free for this launch from now: returns the
  // blocks placed on it (none once every block is placed). Not on the per-cycle path.
  virtual std::vector<CtaPlacement> add_sm(uint32_t sm) = 0;

  // A block resident on `sm` completed at `cycle`, freeing its slot; returns the block placed in
  // the freed resources, if any remain. The caller reports completions in the order they happen
  // and those of one cycle in increasing SM index, so placement is deterministic; a report out
  // of that order, or for an SM with no resident block, throws std::logic_error.
  virtual std::optional<CtaPlacement> on_block_done(uint32_t sm, uint64_t cycle) = 0;

  // Every block of the launch has been placed (later completions place nothing).
  virtual bool all_placed() const = 0;
  // Every block of the launch has completed (also true before the first launch).
  virtual bool done() const = 0;
  // Blocks resident on `sm` now.
  virtual uint32_t resident(uint32_t sm) const = 0;
};

using CtaSchedulerFactory = std::unique_ptr<CtaScheduler> (*)(const CtaSchedulerOptions& options);
using CtaSchedulerInfo = policy::Entry<CtaSchedulerFactory>;

// The registered policies, in the order an error message lists them (an immutable table).
std::span<const CtaSchedulerInfo> cta_schedulers();

// Throws std::invalid_argument: "unknown CTA scheduler '<name>' (accepted: round-robin)" for an
// unknown name; another message for sm_count 0.
std::unique_ptr<CtaScheduler> make_cta_scheduler(std::string_view name, const CtaSchedulerOptions& options);

// The registered names, in the order an error message lists them.
std::vector<std::string_view> cta_scheduler_names();

}  // namespace lockstep::sim
