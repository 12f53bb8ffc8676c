// 22_wmma: 16x16x16 tensor-core tiles. The hardware's summation order inside mma is not
// specified, so inputs are small integers: every product and every partial sum is an integer
// far below 2^11 (f16 accumulate) or 2^24 (f32 accumulate), exact in any order, and the result
// is compared bit for bit. D is 32x48 (2x3 tiles, one warp each), K = 32 (two mma steps).
#include "kernels/float_formats_ref.h"
#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class Wmma : public KernelProgramTest {};

constexpr int kM = 32, kNn = 48, kK = 32;
constexpr uint32_t kBlock = 64;                          // two warps per block
constexpr uint32_t kGrid = (kM / 16) * (kNn / 16) / 2;   // six warps

uint16_t h(int v) { return float_to_half(static_cast<float>(v), Round::kNearestEven); }

struct Operands {
  std::vector<int> a, b, c;  // a[m][k], b[k][n], c[m][n] as integers, row-major logical
};

Operands make_operands(uint64_t seed, int ab_range, int c_range) {
  TestRng rng(seed);
  Operands o;
  o.a = random_ints<int>(rng, kM * kK, -ab_range, ab_range);
  o.b = random_ints<int>(rng, kK * kNn, -ab_range, ab_range);
  o.c = random_ints<int>(rng, kM * kNn, -c_range, c_range);
  return o;
}

// d[m][n] = c[m][n] (or 0) + sum_k a[m][k] * b[k][n]
std::vector<int> product(const Operands& o, bool with_c) {
  std::vector<int> d(kM * kNn);
  for (int m = 0; m < kM; ++m)
    for (int n = 0; n < kNn; ++n) {
      int acc = with_c ? o.c[m * kNn + n] : 0;
      for (int k = 0; k < kK; ++k) acc += o.a[m * kK + k] * o.b[k * kNn + n];
      d[m * kNn + n] = acc;
    }
  return d;
}

// Storage orders: element (r, c) of an R x C matrix at r*C+c (row-major) or c*R+r (col-major).
std::vector<uint16_t> as_half(const std::vector<int>& logical, int rows, int cols, bool col_major) {
  std::vector<uint16_t> out(logical.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[col_major ? c * rows + r : r * cols + c] = h(logical[r * cols + c]);
  return out;
}
std::vector<float> as_float(const std::vector<int>& logical, int rows, int cols, bool col_major) {
  std::vector<float> out(logical.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[col_major ? c * rows + r : r * cols + c] = static_cast<float>(logical[r * cols + c]);
  return out;
}

TEST_P(Wmma, F32AccumulateRowCol) {
  ModuleId m = load("22_wmma");
  Operands o = make_operands(2201, 4, 100);
  DeviceBuffer<uint16_t> da(engine_, as_half(o.a, kM, kK, false)), db(engine_, as_half(o.b, kK, kNn, true));
  DeviceBuffer<float> dc(engine_, as_float(o.c, kM, kNn, false)), dd(engine_, kM * kNn);
  launch_ok(engine_, m, "wmma_f32_row_col", {kGrid}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dd.arg(), arg(kM), arg(kNn), arg(kK)});
  EXPECT_TRUE(same_bits(dd.download(), as_float(product(o, true), kM, kNn, false)));
}

TEST_P(Wmma, F32AccumulateColRow) {
  ModuleId m = load("22_wmma");
  Operands o = make_operands(2202, 4, 100);
  DeviceBuffer<uint16_t> da(engine_, as_half(o.a, kM, kK, true)), db(engine_, as_half(o.b, kK, kNn, false));
  DeviceBuffer<float> dc(engine_, as_float(o.c, kM, kNn, true)), dd(engine_, kM * kNn);
  launch_ok(engine_, m, "wmma_f32_col_row", {kGrid}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dd.arg(), arg(kM), arg(kNn), arg(kK)});
  EXPECT_TRUE(same_bits(dd.download(), as_float(product(o, true), kM, kNn, true)));
}

TEST_P(Wmma, F32OperandsFromSharedMemory) {
  ModuleId m = load("22_wmma");
  Operands o = make_operands(2203, 4, 0);
  DeviceBuffer<uint16_t> da(engine_, as_half(o.a, kM, kK, false)), db(engine_, as_half(o.b, kK, kNn, true));
  DeviceBuffer<float> dd(engine_, kM * kNn);
  launch_ok(engine_, m, "wmma_f32_shared", {kGrid}, {kBlock},
            {da.arg(), db.arg(), dd.arg(), arg(kM), arg(kNn), arg(kK)});
  EXPECT_TRUE(same_bits(dd.download(), as_float(product(o, false), kM, kNn, false)));
}

TEST_P(Wmma, F16Accumulate) {
  ModuleId m = load("22_wmma");
  Operands o = make_operands(2204, 3, 50);   // |d| <= 9*32 + 50: exact in f16
  DeviceBuffer<uint16_t> da(engine_, as_half(o.a, kM, kK, false)), db(engine_, as_half(o.b, kK, kNn, false));
  DeviceBuffer<uint16_t> dc(engine_, as_half(o.c, kM, kNn, false)), dd(engine_, kM * kNn);
  launch_ok(engine_, m, "wmma_f16_acc", {kGrid}, {kBlock},
            {da.arg(), db.arg(), dc.arg(), dd.arg(), arg(kM), arg(kNn), arg(kK)});
  EXPECT_TRUE(same_bits(dd.download(), as_half(product(o, true), kM, kNn, false)));
}

INSTANTIATE_TEST_SUITE_P(Arch, Wmma, ::testing::ValuesIn(kernel_cases(WarpOps::kUsed)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
