// Pinned host memory: cudaMallocHost and cudaHostAlloc (default and portable flags) buffers as
// copy sources and destinations (sync and async), cudaHostGetFlags, cudaPointerGetAttributes on
// host and device pointers, cudaFreeHost.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void square(const double* in, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

int main() {
  const int n = 777;
  double *h_in = nullptr, *h_out = nullptr;
  cudaError_t a1 = cudaMallocHost(&h_in, n * sizeof(double));
  cudaError_t a2 = cudaHostAlloc(reinterpret_cast<void**>(&h_out), n * sizeof(double), cudaHostAllocPortable);
  for (int i = 0; i < n; ++i) h_in[i] = 0.5 * i, h_out[i] = -1.0;
  double *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(double));
  cudaMalloc(&d_out, n * sizeof(double));
  cudaMemcpy(d_in, h_in, n * sizeof(double), cudaMemcpyHostToDevice);
  square<<<(n + 63) / 64, 64>>>(d_in, d_out, n);
  cudaMemcpyAsync(h_out, d_out, n * sizeof(double), cudaMemcpyDeviceToHost, 0);
  cudaError_t sync = cudaStreamSynchronize(0);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h_out[i] != 0.25 * i * i;

  unsigned int flags = 99;
  cudaError_t f = cudaHostGetFlags(&flags, h_out);
  cudaPointerAttributes host_attr, device_attr;
  cudaError_t p1 = cudaPointerGetAttributes(&host_attr, h_in);
  cudaError_t p2 = cudaPointerGetAttributes(&device_attr, d_out + 3);
  std::printf("alloc=%s,%s sync=%s mismatches=%d h_out[10]=%g\n", cudaGetErrorName(a1), cudaGetErrorName(a2),
              cudaGetErrorName(sync), bad, h_out[10]);
  std::printf("flags=%s portable=%d\n", cudaGetErrorName(f), (flags & cudaHostAllocPortable) != 0);
  std::printf("attributes=%s,%s host type=%d device type=%d device base ok=%d\n", cudaGetErrorName(p1),
              cudaGetErrorName(p2), int(host_attr.type), int(device_attr.type),
              device_attr.devicePointer == d_out + 3);
  cudaError_t f1 = cudaFreeHost(h_in);
  cudaError_t f2 = cudaFreeHost(h_out);
  cudaFree(d_in);
  cudaFree(d_out);
  const bool ok = bad == 0 && a1 == cudaSuccess && a2 == cudaSuccess && sync == cudaSuccess && f1 == cudaSuccess &&
                  f2 == cudaSuccess && p1 == cudaSuccess && host_attr.type == cudaMemoryTypeHost &&
                  device_attr.type == cudaMemoryTypeDevice;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
