// Managed (unified) memory: particles in a box. The host fills cudaMallocManaged arrays
// directly, kernels move the particles (counting wall bounces in a __managed__ counter) and
// histogram them with shared-memory atomics, then the host sorts the cell ids in place with
// std::sort and a last kernel counts the distinct cells in the sorted managed array. Integer
// arithmetic throughout, so the CPU reference must match exactly.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

struct Particle {
  int x, y, vx, vy;
};

constexpr int kCellsX = 16, kCellsY = 16, kCells = kCellsX * kCellsY;

__managed__ int bounces = 0;             // updated by kernels, read by the host
__managed__ int box[2] = {4000, 3000};   // an initialised managed variable the kernels read

__host__ __device__ void advance(Particle& p, int width, int height, int& hits) {
  p.x += p.vx;
  p.y += p.vy;
  if (p.x < 0) p.x = -p.x, p.vx = -p.vx, ++hits;
  if (p.x >= width) p.x = 2 * (width - 1) - p.x, p.vx = -p.vx, ++hits;
  if (p.y < 0) p.y = -p.y, p.vy = -p.vy, ++hits;
  if (p.y >= height) p.y = 2 * (height - 1) - p.y, p.vy = -p.vy, ++hits;
}

__host__ __device__ int cell_of(const Particle& p, int width, int height) {
  return (p.y * kCellsY / height) * kCellsX + p.x * kCellsX / width;
}

__global__ void step(Particle* particles, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int hits = 0;
  advance(particles[i], box[0], box[1], hits);
  if (hits != 0) atomicAdd(&bounces, hits);
}

__global__ void histogram(const Particle* particles, int n, unsigned* bins, int* cells) {
  __shared__ unsigned local[kCells];
  for (int c = threadIdx.x; c < kCells; c += blockDim.x) local[c] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int c = cell_of(particles[i], box[0], box[1]);
    cells[i] = c;
    atomicAdd(&local[c], 1u);
  }
  __syncthreads();
  for (int c = threadIdx.x; c < kCells; c += blockDim.x)
    if (local[c] != 0) atomicAdd(&bins[c], local[c]);
}

// Counts the positions where a sorted array starts a new run.
__global__ void count_runs(const int* sorted, int n, int* runs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (i == 0 || sorted[i] != sorted[i - 1])) atomicAdd(runs, 1);
}

int main() {
  const int n = 5000, steps = 12, threads = 128, blocks = (n + threads - 1) / threads;
  Particle* particles = nullptr;
  unsigned* bins = nullptr;
  int *cells = nullptr, *runs = nullptr;
  cudaError_t a = cudaMallocManaged(&particles, n * sizeof(Particle));
  cudaMallocManaged(&bins, kCells * sizeof(unsigned));
  cudaMallocManaged(&cells, n * sizeof(int));
  cudaMallocManaged(&runs, sizeof(int), cudaMemAttachGlobal);

  // The host writes managed memory directly: no cudaMemcpy.
  unsigned seed = 12345;
  auto next = [&seed](int range) {
    seed = seed * 1103515245u + 12345u;
    return static_cast<int>((seed >> 8) % static_cast<unsigned>(range));
  };
  std::vector<Particle> reference(n);
  for (int i = 0; i < n; ++i) {
    particles[i] = Particle{next(box[0]), next(box[1]), next(201) - 100, next(201) - 100};
    reference[i] = particles[i];
  }
  std::memset(bins, 0, kCells * sizeof(unsigned));
  *runs = 0;

  cudaMemLocation gpu{cudaMemLocationTypeDevice, 0};
  cudaError_t prefetch = cudaMemPrefetchAsync(particles, n * sizeof(Particle), gpu, 0, 0);
  cudaError_t advise = cudaMemAdvise(box, sizeof(box), cudaMemAdviseSetReadMostly, gpu);
  for (int s = 0; s < steps; ++s) step<<<blocks, threads>>>(particles, n);
  histogram<<<blocks, threads>>>(particles, n, bins, cells);
  cudaError_t sync = cudaDeviceSynchronize();

  int reference_bounces = 0;
  std::vector<unsigned> reference_bins(kCells, 0);
  std::vector<int> reference_cells(n);
  for (int i = 0; i < n; ++i) {
    for (int s = 0; s < steps; ++s) advance(reference[i], box[0], box[1], reference_bounces);
    reference_cells[i] = cell_of(reference[i], box[0], box[1]);
    ++reference_bins[reference_cells[i]];
  }
  int position_mismatches = 0, bin_mismatches = 0;
  for (int i = 0; i < n; ++i)
    position_mismatches += std::memcmp(&particles[i], &reference[i], sizeof(Particle)) != 0;
  for (int c = 0; c < kCells; ++c) bin_mismatches += bins[c] != reference_bins[c];

  // Host algorithms run on managed memory in place; the kernel then reads the sorted result.
  std::sort(cells, cells + n);
  cudaMemLocation host{cudaMemLocationTypeHost, 0};
  cudaMemPrefetchAsync(cells, n * sizeof(int), host, 0, 0);
  count_runs<<<blocks, threads>>>(cells, n, runs);
  cudaDeviceSynchronize();
  std::sort(reference_cells.begin(), reference_cells.end());
  const int reference_runs =
      static_cast<int>(std::unique(reference_cells.begin(), reference_cells.end()) - reference_cells.begin());

  // A managed pointer is both a host and a device pointer: cudaMemcpyDefault copies from it.
  std::vector<unsigned> copied(kCells);
  cudaError_t copy = cudaMemcpy(copied.data(), bins, kCells * sizeof(unsigned), cudaMemcpyDefault);
  cudaPointerAttributes attributes;
  cudaPointerGetAttributes(&attributes, particles + 7);
  int last_prefetch = -9;
  cudaMemRangeGetAttribute(&last_prefetch, sizeof(int), cudaMemRangeAttributeLastPrefetchLocation, particles,
                           n * sizeof(Particle));

  const int gpu_runs = *runs;
  std::printf("managed_memory: n=%d steps=%d box=%dx%d\n", n, steps, box[0], box[1]);
  std::printf("alloc=%s prefetch=%s advise=%s sync=%s copy=%s\n", cudaGetErrorName(a), cudaGetErrorName(prefetch),
              cudaGetErrorName(advise), cudaGetErrorName(sync), cudaGetErrorName(copy));
  std::printf("bounces=%d (reference %d) cells=%d (reference %d)\n", bounces, reference_bounces, gpu_runs,
              reference_runs);
  std::printf("mismatches: positions=%d bins=%d copy=%d\n", position_mismatches, bin_mismatches,
              static_cast<int>(copied != reference_bins));
  std::printf("attributes: managed=%d same pointer=%d last prefetch=%d\n",
              attributes.type == cudaMemoryTypeManaged, attributes.devicePointer == particles + 7, last_prefetch);
  cudaError_t freed = cudaFree(particles);
  cudaFree(bins);
  cudaFree(cells);
  cudaFree(runs);
  const bool ok = a == cudaSuccess && sync == cudaSuccess && freed == cudaSuccess && bounces == reference_bounces &&
                  gpu_runs == reference_runs && position_mismatches == 0 && bin_mismatches == 0 &&
                  copied == reference_bins && attributes.type == cudaMemoryTypeManaged && last_prefetch == 0;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
