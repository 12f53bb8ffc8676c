// vector_add: the "hello world" of CUDA. Adds two vectors of n floats on the device and checks
// the result on the host. Run it on lockstep with:
//   build/tools/lockstep run -- build/examples/vector_add
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

// Stops the program with a readable message when a CUDA call fails.
#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(err_));                    \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

// One thread per element; the last block may have threads past the end, hence the bound check.
__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 50000;
  const size_t bytes = n * sizeof(float);
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * float(i);
    b[i] = float(n - i);
  }

  float *d_a, *d_b, *d_c;
  CHECK(cudaMalloc(&d_a, bytes));
  CHECK(cudaMalloc(&d_b, bytes));
  CHECK(cudaMalloc(&d_c, bytes));
  CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), bytes, cudaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  std::printf("vector_add of %d elements: %d blocks of %d threads\n", n, blocks, threads);
  vector_add<<<blocks, threads>>>(d_a, d_b, d_c, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), d_c, bytes, cudaMemcpyDeviceToHost));

  int mismatches = 0;
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) ++mismatches;
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));

  std::printf("c[0] = %.1f, c[%d] = %.1f\n", c[0], n - 1, c[n - 1]);
  std::printf(mismatches == 0 ? "PASSED\n" : "FAILED (%d mismatches)\n", mismatches);
  return mismatches == 0 ? 0 : 1;
}
