// 28_spmv_csr: one thread per row; the row's products are accumulated in column order with
// fma.rn (nvcc contracts sum += v * x), so the reference uses the same fma chain and matches
// bit for bit. The matrix has empty rows and rows of different lengths.
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class SpmvCsr : public KernelProgramTest {};

constexpr int kRows = 300, kCols = 200;
constexpr uint32_t kBlock = 128;

struct Csr {
  std::vector<int> row_ptr{0}, cols;
};

Csr random_csr(TestRng& rng) {
  Csr a;
  for (int r = 0; r < kRows; ++r) {
    int count = r % 17 == 0 ? 0 : rng.range(1, 12);
    for (int k = 0; k < count; ++k) a.cols.push_back(rng.range(0, kCols - 1));
    a.row_ptr.push_back(static_cast<int>(a.cols.size()));
  }
  return a;
}

TEST_P(SpmvCsr, FloatFmaChain) {
  ModuleId m = load("28_spmv_csr");
  TestRng rng(2801);
  Csr a = random_csr(rng);
  std::vector<float> vals = random_floats(rng, a.cols.size(), -1.0f, 1.0f);
  std::vector<float> x = random_floats(rng, kCols, -1.0f, 1.0f);
  std::vector<float> expected(kRows);
  for (int r = 0; r < kRows; ++r) {
    float sum = 0.0f;
    for (int j = a.row_ptr[r]; j < a.row_ptr[r + 1]; ++j) sum = std::fmaf(vals[j], x[a.cols[j]], sum);
    expected[r] = sum;
  }
  DeviceBuffer<int> dptr(engine_, a.row_ptr), dcols(engine_, a.cols);
  DeviceBuffer<float> dvals(engine_, vals), dx(engine_, x), dy(engine_, kRows);
  launch_ok(engine_, m, "spmv_csr", {blocks_for(kRows, kBlock)}, {kBlock},
            {dptr.arg(), dcols.arg(), dvals.arg(), dx.arg(), dy.arg(), arg(kRows)});
  EXPECT_TRUE(same_bits(dy.download(), expected));
}

TEST_P(SpmvCsr, DoubleAxpby) {
  ModuleId m = load("28_spmv_csr");
  TestRng rng(2802);
  Csr a = random_csr(rng);
  std::vector<double> vals(a.cols.size()), x(kCols), y(kRows), expected(kRows);
  for (auto& v : vals) v = static_cast<double>(static_cast<int64_t>(rng.next_u64())) * 0x1p-63;
  for (auto& v : x) v = static_cast<double>(static_cast<int64_t>(rng.next_u64())) * 0x1p-60;
  for (auto& v : y) v = static_cast<double>(static_cast<int64_t>(rng.next_u64())) * 0x1p-62;
  const double alpha = 1.0 / 3.0, beta = -0.7;
  for (int r = 0; r < kRows; ++r) {
    double sum = 0.0;
    for (int j = a.row_ptr[r]; j < a.row_ptr[r + 1]; ++j) sum = std::fma(vals[j], x[a.cols[j]], sum);
    expected[r] = std::fma(sum, alpha, y[r] * beta);   // PTX: mul.f64 then fma.rn.f64
  }
  DeviceBuffer<int> dptr(engine_, a.row_ptr), dcols(engine_, a.cols);
  DeviceBuffer<double> dvals(engine_, vals), dx(engine_, x), dy(engine_, y);
  launch_ok(engine_, m, "spmv_csr_axpby", {blocks_for(kRows, kBlock)}, {kBlock},
            {dptr.arg(), dcols.arg(), dvals.arg(), dx.arg(), dy.arg(), arg(alpha), arg(beta), arg(kRows)});
  EXPECT_TRUE(same_bits(dy.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, SpmvCsr, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
