#pragma once
// One value per configuration key, checked against the option registry: what a preset file
// loads into and what overrides change. GpuConfig (gpu_config.h) is built from it.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config/option.h"

namespace lockstep::config {

class ConfigValues {
 public:
  // Sets a key to a value already of the right type; throws ConfigError for an unknown key or
  // a value out of range (`text` spells the value in the message).
  void set(std::string_view key, const OptionValue& value, std::string_view text);
  // Applies one override "key=value"; throws ConfigError ("override '<text>' must look like
  // key=value", unknown key, bad value).
  void apply_override(std::string_view assignment);
  // Applies overrides in order. When sm.warp_size is overridden and sm.max_warps is not,
  // sm.max_warps becomes sm.max_threads / sm.warp_size (rounded up): the warp slots follow the
  // warp width, so `--set sm.warp_size=8` alone gives a consistent SM.
  void apply_overrides(const std::vector<std::string>& assignments);

  bool has(std::string_view key) const { return values_.find(key) != values_.end(); }
  // The value of a key that has one (a preset gives every key); throws std::out_of_range otherwise.
  const OptionValue& get(std::string_view key) const;
  int64_t get_int(std::string_view key) const { return std::get<int64_t>(get(key)); }
  double get_float(std::string_view key) const { return std::get<double>(get(key)); }
  const std::string& get_string(std::string_view key) const { return std::get<std::string>(get(key)); }
  const std::vector<int64_t>& get_list(std::string_view key) const { return std::get<std::vector<int64_t>>(get(key)); }

 private:
  std::map<std::string, OptionValue, std::less<>> values_;
};

}  // namespace lockstep::config
