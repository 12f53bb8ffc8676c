// 30_assert_trap: a failing assert() in exactly one thread and a __trap() in exactly one thread
// end the launch with a FaultReport that names the kind, the kernel and the exact 3D block and
// thread; the same Engine then runs another kernel normally.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class AssertTrap : public KernelProgramTest {};

const Dim3 kGrid{2, 3, 2};
const Dim3 kBlockDim{8, 4, 2};
const std::vector<int> kWhere{1, 2, 1, 5, 3, 1};   // block (1,2,1), thread (5,3,1)

void expect_fault_at(const LaunchResult& r, const std::string& kind, const std::string& kernel) {
  ASSERT_TRUE(r.fault.has_value()) << "no fault reported";
  const FaultReport& f = *r.fault;
  EXPECT_EQ(f.kind, kind);
  EXPECT_EQ(f.kernel, kernel);
  EXPECT_EQ(f.block.x, 1u);
  EXPECT_EQ(f.block.y, 2u);
  EXPECT_EQ(f.block.z, 1u);
  EXPECT_EQ(f.thread.x, 5u);
  EXPECT_EQ(f.thread.y, 3u);
  EXPECT_EQ(f.thread.z, 1u);
  EXPECT_NE(f.message.find(kernel), std::string::npos) << f.message;
}

void expect_engine_still_works(Engine& engine, ModuleId m) {
  constexpr int kN = 300;
  DeviceBuffer<int> out(engine, kN);
  launch_ok(engine, m, "fill_after_fault", {3}, {128}, {out.arg(), arg(kN)});
  std::vector<int> expected(kN);
  for (int i = 0; i < kN; ++i) expected[i] = i * 3 + 1;
  EXPECT_TRUE(same_bits(out.download(), expected));
}

TEST_P(AssertTrap, FailedAssertionInOneThread) {
  ModuleId m = load("30_assert_trap");
  DeviceBuffer<int> where(engine_, kWhere), out(engine_, 64);
  LaunchResult r = engine_.launch(m, "assert_one_thread", kGrid, kBlockDim, 0, {where.arg(), out.arg()});
  expect_fault_at(r, "assertion failed", "assert_one_thread");
  expect_engine_still_works(engine_, m);
}

TEST_P(AssertTrap, TrapInOneThread) {
  ModuleId m = load("30_assert_trap");
  DeviceBuffer<int> where(engine_, kWhere), out(engine_, 64);
  LaunchResult r = engine_.launch(m, "trap_one_thread", kGrid, kBlockDim, 0, {where.arg(), out.arg()});
  expect_fault_at(r, "trap", "trap_one_thread");
  expect_engine_still_works(engine_, m);
}

TEST_P(AssertTrap, NoFaultWhenNoThreadIsChosen) {
  ModuleId m = load("30_assert_trap");
  DeviceBuffer<int> where(engine_, std::vector<int>{9, 9, 9, 0, 0, 0}), out(engine_, 64);
  launch_ok(engine_, m, "assert_one_thread", kGrid, kBlockDim, {where.arg(), out.arg()});
  EXPECT_TRUE(same_bits(out.download(), std::vector<int>(64, 1)));
  launch_ok(engine_, m, "trap_one_thread", kGrid, kBlockDim, {where.arg(), out.arg()});
  EXPECT_TRUE(same_bits(out.download(), std::vector<int>(64, 2)));
}

INSTANTIATE_TEST_SUITE_P(Arch, AssertTrap, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
