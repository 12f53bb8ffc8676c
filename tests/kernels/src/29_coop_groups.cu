// Cooperative groups tiles (no grid sync): thread_block_tile<32> and <16> sum reductions with
// tile.shfl_down, tile-level vote, and a tile.sync-ordered exchange through shared memory.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Writes one sum per 32-thread tile (sum32) and per 16-thread tile (sum16); elements past n
// count as 0. Also writes, per thread, its tile16 rank, meta-group rank and the tile16 ballot
// of (v odd).
extern "C" __global__ void tile_reduce(const int* in, int* sum32, int* sum16, unsigned* info,
                                       int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int a = v;
  for (int off = t32.size() / 2; off > 0; off /= 2) a += t32.shfl_down(a, off);
  int b = v;
  for (int off = t16.size() / 2; off > 0; off /= 2) b += t16.shfl_down(b, off);
  unsigned ballot = t16.ballot(v & 1);
  int tiles32 = blockDim.x / 32, tiles16 = blockDim.x / 16;
  if (t32.thread_rank() == 0) sum32[blockIdx.x * tiles32 + t32.meta_group_rank()] = a;
  if (t16.thread_rank() == 0) sum16[blockIdx.x * tiles16 + t16.meta_group_rank()] = b;
  if (i < n) {
    info[3 * i + 0] = t16.thread_rank();
    info[3 * i + 1] = t16.meta_group_rank();
    info[3 * i + 2] = ballot;
  }
}

// Inside each 16-thread tile: write to shared, tile.sync(), read the mirrored lane.
extern "C" __global__ void tile_sync_mirror(const int* in, int* out, int n) {
  __shared__ int s[256];
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  t16.sync();
  int base = threadIdx.x - t16.thread_rank();
  int mirrored = s[base + 15 - t16.thread_rank()];
  if (i < n) out[i] = mirrored;
}
