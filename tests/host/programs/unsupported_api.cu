// Calls a function the stand-in runtime does not implement, twice: one message, and
// cudaErrorNotSupported both times.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  cudaIpcMemHandle_t handle;
  cudaError_t first = cudaIpcGetMemHandle(&handle, nullptr);
  cudaError_t second = cudaIpcGetMemHandle(&handle, nullptr);
  std::printf("cudaIpcGetMemHandle: %s, %s (%d)\n", cudaGetErrorName(first), cudaGetErrorName(second),
              int(second));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return first == cudaErrorNotSupported && second == cudaErrorNotSupported ? 0 : 1;
}
