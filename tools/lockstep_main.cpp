// lockstep: run CUDA kernels on a modelled GPU.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "commands.h"
#include "fmt/format.h"

int main(int argc, char** argv) {
  CLI::App app{"lockstep: a cycle-level GPGPU simulator"};
  app.require_subcommand(1);

  lockstep::tool::SampleOptions sample;
  std::vector<std::string> program;
  CLI::App* run = app.add_subcommand("run", "run a CUDA program (with no program: the built-in saxpy sample)");
  run->add_option("--warp-size", sample.warp_size, "threads per warp")
      ->check(CLI::IsMember({1u, 2u, 4u, 8u, 16u, 32u, 64u}));
  run->add_option("--elements", sample.elements, "elements of the built-in sample")
      ->check(CLI::Range(1u, 1u << 28));
  run->add_option("program", program, "the program and its arguments (after --)");

  std::vector<std::string> files;
  CLI::App* check = app.add_subcommand("check", "load PTX files and report their kernels or the first error");
  check->add_option("files", files, "PTX files")->required();

  CLI11_PARSE(app, argc, argv);

  if (*run) {
    if (!program.empty()) return lockstep::tool::run_program(program, sample.warp_size);
    return lockstep::tool::run_sample(sample);
  }
  if (*check) return lockstep::tool::check_ptx_files(files);
  return 0;
}
