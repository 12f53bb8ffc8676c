// Thrust on the device: thrust::device_vector with sort, inclusive_scan, reduce, transform and
// copies back to the host.
#include <cstdio>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

struct square_minus_one {
  __host__ __device__ int operator()(int v) const { return v * v - 1; }
};

int main() {
  const int n = 1000;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = (i * 7919) % 1009 - 500;  // a permutation-like mix
  thrust::device_vector<int> d(host.begin(), host.end());

  thrust::sort(d.begin(), d.end());
  thrust::host_vector<int> sorted = d;
  int unsorted = 0;
  for (int i = 1; i < n; ++i) unsorted += sorted[i - 1] > sorted[i];

  const long long sum = thrust::reduce(d.begin(), d.end(), 0LL);
  long long expected_sum = 0;
  for (int v : host) expected_sum += v;

  thrust::device_vector<int> squares(n);
  thrust::transform(d.begin(), d.end(), squares.begin(), square_minus_one());
  thrust::device_vector<int> ones(n, 1);
  thrust::device_vector<int> scan(n);
  thrust::inclusive_scan(ones.begin(), ones.end(), scan.begin());
  thrust::host_vector<int> h_scan = scan, h_squares = squares;
  int bad_scan = 0, bad_squares = 0;
  for (int i = 0; i < n; ++i) {
    bad_scan += h_scan[i] != i + 1;
    bad_squares += h_squares[i] != sorted[i] * sorted[i] - 1;
  }
  const int max_square = thrust::reduce(squares.begin(), squares.end(), -1, thrust::maximum<int>());

  std::printf("sorted: first %d last %d, %d out of order\n", int(sorted[0]), int(sorted[n - 1]), unsorted);
  std::printf("reduce: %lld (expected %lld), max of squares-1: %d\n", sum, expected_sum, max_square);
  std::printf("inclusive_scan: last %d, %d mismatches; transform: %d mismatches\n", int(h_scan[n - 1]), bad_scan,
              bad_squares);
  const bool ok = unsorted == 0 && sum == expected_sum && bad_scan == 0 && bad_squares == 0 &&
                  max_square == 508 * 508 - 1;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
