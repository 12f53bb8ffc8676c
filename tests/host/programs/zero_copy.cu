// Host memory seen from the device (zero-copy): kernels read and write pinned memory from
// cudaHostAlloc(mapped) through cudaHostGetDevicePointer, cudaMallocHost memory directly (unified
// addressing), and the program's own memory after cudaHostRegister. Checked against the CPU.
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

__global__ void scale_and_add(float* v, const float* addend, int n, float a) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = a * v[i] + (addend != nullptr ? addend[i] : 0.0f);
}

int main() {
  const int n = 4096;
  int mismatches = 0;
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const cudaError_t device_flags = cudaSetDeviceFlags(cudaDeviceMapHost);
  std::printf("canMapHostMemory %d unifiedAddressing %d setDeviceFlags %s\n", prop.canMapHostMemory,
              prop.unifiedAddressing, cudaGetErrorName(device_flags));

  // 1. Mapped pinned memory through its device pointer.
  float* mapped = nullptr;
  float* mapped_device = nullptr;
  const cudaError_t alloc = cudaHostAlloc(reinterpret_cast<void**>(&mapped), n * sizeof(float), cudaHostAllocMapped);
  const cudaError_t pointer = cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_device), mapped, 0);
  for (int i = 0; i < n; ++i) mapped[i] = static_cast<float>(i);
  scale_and_add<<<(n + 255) / 256, 256>>>(mapped_device, nullptr, n, 2.0f);
  const cudaError_t sync1 = cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) mismatches += mapped[i] != 2.0f * i;
  std::printf("mapped: alloc %s pointer %s same address %d sync %s\n", cudaGetErrorName(alloc),
              cudaGetErrorName(pointer), mapped_device == mapped, cudaGetErrorName(sync1));

  // 2. cudaMallocHost memory passed to the kernel as it is, read as the addend.
  float* plain = nullptr;
  cudaMallocHost(reinterpret_cast<void**>(&plain), n * sizeof(float));
  for (int i = 0; i < n; ++i) plain[i] = 1.0f;
  scale_and_add<<<(n + 255) / 256, 256>>>(mapped, plain, n, 1.0f);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) mismatches += mapped[i] != 2.0f * i + 1.0f;

  // 3. The program's own memory after cudaHostRegister, written by a kernel.
  std::vector<float> own(n, 3.0f);
  const cudaError_t reg = cudaHostRegister(own.data(), n * sizeof(float), cudaHostRegisterMapped);
  const cudaError_t twice = cudaHostRegister(own.data(), n * sizeof(float), cudaHostRegisterMapped);
  cudaGetLastError();
  float* own_device = nullptr;
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&own_device), own.data(), 0);
  scale_and_add<<<(n + 255) / 256, 256>>>(own_device, plain, n, 10.0f);
  const cudaError_t sync3 = cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) mismatches += own[i] != 31.0f;
  cudaPointerAttributes attributes;
  cudaPointerGetAttributes(&attributes, own.data());
  const cudaError_t unreg = cudaHostUnregister(own.data());
  const cudaError_t unreg_again = cudaHostUnregister(own.data());
  cudaGetLastError();
  std::printf("registered: %s, again %s, sync %s, type %d device pointer %d, unregister %s, again %s\n",
              cudaGetErrorName(reg), cudaGetErrorName(twice), cudaGetErrorName(sync3), attributes.type,
              attributes.devicePointer == own.data(), cudaGetErrorName(unreg), cudaGetErrorName(unreg_again));

  cudaFreeHost(mapped);
  cudaFreeHost(plain);
  std::printf("mismatches=%d\n%s\n", mismatches, mismatches == 0 ? "PASSED" : "FAILED");
  return mismatches == 0 ? 0 : 1;
}
