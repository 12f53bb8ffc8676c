// A stencil that reads one element past the end of its input, as real benchmarks do: the last
// output is never used, and on a GPU the stray read lands in mapped memory and does not fault.
// Under lockstep it runs to completion too; with --memcheck the read is reported.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void pair_sum(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] + in[i + 1];  // in[n] is past the end
}

int main() {
  const int n = 1000;
  float h_in[n], h_out[n] = {};  // stays zero when the copy back fails
  for (int i = 0; i < n; ++i) h_in[i] = static_cast<float>(i);
  float *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  pair_sum<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  const cudaError_t sync = cudaDeviceSynchronize();
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i + 1 < n; ++i) wrong += h_out[i] != static_cast<float>(2 * i + 1);
  std::printf("sync %s, wrong %d\n", cudaGetErrorName(sync), wrong);
  std::printf("%s\n", sync == cudaSuccess && wrong == 0 ? "PASSED" : "FAILED");
  return sync == cudaSuccess && wrong == 0 ? 0 : 1;
}
