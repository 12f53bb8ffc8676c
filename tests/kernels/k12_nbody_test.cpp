// 12_nbody: all-pairs accelerations with float4 bodies, shared-memory tiles (dynamic shared
// memory of blockDim.x float4) and rsqrtf, which compiles to rsqrt.approx.f32.
//
// The reference repeats the PTX's operation order and fma contractions exactly:
//   d2 = fma(rz, rz, fma(rx, rx, ry*ry)) + eps2; inv = rsqrt(d2); inv3 = inv * (inv*inv);
//   s = m_j * inv3; a = fma(r, s, a)   (j in increasing order)
// with a correctly rounded rsqrt. The only permitted difference is rsqrt.approx's error
// (PTX ISA: max relative error 2^-22.9). Bound used, per component: with S = sum_j |r_j * s_j|,
//   |got - ref| <= S * (2^-20 + n * 2^-23)
// 2^-20 covers the relative error of one term (3 * 2^-22.9 from inv^3 plus a few roundings),
// and n * 2^-23 allows every accumulation step to round one ulp of S differently.
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class NBody : public KernelProgramTest {};

struct Float4 {
  float x, y, z, w;
};

TEST_P(NBody, AccelerationsWithinRsqrtBound) {
  ModuleId m = load("12_nbody");
  TestRng rng(1201);
  const int n = 256;
  const uint32_t block = 64;
  const float eps2 = 0.01f;
  std::vector<Float4> pos(n);
  for (auto& p : pos) {
    p.x = rng.uniform(-10.0f, 10.0f);
    p.y = rng.uniform(-10.0f, 10.0f);
    p.z = rng.uniform(-10.0f, 10.0f);
    p.w = rng.uniform(0.5f, 2.0f);
  }
  DeviceBuffer<Float4> dpos(engine_, pos), dacc(engine_, std::vector<Float4>(n, {1, 1, 1, 1}));
  launch_ok(engine_, m, "nbody_accel", {n / block}, {block}, {dpos.arg(), dacc.arg(), arg(n), arg(eps2)},
            block * static_cast<uint32_t>(sizeof(Float4)));
  std::vector<Float4> acc = dacc.download();

  const double tol_factor = std::ldexp(1.0, -20) + n * std::ldexp(1.0, -23);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float a[3] = {0.0f, 0.0f, 0.0f};
    double magnitude[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < n; ++j) {
      float r[3] = {pos[j].x - pos[i].x, pos[j].y - pos[i].y, pos[j].z - pos[i].z};
      float d2 = std::fmaf(r[2], r[2], std::fmaf(r[0], r[0], mul_rn(r[1], r[1]))) + eps2;
      float inv = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d2)));
      float inv3 = mul_rn(inv, mul_rn(inv, inv));
      float s = mul_rn(pos[j].w, inv3);
      for (int c = 0; c < 3; ++c) {
        a[c] = std::fmaf(r[c], s, a[c]);
        magnitude[c] += std::fabs(static_cast<double>(r[c]) * s);
      }
    }
    const float got[3] = {acc[i].x, acc[i].y, acc[i].z};
    for (int c = 0; c < 3; ++c) {
      double diff = std::fabs(static_cast<double>(got[c]) - a[c]);
      if (!(diff <= magnitude[c] * tol_factor) && bad++ < 5)
        ADD_FAILURE() << "body " << i << " component " << c << ": got " << got[c] << " expected "
                      << a[c] << " (bound " << magnitude[c] * tol_factor << ")";
    }
    EXPECT_EQ(bits_of(acc[i].w), bits_of(0.0f)) << "body " << i;
  }
  EXPECT_EQ(bad, 0);
}

INSTANTIATE_TEST_SUITE_P(Arch, NBody, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
