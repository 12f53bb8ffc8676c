#include "config/config_values.h"

#include <stdexcept>

#include "config/config_error.h"
#include "fmt/format.h"

namespace lockstep::config {

void ConfigValues::set(std::string_view key, const OptionValue& value, std::string_view text) {
  const OptionSpec& spec = find_option(key);
  check_option_value(spec, value, text);
  values_.insert_or_assign(std::string(key), value);
}

void ConfigValues::apply_override(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw ConfigError(fmt::format("override '{}' must look like key=value", assignment));
  const std::string_view key = assignment.substr(0, eq);
  const OptionSpec& spec = find_option(key);
  values_.insert_or_assign(std::string(key), parse_option_value(spec, assignment.substr(eq + 1)));
}

void ConfigValues::apply_overrides(const std::vector<std::string>& assignments) {
  bool warp_size_set = false, max_warps_set = false;
  for (const std::string& a : assignments) {
    apply_override(a);
    const std::string_view key = std::string_view(a).substr(0, a.find('='));
    warp_size_set |= key == "sm.warp_size";
    max_warps_set |= key == "sm.max_warps";
  }
  if (warp_size_set && !max_warps_set && has("sm.max_threads")) {
    const int64_t warp = get_int("sm.warp_size");
    values_.insert_or_assign("sm.max_warps", (get_int("sm.max_threads") + warp - 1) / warp);
  }
}

const OptionValue& ConfigValues::get(std::string_view key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw std::out_of_range(fmt::format("configuration key {} has no value", key));
  return it->second;
}

}  // namespace lockstep::config
