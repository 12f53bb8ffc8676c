#pragma once
// Replacement policies of the sectored caches (L1 data, constant, L2 slices): which way of a set
// gives up its line when a new line is installed. A policy owns its per-line metadata (style rule
// 8); the cache tells it what happened and asks it for a victim. Policies are made by name:
// "fifo", "lru" (one file each in this folder, listed by the registry in registry.cpp; the shape of
// the registry: policy/policy_registry.h).
//
// Line index = set * ways + way, for set < sets and way < ways. A line that was never filled
// since construction (or was invalidated since) is "empty".
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "policy/policy_registry.h"

namespace lockstep::mem {

// The widest set a policy handles: candidate masks are one 64-bit word.
inline constexpr uint32_t kMaxReplacementWays = 64;

class ReplacementPolicy {
 public:
  virtual ~ReplacementPolicy() = default;

  // Caller: `line` now holds a newly installed line (a fill or an allocating write replaced
  // whatever was there, or used an empty way).
  virtual void on_fill(uint32_t line) = 0;
  // Caller: `line` holds a valid line and was accessed again (a hit).
  virtual void on_hit(uint32_t line) = 0;
  // Caller: `line` no longer holds a line (invalidation); it counts as empty again.
  virtual void on_invalidate(uint32_t line) = 0;
  // The way of `set` to evict. Caller: set < sets; `candidates` (bit w: way w may be chosen) is
  // not zero and has no bit at or above ways. Callee: returns a way whose bit is set, preferring
  // an empty way (the lowest one); among non-empty ways the policy decides, ties going to the
  // lowest way. Changes nothing: only on_fill records the choice.
  virtual uint32_t victim(uint32_t set, uint64_t candidates) const = 0;
};

using ReplacementPolicyFactory = std::unique_ptr<ReplacementPolicy> (*)(uint32_t sets,
                                                                        uint32_t ways);

using ReplacementPolicyInfo = policy::Entry<ReplacementPolicyFactory>;

// Every registered policy, in the order error messages list them (one immutable table).
std::span<const ReplacementPolicyInfo> replacement_policies();
std::vector<std::string_view> replacement_policy_names();

// Throws std::invalid_argument for sets == 0, ways == 0 or ways > kMaxReplacementWays, and
// "unknown replacement policy '<name>' (accepted: fifo, lru)" for an unknown name.
std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, uint32_t sets,
                                                           uint32_t ways);

}  // namespace lockstep::mem
