// Separate compilation (-rdc=true): this unit's kernels call device functions and use a device
// variable defined in rdc_library.cu; both units define an internal helper of the same name
// and instantiate the same template, as real projects do. Checked against a CPU reference.
#include <cstdio>

#include <cuda_runtime.h>

#include "rdc_shared.h"

extern __device__ int launches_seen;   // defined in rdc_library.cu
__device__ int polynomial(int x);      // defined in rdc_library.cu
__global__ void library_kernel(int* out, int n);  // defined in rdc_library.cu

static __device__ __noinline__ int helper(int x) { return x + 1000; }  // rdc_library.cu has its own helper

__global__ void main_kernel(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = polynomial(in[i]) + helper(i) + twice(i);
  if (i == 0) {
    atomicAdd(&launches_seen, 1);
    printf("%s says %d\n", "main unit", n);  // each unit has its own $str
  }
}

int main() {
  const int n = 1000;
  int h_in[n], h_out[n], h_lib[n];
  for (int i = 0; i < n; ++i) h_in[i] = i % 37 - 18;
  int *d_in = nullptr, *d_out = nullptr, *d_lib = nullptr;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMalloc(&d_lib, sizeof h_lib);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  main_kernel<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
  library_kernel<<<(n + 127) / 128, 128>>>(d_lib, n);
  const cudaError_t sync = cudaDeviceSynchronize();
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_lib, d_lib, sizeof h_lib, cudaMemcpyDeviceToHost);
  int seen = 0;
  const cudaError_t symbol = cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const int x = h_in[i];
    wrong += h_out[i] != (3 * x * x - 2 * x + 7) + (i + 1000) + 2 * i;
    wrong += h_lib[i] != (i - 1000) + 2 * i;
  }
  std::printf("sync=%s symbol=%s launches seen %d, wrong %d\n", cudaGetErrorName(sync), cudaGetErrorName(symbol),
              seen, wrong);
  std::printf("%s\n", wrong == 0 && seen == 2 && sync == cudaSuccess ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
