#include "config/option.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "config/config_error.h"
#include "fmt/format.h"
#include "fmt/ranges.h"

namespace lockstep::config {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool parse_int(std::string_view s, int64_t& v) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

bool parse_float(std::string_view s, double& v) {
  s = trim(s);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size() && std::isfinite(v);
}

bool int_in_range(const OptionSpec& spec, int64_t v) {
  if (!spec.accepted.empty()) return std::find(spec.accepted.begin(), spec.accepted.end(), v) != spec.accepted.end();
  return v >= spec.min && v <= spec.max;
}

[[noreturn]] void bad_value(const OptionSpec& spec, std::string_view text) {
  throw ConfigError(fmt::format("bad value '{}' for {}: expected {}", text, spec.key, accepted_text(spec)));
}

}  // namespace

const OptionSpec& find_option(std::string_view key) {
  for (const OptionSpec& spec : option_specs())
    if (spec.key == key) return spec;
  const std::string_view table = key.substr(0, key.rfind('.') == std::string_view::npos ? 0 : key.rfind('.'));
  std::vector<std::string_view> names;
  for (const OptionSpec& spec : option_specs())
    if (spec.table() == table) names.push_back(spec.name());
  if (!names.empty())
    throw ConfigError(fmt::format("unknown configuration key '{}' (keys in [{}]: {})", key, table,
                                  fmt::join(names, ", ")));
  throw ConfigError(fmt::format("unknown configuration key '{}' (tables: {})", key, fmt::join(option_tables(), ", ")));
}

std::vector<std::string_view> option_tables() {
  std::vector<std::string_view> tables;
  for (const OptionSpec& spec : option_specs())
    if (std::find(tables.begin(), tables.end(), spec.table()) == tables.end()) tables.push_back(spec.table());
  return tables;
}

std::string accepted_text(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::Int:
      if (!spec.accepted.empty()) return fmt::format("one of {}", fmt::join(spec.accepted, ", "));
      return fmt::format("an integer from {} to {}", spec.min, spec.max);
    case OptionType::Float: return fmt::format("a number from {} to {}", spec.min_float, spec.max_float);
    case OptionType::Bool: return "true or false";
    case OptionType::String: return spec.may_be_empty ? "a string" : "a non-empty string";
    case OptionType::Enum: return fmt::format("one of {}", fmt::join(spec.choices, ", "));
    case OptionType::IntList:
      return fmt::format("a list of integers from {} to {}, like [{}, {}]", spec.min, spec.max, spec.min, spec.max);
  }
  return {};
}

OptionValue parse_option_value(const OptionSpec& spec, std::string_view text) {
  OptionValue value;
  switch (spec.type) {
    case OptionType::Int: {
      int64_t v = 0;
      if (!parse_int(text, v)) bad_value(spec, text);
      value = v;
      break;
    }
    case OptionType::Float: {
      double v = 0;
      if (!parse_float(text, v)) bad_value(spec, text);
      value = v;
      break;
    }
    case OptionType::Bool:
      if (trim(text) != "true" && trim(text) != "false") bad_value(spec, text);
      value = trim(text) == "true";
      break;
    case OptionType::String:
    case OptionType::Enum: {
      std::string_view s = trim(text);
      if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
      value = std::string(s);
      break;
    }
    case OptionType::IntList: {
      std::string_view s = trim(text);
      if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
      std::vector<int64_t> list;
      while (!trim(s).empty()) {
        const size_t comma = std::min(s.find(','), s.size());
        int64_t v = 0;
        if (!parse_int(s.substr(0, comma), v)) bad_value(spec, text);
        list.push_back(v);
        s.remove_prefix(std::min(comma + 1, s.size()));
      }
      value = std::move(list);
      break;
    }
  }
  check_option_value(spec, value, text);
  return value;
}

void check_option_value(const OptionSpec& spec, const OptionValue& value, std::string_view text) {
  bool ok = false;
  switch (spec.type) {
    case OptionType::Int: ok = std::holds_alternative<int64_t>(value) && int_in_range(spec, std::get<int64_t>(value)); break;
    case OptionType::Float:
      ok = std::holds_alternative<double>(value) && std::get<double>(value) >= spec.min_float &&
           std::get<double>(value) <= spec.max_float;
      break;
    case OptionType::Bool: ok = std::holds_alternative<bool>(value); break;
    case OptionType::String:
      ok = std::holds_alternative<std::string>(value) && (spec.may_be_empty || !std::get<std::string>(value).empty());
      break;
    case OptionType::Enum:
      ok = std::holds_alternative<std::string>(value) &&
           std::find(spec.choices.begin(), spec.choices.end(), std::get<std::string>(value)) != spec.choices.end();
      break;
    case OptionType::IntList:
      ok = std::holds_alternative<std::vector<int64_t>>(value) && !std::get<std::vector<int64_t>>(value).empty() &&
           std::all_of(std::get<std::vector<int64_t>>(value).begin(), std::get<std::vector<int64_t>>(value).end(),
                       [&](int64_t v) { return int_in_range(spec, v); });
      break;
  }
  if (!ok) bad_value(spec, text);
}

std::string format_option_value(const OptionValue& value) {
  struct Formatter {
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const {
      std::string s = fmt::format("{}", v);
      if (s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
    std::string operator()(bool v) const { return v ? "true" : "false"; }
    std::string operator()(const std::string& v) const {
      std::string quoted = "\"";
      for (char c : v) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
      }
      return quoted + "\"";
    }
    std::string operator()(const std::vector<int64_t>& v) const { return fmt::format("[{}]", fmt::join(v, ", ")); }
  };
  return std::visit(Formatter{}, value);
}

}  // namespace lockstep::config
