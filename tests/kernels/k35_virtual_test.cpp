// 35_virtual: indirect calls. Virtual functions of objects built in the kernel (the virtual
// tables are module variables whose initializers hold function addresses) and a __device__
// table of function pointers; neighbouring lanes call different targets, so the calls are
// divergent and serialised per target.
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Virtual : public KernelProgramTest {};

constexpr int kN = 1000;

TEST_P(Virtual, VirtualCallsPerLane) {
  ModuleId m = load("35_virtual");
  TestRng rng(3501);
  std::vector<float> sizes = random_floats(rng, kN, 0.5f, 20.0f);
  std::vector<float> areas(kN);
  std::vector<int32_t> sides(kN);
  for (int i = 0; i < kN; ++i) {
    const float s = sizes[i];
    switch (i % 3) {
      case 0: areas[i] = mul_rn(s, s), sides[i] = 4; break;
      case 1: areas[i] = mul_rn(mul_rn(s, 0.4330127f), s), sides[i] = 3; break;
      default: areas[i] = mul_rn(mul_rn(s, 3.14159265f), s), sides[i] = 0; break;
    }
  }
  DeviceBuffer<float> d_sizes(engine_, sizes), d_areas(engine_, kN);
  DeviceBuffer<int32_t> d_sides(engine_, kN);
  launch_ok(engine_, m, "virtual_areas", {blocks_for(kN, 256)}, {256},
            {d_sizes.arg(), d_areas.arg(), d_sides.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(d_areas.download(), areas));
  EXPECT_EQ(d_sides.download(), sides);
}

TEST_P(Virtual, FunctionPointerTable) {
  ModuleId m = load("35_virtual");
  TestRng rng(3502);
  std::vector<int32_t> in(kN), expected(kN);
  for (int i = 0; i < kN; ++i) {
    in[i] = static_cast<int32_t>(rng.next_u32() & 0xffff);
    const int32_t x = in[i] & 0xff;
    switch ((in[i] >> 8) % 3) {
      case 0: expected[i] = x + 1; break;
      case 1: expected[i] = 2 * x; break;
      default: expected[i] = x * x; break;
    }
  }
  DeviceBuffer<int32_t> d_in(engine_, in), d_out(engine_, kN);
  launch_ok(engine_, m, "pointer_table", {blocks_for(kN, 128)}, {128}, {d_in.arg(), d_out.arg(), arg(kN)});
  EXPECT_EQ(d_out.download(), expected);
}

INSTANTIATE_TEST_SUITE_P(Arch, Virtual, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
