// 01_vecadd: c = a + b, float and int, one thread per element and grid-stride.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class VecAdd : public KernelProgramTest {};

constexpr int kN = 3000;  // not a multiple of any block size used: the last block is partial

TEST_P(VecAdd, FloatOneThreadPerElement) {
  ModuleId m = load("01_vecadd");
  TestRng rng(101);
  std::vector<float> a = random_floats(rng, kN, -100.0f, 100.0f);
  std::vector<float> b = random_floats(rng, kN, -1.0f, 1.0f);
  std::vector<float> expected(kN);
  for (int i = 0; i < kN; ++i) expected[i] = a[i] + b[i];
  DeviceBuffer<float> da(engine_, a), db(engine_, b), dc(engine_, std::vector<float>(kN, -7.0f));
  launch_ok(engine_, m, "vecadd_f32", {blocks_for(kN, 128)}, {128},
            {da.arg(), db.arg(), dc.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dc.download(), expected));
}

TEST_P(VecAdd, IntWrapsAround) {
  ModuleId m = load("01_vecadd");
  TestRng rng(102);
  std::vector<int32_t> a = random_ints<int32_t>(rng, kN, INT32_MIN, INT32_MAX);
  std::vector<int32_t> b = random_ints<int32_t>(rng, kN, INT32_MIN, INT32_MAX);
  std::vector<int32_t> expected(kN);
  for (int i = 0; i < kN; ++i)
    expected[i] = static_cast<int32_t>(static_cast<uint32_t>(a[i]) + static_cast<uint32_t>(b[i]));
  // One element past n must stay untouched.
  std::vector<int32_t> c_init(kN + 1, 12345);
  expected.push_back(12345);
  DeviceBuffer<int32_t> da(engine_, a), db(engine_, b), dc(engine_, c_init);
  launch_ok(engine_, m, "vecadd_i32", {blocks_for(kN + 1, 96)}, {96},
            {da.arg(), db.arg(), dc.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dc.download(), expected));
}

TEST_P(VecAdd, FloatGridStride) {
  ModuleId m = load("01_vecadd");
  TestRng rng(103);
  std::vector<float> a = random_floats(rng, kN, -3.0f, 3.0f);
  std::vector<float> b = random_floats(rng, kN, -3.0f, 3.0f);
  std::vector<float> expected(kN);
  for (int i = 0; i < kN; ++i) expected[i] = a[i] + b[i];
  DeviceBuffer<float> da(engine_, a), db(engine_, b), dc(engine_, kN);
  // 5 blocks of 64 threads: each thread handles about 10 elements.
  launch_ok(engine_, m, "vecadd_f32_gridstride", {5}, {64}, {da.arg(), db.arg(), dc.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dc.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, VecAdd, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
