// Device selection as most CUDA programs copy it from the samples' helper header: pick the GPU
// with the most GFLOPS among those whose compute mode allows use, by cudaDeviceGetAttribute
// (CUDA 13 removed the computeMode property field, so programs ask the attribute). Then every
// attribute number CUDA 13 defines must be answered, and a kernel runs on the chosen device.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void square(int* v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * v[i];
}

// Cores per SM by compute capability (the samples keep such a table; these are the published
// figures for the GPUs lockstep has presets for).
static int cores_per_sm(int major, int minor) {
  if (major == 9 || (major == 8 && minor == 0) || major == 7) return major == 9 ? 128 : 64;
  return major == 2 ? 32 : 128;
}

static int max_gflops_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return -1;
  int best = -1;
  unsigned long long best_perf = 0;
  for (int d = 0; d < count; ++d) {
    int mode = -1, major = 0, minor = 0, sms = 0, clock = 0;
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, d) != cudaSuccess) return -2;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, d) != cudaSuccess) return -2;
    if (cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, d) != cudaSuccess) return -2;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d) != cudaSuccess) return -2;
    if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, d) != cudaSuccess) return -2;
    if (mode == cudaComputeModeProhibited) continue;
    const unsigned long long perf = 1ull * sms * cores_per_sm(major, minor) * clock;
    if (perf > best_perf) best_perf = perf, best = d;
  }
  return best;
}

int main() {
  const int device = max_gflops_device();
  if (device < 0) {
    std::printf("device selection failed (%d)\n", device);
    return 1;
  }
  cudaSetDevice(device);
  std::printf("selected device %d\n", device);

  int refused = 0;
  for (int a = 1; a <= 147; ++a) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), device) != cudaSuccess) {
      std::printf("attribute %d refused\n", a);
      ++refused;
    }
  }
  int past_end = 0;
  const cudaError_t beyond = cudaDeviceGetAttribute(&past_end, static_cast<cudaDeviceAttr>(148), device);
  cudaGetLastError();  // the refusal above is expected; do not let it stick
  std::printf("attributes refused: %d; attribute 148: %s\n", refused, cudaGetErrorName(beyond));

  int mode = -1, overlap = -1, engines = -1, map = -1, pools = -1, ecc = -1, priorities = -1;
  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device);
  cudaDeviceGetAttribute(&overlap, cudaDevAttrGpuOverlap, device);
  cudaDeviceGetAttribute(&engines, cudaDevAttrAsyncEngineCount, device);
  cudaDeviceGetAttribute(&map, cudaDevAttrCanMapHostMemory, device);
  cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device);
  cudaDeviceGetAttribute(&ecc, cudaDevAttrEccEnabled, device);
  cudaDeviceGetAttribute(&priorities, cudaDevAttrStreamPrioritiesSupported, device);
  std::printf("compute mode %d, overlap %d, copy engines %d, map host %d, pools %d, ecc %d, priorities %d\n", mode,
              overlap, engines, map, pools, ecc, priorities);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, device);
  std::printf("texture 1D %d, 2D %dx%d, 3D %dx%dx%d\n", prop.maxTexture1D, prop.maxTexture2D[0], prop.maxTexture2D[1],
              prop.maxTexture3D[0], prop.maxTexture3D[1], prop.maxTexture3D[2]);

  const int n = 1000;
  int host[n];
  for (int i = 0; i < n; ++i) host[i] = i - 500;
  int* d = nullptr;
  cudaMalloc(&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  square<<<(n + 255) / 256, 256>>>(d, n);
  cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(d);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != (i - 500) * (i - 500);
  std::printf("%s\n", refused == 0 && beyond == cudaErrorInvalidValue && wrong == 0 ? "PASSED" : "FAILED");
  return refused == 0 && wrong == 0 ? 0 : 1;
}
