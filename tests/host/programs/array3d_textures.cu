// CUDA arrays in three dimensions and their textures: a volume copied host -> 3D array ->
// pitched device memory -> host with cudaMemcpy3D and offsets on every side; textures over a
// 2D layered, a 1D layered, a cubemap and a layered cubemap array fetched in kernels; a surface
// writing into a 2D layered array; cudaMemcpy3DAsync into an array captured in a graph; and
// cudaMemcpy3D's errors. Every result is checked against a CPU reference. Texel values are
// small integers and filter weights multiples of 1/4, so every filtered value is exact and the
// checks compare exactly.
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

static int failures = 0;

static void report(const char* what, int bad) {
  std::printf("%s: %s\n", what, bad == 0 ? "ok" : "FAIL");
  if (bad != 0) ++failures;
}

struct Direction {
  float x, y, z;
};

// ---- kernels ----

__global__ void fetch_2d_layered(cudaTextureObject_t t, const float4* where, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, where[i].x, where[i].y, static_cast<int>(where[i].z));
}

__global__ void fetch_1d_layered(cudaTextureObject_t t, const float2* where, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1DLayered<int>(t, where[i].x, static_cast<int>(where[i].y));
}

__global__ void fetch_cubemap(cudaTextureObject_t t, const Direction* d, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, d[i].x, d[i].y, d[i].z);
}

__global__ void fetch_cubemap_layered(cudaTextureObject_t t, const Direction* d, const int* cube, float* out,
                                      int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLayered<float>(t, d[i].x, d[i].y, d[i].z, cube[i]);
}

__global__ void stamp_layers(cudaSurfaceObject_t s, int width, int height, int layers) {
  const int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
  if (x < width && y < height && layer < layers)
    surf2DLayeredwrite<int>(layer * 100 + y * 10 + x, s, x * static_cast<int>(sizeof(int)), y, layer);
}

// ---- helpers ----

template <typename T>
static T* to_device(const std::vector<T>& host) {
  T* p = nullptr;
  CHECK(cudaMalloc(&p, host.size() * sizeof(T)));
  CHECK(cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}

template <typename T>
static std::vector<T> to_host(const T* device, size_t n) {
  std::vector<T> host(n);
  CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// The whole of an array, row-major with z (or layer) slowest, through cudaMemcpy3D.
template <typename T>
static std::vector<T> read_array(cudaArray_t a, size_t w, size_t h, size_t d) {
  std::vector<T> host(w * h * d);
  cudaMemcpy3DParms p = {};
  p.srcArray = a;
  p.dstPtr = make_cudaPitchedPtr(host.data(), w * sizeof(T), w, h);
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&p));
  return host;
}

template <typename T>
static void write_array(cudaArray_t a, const std::vector<T>& host, size_t w, size_t h, size_t d) {
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(const_cast<T*>(host.data()), w * sizeof(T), w, h);
  p.dstArray = a;
  p.extent = make_cudaExtent(w, h, d);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
}

static cudaTextureObject_t texture_over(cudaArray_t a, cudaTextureFilterMode filter, bool normalized) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaTextureDesc tex = {};
  tex.addressMode[0] = tex.addressMode[1] = tex.addressMode[2] = cudaAddressModeClamp;
  tex.filterMode = filter;
  tex.readMode = cudaReadModeElementType;
  tex.normalizedCoords = normalized ? 1 : 0;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &res, &tex, nullptr));
  return t;
}

static int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

// The guide's linear filter in 2D at texel coordinate (x, y), clamped, over one layer.
static float reference_bilinear(const float* layer, int w, int h, float x, float y) {
  auto at = [&](int i, int j) { return layer[clamp_index(j, h) * w + clamp_index(i, w)]; };
  const float xb = x - 0.5f, yb = y - 0.5f;
  const float fx = std::floor(xb), fy = std::floor(yb);
  const float a = std::nearbyint((xb - fx) * 256.0f) / 256.0f, b = std::nearbyint((yb - fy) * 256.0f) / 256.0f;
  const int i = static_cast<int>(fx), j = static_cast<int>(fy);
  const float top = (1.0f - a) * at(i, j) + a * at(i + 1, j);
  const float bottom = (1.0f - a) * at(i, j + 1) + a * at(i + 1, j + 1);
  return (1.0f - b) * top + b * bottom;
}

// The programming guide's cubemap table: face (+x -x +y -y +z -z) and face point (s, t).
static void reference_face(Direction d, int& face, float& s, float& t) {
  const float ax = std::fabs(d.x), ay = std::fabs(d.y), az = std::fabs(d.z);
  float m, sc, tc;
  if (ax > ay && ax > az) {
    face = d.x >= 0 ? 0 : 1;
    m = ax;
    sc = d.x >= 0 ? -d.z : d.z;
    tc = -d.y;
  } else if (ay > ax && ay > az) {
    face = d.y >= 0 ? 2 : 3;
    m = ay;
    sc = d.x;
    tc = d.y >= 0 ? d.z : -d.z;
  } else {
    face = d.z >= 0 ? 4 : 5;
    m = az;
    sc = d.z >= 0 ? d.x : -d.x;
    tc = -d.y;
  }
  s = 0.5f * (sc / m + 1.0f);
  t = 0.5f * (tc / m + 1.0f);
}

// Directions that point at every face, away from edges and ties between axes.
static std::vector<Direction> directions() {
  std::vector<Direction> out;
  const float across[] = {-0.7f, -0.3f, 0.1f, 0.6f};
  for (int axis = 0; axis < 3; ++axis)
    for (float sign : {1.0f, -1.0f})
      for (float a : across)
        for (float b : across) {
          float v[3];
          v[axis] = sign * 1.5f;
          v[(axis + 1) % 3] = a * 1.5f;
          v[(axis + 2) % 3] = b * 1.5f;
          out.push_back({v[0], v[1], v[2]});
        }
  return out;
}

// ---- parts ----

static void volume_round_trip() {
  // Host volume 10 x 6 x 5 floats; a 6 x 4 x 3 box from host (2, 1, 1) goes to array (1, 1, 1)
  // of an 8 x 6 x 4 array; a 4 x 3 x 2 box from array (2, 2, 2) goes to pitched device memory
  // at (3 floats, 1, 1), and that whole allocation back to the host.
  const size_t HW = 10, HH = 6, HD = 5, AW = 8, AH = 6, AD = 4;
  std::vector<float> host(HW * HH * HD);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i) + 0.5f;
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(AW, AH, AD)));
  write_array(a, std::vector<float>(AW * AH * AD, -1.0f), AW, AH, AD);
  cudaMemcpy3DParms in = {};
  in.srcPtr = make_cudaPitchedPtr(host.data(), HW * sizeof(float), HW, HH);
  in.srcPos = make_cudaPos(2 * sizeof(float), 1, 1);
  in.dstArray = a;
  in.dstPos = make_cudaPos(1, 1, 1);
  in.extent = make_cudaExtent(6, 4, 3);
  in.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&in));

  int bad = 0;
  const std::vector<float> whole = read_array<float>(a, AW, AH, AD);
  for (size_t z = 0; z < AD; ++z)
    for (size_t y = 0; y < AH; ++y)
      for (size_t x = 0; x < AW; ++x) {
        const bool inside = x >= 1 && x < 7 && y >= 1 && y < 5 && z >= 1 && z < 4;
        const float want = inside ? host[(z * HH + y) * HW + (x + 1)] : -1.0f;
        bad += whole[(z * AH + y) * AW + x] != want;
      }

  cudaPitchedPtr device = {};
  CHECK(cudaMalloc3D(&device, make_cudaExtent(8 * sizeof(float), 4, 3)));
  CHECK(cudaMemset3D(device, 0, make_cudaExtent(8 * sizeof(float), 4, 3)));
  cudaMemcpy3DParms out = {};
  out.srcArray = a;
  out.srcPos = make_cudaPos(2, 2, 2);
  out.dstPtr = device;
  out.dstPos = make_cudaPos(3 * sizeof(float), 1, 1);
  out.extent = make_cudaExtent(4, 3, 2);
  out.kind = cudaMemcpyDeviceToDevice;
  CHECK(cudaMemcpy3DAsync(&out, 0));
  std::vector<float> back(8 * 4 * 3);
  cudaMemcpy3DParms down = {};
  down.srcPtr = device;
  down.dstPtr = make_cudaPitchedPtr(back.data(), 8 * sizeof(float), 8, 4);
  down.extent = make_cudaExtent(8 * sizeof(float), 4, 3);  // no array: bytes
  down.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&down));
  for (size_t z = 0; z < 3; ++z)
    for (size_t y = 0; y < 4; ++y)
      for (size_t x = 0; x < 8; ++x) {
        const bool inside = x >= 3 && x < 7 && y >= 1 && z >= 1;
        // device (x, y, z) <- array (x - 1, y + 1, z + 1) <- host (x, y + 1, z + 1)
        const float want = inside ? host[((z + 1) * HH + (y + 1)) * HW + x] : 0.0f;
        bad += back[(z * 4 + y) * 8 + x] != want;
      }
  report("3D volume host -> array -> device -> host with offsets", bad);
  CHECK(cudaFree(device.ptr));
  CHECK(cudaFreeArray(a));
}

static void layered_2d() {
  const int W = 8, H = 4, L = 3;
  std::vector<float> texels(W * H * L);
  for (int i = 0; i < W * H * L; ++i) texels[i] = static_cast<float>((i * 7) % 64);
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(W, H, L), cudaArrayLayered));
  write_array(a, texels, W, H, L);
  std::vector<float4> where;
  for (int l = 0; l < L; ++l)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) where.push_back(make_float4(x + 0.25f * (x % 4), y + 0.25f * (y % 4), l, 0));
  where.push_back(make_float4(-2.0f, 9.0f, 1, 0));  // clamped to (0, 3)
  const int n = static_cast<int>(where.size());
  float4* d_where = to_device(where);
  float* d_out = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  int bad = 0;
  for (cudaTextureFilterMode filter : {cudaFilterModePoint, cudaFilterModeLinear}) {
    const cudaTextureObject_t t = texture_over(a, filter, false);
    fetch_2d_layered<<<(n + 63) / 64, 64>>>(t, d_where, d_out, n);
    CHECK(cudaGetLastError());
    const std::vector<float> got = to_host(d_out, n);
    for (int i = 0; i < n; ++i) {
      const float* layer = texels.data() + static_cast<int>(where[i].z) * W * H;
      const float x = where[i].x, y = where[i].y;
      const float want = filter == cudaFilterModePoint
                             ? layer[clamp_index(static_cast<int>(std::floor(y)), H) * W +
                                     clamp_index(static_cast<int>(std::floor(x)), W)]
                             : reference_bilinear(layer, W, H, x, y);
      bad += got[i] != want;
    }
    CHECK(cudaDestroyTextureObject(t));
  }
  report("tex2DLayered point and linear over 3 layers", bad);
  CHECK(cudaFree(d_where));
  CHECK(cudaFree(d_out));
  CHECK(cudaFreeArray(a));
}

static void layered_1d() {
  const int W = 16, L = 4;
  std::vector<int> texels(W * L);
  for (int i = 0; i < W * L; ++i) texels[i] = (i % W) * 1000 - (i / W) * 3;
  const cudaChannelFormatDesc c = cudaCreateChannelDesc<int>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &c, make_cudaExtent(W, 0, L), cudaArrayLayered));
  write_array(a, texels, W, 1, L);
  std::vector<float2> where;
  for (int l = 0; l < L; ++l)
    for (int x = -2; x < W + 2; ++x) where.push_back(make_float2(x + 0.5f, static_cast<float>(l)));
  const int n = static_cast<int>(where.size());
  float2* d_where = to_device(where);
  int* d_out = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  const cudaTextureObject_t t = texture_over(a, cudaFilterModePoint, false);
  fetch_1d_layered<<<(n + 63) / 64, 64>>>(t, d_where, d_out, n);
  CHECK(cudaGetLastError());
  const std::vector<int> got = to_host(d_out, n);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    const int x = clamp_index(static_cast<int>(std::floor(where[i].x)), W), l = static_cast<int>(where[i].y);
    bad += got[i] != texels[l * W + x];
  }
  report("tex1DLayered over 4 layers", bad);
  CHECK(cudaDestroyTextureObject(t));
  CHECK(cudaFree(d_where));
  CHECK(cudaFree(d_out));
  CHECK(cudaFreeArray(a));
}

// A cubemap (cubes == 1, not layered) or a layered cubemap of `cubes` cubes with 4 x 4 faces.
static void cubemaps(int cubes, bool layered) {
  const int W = 4, faces = 6 * cubes;
  std::vector<float> texels(W * W * faces);
  for (int i = 0; i < W * W * faces; ++i) texels[i] = static_cast<float>(i);
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  const unsigned flags = cudaArrayCubemap | (layered ? cudaArrayLayered : 0);
  CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(W, W, faces), flags));
  write_array(a, texels, W, W, faces);
  std::vector<Direction> dirs;
  std::vector<int> cube_of;
  for (int c = 0; c < cubes; ++c)
    for (const Direction& d : directions()) {
      dirs.push_back(d);
      cube_of.push_back(c);
    }
  const int points = static_cast<int>(dirs.size());
  // Face centres, read with linear filtering: the four middle texels of each face, a quarter each.
  const Direction centres[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (int c = 0; c < cubes; ++c)
    for (const Direction& d : centres) {
      dirs.push_back(d);
      cube_of.push_back(c);
    }
  const int n = static_cast<int>(dirs.size());
  Direction* d_dirs = to_device(dirs);
  int* d_cube = to_device(cube_of);
  float* d_out = nullptr;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  int bad = 0;
  for (cudaTextureFilterMode filter : {cudaFilterModePoint, cudaFilterModeLinear}) {
    const cudaTextureObject_t t = texture_over(a, filter, true);
    if (layered) fetch_cubemap_layered<<<(n + 63) / 64, 64>>>(t, d_dirs, d_cube, d_out, n);
    else fetch_cubemap<<<(n + 63) / 64, 64>>>(t, d_dirs, d_out, n);
    CHECK(cudaGetLastError());
    const std::vector<float> got = to_host(d_out, n);
    const int first = filter == cudaFilterModePoint ? 0 : points;  // linear: the centres only
    for (int i = first; i < n; ++i) {
      int face = 0;
      float s = 0, t = 0;
      reference_face(dirs[i], face, s, t);
      const float* layer = texels.data() + (cube_of[i] * 6 + face) * W * W;
      const float want = filter == cudaFilterModePoint
                             ? layer[clamp_index(static_cast<int>(std::floor(t * W)), W) * W +
                                     clamp_index(static_cast<int>(std::floor(s * W)), W)]
                             : reference_bilinear(layer, W, W, s * W, t * W);
      bad += got[i] != want;
    }
    CHECK(cudaDestroyTextureObject(t));
  }
  report(layered ? "texCubemapLayered over 2 cubes, point and linear" : "texCubemap over 6 faces, point and linear",
         bad);
  CHECK(cudaFree(d_dirs));
  CHECK(cudaFree(d_cube));
  CHECK(cudaFree(d_out));
  CHECK(cudaFreeArray(a));
}

static void surface_layers() {
  const int W = 5, H = 3, L = 4;
  const cudaChannelFormatDesc c = cudaCreateChannelDesc<int>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &c, make_cudaExtent(W, H, L), cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &res));
  stamp_layers<<<L, dim3(W, H)>>>(s, W, H, L);
  CHECK(cudaGetLastError());
  const std::vector<int> got = read_array<int>(a, W, H, L);
  int bad = 0;
  for (int l = 0; l < L; ++l)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) bad += got[(l * H + y) * W + x] != l * 100 + y * 10 + x;
  report("surf2DLayeredwrite over 4 layers, read back with cudaMemcpy3D", bad);
  CHECK(cudaDestroySurfaceObject(s));
  CHECK(cudaFreeArray(a));
}

static void captured_copy() {
  const int W = 6, H = 2, L = 3;
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(W, H, L), cudaArrayLayered));
  write_array(a, std::vector<float>(W * H * L, 0.0f), W, H, L);
  // Page-locked, as a captured copy from host memory needs on a GPU.
  float* layer = nullptr;
  CHECK(cudaMallocHost(&layer, W * H * sizeof(float)));
  for (int i = 0; i < W * H; ++i) layer[i] = 3.0f * i;
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreate(&stream));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(layer, W * sizeof(float), W, H);
  p.dstArray = a;
  p.dstPos = make_cudaPos(0, 0, 2);
  p.extent = make_cudaExtent(W, H, 1);
  p.kind = cudaMemcpyHostToDevice;
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpy3DAsync(&p, stream));
  CHECK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec = nullptr;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  int bad = read_array<float>(a, W, H, L) != std::vector<float>(W * H * L, 0.0f);  // captured, not run
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  const std::vector<float> got = read_array<float>(a, W, H, L);
  for (int i = 0; i < W * H * L; ++i) bad += got[i] != (i >= 2 * W * H ? layer[i - 2 * W * H] : 0.0f);
  report("cudaMemcpy3DAsync into a layered array, captured in a graph", bad);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFreeHost(layer));
  CHECK(cudaFreeArray(a));
}

static void copy_errors() {
  const cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a = nullptr;
  CHECK(cudaMalloc3DArray(&a, &f, make_cudaExtent(4, 4, 2)));
  std::vector<float> host(4 * 4 * 2, 1.0f);
  cudaMemcpy3DParms good = {};
  good.srcPtr = make_cudaPitchedPtr(host.data(), 4 * sizeof(float), 4, 4);
  good.dstArray = a;
  good.extent = make_cudaExtent(4, 4, 2);
  good.kind = cudaMemcpyHostToDevice;
  int bad = 0;
  cudaMemcpy3DParms p = good;
  p.srcArray = a;  // a pointer and an array as the source
  bad += cudaMemcpy3D(&p) != cudaErrorInvalidValue;
  bad += cudaGetLastError() != cudaErrorInvalidValue;
  p = good;
  p.dstPos = make_cudaPos(1, 0, 0);  // one element past the end in x
  bad += cudaMemcpy3D(&p) != cudaErrorInvalidValue;
  p = good;
  p.extent = make_cudaExtent(4, 4, 3);  // one slice too many
  bad += cudaMemcpy3D(&p) != cudaErrorInvalidValue;
  p = good;
  p.kind = cudaMemcpyDeviceToHost;  // the array is the destination
  bad += cudaMemcpy3D(&p) != cudaErrorInvalidMemcpyDirection;
  bad += cudaGetLastError() != cudaErrorInvalidMemcpyDirection;
  bad += cudaGetLastError() != cudaSuccess;
  cudaArray_t cube = nullptr;  // faces not square; layers not a multiple of six
  bad += cudaMalloc3DArray(&cube, &f, make_cudaExtent(4, 3, 6), cudaArrayCubemap) != cudaErrorInvalidValue;
  bad += cudaMalloc3DArray(&cube, &f, make_cudaExtent(4, 4, 7), cudaArrayCubemap | cudaArrayLayered) !=
         cudaErrorInvalidValue;
  bad += cudaGetLastError() != cudaErrorInvalidValue;
  report("cudaMemcpy3D and cubemap shape errors", bad);
  CHECK(cudaFreeArray(a));
}

int main() {
  volume_round_trip();
  layered_2d();
  layered_1d();
  cubemaps(1, false);
  cubemaps(2, true);
  surface_layers();
  captured_copy();
  copy_errors();
  std::printf(failures == 0 ? "PASSED\n" : "FAILED\n");
  return failures == 0 ? 0 : 1;
}
