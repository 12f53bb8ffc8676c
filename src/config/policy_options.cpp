#include "config/policy_options.h"

#include <algorithm>

namespace lockstep::config {

void add_policy_param(std::vector<OptionSpec>& specs, const policy::Param& param) {
  const bool declared =
      std::any_of(specs.begin(), specs.end(), [&](const OptionSpec& spec) { return spec.key == param.key; });
  if (!declared) specs.push_back(integer(param.key, param.min, param.max, param.description));
}

}  // namespace lockstep::config
