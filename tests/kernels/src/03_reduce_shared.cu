// Tree reduction in shared memory: each block of BS threads sums 2*BS input elements
// (two loads per thread), then halves the active range each step with __syncthreads between
// steps. One partial sum per block is written to out[blockIdx.x].
template <unsigned BS, typename T>
__device__ void block_reduce(const T* in, T* out, unsigned n) {
  __shared__ T partial[BS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BS * 2) + tid;
  T v = 0;
  if (i < n) v = in[i];
  if (i + BS < n) v += in[i + BS];
  partial[tid] = v;
  __syncthreads();
  for (unsigned s = BS / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

extern "C" __global__ void reduce_u32_bs64(const unsigned* in, unsigned* out, unsigned n) {
  block_reduce<64>(in, out, n);
}
extern "C" __global__ void reduce_u32_bs128(const unsigned* in, unsigned* out, unsigned n) {
  block_reduce<128>(in, out, n);
}
extern "C" __global__ void reduce_u32_bs256(const unsigned* in, unsigned* out, unsigned n) {
  block_reduce<256>(in, out, n);
}
extern "C" __global__ void reduce_u32_bs512(const unsigned* in, unsigned* out, unsigned n) {
  block_reduce<512>(in, out, n);
}
extern "C" __global__ void reduce_f32_bs128(const float* in, float* out, unsigned n) {
  block_reduce<128>(in, out, n);
}
extern "C" __global__ void reduce_f32_bs256(const float* in, float* out, unsigned n) {
  block_reduce<256>(in, out, n);
}
