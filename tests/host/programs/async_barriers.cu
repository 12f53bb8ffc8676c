// Arrive-wait barriers and asynchronous copies as CUDA programs use them, each checked against a
// CPU reference:
//  1. cuda::barrier<thread_scope_block>: init, arrive_and_wait between the phases of an
//     in-place stencil, and split arrive/wait with tokens (independent work between them).
//  2. cuda::memcpy_async of a tile into shared memory completing on a cuda::barrier.
//  3. cooperative_groups::memcpy_async + cg::wait (block-wide copy of a tile).
//  4. cuda::pipeline with producer and consumer warps (partitioned roles) over several stages.
//  5. A cooperative launch (cudaLaunchCooperativeKernel) whose kernel uses a cuda::barrier in each
//     block and grid.sync() between blocks.
//  6. A late arrival: 31 warps of a block wait on a cuda::barrier while the 32nd sums a stretch of
//     global memory. The wait polls, then backs off with nanosleep: the sleeping waiters leave the
//     issue slots to the late warp (a scheduler that kept issuing their polls would starve it).
// Prints one line per part and PASSED when every part matched, FAILED otherwise.
#include <cstdio>
#include <vector>

#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_runtime.h>

// A __shared__ cuda::barrier is initialised with init() by one thread, as CUDA's documentation
// shows; nvcc warns that its constructor does not run.
#pragma nv_diag_suppress static_var_with_dynamic_init

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kThreads = 128;
constexpr int kTile = 256;  // ints per block and tile

// ---- 1. arrive_and_wait and split arrive/wait ---------------------------------------------------

// Per block: rounds of x[i] = x[i-1] + x[i] + x[i+1] (cyclic within the block's tile), with an
// arrive_and_wait between reading the neighbours and writing, and another after writing. Then a
// split arrive/wait: each thread arrives, computes its own squared value, waits, and adds the
// neighbour's square.
__global__ void stencil_rounds(int* data, int rounds, int* out) {
  __shared__ int tile[kThreads];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int t = threadIdx.x;
  tile[t] = data[blockIdx.x * blockDim.x + t];
  bar.arrive_and_wait();
  for (int r = 0; r < rounds; ++r) {
    const int n = blockDim.x;
    const int v = tile[(t + n - 1) % n] + tile[t] + tile[(t + 1) % n];
    bar.arrive_and_wait();
    tile[t] = v % 100003;
    bar.arrive_and_wait();
  }
  __shared__ int squares[kThreads];
  squares[t] = static_cast<int>(1LL * tile[t] * tile[t] % 1009);
  block_barrier::arrival_token token = bar.arrive();
  const int own = tile[t] * 3 + 1;  // work that needs no other thread
  bar.wait(std::move(token));
  out[blockIdx.x * blockDim.x + t] = own + squares[(t + 1) % blockDim.x];
}

bool check_stencil() {
  const int blocks = 3, rounds = 5, n = blocks * kThreads;
  std::vector<int> in(n), expect(n), got(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37 + 11) % 1000;
  for (int b = 0; b < blocks; ++b) {
    std::vector<int> tile(in.begin() + b * kThreads, in.begin() + (b + 1) * kThreads), next(kThreads);
    for (int r = 0; r < rounds; ++r) {
      for (int t = 0; t < kThreads; ++t)
        next[t] = (tile[(t + kThreads - 1) % kThreads] + tile[t] + tile[(t + 1) % kThreads]) % 100003;
      tile = next;
    }
    for (int t = 0; t < kThreads; ++t) {
      const int u = tile[(t + 1) % kThreads];
      expect[b * kThreads + t] = tile[t] * 3 + 1 + static_cast<int>(1LL * u * u % 1009);
    }
  }
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  stencil_rounds<<<blocks, kThreads>>>(d_in, rounds, d_out);
  cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return cudaGetLastError() == cudaSuccess && got == expect;
}

// ---- 2. cuda::memcpy_async with a barrier -------------------------------------------------------

// Each block copies its tile of src into shared memory with cuda::memcpy_async completing on a
// barrier, then writes the tile reversed and scaled.
__global__ void reverse_tiles(const int* src, int* dst) {
  __shared__ alignas(16) int tile[kTile];
  __shared__ block_barrier bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, src + blockIdx.x * kTile, cuda::aligned_size_t<16>(sizeof(tile)), bar);
  bar.arrive_and_wait();
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) dst[blockIdx.x * kTile + i] = 2 * tile[kTile - 1 - i] + 1;
}

// The same copy done by each thread with the per-thread form (4 ints each), to the same barrier.
__global__ void reverse_tiles_per_thread(const int* src, int* dst) {
  __shared__ alignas(16) int tile[kTile];
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  for (int i = threadIdx.x * 4; i < kTile; i += blockDim.x * 4) {
    cuda::memcpy_async(tile + i, src + blockIdx.x * kTile + i, cuda::aligned_size_t<16>(16), bar);
  }
  bar.arrive_and_wait();
  for (int i = threadIdx.x; i < kTile; i += blockDim.x) dst[blockIdx.x * kTile + i] = 2 * tile[kTile - 1 - i] + 1;
}

bool check_reverse(void (*kernel)(const int*, int*)) {
  const int blocks = 4, n = blocks * kTile;
  std::vector<int> in(n), expect(n), got(n);
  for (int i = 0; i < n; ++i) in[i] = i * 7 - 300;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0; i < kTile; ++i) expect[b * kTile + i] = 2 * in[b * kTile + kTile - 1 - i] + 1;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  kernel<<<blocks, kThreads>>>(d_in, d_out);
  cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return cudaGetLastError() == cudaSuccess && got == expect;
}

// ---- 3. cooperative_groups::memcpy_async + cg::wait ----------------------------------------------

// Each block sums windows of 3 over its tile, loaded with cg::memcpy_async, for several tiles.
__global__ void window_sums(const int* src, int* dst, int tiles_per_block) {
  __shared__ int tile[kTile];
  auto block = cg::this_thread_block();
  for (int k = 0; k < tiles_per_block; ++k) {
    const int base = (blockIdx.x * tiles_per_block + k) * kTile;
    cg::memcpy_async(block, tile, src + base, sizeof(int) * kTile);
    cg::wait(block);
    for (int i = threadIdx.x; i < kTile; i += blockDim.x) {
      dst[base + i] = tile[i] + (i > 0 ? tile[i - 1] : 0) + (i + 1 < kTile ? tile[i + 1] : 0);
    }
    block.sync();  // the tile is overwritten next round
  }
}

bool check_window_sums() {
  const int blocks = 2, per_block = 3, n = blocks * per_block * kTile;
  std::vector<int> in(n), expect(n), got(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 13) % 101 - 50;
  for (int t = 0; t < n / kTile; ++t)
    for (int i = 0; i < kTile; ++i) {
      const int* x = in.data() + t * kTile;
      expect[t * kTile + i] = x[i] + (i > 0 ? x[i - 1] : 0) + (i + 1 < kTile ? x[i + 1] : 0);
    }
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  window_sums<<<blocks, kThreads>>>(d_in, d_out, per_block);
  cudaMemcpy(got.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return cudaGetLastError() == cudaSuccess && got == expect;
}

// ---- 4. cuda::pipeline, producer and consumer warps ----------------------------------------------

constexpr int kStages = 2;
constexpr int kChunk = 64;  // ints per stage

// Warp 0 produces (copies chunks of src into the stage buffers), warps 1..3 consume (each chunk's
// values squared plus the chunk index, summed per block). One block per group of chunks.
__global__ void pipelined_sum(const int* src, int chunks, long long* sums) {
  __shared__ alignas(16) int stage[kStages][kChunk];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  __shared__ long long partial[kThreads];
  auto block = cg::this_thread_block();
  const bool producer = threadIdx.x < 32;
  const auto role = producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  const int* mine = src + blockIdx.x * chunks * kChunk;
  long long sum = 0;
  for (int c = 0; c < chunks; ++c) {
    const int s = c % kStages;
    if (producer) {
      pipe.producer_acquire();
      for (int i = threadIdx.x; i < kChunk; i += 32)
        cuda::memcpy_async(&stage[s][i], &mine[c * kChunk + i], sizeof(int), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      for (int i = threadIdx.x - 32; i < kChunk; i += blockDim.x - 32) {
        const long long v = stage[s][i];
        sum += v * v + c;
      }
      pipe.consumer_release();
    }
  }
  partial[threadIdx.x] = sum;
  block.sync();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (int i = 0; i < blockDim.x; ++i) total += partial[i];
    sums[blockIdx.x] = total;
  }
}

bool check_pipeline() {
  const int blocks = 3, chunks = 7, n = blocks * chunks * kChunk;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 29) % 211 - 100;
  std::vector<long long> expect(blocks, 0), got(blocks, -1);
  for (int b = 0; b < blocks; ++b)
    for (int c = 0; c < chunks; ++c)
      for (int i = 0; i < kChunk; ++i) {
        const long long v = in[(b * chunks + c) * kChunk + i];
        expect[b] += v * v + c;
      }
  int* d_in;
  long long* d_sums;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(long long));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  pipelined_sum<<<blocks, kThreads>>>(d_in, chunks, d_sums);
  cudaMemcpy(got.data(), d_sums, blocks * sizeof(long long), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_sums);
  return cudaGetLastError() == cudaSuccess && got == expect;
}

// ---- 5. a cooperative launch with a cuda::barrier in each block -----------------------------------

// Each block sums its slice into shared memory (a cuda::barrier between the partial sums and
// their reduction), publishes its sum, grid.sync(), and then every block writes the grand total
// minus its own sum.
__global__ void others_sum(const int* src, int per_block, long long* block_sums, long long* out) {
  __shared__ long long partial[kThreads];
  __shared__ block_barrier bar;
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  long long s = 0;
  for (int i = threadIdx.x; i < per_block; i += blockDim.x) s += src[blockIdx.x * per_block + i];
  partial[threadIdx.x] = s;
  bar.arrive_and_wait();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (int i = 0; i < blockDim.x; ++i) total += partial[i];
    block_sums[blockIdx.x] = total;
  }
  grid.sync();
  if (threadIdx.x == 0) {
    long long total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += block_sums[b];
    out[blockIdx.x] = total - block_sums[blockIdx.x];
  }
  bar.arrive_and_wait();  // the barrier's second phase, after the grid-wide one
}

bool check_cooperative() {
  const int blocks = 4, per_block = 300, n = blocks * per_block;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 31) % 97;
  std::vector<long long> sums(blocks, 0), expect(blocks), got(blocks, -1);
  long long total = 0;
  for (int i = 0; i < n; ++i) sums[i / per_block] += in[i], total += in[i];
  for (int b = 0; b < blocks; ++b) expect[b] = total - sums[b];
  int* d_in;
  long long *d_sums, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(long long));
  cudaMalloc(&d_out, blocks * sizeof(long long));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int per = per_block;
  void* args[] = {&d_in, &per, &d_sums, &d_out};
  const cudaError_t launched =
      cudaLaunchCooperativeKernel(reinterpret_cast<void*>(others_sum), dim3(blocks), dim3(kThreads), args, 0, 0);
  cudaMemcpy(got.data(), d_out, blocks * sizeof(long long), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_sums);
  cudaFree(d_out);
  return launched == cudaSuccess && cudaGetLastError() == cudaSuccess && got == expect;
}

// ---- 6. a late arrival ---------------------------------------------------------------------------

__global__ void late_arrival(const int* src, int n, int* out) {
  __shared__ block_barrier bar;
  __shared__ int late_sum;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == blockDim.x / 32 - 1) {
    int s = 0;
    for (int i = lane; i < n; i += 32) s += src[i];
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0) late_sum = s;
  }
  bar.arrive_and_wait();
  out[threadIdx.x] = late_sum + threadIdx.x;
}

bool check_late_arrival() {
  const int n = 16384, threads = 1024;
  std::vector<int> in(n), got(threads);
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += in[i] = (i * 13) % 101 - 50;
  int *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_out, threads * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  late_arrival<<<1, threads>>>(d_in, n, d_out);
  cudaMemcpy(got.data(), d_out, threads * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  bool ok = cudaGetLastError() == cudaSuccess;
  for (int t = 0; t < threads; ++t) ok = ok && got[t] == sum + t;
  return ok;
}

int main() {
  bool ok = true;
  auto report = [&](const char* name, bool passed) {
    std::printf("%s: %s\n", name, passed ? "ok" : "MISMATCH");
    ok = ok && passed;
  };
  report("barrier arrive_and_wait, split arrive/wait", check_stencil());
  report("memcpy_async with a barrier (block)", check_reverse(reverse_tiles));
  report("memcpy_async with a barrier (per thread)", check_reverse(reverse_tiles_per_thread));
  report("cooperative_groups::memcpy_async + wait", check_window_sums());
  report("pipeline, producer and consumer warps", check_pipeline());
  report("cooperative launch with a block barrier", check_cooperative());
  report("late arrival at a barrier whose wait sleeps", check_late_arrival());
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
