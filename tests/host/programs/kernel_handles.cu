// CUDA 12's kernel handles and the array-to-array copies, used as a program would: a kernel's
// cudaKernel_t (cudaGetKernel) launched and queried in place of the kernel, cudaGetFuncBySymbol,
// the parameter layout cudaFuncGetParamInfo reports, cudaKernelSetAttributeForDevice raising the
// dynamic shared memory limit, copies between CUDA arrays (cudaMemcpy2DArrayToArray and the
// deprecated cudaMemcpyArrayToArray) read back through a texture, and the linear 1D texture
// limit. Results are checked against a CPU reference.
#include <cstdio>

#include <cuda_runtime.h>

struct Pair {
  double a;
  char tag;
};

__global__ void scale(float* x, Pair p, int n) {
  extern __shared__ float stage[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) stage[threadIdx.x] = x[i] * static_cast<float>(p.a) + p.tag;
  __syncthreads();
  if (i < n) x[i] = stage[threadIdx.x];
}

__global__ void fetch(cudaTextureObject_t t, float* out, int w, int h) {
  const int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

const char* name(cudaError_t e) { return cudaGetErrorName(e); }

int main() {
  constexpr int kN = 256;
  float host[kN];
  for (int i = 0; i < kN; ++i) host[i] = static_cast<float>(i);
  float* x = nullptr;
  cudaMalloc(&x, sizeof host);
  cudaMemcpy(x, host, sizeof host, cudaMemcpyHostToDevice);

  cudaKernel_t kernel = nullptr;
  cudaFunction_t function = nullptr;
  const cudaError_t got = cudaGetKernel(&kernel, scale);
  const cudaError_t by_symbol = cudaGetFuncBySymbol(&function, reinterpret_cast<const void*>(scale));
  int not_a_kernel = 0;
  cudaKernel_t none = nullptr;
  std::printf("cudaGetKernel: %s, cudaGetFuncBySymbol: %s, of a variable: %s\n", name(got), name(by_symbol),
              name(cudaGetKernel(&none, &not_a_kernel)));
  cudaGetLastError();  // clear the refusal above

  size_t offsets[3] = {}, sizes[3] = {};
  for (int i = 0; i < 3; ++i) cudaFuncGetParamInfo(reinterpret_cast<const void*>(kernel), i, &offsets[i], &sizes[i]);
  size_t past = 0, past_size = 0;
  const cudaError_t fourth = cudaFuncGetParamInfo(reinterpret_cast<const void*>(scale), 3, &past, &past_size);
  std::printf("parameters: (%zu, %zu) (%zu, %zu) (%zu, %zu); a fourth: %s\n", offsets[0], sizes[0], offsets[1], sizes[1],
              offsets[2], sizes[2], name(fourth));
  cudaGetLastError();

  // 64 KiB of dynamic shared memory needs the limit raised, through the handle.
  const size_t big = 64 * 1024;
  void* args[] = {&x, nullptr, nullptr};
  Pair p{2.0, 1};
  int n = kN;
  args[1] = &p;
  args[2] = &n;
  const cudaError_t too_big = cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(2), dim3(128), args, big, 0);
  cudaGetLastError();
  const cudaError_t raised =
      cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(big), 0);
  const cudaError_t launched = cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(2), dim3(128), args, big, 0);
  cudaFuncAttributes attrs = {};
  cudaFuncGetAttributes(&attrs, reinterpret_cast<const void*>(kernel));
  cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (host[i] != static_cast<float>(i) * 2.0f + 1.0f) ++wrong;
  std::printf("64 KiB launch: %s before, raise %s, then %s (limit %d): %d mismatches\n", name(too_big), name(raised),
              name(launched), attrs.maxDynamicSharedSizeBytes, wrong);

  // Arrays: src 16x8 floats i*16+j; copy a 4x3 window to (2,1) of dst, and one whole row.
  constexpr int kW = 16, kH = 8;
  float grid[kW * kH];
  for (int i = 0; i < kW * kH; ++i) grid[i] = static_cast<float>(i);
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t src, dst;
  cudaMallocArray(&src, &desc, kW, kH);
  cudaMallocArray(&dst, &desc, kW, kH);
  cudaMemcpy2DToArray(src, 0, 0, grid, kW * sizeof(float), kW * sizeof(float), kH, cudaMemcpyHostToDevice);
  float zeros[kW * kH] = {};
  cudaMemcpy2DToArray(dst, 0, 0, zeros, kW * sizeof(float), kW * sizeof(float), kH, cudaMemcpyHostToDevice);
  const cudaError_t window = cudaMemcpy2DArrayToArray(dst, 2 * sizeof(float), 1, src, 5 * sizeof(float), 4,
                                                      4 * sizeof(float), 3, cudaMemcpyDeviceToDevice);
  const cudaError_t half_float = cudaMemcpy2DArrayToArray(dst, 2, 1, src, 0, 0, 4 * sizeof(float), 1);
  const cudaError_t from_host = cudaMemcpy2DArrayToArray(dst, 0, 0, src, 0, 0, 4, 1, cudaMemcpyHostToDevice);
  cudaGetLastError();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const cudaError_t row = cudaMemcpyArrayToArray(dst, 0, 7, src, 0, 0, kW * sizeof(float), cudaMemcpyDeviceToDevice);
#pragma GCC diagnostic pop

  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = dst;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  float* out = nullptr;
  cudaMalloc(&out, sizeof grid);
  fetch<<<kH, kW>>>(tex, out, kW, kH);
  float fetched[kW * kH];
  cudaMemcpy(fetched, out, sizeof fetched, cudaMemcpyDeviceToHost);
  int array_wrong = 0;
  for (int y = 0; y < kH; ++y) {
    for (int c = 0; c < kW; ++c) {
      float want = 0.0f;
      if (y >= 1 && y < 4 && c >= 2 && c < 6) want = static_cast<float>((y - 1 + 4) * kW + (c - 2 + 5));
      if (y == 7) want = static_cast<float>(c);
      if (fetched[y * kW + c] != want) ++array_wrong;
    }
  }
  std::printf("array to array: window %s, row %s: %d mismatches; half a float: %s, from the host: %s\n", name(window),
              name(row), array_wrong, name(half_float), name(from_host));

  size_t linear = 0;
  const cudaError_t lin = cudaDeviceGetTexture1DLinearMaxWidth(&linear, &desc, 0);
  int attribute = 0;
  cudaDeviceGetAttribute(&attribute, cudaDevAttrMaxTexture1DLinearWidth, 0);
  std::printf("1D linear texture limit: %s, %s the attribute\n", name(lin),
              linear == static_cast<size_t>(attribute) && linear > 0 ? "equals" : "differs from");

  cudaDestroyTextureObject(tex);
  cudaFreeArray(src);
  cudaFreeArray(dst);
  cudaFree(out);
  cudaFree(x);
  const bool ok = wrong == 0 && array_wrong == 0 && offsets[1] == 8 && sizes[1] == 16;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
