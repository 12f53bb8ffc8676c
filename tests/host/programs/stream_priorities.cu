// Stream priorities: the device's range, streams created with priorities inside and outside it
// (clamped, as CUDA clamps), their priorities and flags read back, and work on each stream.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void add(int* v, int n, int x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += x;
}

int main() {
  int least = 99, greatest = 99;
  const cudaError_t range = cudaDeviceGetStreamPriorityRange(&least, &greatest);
  std::printf("range %s: least %d greatest %d\n", cudaGetErrorName(range), least, greatest);
  const int asked[3] = {greatest - 5, (least + greatest) / 2, least + 3};
  cudaStream_t streams[3];
  int got[3];
  unsigned flags[3];
  for (int s = 0; s < 3; ++s) {
    cudaStreamCreateWithPriority(&streams[s], s == 0 ? cudaStreamNonBlocking : cudaStreamDefault, asked[s]);
    cudaStreamGetPriority(streams[s], &got[s]);
    cudaStreamGetFlags(streams[s], &flags[s]);
  }
  std::printf("priorities %d %d %d, flags %u %u %u\n", got[0], got[1], got[2], flags[0], flags[1], flags[2]);
  int default_priority = 99;
  cudaStreamGetPriority(0, &default_priority);

  const int n = 1000;
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemset(d, 0, n * sizeof(int));
  for (int s = 0; s < 3; ++s) add<<<(n + 127) / 128, 128, 0, streams[s]>>>(d, n, s + 1);
  for (int s = 0; s < 3; ++s) cudaStreamSynchronize(streams[s]);
  int h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += h[i] != 6;
  for (int s = 0; s < 3; ++s) cudaStreamDestroy(streams[s]);
  cudaFree(d);
  const cudaError_t bad = cudaStreamCreateWithPriority(&streams[0], 0x10, 0);
  std::printf("default stream priority %d, bad flags %s, wrong %d\n", default_priority, cudaGetErrorName(bad), wrong);
  std::printf("%s\n", wrong == 0 && range == cudaSuccess ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
