// 32_templates_multi: one module with several kernels — a kernel template instantiated for
// int/float/double (launched by its mangled name) — and module-scope __device__ / __constant__
// variables written and read by the host through Engine::symbol_address.
#include <algorithm>
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class TemplatesMulti : public KernelProgramTest {};

constexpr int kN = 500;
constexpr uint32_t kBlock = 128;
const char* const kAxpyInt = "_Z4axpyIiEvT_PKS0_PS0_i";
const char* const kAxpyFloat = "_Z4axpyIfEvT_PKS0_PS0_i";
const char* const kAxpyDouble = "_Z4axpyIdEvT_PKS0_PS0_i";

TEST_P(TemplatesMulti, ModuleListsEveryKernel) {
  ModuleId m = load("32_templates_multi");
  std::vector<std::string> names = engine_.kernels(m);
  std::sort(names.begin(), names.end());
  std::vector<std::string> expected{kAxpyDouble, kAxpyFloat, kAxpyInt, "poly_eval", "table_update"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names, expected);
}

TEST_P(TemplatesMulti, TemplateInstantiations) {
  ModuleId m = load("32_templates_multi");
  TestRng rng(3201);
  {
    std::vector<int> x = random_ints<int>(rng, kN, INT32_MIN, INT32_MAX), y = random_ints<int>(rng, kN, -1000, 1000), e(kN);
    const int a = -77777;
    for (int i = 0; i < kN; ++i)
      e[i] = static_cast<int>(static_cast<uint32_t>(a) * static_cast<uint32_t>(x[i]) + static_cast<uint32_t>(y[i]));
    DeviceBuffer<int> dx(engine_, x), dy(engine_, y);
    launch_ok(engine_, m, kAxpyInt, {blocks_for(kN, kBlock)}, {kBlock}, {arg(a), dx.arg(), dy.arg(), arg(kN)});
    EXPECT_TRUE(same_bits(dy.download(), e)) << "int";
  }
  {
    std::vector<float> x = random_floats(rng, kN, -100.0f, 100.0f), y = random_floats(rng, kN, -100.0f, 100.0f), e(kN);
    const float a = 0.3333333f;
    for (int i = 0; i < kN; ++i) e[i] = std::fmaf(a, x[i], y[i]);
    DeviceBuffer<float> dx(engine_, x), dy(engine_, y);
    launch_ok(engine_, m, kAxpyFloat, {blocks_for(kN, kBlock)}, {kBlock}, {arg(a), dx.arg(), dy.arg(), arg(kN)});
    EXPECT_TRUE(same_bits(dy.download(), e)) << "float";
  }
  {
    std::vector<double> x(kN), y(kN), e(kN);
    for (int i = 0; i < kN; ++i) {
      x[i] = static_cast<double>(static_cast<int64_t>(rng.next_u64())) * 0x1p-50;
      y[i] = static_cast<double>(static_cast<int64_t>(rng.next_u64())) * 0x1p-52;
    }
    const double a = -1.0 / 7.0;
    for (int i = 0; i < kN; ++i) e[i] = std::fma(a, x[i], y[i]);
    DeviceBuffer<double> dx(engine_, x), dy(engine_, y);
    launch_ok(engine_, m, kAxpyDouble, {blocks_for(kN, kBlock)}, {kBlock}, {arg(a), dx.arg(), dy.arg(), arg(kN)});
    EXPECT_TRUE(same_bits(dy.download(), e)) << "double";
  }
}

TEST_P(TemplatesMulti, ConstantAndDeviceVariables) {
  ModuleId m = load("32_templates_multi");
  EXPECT_EQ(engine_.symbol_size(m, "c_coeffs"), 16u);
  EXPECT_EQ(engine_.symbol_size(m, "g_table"), 64u);
  EXPECT_EQ(engine_.symbol_size(m, "c_offset"), 4u);
  TestRng rng(3202);
  std::vector<float> coeffs = random_floats(rng, 4, -2.0f, 2.0f), table = random_floats(rng, 16, -50.0f, 50.0f);
  const int offset = 5, zero = 0;
  engine_.copy_to_device(engine_.symbol_address(m, "c_coeffs"), coeffs.data(), 16);
  engine_.copy_to_device(engine_.symbol_address(m, "c_offset"), &offset, 4);
  engine_.copy_to_device(engine_.symbol_address(m, "g_table"), table.data(), 64);
  engine_.copy_to_device(engine_.symbol_address(m, "g_calls"), &zero, 4);
  std::vector<float> x = random_floats(rng, kN, -3.0f, 3.0f);
  auto expected_poly = [&](const std::vector<float>& tbl) {
    std::vector<float> e(kN);
    for (int i = 0; i < kN; ++i) {
      float acc = std::fmaf(x[i], coeffs[3], coeffs[2]);
      acc = std::fmaf(x[i], acc, coeffs[1]);
      acc = std::fmaf(x[i], acc, coeffs[0]);
      e[i] = acc + tbl[(i + offset) & 15];
    }
    return e;
  };
  DeviceBuffer<float> dx(engine_, x), dy(engine_, kN);
  launch_ok(engine_, m, "poly_eval", {blocks_for(kN, kBlock)}, {kBlock}, {dx.arg(), dy.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dy.download(), expected_poly(table)));
  int calls = -1;
  engine_.copy_to_host(&calls, engine_.symbol_address(m, "g_calls"), 4);
  EXPECT_EQ(calls, kN);

  // A kernel updates the __device__ table; the host and the next kernel both see it.
  launch_ok(engine_, m, "table_update", {1}, {32}, {arg(kN)});
  std::vector<float> updated(16), got(16);
  for (int k = 0; k < 16; ++k) updated[k] = table[k] * 2.0f + static_cast<float>(offset);
  engine_.copy_to_host(got.data(), engine_.symbol_address(m, "g_table"), 64);
  EXPECT_TRUE(same_bits(got, updated));
  launch_ok(engine_, m, "poly_eval", {blocks_for(kN, kBlock)}, {kBlock}, {dx.arg(), dy.arg(), arg(kN)});
  EXPECT_TRUE(same_bits(dy.download(), expected_poly(updated)));
  engine_.copy_to_host(&calls, engine_.symbol_address(m, "g_calls"), 4);
  EXPECT_EQ(calls, 2 * kN);
}

INSTANTIATE_TEST_SUITE_P(Arch, TemplatesMulti, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)), kernel_case_name);

}  // namespace
}  // namespace lockstep::test
