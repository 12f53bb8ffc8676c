// The second translation unit of two_units: two kernels and the host functions launching them.
#include <cuda_runtime.h>

namespace {

__device__ int doubled(int v) { return 2 * v; }

}  // namespace

__global__ void histogram(const int* values, int n, int* bins, int nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = values[i];
    if (v >= 0 && v < nbins) atomicAdd(&bins[v], 1);
  }
}

// One thread: running sum, then doubled through a device function of this unit.
__global__ void prefix_double(int* bins, int nbins) {
  int running = 0;
  for (int b = 0; b < nbins; ++b) {
    running += bins[b];
    bins[b] = doubled(running);
  }
}

cudaError_t run_histogram(const int* d_values, int n, int* d_bins, int bins) {
  histogram<<<3, 128>>>(d_values, n, d_bins, bins);
  return cudaGetLastError();
}

cudaError_t run_prefix_double(int* d_bins, int bins) {
  prefix_double<<<1, 1>>>(d_bins, bins);
  return cudaDeviceSynchronize();
}
