// Ctrl-C in the process that simulates: the runtime's SIGINT handler stops the running launch,
// the report of every resident warp goes to stderr, --stats-json is still written with what was
// measured, and the process exits with status 130. SIGTERM (what `timeout` sends) does the same,
// exiting with 143. The kernel is the committed scale kernel
// (data/scale.cu) over enough elements that the launch is still running when the signal comes;
// the signal goes out once a launch is running (func::launch_running), as a user's Ctrl-C would.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "func/interrupt.h"
#include "runtime/fatbin_test_data.h"
#include "runtime/interrupt_handler.h"
#include "runtime/runtime.h"

namespace lockstep::test {
namespace {

const char kScaleStub = 0;

struct Wrapper {  // __fatBinC_Wrapper_t
  int magic = 0x466243b1;
  int version = 1;
  const void* data = nullptr;
  void* unused = nullptr;
};

// Runs in the death test's child: one long launch, interrupted by a real `signal`.
void launch_and_interrupt(const std::string& stats_path, int signal) {
  runtime::RuntimeOptions options;
  options.stats_json = stats_path;
  runtime::Runtime runtime(options, stdout, stderr);
  const std::vector<uint8_t> image = read_data_file("ptx80_ptx90.fatbin");
  Wrapper wrapper;
  wrapper.data = image.data();
  void** handle = runtime.register_fatbin(&wrapper);
  runtime.register_kernel(handle, &kScaleStub, "_Z5scalePffi");
  int n = 1 << 24;
  float a = 2.0f;
  void* x = nullptr;
  if (runtime.malloc(&x, sizeof(float) * static_cast<size_t>(n)) != cudaSuccess) return;
  std::thread ctrl_c([signal] {
    while (!func::launch_running()) std::this_thread::sleep_for(std::chrono::microseconds(100));
    kill(getpid(), signal);
  });
  ctrl_c.detach();
  void* args[] = {&x, &a, &n};
  runtime.launch(&kScaleStub, Dim3{static_cast<uint32_t>(n / 256), 1, 1}, Dim3{256, 1, 1}, args, 0);
  std::fprintf(stderr, "the launch was not interrupted\n");  // the test fails on the exit status
}

// The stats JSON an interrupted run wrote: the one launch, with what it ran and its fault.
void expect_interrupted_stats(const std::string& stats_path) {
  std::ifstream in(stats_path);
  ASSERT_TRUE(in.good()) << stats_path;
  const nlohmann::json stats = nlohmann::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  EXPECT_EQ(stats["schema"], "lockstep-stats");
  ASSERT_EQ(stats["launches"].size(), 1u);
  const nlohmann::json& launch = stats["launches"][0];
  EXPECT_EQ(launch["kernel"], "_Z5scalePffi");
  EXPECT_GT(launch["warp_instructions"].get<uint64_t>(), 0u);
  EXPECT_EQ(launch["fault"].get<std::string>().rfind("interrupted in kernel '_Z5scalePffi'", 0), 0u);
  std::remove(stats_path.c_str());
}

TEST(InterruptHandlerDeathTest, CtrlCReportsTheWarpsWritesTheStatsAndExits130) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string stats_path = ::testing::TempDir() + "lockstep_interrupt_stats.json";
  std::remove(stats_path.c_str());
  EXPECT_EQ(runtime::interrupted_exit_status(SIGINT), 130);
  EXPECT_EXIT(launch_and_interrupt(stats_path, SIGINT), ::testing::ExitedWithCode(130),
              "lockstep: interrupted in kernel '_Z5scalePffi', block \\([0-9]+,0,0\\), thread \\([0-9]+,0,0\\), "
              "pc [0-9]+ \\([^)]*\\): stopped by SIGINT \\(Ctrl-C\\); the resident warps were here\n"
              "  block \\([0-9]+,0,0\\) warp [0-9]+: pc [0-9]+ active 0xffffffff");
  expect_interrupted_stats(stats_path);
}

TEST(InterruptHandlerDeathTest, SigtermDoesTheSameAndExits143) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string stats_path = ::testing::TempDir() + "lockstep_sigterm_stats.json";
  std::remove(stats_path.c_str());
  EXPECT_EXIT(launch_and_interrupt(stats_path, SIGTERM), ::testing::ExitedWithCode(143),
              "lockstep: interrupted in kernel '_Z5scalePffi', block \\([0-9]+,0,0\\), thread \\([0-9]+,0,0\\), "
              "pc [0-9]+ \\([^)]*\\): stopped by SIGTERM; the resident warps were here\n"
              "  block \\([0-9]+,0,0\\) warp [0-9]+: pc [0-9]+ active 0xffffffff");
  expect_interrupted_stats(stats_path);
}

}  // namespace
}  // namespace lockstep::test
