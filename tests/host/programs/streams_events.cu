// Streams and events: two created streams, async copies from pinned memory, one kernel on each
// stream, events recorded around the work, cudaStreamWaitEvent between the streams,
// cudaStreamSynchronize, cudaEventElapsedTime > 0 and cudaStreamQuery/cudaEventQuery.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void scale(int* data, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void add_offset(int* data, int n, int offset) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) data[i] += offset;
}

int main() {
  const int n = 4096;
  int *h_a, *h_b;
  cudaMallocHost(&h_a, n * sizeof(int));
  cudaMallocHost(&h_b, n * sizeof(int));
  for (int i = 0; i < n; ++i) h_a[i] = i, h_b[i] = 2 * i;
  int *d_a, *d_b;
  cudaMalloc(&d_a, n * sizeof(int));
  cudaMalloc(&d_b, n * sizeof(int));

  cudaStream_t s1, s2;
  cudaError_t created = cudaStreamCreate(&s1);
  if (created == cudaSuccess) created = cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t start, mid, stop;
  cudaEventCreate(&start);
  cudaEventCreateWithFlags(&mid, cudaEventDefault);
  cudaEventCreate(&stop);

  cudaEventRecord(start, s1);
  cudaMemcpyAsync(d_a, h_a, n * sizeof(int), cudaMemcpyHostToDevice, s1);
  cudaMemcpyAsync(d_b, h_b, n * sizeof(int), cudaMemcpyHostToDevice, s2);
  scale<<<(n + 127) / 128, 128, 0, s1>>>(d_a, n, 3);
  add_offset<<<4, 256, 0, s2>>>(d_b, n, 7);
  cudaEventRecord(mid, s2);
  cudaStreamWaitEvent(s1, mid, 0);
  add_offset<<<8, 128, 0, s1>>>(d_a, n, -1);
  cudaEventRecord(stop, s1);
  cudaMemcpyAsync(h_a, d_a, n * sizeof(int), cudaMemcpyDeviceToHost, s1);
  cudaMemcpyAsync(h_b, d_b, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaError_t sync1 = cudaStreamSynchronize(s1);
  cudaError_t sync2 = cudaStreamSynchronize(s2);
  cudaError_t synced = cudaEventSynchronize(stop);
  cudaError_t query = cudaStreamQuery(s2);
  cudaError_t event_query = cudaEventQuery(stop);

  float total_ms = 0.0f, first_ms = 0.0f;
  cudaError_t elapsed = cudaEventElapsedTime(&total_ms, start, stop);
  cudaEventElapsedTime(&first_ms, start, mid);

  int bad = 0;
  for (int i = 0; i < n; ++i) bad += (h_a[i] != 3 * i - 1) + (h_b[i] != 2 * i + 7);
  std::printf("create=%s sync=%s,%s event=%s query=%s,%s elapsed=%s\n", cudaGetErrorName(created),
              cudaGetErrorName(sync1), cudaGetErrorName(sync2), cudaGetErrorName(synced), cudaGetErrorName(query),
              cudaGetErrorName(event_query), cudaGetErrorName(elapsed));
  std::printf("h_a[5]=%d h_b[5]=%d mismatches=%d\n", h_a[5], h_b[5], bad);
  std::printf("elapsed > 0: %s, total >= first: %s\n", total_ms > 0.0f ? "yes" : "no",
              total_ms >= first_ms && first_ms > 0.0f ? "yes" : "no");

  cudaEventDestroy(start);
  cudaEventDestroy(mid);
  cudaEventDestroy(stop);
  cudaError_t destroyed = cudaStreamDestroy(s1);
  if (destroyed == cudaSuccess) destroyed = cudaStreamDestroy(s2);
  cudaFree(d_a);
  cudaFree(d_b);
  cudaFreeHost(h_a);
  cudaFreeHost(h_b);
  const bool ok = bad == 0 && created == cudaSuccess && sync1 == cudaSuccess && sync2 == cudaSuccess &&
                  elapsed == cudaSuccess && total_ms > 0.0f && destroyed == cudaSuccess &&
                  cudaGetLastError() == cudaSuccess;
  std::printf(ok ? "PASSED\n" : "FAILED\n");
  return ok ? 0 : 1;
}
