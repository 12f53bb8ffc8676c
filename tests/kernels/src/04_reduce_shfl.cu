// Warp-shuffle reductions: each thread accumulates a grid-stride slice, each warp folds its 32
// values with __shfl_down_sync, warp leaders park their sums in shared memory and warp 0 folds
// those. One result per block. Also a butterfly (__shfl_xor_sync) max that every lane receives,
// and a broadcast with __shfl_sync.
__device__ int warp_sum_i32(int v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ float warp_sum_f32(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void reduce_shfl_i32(const int* in, int* out, int n) {
  __shared__ int warp_sums[32];
  int sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  sum = warp_sum_i32(sum);
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0;
    sum = warp_sum_i32(sum);
    if (lane == 0) out[blockIdx.x] = sum;
  }
}

extern "C" __global__ void reduce_shfl_f32(const float* in, float* out, int n) {
  __shared__ float warp_sums[32];
  float sum = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  sum = warp_sum_f32(sum);
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
    sum = warp_sum_f32(sum);
    if (lane == 0) out[blockIdx.x] = sum;
  }
}

// Every lane gets the maximum of its warp (butterfly), and lane 0's input (broadcast).
extern "C" __global__ void warp_max_broadcast(const int* in, int* max_out, int* first_out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int m = v;
  for (int mask = 16; mask > 0; mask >>= 1) m = max(m, __shfl_xor_sync(0xffffffffu, m, mask));
  max_out[i] = m;
  first_out[i] = __shfl_sync(0xffffffffu, v, 0);
}
