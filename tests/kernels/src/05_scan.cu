// Block-level prefix sums in shared memory. Each block scans its own segment independently
// and writes the segment total to block_sums[blockIdx.x].
//  - scan_inclusive_hs: Hillis-Steele with a double buffer, one element per thread
//    (blockDim.x <= 1024).
//  - scan_exclusive_blelloch: Blelloch up-sweep/down-sweep over 2*blockDim.x elements
//    (blockDim.x a power of two, <= 512), zero-padded past n.
extern "C" __global__ void scan_inclusive_hs(const int* in, int* out, int* block_sums, int n) {
  __shared__ int buf[2][1024];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  int cur = 0;
  buf[cur][tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset <<= 1) {
    int v = buf[cur][tid];
    if (tid >= offset) v += buf[cur][tid - offset];
    buf[cur ^ 1][tid] = v;
    cur ^= 1;
    __syncthreads();
  }
  if (i < n) out[i] = buf[cur][tid];
  if (tid == blockDim.x - 1) block_sums[blockIdx.x] = buf[cur][tid];
}

extern "C" __global__ void scan_exclusive_blelloch(const unsigned* in, unsigned* out,
                                                   unsigned* block_sums, int n) {
  __shared__ unsigned t[1024];
  int tid = threadIdx.x;
  int m = 2 * blockDim.x;
  int base = blockIdx.x * m;
  t[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0u;
  t[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0u;
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      t[bi] += t[ai];
    }
    offset <<= 1;
  }
  if (tid == 0) {
    block_sums[blockIdx.x] = t[m - 1];
    t[m - 1] = 0;
  }
  for (int d = 1; d < m; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      unsigned left = t[ai];
      t[ai] = t[bi];
      t[bi] += left;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n) out[base + 2 * tid] = t[2 * tid];
  if (base + 2 * tid + 1 < n) out[base + 2 * tid + 1] = t[2 * tid + 1];
}
