// reduction: sums a million integers with a shared-memory tree reduction, timed with CUDA
// events. Each block reduces its slice in shared memory and writes one partial sum; a second
// launch of the same kernel reduces the partial sums. On lockstep, event times come from the
// simulated instruction count at the preset's nominal throughput, not from a wall clock.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::printf("%s failed: %s\n", #call, cudaGetErrorString(err_));                    \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

constexpr int THREADS = 256;

__global__ void block_sum(const int* in, int* out, int n) {
  __shared__ int partial[THREADS];
  // Grid-stride loop: each thread first adds up several elements on its own.
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  // Tree reduction: halve the number of active threads each step.
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

int main() {
  const int n = 1 << 20;
  const int blocks = 64;
  std::vector<int> data(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    data[i] = (i % 100) - 40;
    expected += data[i];
  }

  int *d_in, *d_partial, *d_total;
  CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  CHECK(cudaMalloc(&d_partial, blocks * sizeof(int)));
  CHECK(cudaMalloc(&d_total, sizeof(int)));
  CHECK(cudaMemcpy(d_in, data.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventRecord(start));
  block_sum<<<blocks, THREADS>>>(d_in, d_partial, n);
  block_sum<<<1, THREADS>>>(d_partial, d_total, blocks);
  CHECK(cudaEventRecord(stop));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaGetLastError());
  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));

  int total = 0;
  CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_total));

  std::printf("sum of %d integers = %d (expected %lld)\n", n, total, expected);
  std::printf("time between the events: %.4f ms\n", ms);
  const bool ok = total == expected && ms > 0.0f;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
