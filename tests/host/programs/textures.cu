// Texture and surface objects in realistic use: a bilinear image resize through a 2D texture
// over a CUDA array (normalized coordinates, clamp), a grayscale pass reading RGBA8 texels as
// normalized floats, a tex1Dfetch gather over linear memory, and an in-place surface pass read
// back with cudaMemcpy2DFromArray. Every result is checked against a CPU reference; the
// reference filter follows the CUDA programming guide (weights in 9-bit fixed point).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                            \
      std::printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_));                   \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

__global__ void resize(cudaTextureObject_t image, float* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float u = (x + 0.5f) / width, v = (y + 0.5f) / height;
  out[y * width + x] = tex2D<float>(image, u, v);
}

__global__ void grayscale(cudaTextureObject_t rgba, float* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const float4 p = tex2D<float4>(rgba, x + 0.5f, y + 0.5f);
  out[y * width + x] = 0.25f * p.x + 0.5f * p.y + 0.25f * p.z;
}

__global__ void gather(cudaTextureObject_t values, const int* index, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(values, index[i]);
}

__global__ void invert(cudaSurfaceObject_t surface, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const uchar4 p = surf2Dread<uchar4>(surface, x * sizeof(uchar4), y);
  surf2Dwrite(make_uchar4(255 - p.x, 255 - p.y, 255 - p.z, p.w), surface, x * sizeof(uchar4), y);
}

// The guide's linear filter at texel coordinate (x, y) with clamp addressing.
float reference_bilinear(const std::vector<float>& img, int w, int h, float x, float y) {
  auto at = [&](int i, int j) {
    i = i < 0 ? 0 : (i >= w ? w - 1 : i);
    j = j < 0 ? 0 : (j >= h ? h - 1 : j);
    return img[j * w + i];
  };
  const float xb = x - 0.5f, yb = y - 0.5f;
  const float fx = std::floor(xb), fy = std::floor(yb);
  const float a = std::nearbyint((xb - fx) * 256.0f) / 256.0f, b = std::nearbyint((yb - fy) * 256.0f) / 256.0f;
  const int i = static_cast<int>(fx), j = static_cast<int>(fy);
  const float top = (1.0f - a) * at(i, j) + a * at(i + 1, j);
  const float bottom = (1.0f - a) * at(i, j + 1) + a * at(i + 1, j + 1);
  return (1.0f - b) * top + b * bottom;
}

cudaTextureObject_t array_texture(cudaArray_t array, cudaTextureAddressMode mode, cudaTextureFilterMode filter,
                                  cudaTextureReadMode read, int normalized) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc tex = {};
  tex.addressMode[0] = tex.addressMode[1] = mode;
  tex.filterMode = filter;
  tex.readMode = read;
  tex.normalizedCoords = normalized;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &tex, nullptr));
  return t;
}

bool resize_pass() {
  const int w = 64, h = 48, ow = 40, oh = 30;
  std::vector<float> img(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) img[y * w + x] = std::sin(0.21f * x) * std::cos(0.13f * y) + 0.01f * (x ^ y);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(float), w * sizeof(float), h,
                            cudaMemcpyHostToDevice));
  cudaTextureObject_t t = array_texture(array, cudaAddressModeClamp, cudaFilterModeLinear, cudaReadModeElementType, 1);
  float* d_out;
  CHECK(cudaMalloc(&d_out, ow * oh * sizeof(float)));
  resize<<<dim3((ow + 15) / 16, (oh + 15) / 16), dim3(16, 16)>>>(t, d_out, ow, oh);
  CHECK(cudaGetLastError());
  std::vector<float> out(ow * oh);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int y = 0; y < oh && ok; ++y)
    for (int x = 0; x < ow && ok; ++x) {
      const float u = (x + 0.5f) / ow, v = (y + 0.5f) / oh;
      const float want = reference_bilinear(img, w, h, u * w, v * h);
      if (std::fabs(out[y * ow + x] - want) > 1e-3f) {
        std::printf("resize (%d, %d): got %f, want %f\n", x, y, out[y * ow + x], want);
        ok = false;
      }
    }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(d_out));
  std::printf("bilinear resize %dx%d -> %dx%d: %s\n", w, h, ow, oh, ok ? "ok" : "mismatch");
  return ok;
}

bool grayscale_pass() {
  const int w = 20, h = 12;
  std::vector<uchar4> img(w * h);
  for (int i = 0; i < w * h; ++i)
    img[i] = make_uchar4(static_cast<unsigned char>(i * 7), static_cast<unsigned char>(i * 13),
                         static_cast<unsigned char>(255 - i), 255);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, w, h));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(uchar4), w * sizeof(uchar4), h,
                            cudaMemcpyHostToDevice));
  cudaTextureObject_t t =
      array_texture(array, cudaAddressModeClamp, cudaFilterModePoint, cudaReadModeNormalizedFloat, 0);
  float* d_out;
  CHECK(cudaMalloc(&d_out, w * h * sizeof(float)));
  grayscale<<<dim3(2, 2), dim3(16, 8)>>>(t, d_out, w, h);
  CHECK(cudaGetLastError());
  std::vector<float> out(w * h);
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < w * h && ok; ++i) {
    const float want = 0.25f * img[i].x / 255.0f + 0.5f * img[i].y / 255.0f + 0.25f * img[i].z / 255.0f;
    if (std::fabs(out[i] - want) > 1e-5f) {
      std::printf("grayscale %d: got %f, want %f\n", i, out[i], want);
      ok = false;
    }
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(d_out));
  std::printf("grayscale of %dx%d RGBA8 via normalized reads: %s\n", w, h, ok ? "ok" : "mismatch");
  return ok;
}

bool gather_pass() {
  const int n = 1000, count = 512;
  std::vector<int> values(count), index(n);
  for (int i = 0; i < count; ++i) values[i] = i * i - 300;
  int outside = 0;
  for (int i = 0; i < n; ++i) {
    index[i] = (i * 37 + 11) % 540 - 10;  // a few indices fall outside [0, 512)
    outside += index[i] < 0 || index[i] >= count;
  }
  int *d_values, *d_index, *d_out;
  CHECK(cudaMalloc(&d_values, count * sizeof(int)));
  CHECK(cudaMalloc(&d_index, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK(cudaMemcpy(d_values, values.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_index, index.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_values;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = count * sizeof(int);
  cudaTextureDesc tex = {};
  tex.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &tex, nullptr));
  gather<<<(n + 127) / 128, 128>>>(t, d_index, d_out, n);
  CHECK(cudaGetLastError());
  std::vector<int> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n && ok; ++i) {
    const int want = index[i] < 0 || index[i] >= count ? 0 : values[index[i]];
    if (out[i] != want) {
      std::printf("gather %d: got %d, want %d\n", i, out[i], want);
      ok = false;
    }
  }
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(d_values));
  CHECK(cudaFree(d_index));
  CHECK(cudaFree(d_out));
  std::printf("tex1Dfetch gather of %d ints (%d outside read 0): %s\n", n, outside, ok ? "ok" : "mismatch");
  return ok;
}

bool surface_pass() {
  const int w = 32, h = 16;
  std::vector<uchar4> img(w * h);
  for (int i = 0; i < w * h; ++i)
    img[i] = make_uchar4(static_cast<unsigned char>(i), static_cast<unsigned char>(i / 3),
                         static_cast<unsigned char>(i * 5), static_cast<unsigned char>(i & 0x7f));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, w, h, cudaArraySurfaceLoadStore));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, img.data(), w * sizeof(uchar4), w * sizeof(uchar4), h,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &res));
  invert<<<dim3(w / 16, h / 8), dim3(16, 8)>>>(s, w, h);
  CHECK(cudaGetLastError());
  std::vector<uchar4> out(w * h);
  CHECK(cudaMemcpy2DFromArray(out.data(), w * sizeof(uchar4), array, 0, 0, w * sizeof(uchar4), h,
                              cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < w * h && ok; ++i) {
    const uchar4 a = out[i], b = img[i];
    if (a.x != 255 - b.x || a.y != 255 - b.y || a.z != 255 - b.z || a.w != b.w) {
      std::printf("surface %d: got (%d %d %d %d)\n", i, a.x, a.y, a.z, a.w);
      ok = false;
    }
  }
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(array));
  std::printf("surface invert of %dx%d uchar4: %s\n", w, h, ok ? "ok" : "mismatch");
  return ok;
}

int main() {
  bool ok = resize_pass();
  ok = grayscale_pass() && ok;
  ok = gather_pass() && ok;
  ok = surface_pass() && ok;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
