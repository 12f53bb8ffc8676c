// Three kernels in one translation unit: one uses an instruction lockstep cannot run yet (pmevent,
// a profiler event), one declares a vector register (`.reg .v2 .u32`, valid PTX that lockstep
// cannot lower yet). Each fails alone: the module loads, the other kernel runs, and the launch of
// a bad one fails with a clear error that is not sticky, so the program carries on.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void square(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= v[i];
}

__global__ void signal_profiler(int* v) {
  asm volatile("pmevent 1;");
  v[threadIdx.x] = 0;
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

  square<<<2, 32>>>(v, n);
  std::printf("square: %s\n", cudaGetErrorName(cudaGetLastError()));
  signal_profiler<<<1, 32>>>(v);
  std::printf("signal_profiler: %s\n", cudaGetErrorName(cudaGetLastError()));
  vector_register<<<1, 32>>>(v);
  std::printf("vector_register: %s\n", cudaGetErrorName(cudaGetLastError()));
  square<<<2, 32>>>(v, n);  // the context survives
  cudaError_t copy = cudaMemcpy(host, v, sizeof(host), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != i * i * i * i;
  std::printf("copy: %s, wrong: %d\n%s\n", cudaGetErrorName(copy), wrong, wrong == 0 ? "PASSED" : "FAILED");
  cudaFree(v);
  return wrong == 0 ? 0 : 1;
}
