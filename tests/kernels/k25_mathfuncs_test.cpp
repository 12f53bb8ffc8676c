// 25_mathfuncs: single-precision library functions and intrinsics, compared with a double
// precision host reference (std:: functions, far more accurate than float) within the maximum
// errors the CUDA C++ Programming Guide ("Mathematical Functions", single precision, default
// flags without -use_fast_math) documents:
//   sinf 2, cosf 2, expf 2, logf 1, powf 4, erff 2, tanhf 2, sqrtf 0 (IEEE), rsqrtf 2,
//   exp2f 2, log2f 1 ulp (full range);
//   __sinf/__cosf: absolute error 2^-21.41 for x in [-pi, pi]; __expf: 2 + floor(|1.173 x|) ulp;
//   __logf: absolute error 2^-21.41 for x in [0.5, 2], 3 ulp elsewhere;
//   __fdividef: 2 ulp for 2^-126 <= |y| <= 2^126.
// The error in ulps is measured against the exact (double) value: |got - ref| / ulp(ref).
// Domains keep results finite and normal.
#include <cmath>
#include <functional>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class MathFuncs : public KernelProgramTest {};

constexpr int kN = 600;
constexpr uint32_t kBlock = 128;

double ulp_of(double v) {
  int e = std::ilogb(static_cast<float>(v));
  if (v == 0.0 || e < -126) return std::ldexp(1.0, -149);
  return std::ldexp(1.0, e - 23);
}

double ulp_error(float got, double ref) { return std::fabs(static_cast<double>(got) - ref) / ulp_of(ref); }

// Checks one output column; `allowed(x, ref)` returns whether `got` is within the bound.
template <class Allowed>
void check_column(const char* name, const std::vector<float>& x, const std::vector<float>& got,
                  const std::function<double(double)>& ref, Allowed allowed) {
  int bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    double r = ref(x[i]);
    if (std::isnan(got[i]) || !allowed(x[i], got[i], r)) {
      if (bad++ < 5) {
        ADD_FAILURE() << name << "(" << x[i] << ") = " << got[i] << ", reference " << r
                      << " (" << ulp_error(got[i], r) << " ulp)";
      }
    }
  }
  EXPECT_EQ(bad, 0) << name << " out of bound";
}

auto within_ulp(double bound) {
  return [bound](float, float got, double r) { return ulp_error(got, r) <= bound; };
}

float log_uniform(TestRng& rng, int lo_exp, int hi_exp) {
  return std::ldexp(rng.uniform(1.0f, 2.0f), rng.range(lo_exp, hi_exp));
}

TEST_P(MathFuncs, FullPrecisionLibrary) {
  ModuleId m = load("25_mathfuncs");
  TestRng rng(2501);
  constexpr int kFuncs = 11;
  std::vector<float> in(kFuncs * kN), y(kN);
  for (int i = 0; i < kN; ++i) {
    in[0 * kN + i] = (i % 10 == 0) ? rng.uniform(-1.0e6f, 1.0e6f) : rng.uniform(-100.0f, 100.0f);
    in[1 * kN + i] = (i % 10 == 0) ? rng.uniform(-1.0e6f, 1.0e6f) : rng.uniform(-100.0f, 100.0f);
    in[2 * kN + i] = rng.uniform(-80.0f, 80.0f);
    in[3 * kN + i] = log_uniform(rng, -126, 100);
    in[4 * kN + i] = (i % 8 == 0) ? -rng.uniform(0.5f, 4.0f) : rng.uniform(0.1f, 10.0f);
    y[i] = (i % 8 == 0) ? static_cast<float>(rng.range(-10, 10)) : rng.uniform(-20.0f, 20.0f);
    in[5 * kN + i] = rng.uniform(-4.0f, 4.0f);
    in[6 * kN + i] = rng.uniform(-10.0f, 10.0f);
    in[7 * kN + i] = log_uniform(rng, -126, 100);
    in[8 * kN + i] = log_uniform(rng, -100, 100);
    in[9 * kN + i] = rng.uniform(-120.0f, 120.0f);
    in[10 * kN + i] = log_uniform(rng, -126, 100);
  }
  DeviceBuffer<float> din(engine_, in), dy(engine_, y), dout(engine_, kFuncs * kN);
  launch_ok(engine_, m, "math_full", {blocks_for(kN, kBlock)}, {kBlock}, {din.arg(), dy.arg(), dout.arg(), arg(kN)});
  std::vector<float> out = dout.download();
  auto col = [&](const std::vector<float>& v, int k) {
    return std::vector<float>(v.begin() + k * kN, v.begin() + (k + 1) * kN);
  };
  check_column("sinf", col(in, 0), col(out, 0), [](double x) { return std::sin(x); }, within_ulp(2));
  check_column("cosf", col(in, 1), col(out, 1), [](double x) { return std::cos(x); }, within_ulp(2));
  check_column("expf", col(in, 2), col(out, 2), [](double x) { return std::exp(x); }, within_ulp(2));
  check_column("logf", col(in, 3), col(out, 3), [](double x) { return std::log(x); }, within_ulp(1));
  {
    std::vector<float> xs = col(in, 4), got = col(out, 4);
    int bad = 0;
    for (int i = 0; i < kN; ++i) {
      double r = std::pow(static_cast<double>(xs[i]), static_cast<double>(y[i]));
      if (std::isnan(got[i]) || ulp_error(got[i], r) > 4) {
        if (bad++ < 5) ADD_FAILURE() << "powf(" << xs[i] << ", " << y[i] << ") = " << got[i] << ", reference " << r;
      }
    }
    EXPECT_EQ(bad, 0) << "powf out of bound";
  }
  check_column("erff", col(in, 5), col(out, 5), [](double x) { return std::erf(x); }, within_ulp(2));
  check_column("tanhf", col(in, 6), col(out, 6), [](double x) { return std::tanh(x); }, within_ulp(2));
  {  // sqrtf is IEEE correctly rounded: bit-exact with the host's float sqrt.
    std::vector<float> xs = col(in, 7), got = col(out, 7), expected(kN);
    for (int i = 0; i < kN; ++i) expected[i] = std::sqrt(xs[i]);
    EXPECT_TRUE(same_bits(got, expected)) << "sqrtf";
  }
  check_column("rsqrtf", col(in, 8), col(out, 8), [](double x) { return 1.0 / std::sqrt(x); }, within_ulp(2));
  check_column("exp2f", col(in, 9), col(out, 9), [](double x) { return std::exp2(x); }, within_ulp(2));
  check_column("log2f", col(in, 10), col(out, 10), [](double x) { return std::log2(x); }, within_ulp(1));
}

TEST_P(MathFuncs, FastIntrinsics) {
  ModuleId m = load("25_mathfuncs");
  TestRng rng(2502);
  constexpr int kFuncs = 5;
  const float kPi = 3.14159265f;
  std::vector<float> in(kFuncs * kN), y(kN);
  for (int i = 0; i < kN; ++i) {
    in[0 * kN + i] = rng.uniform(-kPi, kPi);
    in[1 * kN + i] = rng.uniform(-kPi, kPi);
    in[2 * kN + i] = rng.uniform(-10.0f, 10.0f);
    in[3 * kN + i] = (i % 2 == 0) ? rng.uniform(0.5f, 2.0f) : log_uniform(rng, -10, 10);
    in[4 * kN + i] = rng.uniform(-1.0e6f, 1.0e6f);
    y[i] = log_uniform(rng, -10, 10) * ((i & 2) ? -1.0f : 1.0f);
  }
  DeviceBuffer<float> din(engine_, in), dy(engine_, y), dout(engine_, kFuncs * kN);
  launch_ok(engine_, m, "math_fast", {blocks_for(kN, kBlock)}, {kBlock}, {din.arg(), dy.arg(), dout.arg(), arg(kN)});
  std::vector<float> out = dout.download();
  auto col = [&](const std::vector<float>& v, int k) {
    return std::vector<float>(v.begin() + k * kN, v.begin() + (k + 1) * kN);
  };
  const double abs_bound = std::exp2(-21.41);
  auto within_abs = [abs_bound](float, float got, double r) { return std::fabs(got - r) <= abs_bound; };
  check_column("__sinf", col(in, 0), col(out, 0), [](double x) { return std::sin(x); }, within_abs);
  check_column("__cosf", col(in, 1), col(out, 1), [](double x) { return std::cos(x); }, within_abs);
  check_column("__expf", col(in, 2), col(out, 2), [](double x) { return std::exp(x); },
               [](float x, float got, double r) { return ulp_error(got, r) <= 2 + std::floor(std::fabs(1.173 * x)); });
  check_column("__logf", col(in, 3), col(out, 3), [](double x) { return std::log(x); },
               [abs_bound](float x, float got, double r) {
                 if (x >= 0.5f && x <= 2.0f) return std::fabs(got - r) <= abs_bound;
                 return ulp_error(got, r) <= 3;
               });
  {
    std::vector<float> xs = col(in, 4), got = col(out, 4);
    int bad = 0;
    for (int i = 0; i < kN; ++i) {
      double r = static_cast<double>(xs[i]) / static_cast<double>(y[i]);
      if (std::isnan(got[i]) || ulp_error(got[i], r) > 2) {
        if (bad++ < 5) ADD_FAILURE() << "__fdividef(" << xs[i] << ", " << y[i] << ") = " << got[i] << ", reference " << r;
      }
    }
    EXPECT_EQ(bad, 0) << "__fdividef out of bound";
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, MathFuncs, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
