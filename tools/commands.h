#pragma once
// The lockstep command's subcommands.
#include <string>
#include <vector>

namespace lockstep::tool {

struct SampleOptions {
  uint32_t warp_size = 32;
  uint32_t elements = 1u << 20;
};

// Runs the built-in sample (saxpy) on the functional engine and prints a summary to stderr.
int run_sample(const SampleOptions& options);

// Runs a CUDA program built with `nvcc -cudart shared` on the stand-in libcudart (replaces
// the process; returns only on failure, with the exit status to use).
int run_program(const std::vector<std::string>& command, uint32_t warp_size);

// Loads each PTX file (parse, check, lower, bind) and reports its kernels or the first error.
int check_ptx_files(const std::vector<std::string>& files);

}  // namespace lockstep::tool
