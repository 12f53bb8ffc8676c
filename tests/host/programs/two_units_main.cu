// Two translation units in one binary (whole-program mode: each .cu has its own fat binary):
// this file launches its own kernel and calls a host function of two_units_kernels.cu, which
// launches the kernels defined there.
#include <cstdio>

#include <cuda_runtime.h>

// Defined in two_units_kernels.cu.
cudaError_t run_histogram(const int* d_values, int n, int* d_bins, int bins);
cudaError_t run_prefix_double(int* d_bins, int bins);

__global__ void fill_pattern(int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] = (i * 37 + 11) % 10;
}

int main() {
  const int n = 2000, bins = 10;
  int *d_values, *d_bins;
  cudaMalloc(&d_values, n * sizeof(int));
  cudaMalloc(&d_bins, bins * sizeof(int));
  cudaMemset(d_bins, 0, bins * sizeof(int));
  fill_pattern<<<(n + 255) / 256, 256>>>(d_values, n);
  cudaError_t e1 = run_histogram(d_values, n, d_bins, bins);
  cudaError_t e2 = run_prefix_double(d_bins, bins);
  int h_bins[bins];
  cudaMemcpy(h_bins, d_bins, sizeof h_bins, cudaMemcpyDeviceToHost);
  int expected[bins] = {};
  for (int i = 0; i < n; ++i) expected[(i * 37 + 11) % 10]++;
  for (int b = 1; b < bins; ++b) expected[b] += expected[b - 1];
  int bad = 0;
  std::printf("bins:");
  for (int b = 0; b < bins; ++b) {
    std::printf(" %d", h_bins[b]);
    bad += h_bins[b] != 2 * expected[b];
  }
  std::printf("\nhistogram=%s prefix=%s mismatches=%d\n", cudaGetErrorName(e1), cudaGetErrorName(e2), bad);
  cudaFree(d_values);
  cudaFree(d_bins);
  std::printf(bad == 0 && e1 == cudaSuccess && e2 == cudaSuccess ? "PASSED\n" : "FAILED\n");
  return bad == 0 ? 0 : 1;
}
