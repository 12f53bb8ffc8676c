// Issue 13 acceptance: every divergence design (sm.divergence) runs every host program to
// correct results, in functional mode and in timing mode on h100. Each program checks its own
// results against a CPU reference and prints PASSED.
//
// Where a design cannot run a program, because the program's warps wait for each other by
// spinning and the design runs the waiting threads ahead of the ones they wait for, the run
// must end in a deadlock report naming the kernel, never a hang or a wrong answer. These are
// the block-level designs, tbc and large-warp: their one SIMT stack per block (or per large
// warp) runs one path at a time, so a spinning path that another path must release never gives
// way. A GPU built that way would hang the same way; branch-barrier (independent thread
// scheduling) exists for exactly this (seed 001 §3.3.3).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host/run_lockstep.h"

namespace lockstep::test {
namespace {

#ifdef LOCKSTEP_HOST_PROGRAMS

// The designs other than the h100's default (branch-barrier), which the other host tests run.
const std::vector<const char*> kDesigns = {"ipdom-stack", "thread-frontier", "dwf", "tbc", "large-warp", "sbi", "swi"};

// Every sm_90 build of tests/host/programs.cmake that ends with PASSED (faulting_kernel faults
// on purpose; cuda_programs_test.cpp checks its report).
const std::vector<const char*> kPrograms = {
    "vector_add",       "host_threads",       "memory_pools",    "graph_conditionals", "constant_memory",
    "streams_events",   "dynamic_shared",     "pinned_memory",   "zero_copy",          "stream_priorities",
    "templates",        "device_printf",      "thrust_ops",      "cub_ops",            "textures",
    "managed_memory",   "pitched_2d",         "kmeans",          "cuda_graphs",        "grid_sync",
    "device_heap",      "param_address",      "tiled_partition", "array3d_textures",   "graph_memory_nodes",
    "graph_edit_capture", "two_units",        "rdc_units",       "dynamic_parallelism", "async_barriers"};

struct DesignCase {
  const char* program;
  const char* design;
  const char* mode;
};

// The runs that end in a deadlock, with the kernel the report names.
struct ExpectedDeadlock {
  const char* program;
  const char* design;
  const char* kernel;
};
const std::vector<ExpectedDeadlock> kDeadlocks = {
    // cuda::pipeline's consumer warps spin on the stage barrier that the producer warp, on the
    // stack's other path, would complete.
    {"async_barriers", "tbc", "_Z13pipelined_sumPKiiPx"},
    {"async_barriers", "large-warp", "_Z13pipelined_sumPKiiPx"},
    // A tile of 64 threads synchronises its two warps through shared memory (a spin).
    {"tiled_partition", "tbc", "_Z5tilesILj64EEvPKiPi"},
    {"tiled_partition", "large-warp", "_Z5tilesILj64EEvPKiPi"},
};

const ExpectedDeadlock* expected_deadlock(const DesignCase& c) {
  for (const ExpectedDeadlock& d : kDeadlocks)
    if (std::string(d.program) == c.program && std::string(d.design) == c.design) return &d;
  return nullptr;
}

void PrintTo(const DesignCase& c, std::ostream* os) { *os << c.program << "/" << c.design << "/" << c.mode; }

std::vector<std::string> arguments(const DesignCase& c) {
  return {"--mode", c.mode, "--gpu", "h100", "--set", std::string("sm.divergence=") + c.design};
}

class DesignPrograms : public ::testing::TestWithParam<DesignCase> {};

TEST_P(DesignPrograms, RunToTheirOwnCheckedResults) {
  const DesignCase& c = GetParam();
  const ProgramOutcome run = run_lockstep(host_program(std::string(c.program) + "_sm90"), arguments(c));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("PASSED"), std::string::npos) << run.out;
  expect_only_kernel_summaries(run.err);
}

class DesignDeadlocks : public ::testing::TestWithParam<DesignCase> {};

TEST_P(DesignDeadlocks, AreReportedNotHung) {
  const DesignCase& c = GetParam();
  std::vector<std::string> args = arguments(c);
  // The pipeline's consumers read %globaltimer as they back off, so their state never repeats
  // and only the watchdog's limit ends the spin: limits far below the defaults keep this fast
  // (the programs' other kernels finish a block well within them).
  for (const char* limit : {"run.watchdog_limit_instructions=4000000", "run.watchdog_interval_cycles=4096",
                            "run.watchdog_limit_cycles=400000"}) {
    args.push_back("--set");
    args.push_back(limit);
  }
  const ProgramOutcome run = run_lockstep(host_program(std::string(c.program) + "_sm90"), args);
  EXPECT_NE(run.exit_code, 0);
  const std::string report = std::string("lockstep: deadlock in kernel '") + expected_deadlock(c)->kernel + "'";
  EXPECT_NE(run.err.find(report), std::string::npos) << run.err.substr(0, 2000);
  EXPECT_EQ(run.out.find("PASSED"), std::string::npos) << run.out;
}

std::vector<DesignCase> cases(bool deadlocking) {
  std::vector<DesignCase> all;
  for (const char* mode : {"functional", "timing"})
    for (const char* design : kDesigns)
      for (const char* program : kPrograms) {
        // grid_sync's timing run takes 15 s on one core per design; its grid barrier does not
        // depend on the design, and functional mode runs it under each.
        if (std::string(program) == "grid_sync" && std::string(mode) == "timing") continue;
        const DesignCase c{program, design, mode};
        if ((expected_deadlock(c) != nullptr) == deadlocking) all.push_back(c);
      }
  return all;
}

std::string case_name(const ::testing::TestParamInfo<DesignCase>& param) {
  std::string name = std::string(param.param.program) + "_" + param.param.design + "_" + param.param.mode;
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Host, DesignPrograms, ::testing::ValuesIn(cases(false)), case_name);
INSTANTIATE_TEST_SUITE_P(Host, DesignDeadlocks, ::testing::ValuesIn(cases(true)), case_name);

#endif

}  // namespace
}  // namespace lockstep::test
