#pragma once
// Builders for option declarations (config/option_table*.cpp): one call per key, with its type,
// accepted values and description.
#include <string_view>
#include <vector>

#include "config/option.h"

namespace lockstep::config {


inline OptionSpec integer(std::string_view key, int64_t min, int64_t max, std::string_view description) {
  OptionSpec s;
  s.key = key, s.type = OptionType::Int, s.min = min, s.max = max, s.description = description;
  return s;
}

inline OptionSpec one_of(std::string_view key, std::vector<int64_t> accepted, std::string_view description) {
  OptionSpec s;
  s.key = key, s.type = OptionType::Int, s.accepted = std::move(accepted), s.description = description;
  return s;
}

inline OptionSpec number(std::string_view key, double min, double max, std::string_view description) {
  OptionSpec s;
  s.key = key, s.type = OptionType::Float, s.min_float = min, s.max_float = max, s.description = description;
  return s;
}

inline OptionSpec text(std::string_view key, std::string_view description) {
  OptionSpec s;
  s.key = key, s.type = OptionType::String, s.description = description;
  return s;
}

// A string that may be empty: the opcode lists, where "" means "no explicit entries".
inline OptionSpec text_or_empty(std::string_view key, std::string_view description) {
  OptionSpec s = text(key, description);
  s.may_be_empty = true;
  return s;
}

inline OptionSpec choice(std::string_view key, std::vector<std::string_view> choices, std::string_view description) {
  OptionSpec s;
  s.key = key, s.type = OptionType::Enum, s.choices = std::move(choices), s.description = description;
  return s;
}

inline OptionSpec integers(std::string_view key, int64_t min, int64_t max, std::string_view description) {
  OptionSpec s;
  s.key = key, s.type = OptionType::IntList, s.min = min, s.max = max, s.description = description;
  return s;
}

// One execution unit's three keys: pipeline.<unit>.{latency,initiation_interval,lanes}.
inline void add_unit(std::vector<OptionSpec>& specs, std::string_view latency, std::string_view interval,
                     std::string_view lanes) {
  specs.push_back(integer(latency, 1, 10000, "cycles from issue until a dependent instruction may issue"));
  specs.push_back(integer(interval, 1, 1024, "cycles between two warp instructions entering the unit"));
  specs.push_back(integer(lanes, 1, 1024, "threads the unit serves per cycle"));
}

// The memory system's keys: [memory], [l1], [l2], [interconnect], [dram] (option_table_memory.cpp).
void add_memory_options(std::vector<OptionSpec>& specs);

}  // namespace lockstep::config
