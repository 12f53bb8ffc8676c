// 06_matmul_tiled: 16x16-tile SGEMM with a 2D grid. nvcc turns the inner product into a chain
// of fma.rn.f32 in k order (see the PTX), so the reference is an fmaf chain over k, bit-exact.
// Zero padding past K adds fmaf(0, 0, sum) == sum, so it does not change the result.
#include <cmath>

#include "kernels/kernel_test_util.h"

namespace lockstep::test {
namespace {

class MatmulTiled : public KernelProgramTest {};

TEST_P(MatmulTiled, RaggedShapes) {
  ModuleId m = load("06_matmul_tiled");
  TestRng rng(601);
  // None a multiple of 16: every edge tile is partial.
  const int M = 37, N = 45, K = 50;
  std::vector<float> A = random_floats(rng, size_t{M} * K, -2.0f, 2.0f);
  std::vector<float> B = random_floats(rng, size_t{K} * N, -2.0f, 2.0f);
  std::vector<float> expected(size_t{M} * N);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k) sum = std::fmaf(A[r * K + k], B[k * N + c], sum);
      expected[r * N + c] = sum;
    }
  DeviceBuffer<float> dA(engine_, A), dB(engine_, B), dC(engine_, size_t{M} * N);
  launch_ok(engine_, m, "sgemm_tiled", {blocks_for(N, 16), blocks_for(M, 16)}, {16, 16},
            {dA.arg(), dB.arg(), dC.arg(), arg(M), arg(N), arg(K)});
  EXPECT_TRUE(same_bits(dC.download(), expected));
}

TEST_P(MatmulTiled, PermutationMatrixMovesColumns) {
  // Small integers times a permutation matrix: every product and partial sum is exact, so
  // C is A with its columns rotated by one: an order-independent check of the indexing.
  ModuleId m = load("06_matmul_tiled");
  TestRng rng(602);
  const int M = 32, N = 17, K = 17;
  std::vector<float> A(size_t{M} * K), B(size_t{K} * N, 0.0f), expected(size_t{M} * N);
  for (auto& a : A) a = static_cast<float>(rng.range(-9, 9));
  for (int k = 0; k < K; ++k) B[k * N + (k + 1) % N] = 1.0f;  // column c takes A's column c-1
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) expected[r * N + c] = A[r * K + (c + N - 1) % N];
  DeviceBuffer<float> dA(engine_, A), dB(engine_, B), dC(engine_, size_t{M} * N);
  launch_ok(engine_, m, "sgemm_tiled", {blocks_for(N, 16), blocks_for(M, 16)}, {16, 16},
            {dA.arg(), dB.arg(), dC.arg(), arg(M), arg(N), arg(K)});
  EXPECT_TRUE(same_bits(dC.download(), expected));
}

INSTANTIATE_TEST_SUITE_P(Arch, MatmulTiled, ::testing::ValuesIn(kernel_cases(WarpOps::kNone)),
                         kernel_case_name);

}  // namespace
}  // namespace lockstep::test
