// Stores of many blocks that the functional model may commit on several host threads
// (func/commit_plan.h): disjoint ones side by side, overlapping ones in serial order. lockstep's
// results must not depend on its host threads or on which stores it runs side by side.
// Built with: nvcc -arch=sm_80 -ptx stores.cu -o stores.ptx

// Each element written once, consecutive across warps and blocks: every store is independent.
extern "C" __global__ void saxpy(float* y, const float* x, float a, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// One byte per thread: the warps' ranges touch without sharing a byte.
extern "C" __global__ void bytes(unsigned char* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<unsigned char>(i * 7 + 3);
}

// Every block writes the same `slots` elements: the last writer in serial order wins.
extern "C" __global__ void same_slots(unsigned* out, unsigned slots) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i % slots] = i;
}

// Even warps write 8 bytes per pair of lanes (both lanes of a pair the same 8 bytes), odd warps
// 4 bytes each, `shift` elements back: an odd warp's stores half-overlap the 8-byte stores of
// an even warp of its own block (shift 31) or of the block before (shift 95).
extern "C" __global__ void mixed_width(unsigned* out, unsigned shift) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x / 32) % 2 == 0) {
    const unsigned long long v = (static_cast<unsigned long long>(i) << 32) | (0x80000000u | i);
    *reinterpret_cast<unsigned long long*>(out + 2 * (i / 2)) = v;
  } else if (i >= shift) {
    out[i - shift] = 0x40000000u | i;
  }
}

// Stores, then an atomic that counts, then a store of what the atomic returned: epochs of
// independent stores between epochs that must stay serial.
extern "C" __global__ void store_count_store(unsigned* first, unsigned* counter, unsigned* second) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  first[i] = i * 3 + 1;
  second[i] = atomicAdd(counter, 1u);
}

// A store through a generic pointer that is shared memory in odd warps and global memory in
// even ones; the shared values reach global memory after the barrier.
extern "C" __global__ void generic_mix(unsigned* out) {
  __shared__ unsigned staged[256];
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned* volatile target = (threadIdx.x / 32) % 2 == 1 ? &staged[threadIdx.x] : &out[i];
  *target = i + 11;
  __syncthreads();
  if ((threadIdx.x / 32) % 2 == 1) out[i] = staged[threadIdx.x] * 2;
}
