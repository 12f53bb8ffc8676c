// Device properties and occupancy as a program sees them: prints what cudaGetDeviceProperties
// and cudaDeviceGetAttribute report, asks the occupancy calculator how many 128-thread blocks
// with 4 KiB of static shared memory fit an SM, then fills the whole GPU with exactly that many
// blocks and checks each thread's warp index (from the reported warp size) and shared memory.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

constexpr int kThreads = 128;
constexpr int kSharedWords = 1024;  // 4 KiB

__global__ void warp_of_each_thread(int* out, int warp_size) {
  __shared__ int staged[kSharedWords];
  for (int i = threadIdx.x; i < kSharedWords; i += blockDim.x) staged[i] = i;
  __syncthreads();
  const int lane_sum = staged[threadIdx.x] + staged[kSharedWords - 1 - threadIdx.x];  // always 1023
  out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * 10000 + (threadIdx.x / warp_size) * 10 + (lane_sum == 1023);
}

int main() {
  cudaDeviceProp prop;
  cudaError_t got = cudaGetDeviceProperties(&prop, 0);
  int sms = 0, warp = 0, optin = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  std::printf("properties %s: compute capability %d.%d\n", cudaGetErrorName(got), prop.major, prop.minor);
  std::printf("SMs %d, warp size %d, threads per SM %d, blocks per SM %d, threads per block %d\n",
              prop.multiProcessorCount, prop.warpSize, prop.maxThreadsPerMultiProcessor,
              prop.maxBlocksPerMultiProcessor, prop.maxThreadsPerBlock);
  std::printf("registers per SM %d, shared per SM %zu, per block %zu, opt-in %zu, reserved %zu\n",
              prop.regsPerMultiprocessor, prop.sharedMemPerMultiprocessor, prop.sharedMemPerBlock,
              prop.sharedMemPerBlockOptin, prop.reservedSharedMemPerBlock);
  const bool attributes_agree = sms == prop.multiProcessorCount && warp == prop.warpSize &&
                                static_cast<size_t>(optin) == prop.sharedMemPerBlockOptin;

  int per_sm = 0;
  cudaError_t occupancy = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, warp_of_each_thread, kThreads, 0);
  std::printf("occupancy %s: %d blocks of %d threads per SM\n", cudaGetErrorName(occupancy), per_sm, kThreads);

  const int blocks = per_sm * prop.multiProcessorCount;
  const int n = blocks * kThreads;
  int* d_out = nullptr;
  cudaMalloc(&d_out, n * sizeof(int));
  warp_of_each_thread<<<blocks, kThreads>>>(d_out, prop.warpSize);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  std::vector<int> out(n);
  cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  int mismatches = 0;
  for (int i = 0; i < n; ++i) {
    const int block = i / kThreads, thread = i % kThreads;
    if (out[i] != block * 10000 + (thread / prop.warpSize) * 10 + 1) ++mismatches;
  }
  std::printf("launch=%s sync=%s blocks=%d mismatches=%d\n", cudaGetErrorName(launch), cudaGetErrorName(sync),
              blocks, mismatches);
  const bool ok = got == cudaSuccess && attributes_agree && occupancy == cudaSuccess && per_sm > 0 &&
                  launch == cudaSuccess && sync == cudaSuccess && mismatches == 0;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
