#include "config/presets.h"

#define TOML_HEADER_ONLY 1
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

#include "config/config_error.h"
#include "fmt/format.h"
#include "fmt/ranges.h"
#include "preset_texts.h"

namespace lockstep::config {

namespace {

// A TOML leaf as an OptionValue of the option's type (or of the TOML type, for the range check
// to reject), and its spelling for error messages.
OptionValue leaf_value(const OptionSpec& spec, const toml::node& node, std::string& text) {
  if (const auto* i = node.as_integer()) {
    text = std::to_string(i->get());
    if (spec.type == OptionType::Float) return static_cast<double>(i->get());
    return i->get();
  }
  if (const auto* f = node.as_floating_point()) {
    text = fmt::format("{}", f->get());
    return f->get();
  }
  if (const auto* b = node.as_boolean()) {
    text = b->get() ? "true" : "false";
    return b->get();
  }
  if (const auto* s = node.as_string()) {
    text = s->get();
    return s->get();
  }
  if (const auto* a = node.as_array()) {
    std::vector<int64_t> list;
    std::vector<std::string> parts;
    bool all_integers = true;
    for (const toml::node& e : *a) {
      if (const auto* i = e.as_integer()) {
        list.push_back(i->get());
        parts.push_back(std::to_string(i->get()));
      } else {
        all_integers = false;
        parts.push_back("?");
      }
    }
    text = fmt::format("[{}]", fmt::join(parts, ", "));
    if (all_integers) return list;
    return std::string(text);
  }
  text = "?";
  return std::string();
}

void load_table(const toml::table& table, const std::string& prefix, std::string_view origin, ConfigValues& values) {
  for (const auto& [key, node] : table) {
    const std::string path = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
    if (const auto* sub = node.as_table()) {
      load_table(*sub, path, origin, values);
      continue;
    }
    try {
      const OptionSpec& spec = find_option(path);
      std::string text;
      const OptionValue value = leaf_value(spec, node, text);
      values.set(path, value, text);
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("{}: {}", origin, e.what()));
    }
  }
}

}  // namespace

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const PresetText& p : kPresetTexts) names.emplace_back(p.name);
  return names;  // the generator writes them sorted
}

std::string_view preset_text(std::string_view name) {
  for (const PresetText& p : kPresetTexts)
    if (p.name == name) return p.text;
  throw ConfigError(fmt::format("unknown GPU '{}' (accepted: {})", name, fmt::join(preset_names(), ", ")));
}

ConfigValues load_preset(std::string_view name) {
  return parse_config_text(preset_text(name), fmt::format("configs/{}.toml", name));
}

ConfigValues parse_config_text(std::string_view text, std::string_view origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", origin, e.source().begin.line, e.source().begin.column,
                                  e.description()));
  }
  ConfigValues values;
  load_table(root, "", origin, values);
  for (const OptionSpec& spec : option_specs())
    if (!values.has(spec.key)) throw ConfigError(fmt::format("{}: missing key {}", origin, spec.key));
  return values;
}

}  // namespace lockstep::config
