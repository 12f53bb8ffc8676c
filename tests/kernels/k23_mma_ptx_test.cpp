// 23_mma_ptx (sm_80/sm_90): inline-PTX ldmatrix (x4, x2, x2.trans) and
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32. Inputs are small integers so every
// partial sum is exact whatever order the tensor core adds in; results compare bit for bit.
// D is 32x16 (2x2 tiles of 16x8, one warp each), K = 32 (two mma steps per warp).
#include "kernels/float_formats_ref.h"
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class MmaPtx : public KernelProgramTest {};

constexpr int kM = 32, kNn = 16, kK = 32;
constexpr uint32_t kBlock = 64;
constexpr uint32_t kGrid = 2;

uint16_t h(int v) { return float_to_half(static_cast<float>(v), Round::kNearestEven); }

void run_case(Engine& engine, ModuleId m, const char* kernel, bool b_is_k_by_n, uint64_t seed) {
  TestRng rng(seed);
  std::vector<int> a = random_ints<int>(rng, kM * kK, -5, 5);
  std::vector<int> b = random_ints<int>(rng, kK * kNn, -5, 5);   // logical b[k][n]
  std::vector<int> c = random_ints<int>(rng, kM * kNn, -1000, 1000);
  std::vector<uint16_t> ha(kM * kK), hb(kK * kNn);
  for (int i = 0; i < kM * kK; ++i) ha[i] = h(a[i]);
  for (int k = 0; k < kK; ++k)
    for (int n = 0; n < kNn; ++n) hb[b_is_k_by_n ? k * kNn + n : n * kK + k] = h(b[k * kNn + n]);
  std::vector<float> fc(kM * kNn), expected(kM * kNn);
  for (int i = 0; i < kM * kNn; ++i) fc[i] = static_cast<float>(c[i]);
  for (int r = 0; r < kM; ++r)
    for (int n = 0; n < kNn; ++n) {
      int acc = c[r * kNn + n];
      for (int k = 0; k < kK; ++k) acc += a[r * kK + k] * b[k * kNn + n];
      expected[r * kNn + n] = static_cast<float>(acc);
    }
  DeviceBuffer<uint16_t> da(engine, ha), db(engine, hb);
  DeviceBuffer<float> dc(engine, fc), dd(engine, kM * kNn);
  launch_ok(engine, m, kernel, {kGrid}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dd.arg(), arg(kM), arg(kNn), arg(kK)});
  EXPECT_TRUE(same_bits(dd.download(), expected));
}

TEST_P(MmaPtx, LdmatrixAndMma) { run_case(engine_, load("23_mma_ptx"), "mma_ldmatrix", false, 2301); }

TEST_P(MmaPtx, LdmatrixTransAndMma) {
  run_case(engine_, load("23_mma_ptx"), "mma_ldmatrix_trans", true, 2302);
}

INSTANTIATE_TEST_SUITE_P(Arch, MmaPtx, ::testing::ValuesIn(kernel_cases(WarpOps::kUsed, {80, 90})),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
