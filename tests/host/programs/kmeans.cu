// k-means clustering on the GPU, iterated to convergence. Each iteration runs three kernels:
// assign (centroids cached in shared memory; per-block partial sums in shared memory with
// shared atomics, merged into global sums with global atomics; a global counter of points that
// changed cluster), update (new centroids from the sums) and a reset of the sums. Integer
// coordinates and squared distances keep the result exact, so the CPU reference must agree
// on every assignment, every centroid and the iteration count.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

constexpr int kClusters = 8;

struct Sums {
  long long x[kClusters], y[kClusters];
  int count[kClusters];
};

__host__ __device__ int nearest(int px, int py, const int* cx, const int* cy) {
  int best = 0;
  long long best_d = -1;
  for (int c = 0; c < kClusters; ++c) {
    const long long dx = px - cx[c], dy = py - cy[c];
    const long long d = dx * dx + dy * dy;
    if (best_d < 0 || d < best_d) best_d = d, best = c;
  }
  return best;
}

__global__ void assign(const int* px, const int* py, int n, const int* centroids, int* cluster, Sums* sums,
                       int* changed) {
  __shared__ int cx[kClusters], cy[kClusters];
  __shared__ long long sx[kClusters], sy[kClusters];
  __shared__ int count[kClusters];
  if (threadIdx.x < kClusters) {
    cx[threadIdx.x] = centroids[2 * threadIdx.x];
    cy[threadIdx.x] = centroids[2 * threadIdx.x + 1];
    sx[threadIdx.x] = sy[threadIdx.x] = 0;
    count[threadIdx.x] = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int c = nearest(px[i], py[i], cx, cy);
    if (cluster[i] != c) {
      cluster[i] = c;
      atomicAdd(changed, 1);
    }
    atomicAdd(reinterpret_cast<unsigned long long*>(&sx[c]), static_cast<unsigned long long>(px[i]));
    atomicAdd(reinterpret_cast<unsigned long long*>(&sy[c]), static_cast<unsigned long long>(py[i]));
    atomicAdd(&count[c], 1);
  }
  __syncthreads();
  const int c = threadIdx.x;
  if (c < kClusters && count[c] != 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(&sums->x[c]), static_cast<unsigned long long>(sx[c]));
    atomicAdd(reinterpret_cast<unsigned long long*>(&sums->y[c]), static_cast<unsigned long long>(sy[c]));
    atomicAdd(&sums->count[c], count[c]);
  }
}

// An empty cluster keeps its centroid.
__global__ void update(const Sums* sums, int* centroids) {
  const int c = threadIdx.x;
  if (c < kClusters && sums->count[c] != 0) {
    centroids[2 * c] = static_cast<int>(sums->x[c] / sums->count[c]);
    centroids[2 * c + 1] = static_cast<int>(sums->y[c] / sums->count[c]);
  }
}

__global__ void reset(Sums* sums, int* changed) {
  const int c = threadIdx.x;
  if (c < kClusters) sums->x[c] = sums->y[c] = sums->count[c] = 0;
  if (c == 0) *changed = 0;
}

int main() {
  const int n = 6000, max_iterations = 50;
  std::vector<int> px(n), py(n), centroids(2 * kClusters);
  unsigned seed = 2024;
  auto next = [&seed](int range) {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<int>((seed >> 9) % static_cast<unsigned>(range));
  };
  // Points scattered around eight centres; the first eight points seed the centroids.
  const int centres[kClusters][2] = {{100, 100}, {800, 150}, {450, 500}, {150, 850},
                                     {900, 900}, {500, 100}, {850, 550}, {300, 400}};
  for (int i = 0; i < n; ++i) {
    const int c = next(kClusters);
    px[i] = centres[c][0] + next(161) - 80;
    py[i] = centres[c][1] + next(161) - 80;
  }
  for (int c = 0; c < kClusters; ++c) centroids[2 * c] = px[c], centroids[2 * c + 1] = py[c];

  int *d_px, *d_py, *d_centroids, *d_cluster, *d_changed;
  Sums* d_sums;
  cudaMalloc(&d_px, n * sizeof(int));
  cudaMalloc(&d_py, n * sizeof(int));
  cudaMalloc(&d_cluster, n * sizeof(int));
  cudaMalloc(&d_centroids, centroids.size() * sizeof(int));
  cudaMalloc(&d_sums, sizeof(Sums));
  cudaMalloc(&d_changed, sizeof(int));
  cudaMemcpy(d_px, px.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_py, py.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_centroids, centroids.data(), centroids.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_cluster, 0xff, n * sizeof(int));  // -1: no cluster yet

  const int threads = 256, blocks = (n + threads - 1) / threads;
  int iterations = 0, changed = n;
  std::vector<int> changes;
  while (changed != 0 && iterations < max_iterations) {
    reset<<<1, 32>>>(d_sums, d_changed);
    assign<<<blocks, threads>>>(d_px, d_py, n, d_centroids, d_cluster, d_sums, d_changed);
    update<<<1, 32>>>(d_sums, d_centroids);
    cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost);
    changes.push_back(changed);
    ++iterations;
  }
  std::vector<int> cluster(n), gpu_centroids(2 * kClusters);
  cudaMemcpy(cluster.data(), d_cluster, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(gpu_centroids.data(), d_centroids, gpu_centroids.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaError_t sync = cudaDeviceSynchronize();

  // CPU reference: the same algorithm, sequentially.
  std::vector<int> ref_cluster(n, -1), ref = centroids, ref_changes;
  for (int it = 0; it < max_iterations; ++it) {
    long long sx[kClusters] = {}, sy[kClusters] = {};
    int count[kClusters] = {}, moved = 0;
    int cx[kClusters], cy[kClusters];
    for (int c = 0; c < kClusters; ++c) cx[c] = ref[2 * c], cy[c] = ref[2 * c + 1];
    for (int i = 0; i < n; ++i) {
      const int c = nearest(px[i], py[i], cx, cy);
      moved += ref_cluster[i] != c;
      ref_cluster[i] = c;
      sx[c] += px[i], sy[c] += py[i], ++count[c];
    }
    for (int c = 0; c < kClusters; ++c)
      if (count[c] != 0) {
        ref[2 * c] = static_cast<int>(sx[c] / count[c]);
        ref[2 * c + 1] = static_cast<int>(sy[c] / count[c]);
      }
    ref_changes.push_back(moved);
    if (moved == 0) break;
  }
  int assignment_mismatches = 0;
  for (int i = 0; i < n; ++i) assignment_mismatches += cluster[i] != ref_cluster[i];

  std::printf("kmeans: n=%d k=%d iterations=%d (reference %zu)\n", n, kClusters, iterations, ref_changes.size());
  std::printf("changed per iteration:");
  for (int c : changes) std::printf(" %d", c);
  std::printf("\ncentroids:");
  for (int c = 0; c < kClusters; ++c) std::printf(" (%d,%d)", gpu_centroids[2 * c], gpu_centroids[2 * c + 1]);
  std::printf("\nsync=%s assignment mismatches=%d\n", cudaGetErrorName(sync), assignment_mismatches);
  cudaFree(d_px);
  cudaFree(d_py);
  cudaFree(d_cluster);
  cudaFree(d_centroids);
  cudaFree(d_sums);
  cudaFree(d_changed);
  const bool ok = sync == cudaSuccess && changed == 0 && changes == ref_changes && gpu_centroids == ref &&
                  assignment_mismatches == 0;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
