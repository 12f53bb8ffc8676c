// Kernels for child_grids_test.cpp: grids launched from device code (CUDA dynamic parallelism)
// in timing mode. Regenerate child_grids.ptx with gen_ptx.sh.

// Each thread adds `value` to out[its global index], after `spin` dependent steps.
__global__ void child(int* out, int value, int spin) {
  int x = value;
  for (int i = 0; i < spin; ++i) x = x * 3 + value;
  out[blockIdx.x * blockDim.x + threadIdx.x] += value + (x & 0);
}

// How block 0's thread 0 launches its children, then every thread spins `spin` steps.
enum Mode { kOne = 0, kTwoInNullStream = 1, kFireAndForget = 2, kTailAndOne = 3, kFaultingChild = 4 };

__global__ void parent(int* out, int mode, int child_blocks, int child_spin, int spin) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    switch (mode) {
      case kOne:
        child<<<child_blocks, 32>>>(out, 1, child_spin);
        break;
      case kTwoInNullStream:
        child<<<child_blocks, 32>>>(out, 1, child_spin);
        child<<<child_blocks, 32>>>(out, 2, child_spin);
        break;
      case kFireAndForget:
        child<<<child_blocks, 32, 0, cudaStreamFireAndForget>>>(out, 1, child_spin);
        child<<<child_blocks, 32, 0, cudaStreamFireAndForget>>>(out + 4096, 2, child_spin);
        break;
      case kTailAndOne:
        child<<<child_blocks, 32, 0, cudaStreamTailLaunch>>>(out, 10, 0);
        child<<<child_blocks, 32>>>(out, 1, child_spin);
        break;
      case kFaultingChild:
        child<<<1, 32>>>(nullptr, 1, 0);
        break;
    }
  }
  int x = threadIdx.x;
  for (int i = 0; i < spin; ++i) x = x * 3 + 1;
  out[8192 + blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void set_flag(int* flag) { atomicExch(flag, 1); }

// Waits for its child, as CUDA does not promise it can (a child may run only once its parent
// has finished): on a GPU with an SM free for the child, the child runs beside it and it ends.
__global__ void waiting_parent(int* flag) {
  set_flag<<<1, 1>>>(flag);
  while (atomicAdd(flag, 0) == 0) {
  }
}
