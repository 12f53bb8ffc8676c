#pragma once
// The configuration keys of the policy kinds, read from their registries (policy/policy_registry.h)
// rather than written out again: a kind's key accepts exactly the registered names, and each
// parameter a policy declares in its own file becomes a key right after it. A parameter several
// policies share (dwf and branch-barrier read sm.yield_after) is one key, declared once.
#include <span>
#include <string_view>
#include <vector>

#include "config/option.h"
#include "config/option_builders.h"
#include "policy/policy_registry.h"

namespace lockstep::config {

// An integer key from a policy's parameter declaration; nothing when `specs` has the key already.
void add_policy_param(std::vector<OptionSpec>& specs, const policy::Param& param);

// The kind's key (`key`, one of the registered names) and then every registered policy's
// parameters, in table order.
template <class Factory, class Traits>
void add_policy_kind(std::vector<OptionSpec>& specs, std::string_view key,
                     std::span<const policy::Entry<Factory, Traits>> table, std::string_view description) {
  specs.push_back(choice(key, policy::names(table), description));
  for (const policy::Entry<Factory, Traits>& entry : table)
    for (const policy::Param& param : entry.params) add_policy_param(specs, param);
}

}  // namespace lockstep::config
