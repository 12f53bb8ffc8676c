// hello_printf: device-side printf. Every thread of a small grid says hello; the output is
// buffered on the device and appears on the host when the kernel completes (at the
// cudaDeviceSynchronize below on a GPU; lockstep runs kernels to completion at launch).
#include <cstdio>

#include <cuda_runtime.h>

__global__ void hello(int round) {
  printf("round %d: hello from thread %d of block %d\n", round, threadIdx.x, blockIdx.x);
}

int main() {
  hello<<<2, 4>>>(1);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::printf("kernel failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  std::printf("back on the host: %s\n", cudaGetErrorString(err));
  return 0;
}
