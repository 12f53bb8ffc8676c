// Bitonic sort.
//  - bitonic_sort_shared: each block of 512 threads sorts its own 1024 ints in shared memory
//    (two elements per thread), ascending.
//  - bitonic_step_global: one compare-exchange pass (j, k) over a power-of-two array in global
//    memory; the host launches it for every (k, j) pair to sort the whole array ascending.
#define SEGMENT 1024

extern "C" __global__ void bitonic_sort_shared(int* data) {
  __shared__ int s[SEGMENT];
  int base = blockIdx.x * SEGMENT;
  int tid = threadIdx.x;
  s[tid] = data[base + tid];
  s[tid + SEGMENT / 2] = data[base + tid + SEGMENT / 2];
  __syncthreads();
  for (int k = 2; k <= SEGMENT; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int idx = tid; idx < SEGMENT; idx += blockDim.x) {
        int partner = idx ^ j;
        if (partner > idx) {
          bool ascending = (idx & k) == 0;
          int a = s[idx], b = s[partner];
          if ((a > b) == ascending) {
            s[idx] = b;
            s[partner] = a;
          }
        }
      }
      __syncthreads();
    }
  }
  data[base + tid] = s[tid];
  data[base + tid + SEGMENT / 2] = s[tid + SEGMENT / 2];
}

extern "C" __global__ void bitonic_step_global(int* data, int n, int j, int k) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  int partner = idx ^ j;
  if (partner > idx) {
    bool ascending = (idx & k) == 0;
    int a = data[idx], b = data[partner];
    if ((a > b) == ascending) {
      data[idx] = b;
      data[partner] = a;
    }
  }
}
