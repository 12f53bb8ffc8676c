// __constant__ and __device__ variables through cudaMemcpyToSymbol / cudaMemcpyFromSymbol,
// cudaGetSymbolSize and cudaGetSymbolAddress.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ int coefficients[4];
__device__ int total;

__global__ void weigh(const int* x, int* y) {
  int i = threadIdx.x;
  y[i] = x[i] * coefficients[i % 4];
  atomicAdd(&total, y[i]);
}

int main() {
  const int h_coefficients[4] = {1, 10, 100, 1000};
  int x[8], y[8];
  for (int i = 0; i < 8; ++i) x[i] = i + 1;
  int *dx, *dy;
  cudaMalloc(&dx, sizeof x);
  cudaMalloc(&dy, sizeof y);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cudaMemcpyToSymbol(coefficients, h_coefficients, sizeof h_coefficients);
  int zero = 0;
  cudaMemcpyToSymbol(total, &zero, sizeof zero);
  weigh<<<1, 8>>>(dx, dy);
  cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost);
  int sum = 0;
  cudaMemcpyFromSymbol(&sum, total, sizeof sum);
  size_t size = 0;
  cudaGetSymbolSize(&size, coefficients);
  void* address = nullptr;
  cudaError_t e = cudaGetSymbolAddress(&address, total);
  int via_address = 0;
  cudaMemcpy(&via_address, address, sizeof via_address, cudaMemcpyDefault);
  std::printf("y = %d %d %d %d %d %d %d %d\n", y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]);
  std::printf("total = %d, via address = %d, coefficients size = %zu, %s\n", sum, via_address, size,
              cudaGetErrorName(e));
  const bool ok = y[7] == 8000 && sum == 13086 && via_address == sum && size == 16 && e == cudaSuccess;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
