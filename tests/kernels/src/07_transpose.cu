// Matrix transpose through a shared 32x33 tile (the +1 column avoids bank conflicts).
// Blocks are 32x8 threads; each thread moves 4 rows of the tile. out[x][y] = in[y][x] for an
// in matrix of `height` rows and `width` columns.
#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_tiled(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // column in out = row in in
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    if (x < height && y + j < width) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// Naive transpose of 64-bit elements (no shared memory), 2D grid of 16x16 blocks.
extern "C" __global__ void transpose_naive_u64(const unsigned long long* in, unsigned long long* out,
                                               int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[x * height + y] = in[y * width + x];
}
