// Device printf with many argument types and formats, from several blocks and from a device
// function; the output must appear in full, in order, before the host's line after the sync.
#include <cstdio>

#include <cuda_runtime.h>

__device__ void report(int block, const char* what) { printf("block %d says %s\n", block, what); }

__global__ void formats(int i, unsigned u, long long ll, float f, double d, char c, const char* label) {
  printf("int %d %i %5d|%-5d|%05d\n", i, i, i, i, i);
  printf("unsigned %u hex %x %X %#x octal %o\n", u, u, u, u, u);
  printf("long long %lld %llx\n", ll, ll);
  printf("float %f %.2f %e %g\n", f, f, f, f);
  printf("double %.10f %.3e\n", d, d);
  printf("char %c string %s percent %%\n", c, "device");
  printf("pointer label %s\n", label == nullptr ? "null" : "set");
}

__global__ void per_block() {
  if (threadIdx.x == 0) report(blockIdx.x, blockIdx.x % 2 == 0 ? "even" : "odd");
  if (threadIdx.x == 1 && blockIdx.x == 2) printf("thread %d of block %d: %d threads\n", threadIdx.x, blockIdx.x,
                                                  blockDim.x);
}

int main() {
  formats<<<1, 1>>>(-42, 3735928559u, -1234567890123LL, 3.25f, 1.0 / 3.0, 'Z', nullptr);
  per_block<<<3, 32>>>();
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("host after sync: %s\n", cudaGetErrorName(e));
  std::printf(e == cudaSuccess ? "PASSED\n" : "FAILED\n");
  return e == cudaSuccess ? 0 : 1;
}
