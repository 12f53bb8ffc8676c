// Seed 001 fig 3-7 / code 3-2: a lock taken inside a warp in the usual way. Every thread spins
// on atomicCAS until it owns the mutex, adds one to the counter (a plain read-modify-write, right
// only under the lock) and releases the mutex. Under a SIMT stack the threads that lost the CAS
// keep looping and the winner, waiting at the loop's reconvergence point, never releases the
// lock; with independent thread scheduling (branch barriers and yield) every thread finishes.
// Built with: nvcc -arch=sm_90 -ptx intra_warp_lock.cu -o intra_warp_lock.ptx
extern "C" __global__ void intra_warp_lock(int* mutex, volatile int* counter) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
  *counter = *counter + 1;  // the critical section
  __threadfence();
  atomicExch(mutex, 0);
}
