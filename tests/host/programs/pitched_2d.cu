// Pitched 2D memory: an image in cudaMallocPitch memory is uploaded with cudaMemcpy2D from a
// tightly packed host buffer, blurred (3x3 box sum, clamped at the edges) and transposed
// through a shared-memory tile, then downloaded with cudaMemcpy2D into a padded host buffer.
// cudaMemset2D clears the outputs first; cudaMemcpy2DAsync copies a sub-rectangle device to
// device and cudaMemset2DAsync fills one. Integer pixels, so the CPU reference matches exactly.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

constexpr int kTile = 32;

__global__ void box_blur(const int* in, size_t in_pitch, int* out, size_t out_pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int sum = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int sx = min(max(x + dx, 0), width - 1), sy = min(max(y + dy, 0), height - 1);
      sum += reinterpret_cast<const int*>(reinterpret_cast<const char*>(in) + sy * in_pitch)[sx];
    }
  reinterpret_cast<int*>(reinterpret_cast<char*>(out) + y * out_pitch)[x] = sum;
}

// out (height x width) = transpose of in (width x height), through a padded tile so that the
// column reads hit different shared-memory banks.
__global__ void transpose(const int* in, size_t in_pitch, int* out, size_t out_pitch, int width, int height) {
  __shared__ int tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int r = 0; r < kTile; r += blockDim.y)
    if (x < width && y + r < height)
      tile[threadIdx.y + r][threadIdx.x] =
          reinterpret_cast<const int*>(reinterpret_cast<const char*>(in) + (y + r) * in_pitch)[x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int r = 0; r < kTile; r += blockDim.y)
    if (x < height && y + r < width)
      reinterpret_cast<int*>(reinterpret_cast<char*>(out) + (y + r) * out_pitch)[x] =
          tile[threadIdx.x][threadIdx.y + r];
}

int main() {
  const int width = 200, height = 120;
  std::vector<int> image(width * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) image[y * width + x] = (x * 7 + y * 13) % 101 - 50;

  int *d_image = nullptr, *d_blur = nullptr, *d_transposed = nullptr, *d_window = nullptr;
  size_t image_pitch = 0, blur_pitch = 0, transposed_pitch = 0, window_pitch = 0;
  cudaMallocPitch(reinterpret_cast<void**>(&d_image), &image_pitch, width * sizeof(int), height);
  cudaMallocPitch(reinterpret_cast<void**>(&d_blur), &blur_pitch, width * sizeof(int), height);
  cudaMallocPitch(reinterpret_cast<void**>(&d_transposed), &transposed_pitch, height * sizeof(int), width);
  const int window_w = 64, window_h = 32, window_x = 10, window_y = 20;
  cudaMallocPitch(reinterpret_cast<void**>(&d_window), &window_pitch, window_w * sizeof(int), window_h);

  cudaError_t up = cudaMemcpy2D(d_image, image_pitch, image.data(), width * sizeof(int), width * sizeof(int), height,
                                cudaMemcpyHostToDevice);
  cudaMemset2D(d_blur, blur_pitch, 0xff, width * sizeof(int), height);
  cudaMemset2D(d_transposed, transposed_pitch, 0, height * sizeof(int), width);

  // The cleared output reads back as -1 everywhere (0xffffffff).
  std::vector<int> cleared(width * height, 0);
  cudaMemcpy2D(cleared.data(), width * sizeof(int), d_blur, blur_pitch, width * sizeof(int), height,
               cudaMemcpyDeviceToHost);
  int not_cleared = 0;
  for (int v : cleared) not_cleared += v != -1;

  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  box_blur<<<grid, block>>>(d_image, image_pitch, d_blur, blur_pitch, width, height);
  transpose<<<dim3((width + kTile - 1) / kTile, (height + kTile - 1) / kTile), dim3(kTile, 8)>>>(
      d_blur, blur_pitch, d_transposed, transposed_pitch, width, height);

  // Download into a host buffer with its own padding: the copy honours both pitches.
  const int host_stride = height + 5;
  std::vector<int> transposed(host_stride * width, 12345);
  cudaError_t down = cudaMemcpy2D(transposed.data(), host_stride * sizeof(int), d_transposed, transposed_pitch,
                                  height * sizeof(int), width, cudaMemcpyDefault);

  cudaStream_t stream;
  cudaStreamCreate(&stream);
  const char* window_source = reinterpret_cast<const char*>(d_blur) + window_y * blur_pitch + window_x * sizeof(int);
  cudaError_t d2d = cudaMemcpy2DAsync(d_window, window_pitch, window_source, blur_pitch, window_w * sizeof(int),
                                      window_h, cudaMemcpyDeviceToDevice, stream);
  // Zero a 4-column band in the middle of the window.
  cudaMemset2DAsync(reinterpret_cast<char*>(d_window) + 30 * sizeof(int), window_pitch, 0, 4 * sizeof(int), window_h,
                    stream);
  std::vector<int> window(window_w * window_h);
  cudaMemcpy2DAsync(window.data(), window_w * sizeof(int), d_window, window_pitch, window_w * sizeof(int), window_h,
                    cudaMemcpyDeviceToHost, stream);
  cudaError_t sync = cudaStreamSynchronize(stream);

  // A row wider than the destination pitch is refused.
  cudaError_t bad_pitch = cudaMemcpy2D(d_window, 16, image.data(), width * sizeof(int), 32, 2, cudaMemcpyHostToDevice);
  cudaError_t cleared_error = cudaGetLastError();

  std::vector<int> blur(width * height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int sx = std::min(std::max(x + dx, 0), width - 1), sy = std::min(std::max(y + dy, 0), height - 1);
          sum += image[sy * width + sx];
        }
      blur[y * width + x] = sum;
    }
  int transpose_mismatches = 0, padding_touched = 0, window_mismatches = 0;
  for (int y = 0; y < width; ++y) {
    for (int x = 0; x < height; ++x) transpose_mismatches += transposed[y * host_stride + x] != blur[x * width + y];
    for (int x = height; x < host_stride; ++x) padding_touched += transposed[y * host_stride + x] != 12345;
  }
  for (int y = 0; y < window_h; ++y)
    for (int x = 0; x < window_w; ++x) {
      const int expected = x >= 30 && x < 34 ? 0 : blur[(window_y + y) * width + window_x + x];
      window_mismatches += window[y * window_w + x] != expected;
    }

  std::printf("pitched_2d: %dx%d pitches=%zu,%zu,%zu,%zu\n", width, height, image_pitch, blur_pitch,
              transposed_pitch, window_pitch);
  std::printf("copies=%s,%s,%s sync=%s cleared mismatches=%d\n", cudaGetErrorName(up), cudaGetErrorName(down),
              cudaGetErrorName(d2d), cudaGetErrorName(sync), not_cleared);
  std::printf("transpose mismatches=%d padding touched=%d window mismatches=%d blur[0]=%d blur[last]=%d\n",
              transpose_mismatches, padding_touched, window_mismatches, blur[0], blur[width * height - 1]);
  std::printf("width > pitch: %s, last error %s\n", cudaGetErrorName(bad_pitch), cudaGetErrorName(cleared_error));
  cudaStreamDestroy(stream);
  cudaFree(d_image);
  cudaFree(d_blur);
  cudaFree(d_transposed);
  cudaFree(d_window);
  const bool ok = up == cudaSuccess && down == cudaSuccess && d2d == cudaSuccess && sync == cudaSuccess &&
                  not_cleared == 0 && transpose_mismatches == 0 && padding_touched == 0 && window_mismatches == 0 &&
                  bad_pitch == cudaErrorInvalidPitchValue && image_pitch % 256 == 0 &&
                  image_pitch >= width * sizeof(int);
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
