// Source of the fat binary images in this folder (regenerate with make_fatbins.sh).
#include <cuda_runtime.h>

__device__ int d_counter;
__constant__ float c_tab[4] = {1, 2, 3, 4};

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = x[i] * a + c_tab[i & 3];
    atomicAdd(&d_counter, 1);
  }
}

int main() {
  float* x = nullptr;
  cudaMalloc(&x, 1024 * sizeof(float));
  scale<<<4, 256>>>(x, 2.0f, 1024);
  cudaDeviceSynchronize();
  cudaFree(x);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
