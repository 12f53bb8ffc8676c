// Divergence-heavy workloads for the comparison of divergence designs (bench/divergence_bench.cpp):
// nested data-dependent branches, a data-dependent loop, unstructured flow (short-circuit
// conditions), a many-way switch, and the intra-warp lock of seed 001 code 3-2. Each thread's
// result depends only on its inputs (the lock's on the count), so every design must give the
// same output.
#include <cstdint>

// Seed 001 code 3-1's nested if/else inside a loop, on data that splits every warp.
extern "C" __global__ void nested_branches(const int* a, const int* b, int* out, int n, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r = 0;
  for (int k = 0; k < iterations; ++k) {
    const int x = a[(i + k * 97) & (n - 1)];
    if (x & 1) {
      if (b[i] & (1 << (k & 7))) r += x;
      else r -= x >> 1;
      r ^= k;
    } else {
      r += 3 * k + (x & 7);
    }
  }
  out[i] = r;
}

// A loop whose trip count is the thread's own: Collatz steps from a per-thread start.
extern "C" __global__ void collatz_steps(int* out, int n, unsigned base) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = base + static_cast<unsigned>(i);
  int steps = 0;
  while (v != 1 && steps < 1000) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  out[i] = steps;
}

// Unstructured flow: compound conditions whose second operands load, so nvcc must keep the
// short-circuit branches (seed 001 fig 3-12) and paths join before the immediate post-dominator.
extern "C" __global__ void short_circuit(const int* a, int* out, int n, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r = 0;
  for (int k = 0; k < iterations; ++k) {
    const int x = a[(i * 7 + k) & (n - 1)];
    if (((x & 1) && (a[(x >> 4) & (n - 1)] & 2)) || ((x & 4) && (a[(x >> 12) & (n - 1)] & 8))) {
      r += x & 0xff;
    } else {
      r -= a[(x >> 20) & (n - 1)] & 3;
    }
  }
  out[i] = r;
}

// A many-way switch on data: up to eight paths per warp.
extern "C" __global__ void switch_paths(const int* a, int* out, int n, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r = i;
  for (int k = 0; k < iterations; ++k) {
    switch ((a[(i + k) & (n - 1)] >> 3) & 7) {
      case 0: r += 1; break;
      case 1: r ^= 0x55; break;
      case 2: r = r * 5 + 3; break;
      case 3: r -= k; break;
      case 4: r = (r << 2) ^ k; break;
      case 5: r += r >> 3; break;
      case 6: r = ~r; break;
      default: r += 7 * k; break;
    }
  }
  out[i] = r;
}

// Seed 001 code 3-2: every thread takes one global lock in the usual way. Completes under
// independent thread scheduling; the SIMT stack deadlocks (the winner waits at the
// reconvergence point for the losers spinning on the lock it holds).
extern "C" __global__ void intra_warp_lock(int* lock, int* count) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  *reinterpret_cast<volatile int*>(count) += 1;
  __threadfence();
  atomicExch(lock, 0);
}
