// Exploratory: how the L2-resident read bandwidth depends on loads in flight (unroll) and grid size,
// to tell a limit of bench/kernels/memory.cu's read16_cg from one of the hardware.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <algorithm>

template <int U>
__global__ void read_unrolled(const float4* __restrict__ in, float* __restrict__ out, long long n, int reps) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  float sum = 0;
  for (int r = 0; r < reps; ++r)
    for (long long i = first; i < n; i += U * stride) {
      float4 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = i + u * stride < n ? __ldcg(in + i + u * stride) : make_float4(0, 0, 0, 0);
#pragma unroll
      for (int u = 0; u < U; ++u) sum += v[u].x + v[u].y + v[u].z + v[u].w;
    }
  out[first] = sum;
}

template <int U>
double run(uint64_t bytes, unsigned blocks, unsigned threads, int reps) {
  float4* in; float* out;
  cudaMalloc(&in, bytes); cudaMalloc(&out, uint64_t{blocks} * threads * 4);
  cudaMemset(in, 1, bytes);
  const long long n = bytes / 16;
  read_unrolled<U><<<blocks, threads>>>(in, out, n, 1);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  float best = 1e30f;
  for (int t = 0; t < 5; ++t) {
    cudaEventRecord(a); read_unrolled<U><<<blocks, threads>>>(in, out, n, reps); cudaEventRecord(b);
    cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); best = std::min(best, ms);
  }
  cudaFree(in); cudaFree(out);
  return double(bytes) * reps / (best * 1e-3) / 1e12;
}

int main() {
  int sms = 0, l2 = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
  std::printf("L2-resident read TB/s, ld.cg; rows: footprint, blocks per SM x threads; columns: unroll 1 2 4 8\n");
  for (uint64_t bytes : {uint64_t(l2) / 16, uint64_t(l2) / 8, uint64_t(l2) / 4})
    for (unsigned bps : {2u, 8u, 32u})
      for (unsigned th : {256u, 1024u}) {
        if (bps * th > 2048u * 4) continue;
        std::printf("  %6llu KiB  %3u x %4u  %6.2f %6.2f %6.2f %6.2f\n", (unsigned long long)(bytes >> 10), bps, th,
                    run<1>(bytes, sms * bps, th, 64), run<2>(bytes, sms * bps, th, 64), run<4>(bytes, sms * bps, th, 64),
                    run<8>(bytes, sms * bps, th, 64));
      }
  return cudaGetLastError() != cudaSuccess;
}
