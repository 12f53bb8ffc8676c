#pragma once
// What the config tests share.
#include <string>
#include <vector>

#include "config/config_error.h"
#include "config/gpu_config.h"

namespace lockstep::config::test {

// The message load_gpu_config(preset, overrides) refuses with, or "no error".
inline std::string override_error(const std::vector<std::string>& overrides, const std::string& preset = "h100") {
  try {
    load_gpu_config(preset, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace lockstep::config::test
