// Vector add through the stand-in libcudart: cudaMalloc, cudaMemcpy both ways, a launch with
// <<<>>>, cudaGetLastError, device printf from one thread. Prints PASSED or FAILED.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
  if (i == 0) printf("vector_add: n=%d\n", n);
}

int main() {
  const int n = 1000;
  float a[n], b[n], c[n];
  for (int i = 0; i < n; ++i) a[i] = float(i), b[i] = 2.0f * float(i), c[i] = -1.0f;
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyDefault);
  vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += c[i] != 3.0f * float(i);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  std::printf("launch=%s sync=%s mismatches=%d\n", cudaGetErrorName(launch), cudaGetErrorName(sync), bad);
  std::printf(bad == 0 && launch == cudaSuccess && sync == cudaSuccess ? "PASSED\n" : "FAILED\n");
  return bad == 0 ? 0 : 1;
}
