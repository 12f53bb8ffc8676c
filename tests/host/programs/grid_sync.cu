// A cooperative kernel with grid-wide barriers: an integer smoothing filter on a 1D signal,
// iterated with cooperative_groups::this_grid().sync() between sweeps (every block must see
// the whole previous sweep), then a two-phase reduction (per-block partial sums, grid.sync(),
// block 0 adds the partials). The grid is as large as can be resident at once:
// cudaOccupancyMaxActiveBlocksPerMultiprocessor times the SM count. Checked against a CPU
// reference. Also: the cooperative-launch attribute, a launch through cudaLaunchKernelEx with
// cudaLaunchAttributeCooperative, and a grid one block too large for a cooperative launch.
#include <cstdio>
#include <vector>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 256;

// sweeps passes of b[i] = (a[i-1] + 2 a[i] + a[i+1]) / 4 with fixed ends, ping-ponging between
// the two buffers; then *total = sum of the final signal. partial needs one slot per block.
__global__ void smooth_and_sum(int* a, int* b, int n, int sweeps, long long* partial, long long* total) {
  cg::grid_group grid = cg::this_grid();
  for (int s = 0; s < sweeps; ++s) {
    for (long long i = grid.thread_rank(); i < n; i += grid.size()) {
      b[i] = (i == 0 || i == n - 1) ? a[i] : (a[i - 1] + 2 * a[i] + a[i + 1]) / 4;
    }
    grid.sync();  // the next sweep reads neighbours that other blocks wrote
    int* t = a;
    a = b;
    b = t;
  }
  __shared__ long long sums[kThreads];
  long long mine = 0;
  for (long long i = grid.thread_rank(); i < n; i += grid.size()) mine += a[i];
  sums[threadIdx.x] = mine;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
  grid.sync();  // every partial sum is written
  if (blockIdx.x == 0) {
    long long s = 0;
    for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) s += partial[i];
    sums[threadIdx.x] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
      if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
      __syncthreads();
    }
    if (threadIdx.x == 0) *total = sums[0];
  }
}

struct Reference {
  std::vector<int> signal;
  long long total = 0;
};

Reference reference(std::vector<int> a, int sweeps) {
  const int n = static_cast<int>(a.size());
  std::vector<int> b(n);
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 0; i < n; ++i) b[i] = (i == 0 || i == n - 1) ? a[i] : (a[i - 1] + 2 * a[i] + a[i + 1]) / 4;
    a.swap(b);
  }
  Reference r;
  r.signal = a;
  for (int v : a) r.total += v;
  return r;
}

int main() {
  int device = 0, cooperative = 0, sms = 0, per_sm = 0;
  cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, smooth_and_sum, kThreads, 0);
  const int blocks = per_sm * sms;
  std::printf("cooperative launch attribute: %d, resident blocks > 0: %s\n", cooperative,
              blocks > 0 ? "yes" : "no");
  if (!cooperative || blocks <= 0) {
    std::printf("FAILED\n");
    return 1;
  }

  // A square pulse and a ramp: enough structure that every sweep changes many cells.
  const int n = 100000, sweeps = 6;
  std::vector<int> signal(n);
  for (int i = 0; i < n; ++i) signal[i] = (i / 997) % 2 == 0 ? 4000 : (i % 1013) * 3;
  const Reference expected = reference(signal, sweeps);

  int *d_a, *d_b;
  long long *d_partial, *d_total;
  cudaMalloc(&d_a, n * sizeof(int));
  cudaMalloc(&d_b, n * sizeof(int));
  cudaMalloc(&d_partial, blocks * sizeof(long long));
  cudaMalloc(&d_total, sizeof(long long));

  int n_arg = n, sweeps_arg = sweeps;
  void* args[] = {&d_a, &d_b, &n_arg, &sweeps_arg, &d_partial, &d_total};
  cudaMemcpy(d_a, signal.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const cudaError_t launched = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(smooth_and_sum), blocks,
                                                           kThreads, args, 0, 0);
  const cudaError_t synced = cudaDeviceSynchronize();
  std::vector<int> result(n);
  long long total = 0;
  // An even number of sweeps leaves the signal in the first buffer.
  cudaMemcpy(result.data(), d_a, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  int mismatches = 0;
  for (int i = 0; i < n; ++i) mismatches += result[i] != expected.signal[i];
  const bool first_ok = launched == cudaSuccess && synced == cudaSuccess && mismatches == 0 && total == expected.total;
  std::printf("cudaLaunchCooperativeKernel: %s, sync %s, mismatches %d, total %lld (expected %lld)\n",
              cudaGetErrorName(launched), cudaGetErrorName(synced), mismatches, total, expected.total);

  // The same kernel through cudaLaunchKernelEx with the cooperative attribute, 2 sweeps.
  const int sweeps2 = 2;
  const Reference expected2 = reference(signal, sweeps2);
  cudaMemcpy(d_a, signal.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributeCooperative;
  attribute.val.cooperative = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  const cudaError_t launched_ex = cudaLaunchKernelEx(&config, smooth_and_sum, d_a, d_b, n, sweeps2, d_partial, d_total);
  cudaDeviceSynchronize();
  cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost);
  std::printf("cudaLaunchKernelEx (cooperative): %s, total %lld (expected %lld)\n", cudaGetErrorName(launched_ex),
              total, expected2.total);
  const bool ex_ok = launched_ex == cudaSuccess && total == expected2.total;

  // One block more than can be resident: refused, and the error is not sticky.
  const cudaError_t too_large = cudaLaunchCooperativeKernel(reinterpret_cast<void*>(smooth_and_sum), blocks + 1,
                                                            kThreads, args, 0, 0);
  const cudaError_t last = cudaGetLastError();
  const cudaError_t after = cudaGetLastError();
  std::printf("oversized grid: %s, last error %s, then %s\n", cudaGetErrorName(too_large), cudaGetErrorName(last),
              cudaGetErrorName(after));

  const bool ok = first_ok && ex_ok && too_large == cudaErrorCooperativeLaunchTooLarge && after == cudaSuccess;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFree(d_partial);
  cudaFree(d_total);
  return ok ? 0 : 1;
}
