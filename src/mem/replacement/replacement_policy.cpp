// The replacement policy registry: one immutable table of (name, description, factory). Adding a
// policy = one file in this folder + one line here (the factories are plain functions, so there
// is no static-initialisation order to worry about).
#include "mem/replacement/replacement_policy.h"

#include <array>
#include <stdexcept>
#include <string>

#include "mem/replacement/replacement_impls.h"

namespace lockstep::mem {
namespace {

constexpr std::array<ReplacementPolicyInfo, 2> kPolicies = {{
    {"fifo", "evict the line installed first; hits do not matter", replacement_detail::make_fifo},
    {"lru", "evict the line used least recently", replacement_detail::make_lru},
}};

}  // namespace

std::span<const ReplacementPolicyInfo> replacement_policies() {
  return kPolicies;
}

std::vector<std::string_view> replacement_policy_names() {
  std::vector<std::string_view> names;
  for (const ReplacementPolicyInfo& info : kPolicies) names.push_back(info.name);
  return names;
}

std::unique_ptr<ReplacementPolicy> make_replacement_policy(std::string_view name, uint32_t sets,
                                                           uint32_t ways) {
  if (sets == 0 || ways == 0 || ways > kMaxReplacementWays)
    throw std::invalid_argument("replacement policy: sets must be at least 1 and ways 1 to " +
                                std::to_string(kMaxReplacementWays));
  for (const ReplacementPolicyInfo& info : kPolicies)
    if (info.name == name) return info.make(sets, ways);
  std::string accepted;
  for (const ReplacementPolicyInfo& info : kPolicies) {
    if (!accepted.empty()) accepted += ", ";
    accepted += info.name;
  }
  throw std::invalid_argument("unknown replacement policy '" + std::string(name) +
                              "' (accepted: " + accepted + ")");
}

}  // namespace lockstep::mem
