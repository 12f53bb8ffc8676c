// 31_struct_params: kernel parameters of mixed sizes and alignments (char, short, structs with
// padding, arrays, float3, a 16-byte-aligned struct, u64, double) must arrive intact at the
// offsets the PTX declares; and a 3D launch must give every thread the right special registers.
#include <bit>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

// Host mirrors of the device structs (same x86-64 / CUDA layout rules).
struct Small {
  char c;
  int i;
};
struct Mixed {
  double d;
  float f;
  short s;
  char c;
};
struct WithArray {
  int a[5];
  float v[3];
};
struct alignas(16) Aligned16 {
  float q[4];
  int tag;
};
struct Float3 {
  float x, y, z;
};
static_assert(sizeof(Small) == 8 && sizeof(Mixed) == 16 && sizeof(WithArray) == 32 && sizeof(Aligned16) == 32);

class StructParams : public KernelProgramTest {};

int word(float f) { return std::bit_cast<int>(f); }

TEST_P(StructParams, ParametersArriveIntact) {
  ModuleId m = load("31_struct_params");
  constexpr int kFields = 26, kN = 200;
  const char c = -5;
  const Small s{-100, 123457};
  const short h = -1234;
  const Mixed mixed{-2.718281828459045, 6.5f, -321, 77};
  const WithArray w{{11, -22, 33, -44, 55}, {1.5f, -2.25f, 3.125f}};
  const unsigned long long big = 0xfedcba9876543210ull;
  const Aligned16 q{{0.5f, -1.0f, 2.0f, 8.75f}, -99};
  const Float3 f3{-0.125f, 42.0f, 1e-3f};
  const double d = 1.0e300;
  std::vector<int> expected(kFields + kN);
  uint64_t md = std::bit_cast<uint64_t>(mixed.d), dd = std::bit_cast<uint64_t>(d);
  std::vector<int> fields{c, s.c, s.i, h, static_cast<int>(md), static_cast<int>(md >> 32), word(mixed.f),
                          mixed.s, mixed.c, w.a[0], w.a[1], w.a[2], w.a[3], w.a[4], word(w.v[0]),
                          word(w.v[1]), word(w.v[2]), static_cast<int>(big), static_cast<int>(big >> 32),
                          word(q.q[0]), word(q.q[3]), q.tag, word(f3.x), word(f3.z),
                          static_cast<int>(dd), static_cast<int>(dd >> 32)};
  ASSERT_EQ(fields.size(), static_cast<size_t>(kFields));
  for (int k = 0; k < kFields; ++k) expected[k] = fields[k];
  for (int i = 0; i < kN; ++i) expected[kFields + i] = i * s.i + w.a[i % 5] + c;
  DeviceBuffer<int> out(engine_, kFields + kN);
  launch_ok(engine_, m, "struct_params", {4}, {64},
            {arg(c), arg(s), arg(h), arg(mixed), arg(w), arg(big), arg(q), arg(f3), arg(d), out.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(out.download(), expected));
}

TEST_P(StructParams, ParameterLayoutMatchesPtx) {
  ModuleId m = load("31_struct_params");
  KernelInfo info = engine_.kernel_info(m, "struct_params");
  ASSERT_EQ(info.params.size(), 11u);
  const uint32_t sizes[11] = {1, 8, 2, 16, 32, 8, 32, 12, 8, 8, 4};
  const uint32_t offsets[11] = {0, 4, 12, 16, 32, 64, 80, 112, 128, 136, 144};
  for (int k = 0; k < 11; ++k) {
    EXPECT_EQ(info.params[k].size, sizes[k]) << "param " << k;
    EXPECT_EQ(info.params[k].offset, offsets[k]) << "param " << k;
  }
}

TEST_P(StructParams, ThreeDimensionalLaunch) {
  ModuleId m = load("31_struct_params");
  const Dim3 grid{3, 2, 2}, block{4, 3, 2};
  const uint32_t threads = 4 * 3 * 2, blocks = 3 * 2 * 2;
  std::vector<uint32_t> expected(2 * threads * blocks);
  for (uint32_t bz = 0; bz < grid.z; ++bz)
    for (uint32_t by = 0; by < grid.y; ++by)
      for (uint32_t bx = 0; bx < grid.x; ++bx)
        for (uint32_t tz = 0; tz < block.z; ++tz)
          for (uint32_t ty = 0; ty < block.y; ++ty)
            for (uint32_t tx = 0; tx < block.x; ++tx) {
              uint32_t g = (bx + grid.x * (by + grid.y * bz)) * threads + tx + block.x * (ty + block.y * tz);
              expected[2 * g] = tx | ty << 4 | tz << 8 | bx << 12 | by << 16 | bz << 20 | block.x << 24 | block.y << 28;
              expected[2 * g + 1] = block.z | grid.x << 8 | grid.y << 16 | grid.z << 24;
            }
  DeviceBuffer<uint32_t> out(engine_, expected.size());
  launch_ok(engine_, m, "grid3d_ids", grid, block, {out.arg()});
  EXPECT_TRUE(same_bits(out.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, StructParams, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
