#pragma once
// The lockstep command's subcommands.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/gpu_config.h"

namespace lockstep::tool {

struct SampleOptions {
  uint32_t warp_size = 32;
  uint32_t elements = 1u << 20;
  std::shared_ptr<const config::GpuConfig> timing;  // set: run on the cycle-level model of this GPU
  uint32_t threads = 1;                             // host threads a launch runs on
  config::GpuConfig::Run watchdog;                  // run.watchdog_* (timing mode reads `timing`'s)
};

// Runs the built-in sample (saxpy) on the engine and prints a summary to stderr.
int run_sample(const SampleOptions& options);

// What `lockstep run` hands a CUDA program's runtime, through the environment: LOCKSTEP_GPU,
// LOCKSTEP_SET (the overrides, one per line), LOCKSTEP_MODE, LOCKSTEP_THREADS and
// LOCKSTEP_STATS_JSON (when set).
struct ProgramSettings {
  std::string gpu = "h100";
  std::vector<std::string> overrides;
  std::string mode = "functional";
  uint32_t threads = 1;
  bool memcheck = false;   // strict bounds for the kernels' accesses
  std::string stats_json;  // empty: none
};

// Runs a CUDA program built with `nvcc -cudart shared` on the stand-in libcudart (replaces
// the process; returns only on failure, with the exit status to use).
int run_program(const std::vector<std::string>& command, const ProgramSettings& settings);

// --- GPU configuration commands (config room) ---
// The options `lockstep run` and `lockstep config` share.
struct GpuOptions {
  std::string gpu = "h100";
  std::vector<std::string> sets;  // key=value, in command-line order
};

struct RunOptions {
  GpuOptions gpu;
  std::string mode = "functional";
  std::optional<std::string> threads;  // --threads N: host threads a launch runs on (unset: the machine's cores)
  bool memcheck = false;      // --memcheck: every access outside an allocation faults
  std::string stats_json;
  std::string warp_size;  // --warp-size N: shorthand for --set sm.warp_size=N (applied first)
  uint32_t elements = 1u << 20;
};

// `lockstep gpus`: one line per preset (name, product, SMs, compute capability, clock).
int list_gpus();
// `lockstep config`: the effective configuration as TOML; a bad option prints
// "lockstep: <error>" and returns 2.
int print_config(const GpuOptions& options);
// `lockstep run`: checks every option first (a bad one prints "lockstep: <error>" and returns
// 2), then runs `program` (or, when it is empty, the built-in sample).
int run_command(const RunOptions& options, const std::vector<std::string>& program);

// Loads each PTX file (parse, check, lower, bind) and reports its kernels or the first error.
int check_ptx_files(const std::vector<std::string>& files);

}  // namespace lockstep::tool
