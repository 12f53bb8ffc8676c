// Warp synchronization under independent thread scheduling (PTX ISA, sm_70+): bar.warp.sync
// (__syncwarp) waits for every non-exited thread of its membermask, at whatever PC its instance
// is; shfl.sync and vote.sync wait for membermask's threads to execute the same instruction
// together. Each kernel runs with one warp of 32 threads.
// Built with: nvcc -arch=sm_90 -ptx warp_sync.cu -o warp_sync.ptx

// The Volta example: the two halves of a divergent if/else each write shared memory, meet at a
// __syncwarp() of their own and read the other half's value before the if/else joins. Right only when each half's
// __syncwarp() waits for the other's; without the wait the half that runs first reads the
// shared memory before the other half wrote it.
extern "C" __global__ void syncwarp_exchange(int* out) {
  __shared__ int slots[32];
  const int lane = static_cast<int>(threadIdx.x);
  slots[lane] = -1;
  __syncwarp();
  // The halves use what they read differently, so the compiler keeps each read in its branch
  // (with the same use it sinks both reads below the join, where the halves have met anyway).
  if (lane < 16) {
    slots[lane] = lane * 10 + 1;
    __syncwarp();
    out[lane] = slots[lane + 16] * 2;
  } else {
    slots[lane] = lane * 10 + 2;
    __syncwarp();
    out[lane] = slots[lane - 16] + 1000;
  }
}

// A data-dependent loop: thread t runs trips[t] iterations. The loop's exit is a reconvergence
// point, so the threads that leave early normally wait there for the others; but when the
// long-running threads yield (sm.yield_after backward branches while the others wait), yielded
// threads no longer hold that convergence barrier up, and the early threads go on to the
// __shfl_sync and __ballot_sync while the others are still in the loop. Full-mask syncs must
// then wait for the rest, so every lane's value takes part.
extern "C" __global__ void shfl_after_loop(const int* trips, unsigned* out) {
  const int lane = static_cast<int>(threadIdx.x);
  unsigned x = static_cast<unsigned>(lane);
  const int n = trips[lane];
#pragma unroll 1
  for (int i = 0; i < n; ++i) x = x * 3u + 1u;
  const unsigned next = __shfl_sync(0xffffffffu, x, (lane + 1) & 31);
  const unsigned odd = __ballot_sync(0xffffffffu, (x & 1u) != 0u);
  out[lane] = next;
  out[32 + lane] = odd;
}

// Threads 0-15 wait at __syncwarp() for threads 16-31, which wait at a __shfl_sync() for
// threads 0-15: neither instruction can complete, a deadlock the engine must report.
extern "C" __global__ void crossed_syncs(int* out) {
  const int lane = static_cast<int>(threadIdx.x);
  int v;
  if (lane < 16) {
    __syncwarp();
    v = lane;
  } else {
    v = __shfl_sync(0xffffffffu, lane, 0);
  }
  out[lane] = v;
}
