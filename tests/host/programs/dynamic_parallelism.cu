// CUDA dynamic parallelism (CDP2, -rdc=true -lcudadevrt): parent blocks launch child grids,
// a child launches grandchildren (three levels), a tail launch runs after its parent's other
// children, launches go into a device-created stream and the fire-and-forget stream, and the
// pending-launch limit refuses what exceeds it with CUDA's error. Checked against a CPU reference.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void fill(int* v, int base, int count, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) v[base + i] = value + base + i;
}

// Each parent block hands its slice to a child grid; thread 1 also launches into a stream it
// created, and thread 2 into the fire-and-forget stream.
__global__ void parent(int* v, int* streamed, int per_block) {
  const int base = blockIdx.x * per_block;
  if (threadIdx.x == 0) fill<<<(per_block + 63) / 64, 64>>>(v, base, per_block, 0);
  if (threadIdx.x == 1) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    fill<<<1, 32, 0, s>>>(streamed, blockIdx.x * 32, 32, 100000);
    cudaStreamDestroy(s);
  }
  if (threadIdx.x == 2) fill<<<1, 1, 0, cudaStreamFireAndForget>>>(streamed, 10000 + blockIdx.x, 1, -10000);
}

// The tail launch reads what every ordinary child of its parent wrote.
__global__ void sum_slice(const int* v, int n, int* total) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += v[i];
  *total = sum;
}

__global__ void tail_parent(int* v, int n, int* total) {
  if (threadIdx.x == 0) sum_slice<<<1, 1, 0, cudaStreamTailLaunch>>>(v, n, total);
  if (threadIdx.x == 1) fill<<<(n + 63) / 64, 64>>>(v, 0, n, 7);
}

// Recursion: each level writes its depth and launches the next until `levels` deep.
__global__ void nested(int* depth_seen, int level, int levels) {
  depth_seen[level] = level + 1;
  printf("level %d\n", level);
  if (level + 1 < levels) nested<<<1, 1>>>(depth_seen, level + 1, levels);
}

// More launches than the pending-launch limit allows: the rest fail with
// cudaErrorLaunchPendingCountExceeded, which each thread reads back.
__global__ void flood(int* launched, int* errors) {
  fill<<<1, 1>>>(launched, threadIdx.x, 1, 1 - static_cast<int>(threadIdx.x));  // writes 1
  errors[threadIdx.x] = cudaGetLastError();
}

int main() {
  const int blocks = 6, per_block = 100, n = blocks * per_block;
  int *d_v = nullptr, *d_streamed = nullptr, *d_misc = nullptr;
  cudaMalloc(&d_v, n * sizeof(int));
  cudaMalloc(&d_streamed, 20000 * sizeof(int));
  cudaMalloc(&d_misc, 64 * sizeof(int));
  cudaMemset(d_v, 0, n * sizeof(int));
  cudaMemset(d_streamed, 0, 20000 * sizeof(int));
  cudaMemset(d_misc, 0, 64 * sizeof(int));

  parent<<<blocks, 64>>>(d_v, d_streamed, per_block);
  const cudaError_t first = cudaDeviceSynchronize();
  static int h_v[n], h_streamed[20000];
  cudaMemcpy(h_v, d_v, sizeof h_v, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_streamed, d_streamed, sizeof h_streamed, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += h_v[i] != i;
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < 32; ++t) wrong += h_streamed[b * 32 + t] != 100000 + b * 32 + t;
    wrong += h_streamed[10000 + b] != b;
  }
  std::printf("children: %s, wrong %d\n", cudaGetErrorName(first), wrong);

  int* d_total = d_misc + 40;
  tail_parent<<<1, 32>>>(d_v, n, d_total);
  int total = 0;
  const cudaError_t tail = cudaDeviceSynchronize();
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  const int expected_total = n * 7 + n * (n - 1) / 2;
  std::printf("tail launch: %s, total %d (expected %d)\n", cudaGetErrorName(tail), total, expected_total);

  nested<<<1, 1>>>(d_misc, 0, 3);
  const cudaError_t deep = cudaDeviceSynchronize();
  int depth_seen[3];
  cudaMemcpy(depth_seen, d_misc, sizeof depth_seen, cudaMemcpyDeviceToHost);
  std::printf("nested: %s, depths %d %d %d\n", cudaGetErrorName(deep), depth_seen[0], depth_seen[1], depth_seen[2]);

  const cudaError_t limit = cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4);
  int *d_launched = nullptr, *d_errors = nullptr;
  cudaMalloc(&d_launched, 8 * sizeof(int));
  cudaMalloc(&d_errors, 8 * sizeof(int));
  cudaMemset(d_launched, 0, 8 * sizeof(int));
  flood<<<1, 8>>>(d_launched, d_errors);
  const cudaError_t flooded = cudaDeviceSynchronize();
  int launched[8], errors[8];
  cudaMemcpy(launched, d_launched, sizeof launched, cudaMemcpyDeviceToHost);
  cudaMemcpy(errors, d_errors, sizeof errors, cudaMemcpyDeviceToHost);
  std::printf("limit %s, flood %s:", cudaGetErrorName(limit), cudaGetErrorName(flooded));
  int ran = 0;
  for (int t = 0; t < 8; ++t) {
    std::printf(" %d/%s", launched[t], cudaGetErrorName(static_cast<cudaError_t>(errors[t])));
    ran += launched[t];
  }
  std::printf("\n");

  const bool ok = wrong == 0 && total == expected_total && depth_seen[2] == 3 && ran == 4;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
