#pragma once
// `lockstep config`: the effective configuration as TOML text, every key, grouped by table.
#include <string>
#include <string_view>
#include <vector>

#include "config/config_values.h"

namespace lockstep::config {

// A header comment naming the preset and the overrides, then one "[table]" block per table
// with "key = value" lines, in registry order; a key that picks among names (a policy kind's key
// lists its registry's) ends in "  # one of a, b, c". The text parses back as a preset would.
std::string format_config(const ConfigValues& values, std::string_view preset,
                          const std::vector<std::string>& overrides);

}  // namespace lockstep::config
