#include "config/presets.h"

#define TOML_HEADER_ONLY 1
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

#include <algorithm>

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

namespace {

// The values of a config text: those of the preset it inherits from (top-level `inherits =
// "<preset>"`, itself resolved the same way), overlaid with its own. `chain` holds the presets
// being resolved, outermost first, to refuse a cycle.
ConfigValues resolve(std::string_view text, std::string_view origin, std::vector<std::string>& chain) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw ConfigError(fmt::format("{}:{}:{}: {}", origin, e.source().begin.line, e.source().begin.column,
                                  e.description()));
  }
  ConfigValues values;
  if (const toml::node* base = root.get("inherits")) {
    const auto* name = base->as_string();
    if (name == nullptr) throw ConfigError(fmt::format("{}: inherits: expected the name of a preset, in quotes", origin));
    if (std::find(chain.begin(), chain.end(), name->get()) != chain.end())
      throw ConfigError(fmt::format("{}: inherits from '{}', which is already being read ({}): a cycle", origin,
                                    name->get(), fmt::join(chain, " -> ")));
    std::string_view base_text;
    try {
      base_text = preset_text(name->get());
    } catch (const ConfigError& e) {
      throw ConfigError(fmt::format("{}: inherits: {}", origin, e.what()));
    }
    chain.push_back(name->get());
    values = resolve(base_text, fmt::format("configs/{}.toml", name->get()), chain);
    chain.pop_back();
    root.erase("inherits");
  }
  load_table(root, "", origin, values);
  return values;
}

}  // namespace

namespace {

ConfigValues parse_complete(std::string_view text, std::string_view origin, std::vector<std::string> chain) {
  ConfigValues values = resolve(text, origin, chain);
  for (const OptionSpec& spec : option_specs())
    if (!values.has(spec.key)) throw ConfigError(fmt::format("{}: missing key {}", origin, spec.key));
  return values;
}

}  // namespace

ConfigValues load_preset(std::string_view name) {
  return parse_complete(preset_text(name), fmt::format("configs/{}.toml", name), {std::string(name)});
}

ConfigValues parse_config_text(std::string_view text, std::string_view origin) {
  return parse_complete(text, origin, {});
}

}  // namespace lockstep::config
