// 16_printf: device printf. CUDA formats with C printf semantics (floats are promoted to
// double), so the expected text is produced by the host's snprintf with the same format
// strings and argument values.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <sstream>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Printf : public KernelProgramTest {};

// Host printf formatting into a string (the attribute lets the compiler check each call).
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...) {
  char buffer[512];
  va_list args;
  va_start(args, fmt);
  int length = std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  return std::string(buffer, static_cast<size_t>(length));
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST_P(Printf, AllConversions) {
  ModuleId m = load("16_printf");
  const int32_t i = 42;
  const uint32_t u = 0xDEADBEEFu;
  const float f = 3.14159274f;
  const long long ll = -1234567890123LL;
  DeviceBuffer<int32_t> target(engine_, 4);
  const void* p = reinterpret_cast<const void*>(static_cast<uintptr_t>(target.address()));

  std::string expected;
  expected += format("int %d unsigned %u hex %x HEX %X\n", i, u, u, u);
  const double fd = f;
  expected += format("float %f %.3f %e %g\n", fd, fd, fd, fd);
  expected += format("char %c string %s long %lld\n", 'Q', "lockstep", ll);
  expected += format("ptr %p\n", p);
  expected += format("width [%5d] [%-5d] [%05d] [%8.2f] 100%%\n", i, i, i, fd);
  expected += format("unsigned long long %llu neg %d\n", static_cast<unsigned long long>(ll) * 3ull, -i);

  LaunchResult r = launch_ok(engine_, m, "printf_formats", {1}, {1},
                             {arg(i), arg(u), arg(f), arg(ll), target.arg()});
  EXPECT_EQ(r.printf_output, expected);
}

TEST_P(Printf, GuardedThreadsPrintInLaneOrder) {
  ModuleId m = load("16_printf");
  TestRng rng(1601);
  const uint32_t block = 64, blocks = 2, n = block * blocks;
  const int every = 3;
  std::vector<int32_t> values = random_ints<int32_t>(rng, n, -999, 999);
  DeviceBuffer<int32_t> dvalues(engine_, values);
  LaunchResult r = launch_ok(engine_, m, "printf_guarded", {blocks}, {block}, {dvalues.arg(), arg(every)});

  // Per thread, the line it must print; per warp, its lines in lane order.
  const uint32_t warp_size = GetParam().warp_size;
  std::vector<std::string> all_expected;
  std::vector<std::vector<std::string>> per_warp;
  for (uint32_t t = 0; t < n; ++t) {
    if (t % block % warp_size == 0) per_warp.emplace_back();
    if (t % every != 0) continue;
    std::string line = format("thread %d block %d value %d", static_cast<int>(t),
                              static_cast<int>(t / block), values[t]);
    all_expected.push_back(line);
    per_warp.back().push_back(line);
  }
  std::vector<std::string> got = split_lines(r.printf_output);
  ASSERT_FALSE(r.printf_output.empty());
  EXPECT_EQ(r.printf_output.back(), '\n');

  // Warps may print in any order relative to each other, but each warp's lines keep lane order.
  std::vector<std::string> got_sorted = got, expected_sorted = all_expected;
  std::sort(got_sorted.begin(), got_sorted.end());
  std::sort(expected_sorted.begin(), expected_sorted.end());
  EXPECT_EQ(got_sorted, expected_sorted);
  for (const auto& warp_lines : per_warp) {
    size_t next = 0;
    for (const auto& line : got)
      if (next < warp_lines.size() && line == warp_lines[next]) ++next;
    EXPECT_EQ(next, warp_lines.size()) << "lines of one warp out of lane order";
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, Printf, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
