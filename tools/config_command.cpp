// `lockstep config --gpu NAME [--set key=value]...`: the effective configuration as TOML.
#include <cstdio>

#include "commands.h"
#include "config/config_error.h"
#include "config/config_printer.h"
#include "config/gpu_config.h"
#include "fmt/format.h"

namespace lockstep::tool {

int print_config(const GpuOptions& options) {
  try {
    const config::ConfigValues values = config::effective_values(options.gpu, options.sets);
    fmt::print("{}", config::format_config(values, options.gpu, options.sets));
    return 0;
  } catch (const config::ConfigError& e) {
    fmt::print(stderr, "lockstep: {}\n", e.what());
    return 2;
  }
}

}  // namespace lockstep::tool
