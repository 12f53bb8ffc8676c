// A kernel that writes past the end of its allocation: the launch reports the fault, the error
// is sticky (cudaDeviceSynchronize and a later cudaMalloc return it).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void overrun(int* p) { p[threadIdx.x * 1024] = 1; }

int main() {
  int* p;
  cudaMalloc(&p, 64 * sizeof(int));
  overrun<<<1, 4>>>(p);
  cudaError_t sync = cudaDeviceSynchronize();
  std::printf("sync: %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
  cudaError_t last = cudaGetLastError();
  void* q = nullptr;
  cudaError_t later = cudaMalloc(&q, 16);
  std::printf("last: %s, later cudaMalloc: %s\n", cudaGetErrorName(last), cudaGetErrorName(later));
  return sync == cudaErrorIllegalAddress ? 0 : 1;
}
