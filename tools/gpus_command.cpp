// `lockstep gpus`: the presets, one line each.
#include <cstdio>

#include "commands.h"
#include "config/gpu_config.h"
#include "config/presets.h"
#include "fmt/format.h"

namespace lockstep::tool {

int list_gpus() {
  for (const std::string& name : config::preset_names()) {
    const config::GpuConfig g = config::load_gpu_config(name);
    fmt::print("{:<10}{}: {} SMs, compute capability {}.{}, {} MHz\n", name, g.gpu.name, g.gpu.sm_count,
               g.gpu.compute_capability / 10, g.gpu.compute_capability % 10, g.gpu.core_clock_mhz);
  }
  return 0;
}

}  // namespace lockstep::tool
