// Kernels that take the address of their parameters: a struct parameter indexed at run time
// (nvcc: mov of the parameter's symbol, ld.param through a register) and a 32000-byte
// __grid_constant__ parameter (CUDA 12.1's large parameters) whose address a device function
// reads through (cvta.param, generic loads). Both are checked against a CPU reference.
#include <cstdio>
#include <cuda_runtime.h>

struct Table {
  int v[1024];
};

__global__ void pick(Table t, const int* idx, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = t.v[idx[i] & 1023];
}

struct Big {
  int v[8000];
};

__device__ __noinline__ int sum_through(const Big* b, int first, int n) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += b->v[(first + k * 97) % 8000];
  return s;
}

__global__ void sum_big(const __grid_constant__ Big b, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = sum_through(&b, i, 16);
}

int main() {
  const int n = 256;
  static Table table;
  static Big big;
  for (int i = 0; i < 1024; ++i) table.v[i] = i * 7 + 3;
  for (int i = 0; i < 8000; ++i) big.v[i] = i * i % 1009;
  int idx[n];
  for (int i = 0; i < n; ++i) idx[i] = i * 37 + 5000;

  int *d_idx = nullptr, *d_out = nullptr;
  cudaMalloc(&d_idx, sizeof(idx));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_idx, idx, sizeof(idx), cudaMemcpyHostToDevice);

  int out[n];
  pick<<<2, 128>>>(table, d_idx, d_out, n);
  const cudaError_t picked = cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
  int wrong_pick = 0;
  for (int i = 0; i < n; ++i) wrong_pick += out[i] != table.v[idx[i] & 1023];

  sum_big<<<2, 128>>>(big, d_out, n);
  const cudaError_t summed = cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
  int wrong_sum = 0;
  for (int i = 0; i < n; ++i) {
    int s = 0;
    for (int k = 0; k < 16; ++k) s += big.v[(i + k * 97) % 8000];
    wrong_sum += out[i] != s;
  }
  const bool ok = picked == cudaSuccess && summed == cudaSuccess && wrong_pick == 0 && wrong_sum == 0;
  std::printf("pick: %s, wrong %d\nsum_big (%zu-byte parameter): %s, wrong %d\n%s\n", cudaGetErrorName(picked),
              wrong_pick, sizeof(Big), cudaGetErrorName(summed), wrong_sum, ok ? "PASSED" : "FAILED");
  cudaFree(d_idx);
  cudaFree(d_out);
  return ok ? 0 : 1;
}
