// The other unit of rdc_main.cu: a device function, a device variable and a kernel that the
// first unit uses, an internal helper whose name the first unit also uses, and the shared template.
#include <cstdio>

#include <cuda_runtime.h>

#include "rdc_shared.h"

__device__ int launches_seen = 0;

__device__ int polynomial(int x) { return 3 * x * x - 2 * x + 7; }

static __device__ __noinline__ int helper(int x) { return x - 1000; }

__global__ void library_kernel(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = helper(i) + twice(i);
  if (i == 0) {
    atomicAdd(&launches_seen, 1);
    printf("%s says %d\n", "library unit", n);  // each unit has its own $str
  }
}
