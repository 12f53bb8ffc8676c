// A tree of grids launched from device code: each of the top grid's blocks launches a middle
// grid, whose blocks each launch two leaves at once (the NULL stream and fire-and-forget) and a
// tail launch. More launches than the pending-launch limit's default (2048) are made over the
// run, though on a GPU never that many wait at once. Checked against the counts the CPU expects.
// The top grid's block count is the first argument (default 300).
#include <cstdio>
#include <cstdlib>

__global__ void leaf(int* out, int base) {
  atomicAdd(&out[(base + blockIdx.x * blockDim.x + threadIdx.x) % 1024], 1);
}

__global__ void middle(int* out, int base) {
  if (threadIdx.x == 0) leaf<<<2, 64>>>(out, base);
  if (threadIdx.x == 1) leaf<<<1, 32, 0, cudaStreamFireAndForget>>>(out, base + 128);
  if (threadIdx.x == 2) leaf<<<1, 32, 0, cudaStreamTailLaunch>>>(out, base + 160);
}

__global__ void top(int* out, int* spin_result) {
  if (threadIdx.x == 0) middle<<<3, 32>>>(out, blockIdx.x * 192);
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int x = s[(threadIdx.x + 1) % blockDim.x];
  for (int i = 0; i < 50; ++i) x = x * 3 + 1;
  spin_result[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int main(int argc, char** argv) {
  const int blocks = argc > 1 ? std::atoi(argv[1]) : 300, threads = 64;
  int *d_out = nullptr, *d_spin = nullptr;
  cudaMalloc(&d_out, 1024 * sizeof(int));
  cudaMalloc(&d_spin, blocks * threads * sizeof(int));
  cudaMemset(d_out, 0, 1024 * sizeof(int));
  top<<<blocks, threads>>>(d_out, d_spin);
  const cudaError_t e = cudaDeviceSynchronize();
  static int out[1024];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  // Each top block's middle grid has 3 blocks, each adding 1 for 192 consecutive values from
  // its base: 576 adds per top block.
  static int expected[1024];
  for (int b = 0; b < blocks; ++b)
    for (int m = 0; m < 3; ++m)
      for (int t = 0; t < 192; ++t) ++expected[(b * 192 + t) % 1024];
  int wrong = 0;
  for (int i = 0; i < 1024; ++i) wrong += out[i] != expected[i];
  std::printf("%s: %d launches, %d counts wrong\n", cudaGetErrorName(e), 1 + blocks + blocks * 3 * 3, wrong);
  std::printf("%s\n", e == cudaSuccess && wrong == 0 ? "PASSED" : "FAILED");
  return e == cudaSuccess && wrong == 0 ? 0 : 1;
}
