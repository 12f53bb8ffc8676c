// Asynchronous global->shared copies: a double-buffered __pipeline_memcpy_async loop (16-byte
// and 4-byte copies, commit, wait_prior) and cooperative_groups::memcpy_async with cg::wait.
// At compute_75 both become ordinary loads and stores; at 80/90 they become cp.async.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;
constexpr int kTile = 64;  // threads per block and int4 elements per tile

// Block b processes tiles b, b+gridDim.x, ... of `in` (each kTile int4). While tile t is being
// consumed, the copy of the next tile into the other buffer is in flight. Each output element
// mixes its own element with a neighbour's, so the shared data of other threads is read.
extern "C" __global__ void pipeline_double_buffer(const int4* in, const int* bias, int4* out,
                                                  int* bias_out, int tiles) {
  __shared__ int4 buf[2][kTile];
  __shared__ int sbias[2][kTile];
  int t = threadIdx.x;
  int tile = blockIdx.x;
  if (tile >= tiles) return;
  __pipeline_memcpy_async(&buf[0][t], &in[tile * kTile + t], sizeof(int4));
  __pipeline_memcpy_async(&sbias[0][t], &bias[tile * kTile + t], sizeof(int));
  __pipeline_commit();
  int stage = 0;
  for (; tile < tiles; tile += gridDim.x) {
    int next = tile + gridDim.x;
    if (next < tiles) {
      __pipeline_memcpy_async(&buf[stage ^ 1][t], &in[next * kTile + t], sizeof(int4));
      __pipeline_memcpy_async(&sbias[stage ^ 1][t], &bias[next * kTile + t], sizeof(int));
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    int4 mine = buf[stage][t];
    int4 other = buf[stage][(t + 1) % kTile];
    int b = sbias[stage][kTile - 1 - t];
    out[tile * kTile + t] = make_int4(mine.x * 3 + other.w, mine.y - other.z, mine.z ^ other.y,
                                      mine.w + b);
    bias_out[tile * kTile + t] = b * 2;
    __syncthreads();
    stage ^= 1;
  }
}

// Each block copies its chunk of `count` ints with one collective memcpy_async, waits, and
// writes the chunk reversed with the index added.
extern "C" __global__ void cg_memcpy_async_reverse(const int* in, int* out, int count) {
  extern __shared__ int chunk[];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, chunk, in + blockIdx.x * count, sizeof(int) * count);
  cg::wait(block);
  for (int j = threadIdx.x; j < count; j += blockDim.x)
    out[blockIdx.x * count + j] = chunk[count - 1 - j] + j;
}
