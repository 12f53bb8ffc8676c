// Blocks that share data through global memory, for the functional model's waves of resident
// blocks (func/wave_runner.h): lockstep's results must not depend on its host threads.
// Built with: nvcc -arch=sm_80 -ptx waves.cu -o waves.ptx
#include <cstdio>

// Every thread adds a value that is not exact in binary to one float and keeps the old sum it
// saw: the old values pin the global order of the atomics.
extern "C" __global__ void float_atomics(float* old_values, float* sum) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  old_values[i] = atomicAdd(sum, 0.1f * static_cast<float>(threadIdx.x + 1));
}

// Block b waits until block b-1 has published its value, then publishes its own: a chain
// through global memory that completes only if blocks start in order and see each other.
extern "C" __global__ void chain(volatile unsigned* ready, unsigned* values) {
  const unsigned b = blockIdx.x;
  if (threadIdx.x == 0) {
    if (b != 0) {
      while (ready[b - 1] == 0) {
      }
      values[b] = values[b - 1] + b;
    } else {
      values[0] = 0;
    }
    __threadfence();
    ready[b] = 1;
  }
}

extern "C" __global__ void hello(int marker) {
  if (threadIdx.x % 64 == 0) printf("block %d warp %d marker %d\n", blockIdx.x, threadIdx.x / 32, marker);
}

// Blocks from `first_bad` on read through `elsewhere` (not device memory); the others store.
extern "C" __global__ void fault_from(unsigned* out, const unsigned* elsewhere, unsigned first_bad) {
  const unsigned* p = blockIdx.x >= first_bad ? elsewhere : out;
  out[blockIdx.x * blockDim.x + threadIdx.x] = p[threadIdx.x] + blockIdx.x;
}

// Blocks from `first_bad` on store far past the end of `out`.
extern "C" __global__ void store_fault_from(unsigned* out, unsigned first_bad) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[blockIdx.x >= first_bad ? i + (1u << 28) : i] = i;
}

// Thread 0 of block `waiter` waits for a flag that nobody sets.
extern "C" __global__ void wait_forever(volatile unsigned* flag, unsigned waiter) {
  if (blockIdx.x == waiter && threadIdx.x == 0) {
    while (*flag == 0) {
    }
  }
}
