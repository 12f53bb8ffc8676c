#pragma once
// The typed option registry: every configuration key a preset holds and `--set` may override,
// with its type, accepted values and description. The table (option_table.cpp) is immutable;
// it feeds preset loading, override checking and `lockstep config` printing.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lockstep::config {

enum class OptionType { Int, Float, Bool, String, Enum, IntList };

// An Enum value is held as its std::string spelling.
using OptionValue = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>>;

struct OptionSpec {
  std::string_view key;  // "table.name", e.g. "sm.warp_size" or "pipeline.fp32.latency"
  OptionType type = OptionType::Int;
  std::string_view description;
  int64_t min = 0, max = 0;                  // Int, and each IntList element (unless `accepted` is set)
  double min_float = 0, max_float = 0;       // Float
  std::vector<int64_t> accepted;             // Int: the only legal values, when not empty
  std::vector<std::string_view> choices;     // Enum: the legal spellings
  bool may_be_empty = false;                 // String: "" is a legal value (an empty list, say)

  std::string_view table() const { return key.substr(0, key.rfind('.')); }
  std::string_view name() const { return key.substr(key.rfind('.') + 1); }
};

// Every option, in the order `lockstep config` prints them (grouped by table).
const std::vector<OptionSpec>& option_specs();
// The option named `key`; throws ConfigError "unknown configuration key ..." listing the
// keys of its table (or the tables, when the table is unknown too).
const OptionSpec& find_option(std::string_view key);
// The tables, in order of first appearance ("gpu", "sm", "pipeline.int", ...).
std::vector<std::string_view> option_tables();

// What a legal value looks like, e.g. "one of 1, 2, 4" or "an integer from 1 to 1024".
std::string accepted_text(const OptionSpec& spec);
// Parses `text` (as written after key= on a command line) into a value of the option's type;
// throws ConfigError "bad value '<text>' for <key>: expected <accepted_text>".
OptionValue parse_option_value(const OptionSpec& spec, std::string_view text);
// Checks type and range of a value from a preset; `text` is how the value is spelled in the
// error message. Throws as parse_option_value does.
void check_option_value(const OptionSpec& spec, const OptionValue& value, std::string_view text);
// The value as a TOML literal: 32, 1.5, true, "warp", [0, 8, 16].
std::string format_option_value(const OptionValue& value);

}  // namespace lockstep::config
