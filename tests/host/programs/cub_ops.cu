// CUB device-wide primitives with the usual two-phase temp-storage protocol: a first call with
// d_temp_storage == nullptr returns the bytes needed, the second call does the work.
#include <cstdio>
#include <vector>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

int main() {
  const int n = 5000;
  std::vector<int> h_in(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    h_in[i] = (i % 13) - 6 + (i % 3);
    expected += h_in[i];
  }
  int *d_in, *d_sum, *d_scan;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_sum, sizeof(int));
  cudaMalloc(&d_scan, n * sizeof(int));
  cudaMemcpy(d_in, h_in.data(), n * sizeof(int), cudaMemcpyHostToDevice);

  size_t reduce_bytes = 0, scan_bytes = 0;
  cudaError_t q1 = cub::DeviceReduce::Sum(nullptr, reduce_bytes, d_in, d_sum, n);
  cudaError_t q2 = cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, d_in, d_scan, n);
  void* d_temp = nullptr;
  const size_t temp_bytes = reduce_bytes > scan_bytes ? reduce_bytes : scan_bytes;
  cudaMalloc(&d_temp, temp_bytes);
  cudaError_t r = cub::DeviceReduce::Sum(d_temp, reduce_bytes, d_in, d_sum, n);
  cudaError_t s = cub::DeviceScan::InclusiveSum(d_temp, scan_bytes, d_in, d_scan, n);
  cudaError_t sync = cudaDeviceSynchronize();

  int sum = 0;
  std::vector<int> h_scan(n);
  cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_scan.data(), d_scan, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  long long running = 0;
  for (int i = 0; i < n; ++i) {
    running += h_in[i];
    bad += h_scan[i] != running;
  }
  std::printf("query=%s,%s temp bytes > 0: %s\n", cudaGetErrorName(q1), cudaGetErrorName(q2),
              reduce_bytes > 0 && scan_bytes > 0 ? "yes" : "no");
  std::printf("reduce=%s scan=%s sync=%s\n", cudaGetErrorName(r), cudaGetErrorName(s), cudaGetErrorName(sync));
  std::printf("sum %d (expected %lld), scan last %d, %d mismatches\n", sum, expected, h_scan[n - 1], bad);
  cudaFree(d_in);
  cudaFree(d_sum);
  cudaFree(d_scan);
  cudaFree(d_temp);
  const bool ok = q1 == cudaSuccess && q2 == cudaSuccess && r == cudaSuccess && s == cudaSuccess &&
                  sync == cudaSuccess && sum == expected && bad == 0;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
