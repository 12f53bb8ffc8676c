// Stencils whose coefficients live in __constant__ memory (set by the host before launch).
//  - stencil1d: radius-3 symmetric stencil, a shared tile with halo cells, zero outside [0, n).
//  - stencil2d: 5-point stencil on a width x height grid with clamp-to-edge borders.
#define RADIUS 3
#define BLOCK1D 128

__constant__ float coef1d[RADIUS + 1];
__constant__ float coef2d[5];

extern "C" __global__ void stencil1d(const float* in, float* out, int n) {
  __shared__ float tile[BLOCK1D + 2 * RADIUS];
  int g = blockIdx.x * BLOCK1D + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS;
    int right = g + BLOCK1D;
    tile[l - RADIUS] = left >= 0 && left < n ? in[left] : 0.0f;
    tile[l + BLOCK1D] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (g >= n) return;
  float sum = coef1d[0] * tile[l];
  for (int r = 1; r <= RADIUS; ++r) sum += coef1d[r] * (tile[l - r] + tile[l + r]);
  out[g] = sum;
}

extern "C" __global__ void stencil2d(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int xl = max(x - 1, 0), xr = min(x + 1, width - 1);
  int yu = max(y - 1, 0), yd = min(y + 1, height - 1);
  float v = coef2d[0] * in[y * width + x];
  v += coef2d[1] * in[y * width + xl];
  v += coef2d[2] * in[y * width + xr];
  v += coef2d[3] * in[yu * width + x];
  v += coef2d[4] * in[yd * width + x];
  out[y * width + x] = v;
}
