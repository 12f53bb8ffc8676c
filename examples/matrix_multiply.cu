// matrix_multiply: C = A * B for square matrices with a tiled kernel. Each block computes one
// TILE x TILE tile of C, staging tiles of A and B through shared memory so that every value read
// from global memory is used TILE times. The result is checked against a CPU multiply.
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(err_));                    \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

constexpr int TILE = 16;

__global__ void matmul_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    // Load one tile of A and one of B (zero outside the matrix), then wait for the whole block.
    int a_col = t * TILE + threadIdx.x;
    int b_row = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();  // before the next iteration overwrites the tiles
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

int main() {
  const int n = 100;  // not a multiple of TILE, to exercise the edge handling
  const size_t bytes = size_t(n) * n * sizeof(float);
  std::vector<float> A(n * n), B(n * n), C(n * n), expected(n * n);
  for (int i = 0; i < n * n; ++i) {
    A[i] = float(i % 7) - 3.0f;
    B[i] = float(i % 5) * 0.25f;
  }
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      float s = 0.0f;
      for (int k = 0; k < n; ++k) s += A[r * n + k] * B[k * n + c];
      expected[r * n + c] = s;
    }

  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, bytes));
  CHECK(cudaMalloc(&dB, bytes));
  CHECK(cudaMalloc(&dC, bytes));
  CHECK(cudaMemcpy(dA, A.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), bytes, cudaMemcpyHostToDevice));

  dim3 block(TILE, TILE);
  dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(dA, dB, dC, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C.data(), dC, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));

  // Values are small multiples of 0.25, so both sums are exact and must agree bit for bit.
  int mismatches = 0;
  for (int i = 0; i < n * n; ++i)
    if (C[i] != expected[i]) ++mismatches;
  std::printf("%dx%d matrix multiply, %dx%d tiles: C[0][0] = %.2f, C[%d][%d] = %.2f\n", n, n, TILE, TILE, C[0],
              n - 1, n - 1, C[n * n - 1]);
  std::printf(mismatches == 0 ? "PASSED\n" : "FAILED (%d mismatches)\n", mismatches);
  return mismatches == 0 ? 0 : 1;
}
