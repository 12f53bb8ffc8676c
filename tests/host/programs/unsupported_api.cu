// Calls a function the stand-in runtime does not implement, twice: one message, and
// cudaErrorNotSupported both times.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  cudaGraph_t graph;
  cudaError_t first = cudaGraphCreate(&graph, 0);
  cudaError_t second = cudaGraphCreate(&graph, 0);
  std::printf("cudaGraphCreate: %s, %s (%d)\n", cudaGetErrorName(first), cudaGetErrorName(second), int(second));
  std::printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return first == cudaErrorNotSupported && second == cudaErrorNotSupported ? 0 : 1;
}
