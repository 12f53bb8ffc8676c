// Device-side failures: assert() failing in exactly one thread, __trap() in exactly one
// thread, and a well-behaved kernel to run afterwards. Grids and blocks are 3D so the fault
// report's block and thread indices are checked in every dimension.
#include <cassert>

__device__ __forceinline__ bool is_chosen(const int* where) {
  return blockIdx.x == where[0] && blockIdx.y == where[1] && blockIdx.z == where[2] &&
         threadIdx.x == where[3] && threadIdx.y == where[4] && threadIdx.z == where[5];
}

// where = {block x,y,z, thread x,y,z} of the thread whose assertion fails.
extern "C" __global__ void assert_one_thread(const int* where, int* out) {
  int linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  assert(!is_chosen(where));
  out[linear] = 1;
}

extern "C" __global__ void trap_one_thread(const int* where, int* out) {
  int linear = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (is_chosen(where)) __trap();
  out[linear] = 2;
}

extern "C" __global__ void fill_after_fault(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * 3 + 1;
}
