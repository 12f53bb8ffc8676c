// lockstep: run CUDA kernels on a modelled GPU.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.h"
#include "fmt/format.h"

namespace {

// --gpu and --set, shared by `run` and `config`. Each --set takes one key=value; repeat it.
void add_gpu_options(CLI::App& command, lockstep::tool::GpuOptions& options) {
  command.add_option("--gpu", options.gpu, "the GPU preset (see `lockstep gpus`; default h100)");
  command.add_option("--set", options.sets, "override one configuration key: --set sm.warp_size=16 (repeatable)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lockstep: a cycle-level GPGPU simulator"};
  app.require_subcommand(1);

  lockstep::tool::RunOptions run_options;
  std::vector<std::string> program;
  CLI::App* run = app.add_subcommand("run", "run a CUDA program (with no program: the built-in saxpy sample)");
  add_gpu_options(*run, run_options.gpu);
  run->add_option("--mode", run_options.mode, "functional (default) or timing");
  run->add_option("--threads", run_options.threads,
                  "host threads a launch runs on: the modelled SMs in timing mode, the resident blocks in "
                  "functional mode (results do not depend on it; default: the machine's cores)");
  run->add_option("--stats-json", run_options.stats_json, "write the run's statistics to this JSON file");
  run->add_flag("--memcheck", run_options.memcheck,
                "check every device access strictly: one a little past an allocation's end faults too");
  run->add_option("--warp-size", run_options.warp_size, "threads per warp (shorthand for --set sm.warp_size=N)");
  run->add_option("--elements", run_options.elements, "elements of the built-in sample")
      ->check(CLI::Range(1u, 1u << 28));
  run->add_option("program", program, "the program and its arguments (after --)");

  lockstep::tool::GpuOptions config_options;
  CLI::App* config = app.add_subcommand("config", "print the effective configuration of a GPU preset as TOML");
  add_gpu_options(*config, config_options);

  CLI::App* gpus = app.add_subcommand("gpus", "list the GPU presets");

  std::vector<std::string> files;
  CLI::App* check = app.add_subcommand("check", "load PTX files and report their kernels or the first error");
  check->add_option("files", files, "PTX files")->required();

  CLI11_PARSE(app, argc, argv);

  if (*run) return lockstep::tool::run_command(run_options, program);
  if (*config) return lockstep::tool::print_config(config_options);
  if (*gpus) return lockstep::tool::list_gpus();
  if (*check) return lockstep::tool::check_ptx_files(files);
  return 0;
}
