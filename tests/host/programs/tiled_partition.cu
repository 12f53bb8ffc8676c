// Cooperative-groups tiles wider than a warp: tiled_partition<64> and <128> of a block of 256
// threads. On sm_80 and newer their barrier and collectives keep state in the block's reserved
// shared memory (%reserved_smem_offset_1); before, in a block_tile_memory the program provides. Each thread writes its tile's rank data, a tile-wide
// sum (cg::reduce) and a value read back after tile.sync(); checked against a CPU reference.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <unsigned Size>
__global__ void tiles(const int* in, int* out) {
  __shared__ int staged[256];
#if __CUDA_ARCH__ < 800
  // Before sm_80 there is no reserved shared memory: the tiles' state lives in the program's.
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
#else
  cg::thread_block block = cg::this_thread_block();
#endif
  cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
  const int t = threadIdx.x;
  const int v = in[blockIdx.x * 256 + t];
  staged[t] = v;
  tile.sync();
  // The value of the tile's mirror thread, visible only after the tile's barrier.
  const int mirror = staged[t - tile.thread_rank() + (Size - 1 - tile.thread_rank())];
  const int sum = cg::reduce(tile, v, cg::plus<int>());
  int* o = out + (blockIdx.x * 256 + t) * 4;
  o[0] = tile.thread_rank();
  o[1] = tile.meta_group_rank();
  o[2] = sum;
  o[3] = mirror;
}

template <unsigned Size>
int check(const int* d_in, int* d_out, const int* in, int blocks) {
  tiles<Size><<<blocks, 256>>>(d_in, d_out);
  static int out[4 * 256 * 4];
  if (cudaMemcpy(out, d_out, blocks * 256 * 4 * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < 256; ++t) {
      const int rank = t % Size, group = t / Size;
      int sum = 0;
      for (int k = 0; k < (int)Size; ++k) sum += in[b * 256 + group * Size + k];
      const int mirror = in[b * 256 + group * Size + (Size - 1 - rank)];
      const int* o = out + (b * 256 + t) * 4;
      wrong += o[0] != rank || o[1] != group || o[2] != sum || o[3] != mirror;
    }
  }
  return wrong;
}

int main() {
  const int blocks = 4;
  static int in[blocks * 256];
  for (int i = 0; i < blocks * 256; ++i) in[i] = (i * 7919) % 1000 - 300;
  int *d_in = nullptr, *d_out = nullptr;
  cudaMalloc(&d_in, sizeof(in));
  cudaMalloc(&d_out, sizeof(in) * 4);
  cudaMemcpy(d_in, in, sizeof(in), cudaMemcpyHostToDevice);
  const int wrong64 = check<64>(d_in, d_out, in, blocks);
  const int wrong128 = check<128>(d_in, d_out, in, blocks);
  const bool ok = wrong64 == 0 && wrong128 == 0;
  std::printf("tiled_partition<64>: wrong %d\ntiled_partition<128>: wrong %d\n%s\n", wrong64, wrong128,
              ok ? "PASSED" : "FAILED");
  cudaFree(d_in);
  cudaFree(d_out);
  return ok ? 0 : 1;
}
