// `lockstep run`: checks the GPU configuration and the mode before anything runs, so a mistake
// is reported at once rather than from inside the program's CUDA runtime.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include "commands.h"
#include "config/config_error.h"
#include "config/gpu_config.h"
#include "engine/engine.h"
#include "fmt/format.h"

namespace lockstep::tool {

namespace {

// --threads' default: every core of this machine (results do not depend on it).
uint32_t machine_threads() {
  return std::clamp<uint32_t>(std::thread::hardware_concurrency(), 1, kMaxSimThreads);
}

}  // namespace

int run_command(const RunOptions& options, const std::vector<std::string>& program) {
  if (options.mode != "functional" && options.mode != "timing") {
    fmt::print(stderr, "lockstep: bad value '{}' for --mode: expected one of functional, timing\n", options.mode);
    return 2;
  }
  const std::optional<uint32_t> threads =
      options.threads ? parse_sim_threads(*options.threads) : std::optional<uint32_t>(machine_threads());
  if (!threads) {
    fmt::print(stderr, "lockstep: bad value '{}' for --threads: expected a whole number from 1 to {}\n",
               *options.threads, kMaxSimThreads);
    return 2;
  }
  std::vector<std::string> overrides;
  if (!options.warp_size.empty()) overrides.push_back("sm.warp_size=" + options.warp_size);
  overrides.insert(overrides.end(), options.gpu.sets.begin(), options.gpu.sets.end());
  config::GpuConfig gpu;
  try {
    gpu = config::load_gpu_config(options.gpu.gpu, overrides);
  } catch (const config::ConfigError& e) {
    fmt::print(stderr, "lockstep: {}\n", e.what());
    return 2;
  }
  if (!program.empty()) {
    ProgramSettings settings;
    settings.gpu = options.gpu.gpu;
    settings.overrides = overrides;
    settings.mode = options.mode;
    settings.threads = *threads;
    settings.memcheck = options.memcheck;
    settings.stats_json = options.stats_json;
    return run_program(program, settings);
  }
  if (!options.stats_json.empty()) {
    fmt::print(stderr, "lockstep: --stats-json needs a program; the built-in sample writes no statistics\n");
    return 2;
  }
  SampleOptions sample;
  sample.warp_size = gpu.sm.warp_size;
  sample.elements = options.elements;
  if (options.mode == "timing") sample.timing = std::make_shared<const config::GpuConfig>(gpu);
  sample.threads = *threads;
  sample.watchdog = gpu.run;
  return run_sample(sample);
}

}  // namespace lockstep::tool
