// Row softmax, one warp per row: each lane scans the row with stride 32, then the warp
// combines per-lane maxima and sums with __shfl_xor_sync butterflies (every lane ends with the
// same value), and each element becomes expf(x - max) / sum. Rows may be longer or shorter
// than 32. The row max and the row sum are also written out.
extern "C" __global__ void softmax_rows(const float* x, float* y, float* row_max,
                                        float* row_sum, int rows, int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (row >= rows) return;  // whole warps leave together: blockDim.x is a multiple of 32
  const float* in = x + static_cast<long long>(row) * cols;
  float m = -INFINITY;
  for (int j = lane; j < cols; j += 32) m = fmaxf(m, in[j]);
  for (int off = 16; off > 0; off >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, off));
  float s = 0.0f;
  for (int j = lane; j < cols; j += 32) s += expf(in[j] - m);
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(0xffffffffu, s, off);
  for (int j = lane; j < cols; j += 32) y[static_cast<long long>(row) * cols + j] = expf(in[j] - m) / s;
  if (lane == 0) {
    row_max[row] = m;
    row_sum[row] = s;
  }
}
