// Memory microbenchmarks, timed inside the kernel with clock64 as one would on a real GPU
// (bench/memory_bench.cpp runs them on the model and prints published against modelled figures).
#include <cstdint>

// One thread follows a chain of pointers `steps` times, then again timed; the average cycles
// of a dependent load land in *cycles. The untimed pass brings the chain into the caches that
// hold it.
extern "C" __global__ void pointer_chase(const uint64_t* start, int steps, int warm_steps,
                                         unsigned long long* cycles, uint64_t* sink) {
  const uint64_t* p = start;
  for (int i = 0; i < warm_steps; ++i) p = reinterpret_cast<const uint64_t*>(*p);
  sink[1] = reinterpret_cast<uint64_t>(p);  // keeps the untimed pass
  p = start;
  const long long begin = clock64();
  for (int i = 0; i < steps; ++i) p = reinterpret_cast<const uint64_t*>(*p);
  const long long end = clock64();
  *cycles = static_cast<unsigned long long>(end - begin) / steps;
  *sink = reinterpret_cast<uint64_t>(p);
}

// The same through shared memory: the chain is a permutation of word indices.
extern "C" __global__ void shared_chase(const uint32_t* chain, int words, int steps,
                                        unsigned long long* cycles, uint32_t* sink) {
  extern __shared__ uint32_t s[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) s[i] = chain[i];
  __syncthreads();
  if (threadIdx.x != 0) return;
  uint32_t j = 0;
  const long long begin = clock64();
  for (int i = 0; i < steps; ++i) j = s[j];
  const long long end = clock64();
  *cycles = static_cast<unsigned long long>(end - begin) / steps;
  *sink = j;
}

// Streaming copy, 16 bytes per thread per step over a grid-stride loop, `reps` times over the
// same buffers (an L2-resident copy needs several passes to measure a bandwidth, not a ramp).
extern "C" __global__ void copy16(const float4* __restrict__ in, float4* __restrict__ out, long long n, int reps) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (int r = 0; r < reps; ++r)
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += stride)
      out[i] = in[i];
}

// The same copy with loads that bypass the L1 (ld.global.cg), so that an L2-resident copy
// measures the L2 and not the L1s.
extern "C" __global__ void copy16_cg(const float4* __restrict__ in, float4* __restrict__ out, long long n, int reps) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (int r = 0; r < reps; ++r)
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += stride)
      out[i] = __ldcg(in + i);
}

// An L2-resident read as the published L2-bandwidth benchmarks run it (hardware.md §3: RRZE's
// gpu-l2-cache reads and sums, it does not copy): ld.global.cg over the buffer `reps` times,
// one float per thread written at the end so that the loads are kept.
extern "C" __global__ void read16_cg(const float4* __restrict__ in, float* __restrict__ out, long long n, int reps) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  float sum = 0;
  for (int r = 0; r < reps; ++r)
    for (long long i = first; i < n; i += stride) {
      const float4 v = __ldcg(in + i);
      sum += v.x + v.y + v.z + v.w;
    }
  out[first] = sum;
}
