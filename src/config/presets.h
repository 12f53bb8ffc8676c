#pragma once
// The GPU presets: configs/<name>.toml, embedded into the library at build time.
#include <string>
#include <string_view>
#include <vector>

#include "config/config_values.h"

namespace lockstep::config {

// The preset names, sorted: a100, fermi, h100, h200, teaching, v100.
std::vector<std::string> preset_names();
// The preset's values. Throws ConfigError "unknown GPU '<name>' (accepted: ...)", or, for a
// preset file that lacks a key, has an unknown one or a bad value, an error naming the file.
ConfigValues load_preset(std::string_view name);
// The TOML text of a preset file; throws as load_preset does for an unknown name.
std::string_view preset_text(std::string_view name);
// Parses TOML text holding every key (as a preset file does), or a top-level `inherits =
// "<preset>"` and the keys that differ from that preset (which may inherit in turn). `origin`
// names it in errors ("configs/h100.toml: missing key sm.warp_size").
ConfigValues parse_config_text(std::string_view text, std::string_view origin);

}  // namespace lockstep::config
