// Kernels of the memory-hierarchy tests (tests/timing/memory_*_test.cpp); memory_kernels.ptx is
// generated from this file by gen_ptx.sh and committed.
#include <cstdint>

// Each warp walks its own `lines` lines `rounds` times, one dependent load a step (a word holds
// the index of the next one), with `work` dependent FMAs after each load. The per-warp working
// set fits the L1 when few warps run at once, not when all of them interleave (seed 001 §3.4.3:
// round robin exploits locality between warps, greedy-then-oldest within one warp). Dynamic
// shared memory, unused, shrinks the L1 through the carve-out.
extern "C" __global__ void sweep(const int* data, float* out, int lines, int rounds, int work) {
  extern __shared__ float carve_out[];
  const int thread = blockIdx.x * blockDim.x + threadIdx.x;
  const int* mine = data + static_cast<long long>(thread / 32) * lines * 32;
  int j = threadIdx.x % 32;
  float acc = 1.0f;
  for (int r = 0; r < rounds; ++r) {
    for (int s = 0; s < lines; ++s) {
      j = mine[j];
      for (int w = 0; w < work; ++w) acc = acc * 0.999f + static_cast<float>(j & 1);
    }
  }
  if (acc == -1.0f) carve_out[0] = acc;  // never: keeps the shared-memory request
  out[thread] = acc + static_cast<float>(j);
}

// One thread follows a pointer chain `steps` times after `warm` untimed steps; the cycles per
// step land in *cycles (a pointer chase as microbenchmarks time real GPUs).
extern "C" __global__ void chase(const uint64_t* start, int steps, int warm, unsigned long long* cycles,
                                 uint64_t* sink) {
  const uint64_t* p = start;
  for (int i = 0; i < warm; ++i) p = reinterpret_cast<const uint64_t*>(*p);
  sink[1] = reinterpret_cast<uint64_t>(p);
  p = start;
  const long long begin = clock64();
  for (int i = 0; i < steps; ++i) p = reinterpret_cast<const uint64_t*>(*p);
  const long long end = clock64();
  *cycles = static_cast<unsigned long long>(end - begin) / steps;
  *sink = reinterpret_cast<uint64_t>(p);
}

// Every thread adds to a few global counters and copies a strided slice (memory traffic of every
// kind for the determinism tests).
extern "C" __global__ void mixed(const float* in, float* out, unsigned* counters, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = in[(i * 7) % n] + in[i];
  atomicAdd(&counters[i % 4], 1u);
}
