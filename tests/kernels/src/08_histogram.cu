// 256-bin byte histogram: each block counts into a shared-memory histogram with shared atomics
// (grid-stride over the input), then adds its bins to the global histogram with atomicAdd.
extern "C" __global__ void histogram256(const unsigned char* data, int n, unsigned* hist) {
  __shared__ unsigned local_hist[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local_hist[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned count = local_hist[b];
    if (count != 0) atomicAdd(&hist[b], count);
  }
}

// Global-only variant on 32-bit words: bins are the top byte of each word.
extern "C" __global__ void histogram256_global(const unsigned* words, int n, unsigned* hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&hist[words[i] >> 24], 1u);
}
