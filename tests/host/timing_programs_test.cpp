// Issue 5 acceptance: every host program gives the same results in timing mode as in
// functional mode, on the h100 preset, and those without warp-level operations also on the
// teaching preset (8-lane warps). Timing mode adds its figures to the summary.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "host/run_lockstep.h"

namespace lockstep::test {
namespace {

#ifdef LOCKSTEP_HOST_PROGRAMS

struct TimingCase {
  const char* program;
  const char* preset;
};

void PrintTo(const TimingCase& c, std::ostream* os) { *os << c.program << "/" << c.preset; }

// Device printf runs in the order warps issue, which timing mode changes (blocks run
// side by side); the lines themselves must be the same.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

class TimingPrograms : public ::testing::TestWithParam<TimingCase> {};

TEST_P(TimingPrograms, SameResultsAsFunctionalMode) {
  const std::string program = host_program(std::string(GetParam().program) + "_sm90");
  const std::string gpu = GetParam().preset;
  const ProgramOutcome functional = run_lockstep(program, {"--gpu", gpu});
  const ProgramOutcome timing = run_lockstep(program, {"--gpu", gpu, "--mode", "timing"});
  EXPECT_EQ(timing.exit_code, functional.exit_code) << timing.err;
  if (std::string(GetParam().program) == "device_printf") {
    EXPECT_EQ(sorted_lines(timing.out), sorted_lines(functional.out));
  } else {
    EXPECT_EQ(timing.out, functional.out);
  }
  if (std::string(GetParam().program) == "faulting_kernel") {
    // The fault is reported as in functional mode, with the same block, thread and PC.
    const auto report_line = [](const std::string& err) {
      const size_t start = err.find("lockstep: out-of-bounds access of 4 bytes at global address");
      return start == std::string::npos ? std::string() : err.substr(start, err.find('\n', start) - start);
    };
    EXPECT_NE(report_line(timing.err), "") << timing.err;
    EXPECT_EQ(report_line(timing.err), report_line(functional.err));
    return;
  }
  EXPECT_NE(timing.out.find("PASSED"), std::string::npos) << timing.out;
  expect_only_kernel_summaries(timing.err);
  EXPECT_NE(timing.err.find("lockstep:   cycles "), std::string::npos) << timing.err;
}

// SMs stepped on several threads change nothing a program or its statistics show: the same
// output byte for byte (device printf order included) and the same statistics JSON. Each run is
// a process of its own, with its own address-space layout: zero_copy's kernel writes memory the
// program registered with cudaHostRegister, at an address the OS chose anew each time.
class TimingThreads : public ::testing::TestWithParam<const char*> {};

TEST_P(TimingThreads, OutputAndStatisticsAreIdentical) {
  const std::string program = host_program(std::string(GetParam()) + "_sm90");
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("lockstep_threads_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::vector<ProgramOutcome> runs;
  std::vector<std::string> stats;
  for (const char* threads : {"1", "4"}) {
    const std::string json = (dir / (std::string("stats") + threads + ".json")).string();
    runs.push_back(run_lockstep(program, {"--mode", "timing", "--threads", threads, "--stats-json", json}));
    stats.push_back(read_text(json));
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(runs[0].exit_code, 0) << runs[0].err;
  EXPECT_EQ(runs[1].exit_code, runs[0].exit_code);
  EXPECT_EQ(runs[1].out, runs[0].out);
  EXPECT_EQ(runs[1].err, runs[0].err);
  EXPECT_NE(stats[0].find("\"cycles\""), std::string::npos) << stats[0];
  EXPECT_EQ(stats[1], stats[0]);
}

INSTANTIATE_TEST_SUITE_P(Host, TimingThreads, ::testing::Values("device_printf", "kmeans", "device_heap", "cuda_graphs",
                                                           "dynamic_parallelism", "zero_copy"));

// Programs whose kernels use warp-level operations (CUB's and Thrust's warp reductions and
// scans) run on the h100 preset only.
std::vector<TimingCase> cases() {
  const std::vector<const char*> no_warp_ops = {
      "vector_add",  "constant_memory", "faulting_kernel", "streams_events", "dynamic_shared", "pinned_memory", "zero_copy",
      "templates",   "device_printf",   "textures",        "managed_memory", "pitched_2d",     "kmeans",
      "cuda_graphs", "grid_sync",       "device_heap",     "two_units",      "rdc_units",      "dynamic_parallelism", "host_threads", "memory_pools", "graph_conditionals",
      "array3d_textures", "graph_memory_nodes", "graph_edit_capture"};
  std::vector<TimingCase> all;
  for (const char* p : no_warp_ops) all.push_back({p, "h100"});
  all.push_back({"thrust_ops", "h100"});
  all.push_back({"cub_ops", "h100"});
  // dynamic_shared asks for 64 KiB of shared memory per block; the teaching SM has 16.
  for (const char* p : no_warp_ops)
    if (std::string(p) != "dynamic_shared") all.push_back({p, "teaching"});
  return all;
}

INSTANTIATE_TEST_SUITE_P(Host, TimingPrograms, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<TimingCase>& param) {
                           return std::string(param.param.program) + "_" + param.param.preset;
                         });

#endif

}  // namespace
}  // namespace lockstep::test
