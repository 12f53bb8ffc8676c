// 13_recursion: recursive __noinline__ device functions compiled to .func bodies that call
// themselves (fib twice per call; fold once, through a pointer into the caller's .local array).
// Integer results, exact.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Recursion : public KernelProgramTest {};

int32_t fib(int32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

uint32_t fold(const uint32_t* a, int n) { return n == 0 ? 0u : a[n - 1] + 3u * fold(a, n - 1); }

TEST_P(Recursion, Fibonacci) {
  ModuleId m = load("13_recursion");
  TestRng rng(1301);
  const int count = 90;
  std::vector<int32_t> ns = random_ints<int32_t>(rng, count, 0, 13);
  ns[0] = 0;
  ns[1] = 1;
  ns[2] = 16;  // one deep call tree
  std::vector<int32_t> expected(count);
  for (int i = 0; i < count; ++i) expected[i] = fib(ns[i]);
  DeviceBuffer<int32_t> dns(engine_, ns), dout(engine_, count);
  launch_ok(engine_, m, "fib_kernel", {blocks_for(count, 32)}, {32}, {dns.arg(), dout.arg(), arg(count)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

TEST_P(Recursion, FoldOverLocalArray) {
  ModuleId m = load("13_recursion");
  TestRng rng(1302);
  const int count = 150;
  std::vector<uint32_t> in(size_t{count} * 16);
  for (auto& v : in) v = rng.next_u32();
  std::vector<uint32_t> expected(count);
  for (int i = 0; i < count; ++i) {
    uint32_t local[16];
    for (int k = 0; k < 16; ++k) local[k] = in[i * 16 + k] * static_cast<uint32_t>(k + 1);
    expected[i] = fold(local, 16 - i % 7);
  }
  DeviceBuffer<uint32_t> din(engine_, in), dout(engine_, count);
  launch_ok(engine_, m, "local_recursive_sum", {blocks_for(count, 64)}, {64},
            {din.arg(), dout.arg(), arg(count)});
  EXPECT_TRUE(same_bits(dout.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, Recursion, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
