// The registry of replacement policies: one entry per policy, each defined in its own file of this
// folder (<name>.cpp). Adding a policy is that file plus its line below.
#include <array>
#include <stdexcept>
#include <string>

#include "mem/replacement/replacement_policy.h"

namespace lockstep::mem {

// Defined in the policy files; constant-initialised, so reading them here needs no ordering.
extern const ReplacementPolicyInfo kFifoReplacement;
extern const ReplacementPolicyInfo kLruReplacement;

std::span<const ReplacementPolicyInfo> replacement_policies() {
  // Built once from the constant entries, never changed (the order error messages list them in).
  static const std::array kTable{
      kFifoReplacement,
      kLruReplacement,
  };
  return kTable;
}

std::vector<std::string_view> replacement_policy_names() { return policy::names(replacement_policies()); }

std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, uint32_t sets,
                                                           uint32_t ways) {
  if (sets == 0 || ways == 0 || ways > kMaxReplacementWays)
    throw std::invalid_argument("replacement policy: sets must be at least 1 and ways 1 to " +
                                std::to_string(kMaxReplacementWays));
  if (const ReplacementPolicyInfo* info = policy::find(replacement_policies(), name))
    return info->make(sets, ways);
  throw std::invalid_argument("unknown replacement policy '" + std::string(name) +
                              "' (accepted: " + policy::accepted(replacement_policies()) + ")");
}

}  // namespace lockstep::mem
