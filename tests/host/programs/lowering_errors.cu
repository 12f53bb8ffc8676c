// Two kernels in one translation unit; one declares a vector register (`.reg .v2 .u32`, valid
// PTX that lockstep cannot lower yet). Lowering fails for that kernel alone: the module loads,
// the other kernel runs, and the launch of the bad one fails with a clear error that is not
// sticky, so the program carries on.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void triple(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 3;
}

__global__ void vector_register(int* v) {
  asm volatile("{\n\t.reg .v2 .u32 pair;\n\t}");
  v[threadIdx.x] = 0;
}

int main() {
  const int n = 64;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i;
  int* v = nullptr;
  cudaMalloc(&v, sizeof(host));
  cudaMemcpy(v, host, sizeof(host), cudaMemcpyHostToDevice);

  triple<<<2, 32>>>(v, n);
  std::printf("triple: %s\n", cudaGetErrorName(cudaGetLastError()));
  vector_register<<<1, 32>>>(v);
  std::printf("vector_register: %s\n", cudaGetErrorName(cudaGetLastError()));
  triple<<<2, 32>>>(v, n);  // the context survives
  const cudaError_t copy = cudaMemcpy(host, v, sizeof(host), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != i * 9;  // a CPU reference: two triplings
  std::printf("copy: %s, wrong: %d\n%s\n", cudaGetErrorName(copy), wrong, wrong == 0 ? "PASSED" : "FAILED");
  cudaFree(v);
  return wrong == 0 ? 0 : 1;
}
