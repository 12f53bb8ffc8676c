// Dynamic shared memory: `extern __shared__` sized at launch (third <<<>>> argument), used as
// two arrays of different types; a launch above the 48 KiB default after cudaFuncSetAttribute
// raises the limit; cudaFuncGetAttributes reports the static part and the raised limit; the
// occupancy calculator accounts for the dynamic shared memory.
#include <cstdio>

#include <cuda_runtime.h>

extern __shared__ unsigned char dynamic_smem[];

// Reverses each block's slice through shared memory and counts the odd values per block.
__global__ void reverse_blocks(const int* in, int* out, int* odd_counts) {
  int* values = reinterpret_cast<int*>(dynamic_smem);
  unsigned short* odd = reinterpret_cast<unsigned short*>(values + blockDim.x);
  const int base = blockIdx.x * blockDim.x;
  values[threadIdx.x] = in[base + threadIdx.x];
  odd[threadIdx.x] = values[threadIdx.x] & 1;
  __syncthreads();
  out[base + threadIdx.x] = values[blockDim.x - 1 - threadIdx.x];
  if (threadIdx.x == 0) {
    int c = 0;
    for (unsigned i = 0; i < blockDim.x; ++i) c += odd[i];
    odd_counts[blockIdx.x] = c;
  }
}

// Fills and sums a dynamic buffer larger than the 48 KiB default (needs the opt-in attribute).
__global__ void big_buffer(int* result, int words) {
  extern __shared__ int big[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) big[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long s = 0;
    for (int i = 0; i < words; ++i) s += big[i];
    *result = static_cast<int>(s % 1000003);
  }
}

int main() {
  const int threads = 96, blocks = 5, n = threads * blocks;
  int h_in[n], h_out[n], h_odd[blocks];
  for (int i = 0; i < n; ++i) h_in[i] = i * 7 + 1;
  int *d_in, *d_out, *d_odd, *d_result;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMalloc(&d_odd, sizeof h_odd);
  cudaMalloc(&d_result, sizeof(int));
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  const size_t smem = threads * (sizeof(int) + sizeof(unsigned short));
  reverse_blocks<<<blocks, threads, smem>>>(d_in, d_out, d_odd);
  cudaError_t launch = cudaGetLastError();
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  cudaMemcpy(h_odd, d_odd, sizeof h_odd, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) bad += h_out[b * threads + t] != h_in[b * threads + threads - 1 - t];

  // 64 KiB of dynamic shared memory: refused by default, accepted after the opt-in.
  const int words = 16384;
  big_buffer<<<1, 256, words * sizeof(int)>>>(d_result, words);
  cudaError_t without_optin = cudaGetLastError();
  cudaError_t set = cudaFuncSetAttribute(big_buffer, cudaFuncAttributeMaxDynamicSharedMemorySize, words * 4);
  big_buffer<<<1, 256, words * sizeof(int)>>>(d_result, words);
  cudaError_t with_optin = cudaGetLastError();
  int result = 0;
  cudaMemcpy(&result, d_result, sizeof result, cudaMemcpyDeviceToHost);
  cudaFuncAttributes attr;
  cudaError_t got = cudaFuncGetAttributes(&attr, big_buffer);
  // Occupancy of one-warp blocks with 64 KiB each: shared memory allows 3 per SM (228 KiB, 1 KiB
  // reserved per block); 2048 threads do not fit a block at all.
  int resident = -1, too_big = -1;
  cudaError_t occupancy = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, big_buffer, 32, words * 4);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&too_big, big_buffer, 2048, 0);

  std::printf("launch=%s mismatches=%d odd=%d,%d,%d,%d,%d\n", cudaGetErrorName(launch), bad, h_odd[0], h_odd[1],
              h_odd[2], h_odd[3], h_odd[4]);
  std::printf("64 KiB: without opt-in %s, set %s, with opt-in %s, result %d\n", cudaGetErrorName(without_optin),
              cudaGetErrorName(set), cudaGetErrorName(with_optin), result);
  std::printf("attributes %s: static shared %zu, max dynamic %d\n", cudaGetErrorName(got), attr.sharedSizeBytes,
              attr.maxDynamicSharedSizeBytes);
  std::printf("occupancy %s: %d blocks of 32 threads, %d of 2048\n", cudaGetErrorName(occupancy), resident,
              too_big);
  const long long expected = (long long)(words - 1) * words / 2 % 1000003;
  const bool ok = bad == 0 && launch == cudaSuccess && without_optin == cudaErrorInvalidValue &&
                  set == cudaSuccess && with_optin == cudaSuccess && result == expected &&
                  attr.maxDynamicSharedSizeBytes == words * 4 && resident == 3 && too_big == 0;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
